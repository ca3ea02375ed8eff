package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notify/mailtest"
	"washboard/internal/store"
)

// TestBrowserEveryPageInEveryLanguage opens every kind of page, signed
// out and signed in as an owner of the account, in every language on a
// 360 px phone with the menu open: no page needs sideways scrolling
// (German's long words included) and axe-core finds nothing (<html lang>
// and the languages' own names among its checks). Then every page once
// more in the dark theme on a 1024 px laptop in German, for axe-core's
// contrast checks there, and that none is wider than the laptop. The owners are
// owners of the account's organisation too, so that its pages show it. Each language, and the dark theme, has a tab and a session of its
// own, and they run at once: a page's scripts and axe-core keep one core
// busy per tab.
func TestBrowserEveryPageInEveryLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.withReportMail(mailtest.Start(t, mailtest.Options{}))
	acc := a.world.Accounts()[0]
	check := func(t *testing.T, ctx context.Context, path string, skip ...string) {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+path), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+path)
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const m = document.querySelector(".site-menu"); if (m) m.open = true; return true })()`))
		must(t, err, "opening the menu of "+path)
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
		must(t, err, "measuring "+path)
		lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
		must(t, err, "reading the language of "+path)
		if over > 0 {
			t.Errorf("%s in %s is %d px wider than a 360 px phone", path, lang, over)
		}
		// On a phone a table's row is a card whose cells carry their
		// column's name: a name of several lines must fit in its cell,
		// not run into the next.
		cramped, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const probe = document.createElement('div'), out = [];
			probe.style.cssText = 'position: absolute; visibility: hidden; width: 7.5rem; font-weight: 700';
			document.body.append(probe);
			for (const td of document.querySelectorAll('.data-table td[data-label]')) {
				const s = getComputedStyle(td);
				if (s.display === 'table-cell' || td.offsetParent === null) continue;
				probe.style.fontSize = s.fontSize; probe.style.lineHeight = s.lineHeight;
				probe.textContent = td.dataset.label;
				if (probe.offsetHeight > td.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom) + 1) out.push(td.dataset.label);
			}
			probe.remove();
			return [...new Set(out)];
		})()`))
		must(t, err, "measuring the cells of "+path)
		if len(cramped) > 0 {
			t.Errorf("%s in %s: the cells named %q are shorter than their names", path, lang, cramped)
		}
		for _, v := range axeViolationsBut(t, ctx, skip...) {
			t.Errorf("axe on %s (%s): %s", path, lang, v)
		}
	}
	// The sign-in pages, then signing in, in a subtest whose tab closes
	// before the languages' tabs open: an idle tab would keep one of the
	// browserSlots from them.
	signedIn := t.Run("sign-in", func(t *testing.T) {
		ctx := newChrome(t, 1280, 900)
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
		for _, l := range i18n.Languages {
			check(t, ctx, "/signin?lang="+l.Code)
			check(t, ctx, "/signin/email")
		}
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin?lang=en"),
			chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
			chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
		loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
		a.clock.BlockUntil(1)
		// The sync's progress page goes on to the overview by itself: a
		// page opened before it does would be cut off.
		must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	})
	if !signedIn {
		return
	}

	// One open alert claimed, one not: the alerts page shows both kinds of
	// "who is on it", and the claim page its form with a claim. An
	// organisation of the account: its page, the portfolio and its
	// reports. Another person, for the people's pages.
	claimed := a.anOpenAlert()
	if _, err := a.deps.Dashboard.Claim(context.Background(), acc.ID, domain.EveryBuilding(), claimed.ID, dashboard.NewClaim{Name: "Maria", Note: "on my way with rolls"}); err != nil {
		t.Fatal(err)
	}
	keyHolder := a.owner(acc.ID)
	if _, err := a.people.CreateOrganisation(context.Background(), keyHolder, "Shine Services"); err != nil {
		t.Fatal(err)
	}
	a.browserAs(domain.Staff, "Maximiliane Oberhauser-Wendelstein")
	// A schedule of the report by e-mail, for its list and its form.
	if err := a.store.AddReportSchedule(context.Background(), acc.ID, store.ReportSchedule{ID: "weekly1", Cadence: "weekly",
		Addresses: []string{"facilities@client.example", "jo.smith@client.example"}, Created: a.clock.Now(), CreatedBy: "Owner"}, 20); err != nil {
		t.Fatal(err)
	}
	room := acc.Rooms[0]
	pages := []string{
		"/",
		"/alerts",
		"/alerts/" + claimed.ID + "/claim?back=/alerts",
		"/buildings/" + acc.Buildings[0].ID,
		"/floors/" + room.Floor.ID + "?health=ok",
		"/rooms/" + room.ID,
		"/locations/" + fmt.Sprint(room.Locations[0].ID),
		"/search?q=" + strings.ReplaceAll(room.Locations[0].Name, " ", "+"),
		"/alerts?status=closed",
		"/alerts?status=all&resolution=resolved_by_offline",
		"/no/such/page",
		"/alerts?from=yesterday",
		"/reports/shift?date=2026-11-17&shift=Late",
		"/reports/shift?date=2026-11-18&shift=Early", // who handled what, by person
		"/reports/shift?date=2026-13-01",
		"/reports/settings",
		"/reports/client?month=2026-11",
		"/reports/client/schedules",
		"/reports/client/schedules/weekly1",
		"/trends",
		"/me",
		"/my",
		"/offline",
		"/notifications",
		"/webhooks",
		"/service-levels",
		"/service-levels/buildings/" + acc.Buildings[0].ID,
		"/screens",
		"/people",
		"/people/devices",
		"/audit",
		"/account",
		"/account/disconnect",
		"/accounts",
		"/organisation",
		"/portfolio",
		"/portfolio/search?q=" + strings.ReplaceAll(room.Name, " ", "+"),
		"/portfolio/screens",
		"/portfolio/reports/shift",
		"/portfolio/trends",
	}
	// An owner's session for each tab, so that each tab's choice of
	// language stays its own. They are made here, by the test
	// that owns the app.
	base, _ := url.Parse(a.srv.URL)
	// Each is an owner of the organisation too, so that its pages are
	// the organisation's, not "You belong to no organisation".
	owners := map[string][]*http.Cookie{}
	for _, name := range append(i18n.Codes(), "dark") {
		email := "owner." + name + "@client.example"
		b := a.browser()
		if r := b.accept(a.invite(acc.ID, domain.Owner, email), "Owner "+name); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("accepting an invitation: %d\n%s", r.StatusCode, r.body)
		}
		if _, err := a.people.PutOrganisationPerson(context.Background(), keyHolder.PersonID, email, domain.Owner, nil); err != nil {
			t.Fatal(err)
		}
		owners[name] = b.client.Jar.Cookies(base)
	}
	ownerTab := func(t *testing.T, name string, width, height int) context.Context {
		t.Helper()
		tab := newChrome(t, width, height)
		for _, ck := range owners[name] {
			_, err := chromedp.Call(tab, network.SetCookie, network.SetCookieParams{Name: ck.Name, Value: ck.Value, URL: a.srv.URL + "/"})
			must(t, err, "handing the owner's session to the browser")
		}
		return tab
	}
	for i, l := range i18n.Languages {
		t.Run(l.Code, func(t *testing.T) {
			t.Parallel()
			// A tab of its own, whose time runs from when it opens: the
			// subtests wait for their turn after the set-up.
			tab, skip := ownerTab(t, l.Code, 360, 740), []string(nil)
			if i > 0 {
				// Colours do not change with the language: the second and
				// later languages skip axe-core's contrast checks, its slowest.
				skip = []string{"color-contrast"}
			}
			must(t, chromedp.Do(tab, chromedp.EmulateViewport(360, 740)), "emulating a phone")
			must(t, chromedp.Do(tab, chromedp.Navigate(a.srv.URL+"/me?lang="+l.Code)), "choosing "+l.Name)
			for _, p := range pages {
				check(t, tab, p, skip...)
			}
		})
	}
	t.Run("dark", func(t *testing.T) {
		t.Parallel()
		// A small laptop's width, in German, whose long words make the
		// widest tables.
		tab := ownerTab(t, "dark", 1024, 768)
		_, err := chromedp.Call(tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		must(t, err, "emulating the dark theme")
		must(t, chromedp.Do(tab, chromedp.Navigate(a.srv.URL+"/me?lang=de")), "choosing German")
		for _, p := range pages {
			must(t, chromedp.Do(tab, chromedp.Navigate(a.srv.URL+p), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+p)
			over, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
			must(t, err, "measuring "+p)
			if over > 0 {
				t.Errorf("%s is %d px wider than a 1024 px laptop", p, over)
			}
			checkAxe(t, tab, p+" (dark)")
		}
	})
}
