package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/notifier"
	"washboard/internal/rules"
	"washboard/internal/sim"
)

// hookReceiver is a webhook's receiver that answers every delivery with
// its status and keeps what it got.
type hookReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newHookReceiver(t *testing.T, status int) *hookReceiver {
	h := &hookReceiver{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.bodies = append(h.bodies, string(body))
		h.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookReceiver) received() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.bodies...)
}

// postHX sends a form as htmx does.
func (b *browser) postHX(path string, form url.Values) response {
	req, _ := http.NewRequest(http.MethodPost, b.a.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	return b.do(req)
}

// addChannel sends the channel form with the page's token.
func (b *browser) addChannel(form url.Values) response {
	form.Set("csrf_token", b.pageCSRF("/notifications"))
	return b.post("/notifications/channels", form)
}

// addRule sends the rule form with the page's token.
func (b *browser) addRule(form url.Values) response {
	form.Set("csrf_token", b.pageCSRF("/notifications"))
	return b.post("/notifications/rules", form)
}

// webhookChannel is the channel form of a webhook to u.
func webhookChannel(name, u string) url.Values {
	return url.Values{"name": {name}, "kind": {"webhook"}, "url": {u}, "format": {"json"}}
}

// useNotifications gives the app a notifier of this configuration (the
// --notifications file, the mail server), as the server is started.
func (a *app) useNotifications(cfg notifier.Config) {
	a.t.Helper()
	a.notifier = a.newNotifier(cfg, a.deps.Keys)
	a.deps.Notifications = a.notifier
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
}

var newSecretInput = regexp.MustCompile(`id="new-channel-secret"[^>]*value="(whsec_[A-Za-z0-9+/=]+)"`)

func TestNotificationsPageAddsAChannelAndARuleAndNeverShowsTheSecretAgain(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	hook := newHookReceiver(t, http.StatusOK)
	const path = "/incoming/T000-path-secret-B000"

	form := webhookChannel("Ops chat", hook.URL+path)
	form.Set("format", "slack")
	form.Set("generate_secret", "1")
	r := b.addChannel(form)
	m := newSecretInput.FindStringSubmatch(r.body)
	if r.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("adding a webhook channel with a secret made for it = %d, no secret shown:\n%s", r.StatusCode, r.doc(t).Find("main").Text())
	}
	secret := m[1]
	if got := r.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("the page showing the secret has Cache-Control %q, want no-store", got)
	}

	building := acc.Buildings[0]
	floor := building.Floors[0]
	r = b.addRule(url.Values{"name": {"Out of product"}, "when": {"alert.opened"}, "alert_type": {"consumable_out", "jam_fault"},
		"where": {"floor:" + floor.ID}, "quiet_from": {"22:00"}, "quiet_to": {"06:00"}, "quiet_during": {"drop"},
		"digest_minutes": {"30"}, "channel": {"Ops chat"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/notifications" {
		t.Fatalf("adding a rule = %d, Location %q:\n%s", r.StatusCode, r.Header.Get("Location"), r.doc(t).Find("[role=alert]").Text())
	}

	page := b.get("/notifications")
	if page.StatusCode != http.StatusOK {
		t.Fatalf("GET /notifications = %d", page.StatusCode)
	}
	for what, leak := range map[string]string{"the secret": secret, "the secret's key": strings.TrimPrefix(secret, "whsec_"), "the webhook's path": path} {
		if strings.Contains(page.body, leak) {
			t.Errorf("the page shows %s after the one time", what)
		}
	}
	doc := page.doc(t)
	if got := strings.TrimSpace(doc.Find(".flash").Text()); got != `The rule "Out of product" was added.` {
		t.Errorf("the flash reads %q", got)
	}
	channel := doc.Find(".channels-table tbody tr").First()
	if got := channel.Find("th").Text(); !strings.Contains(got, "Ops chat") {
		t.Errorf("the channel row is named %q", got)
	}
	if got, want := channel.Find(`td[data-label="Sends"]`).Text(), "slack webhook to "+hook.URL+"/…, signed"; got != want {
		t.Errorf("the channel sends %q, want %q", got, want)
	}
	rule := doc.Find(".rules-table tbody tr").First()
	cells := map[string]string{}
	rule.Find("td").Each(func(_ int, td *goquery.Selection) { cells[td.AttrOr("data-label", "")] = strings.TrimSpace(td.Text()) })
	for label, want := range map[string]string{
		"When": "Alert opened", "Alert types": domain.AlertConsumableOut.Label() + ", " + domain.AlertJam.Label(),
		"Where": building.Name + " › " + floor.Name, "Channels": "Ops chat",
		"Quiet hours": `22:00–06:00, "Battery low" and "Offline" dropped, the rest held`, "Digest": "one message 30 min after the first item",
	} {
		if cells[label] != want {
			t.Errorf("the rule's %q reads %q, want %q", label, cells[label], want)
		}
	}
	if got := doc.Find(`.site-nav a[aria-current="page"]`).AttrOr("href", ""); got != "/notifications" {
		t.Errorf("the menu's current item is %q", got)
	}
	// Another account sees none of it.
	other := a.browser()
	other.signIn(credB)
	if tables := other.get("/notifications").doc(t).Find("main table"); tables.Length() != 0 {
		t.Errorf("another account's page lists %q", tables.Text())
	}
	for _, leak := range []string{secret, path} {
		if strings.Contains(a.logs.String(), leak) {
			t.Error("the log holds the webhook's secret or path")
		}
	}
}

func TestNotificationsSendATestAndSayWhatHappened(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	good, broken := newHookReceiver(t, http.StatusOK), newHookReceiver(t, http.StatusInternalServerError)
	for name, u := range map[string]string{"Good": good.URL + "/hook", "Broken": broken.URL + "/hook"} {
		if r := b.addChannel(webhookChannel(name, u)); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("adding %s = %d", name, r.StatusCode)
		}
	}
	token := b.pageCSRF("/notifications")

	r := b.postHX("/notifications/channels/Good/test", url.Values{"csrf_token": {token}})
	if r.StatusCode != http.StatusOK || !strings.Contains(r.body, "accepted the test") || strings.Contains(r.body, "<html") {
		t.Errorf("a test to a receiver answering 200 = %d:\n%s", r.StatusCode, r.body)
	}
	if got := good.received(); len(got) != 1 || !strings.Contains(got[0], `"event":"test"`) {
		t.Errorf("the receiver got %q", got)
	}
	r = b.postHX("/notifications/channels/Broken/test", url.Values{"csrf_token": {token}})
	text := r.doc(t).Text()
	if r.StatusCode != http.StatusOK || !strings.Contains(text, "not delivered") || !strings.Contains(text, "500") {
		t.Errorf("a test to a receiver answering 500 = %d: %q", r.StatusCode, text)
	}
	// Without htmx: back to the page, which says it once.
	r = b.post("/notifications/channels/Broken/test", url.Values{"csrf_token": {token}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/notifications" {
		t.Fatalf("a test without htmx = %d, Location %q", r.StatusCode, r.Header.Get("Location"))
	}
	flash := b.get("/notifications").doc(t).Find(`.flash-failed[role="alert"]`).Text()
	if !strings.Contains(flash, `Test to "Broken"`) || !strings.Contains(flash, "not delivered") {
		t.Errorf("the page after a failed test says %q as a failure", flash)
	}
	if b.get("/notifications").doc(t).Find(".flash").Length() != 0 {
		t.Error("the test's message is shown twice")
	}
	if n := len(broken.received()); n != 2 {
		t.Errorf("the broken receiver got %d requests, want 2", n)
	}
}

func TestNotificationFormsRefuseBadInputNamingTheField(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	hook := newHookReceiver(t, http.StatusOK)
	if r := b.addChannel(webhookChannel("Ops", hook.URL)); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a channel = %d", r.StatusCode)
	}
	rule := func(change map[string]string) url.Values {
		v := url.Values{"name": {"Night shift"}, "when": {"alert.opened"}, "channel": {"Ops"}, "quiet_from": {"22:00"}, "quiet_to": {"06:00"}}
		for k, x := range change {
			v.Set(k, x)
		}
		return v
	}
	email := func(change map[string]string) url.Values {
		v := url.Values{"name": {"Desk"}, "kind": {"email"}, "to": {"desk@example.com"}, "smtp_host": {"mail.example.com"},
			"smtp_user": {"desk"}, "smtp_password": {"pw-hunter2-pw"}, "smtp_from": {"alerts@example.com"}}
		for k, x := range change {
			v.Set(k, x)
		}
		return v
	}
	tests := []struct {
		name     string
		path     string
		form     url.Values
		field    string // the id of the field at fault
		says     string
		kept     map[string]string // selector → value kept
		notShown []string
	}{
		{"a channel without a name", "/notifications/channels", email(map[string]string{"name": ""}), "channel-name", "Name",
			map[string]string{"#channel-to": "desk@example.com", "#channel-smtp-host": "mail.example.com"}, []string{"pw-hunter2-pw"}},
		{"a bad e-mail address", "/notifications/channels", email(map[string]string{"to": "desk@example.com\nnot an address"}), "channel-to", "not an address",
			map[string]string{"#channel-name": "Desk", "#channel-to": "desk@example.com\nnot an address"}, []string{"pw-hunter2-pw"}},
		{"a port that is not a number", "/notifications/channels", email(map[string]string{"smtp_port": "twenty-five"}), "channel-smtp-port", "Port",
			map[string]string{"#channel-smtp-port": "twenty-five", "#channel-smtp-user": "desk"}, []string{"pw-hunter2-pw"}},
		{"a webhook address that is not http", "/notifications/channels", webhookChannel("Chat", "ftp://files.example.com/secret-path-ftp"), "channel-url", "Address",
			map[string]string{"#channel-name": "Chat"}, []string{"secret-path-ftp"}},
		{"a secret that cannot be used", "/notifications/channels", func() url.Values {
			v := webhookChannel("Chat", hook.URL+"/path-kept-out")
			v.Set("secret", "whsec_not-base64!")
			return v
		}(), "channel-secret", "Signing secret", map[string]string{"#channel-name": "Chat"}, []string{"not-base64!", "path-kept-out"}},
		{"a rule without a name", "/notifications/rules", rule(map[string]string{"name": ""}), "rule-name", "Name",
			map[string]string{"#rule-quiet-from": "22:00"}, nil},
		{"a time that is not one", "/notifications/rules", rule(map[string]string{"quiet_to": "25:00"}), "rule-quiet", "Quiet hours",
			map[string]string{"#rule-name": "Night shift", "#rule-quiet-to": "25:00"}, nil},
		{"an unknown alert type", "/notifications/rules", rule(map[string]string{"alert_type": "tissue_on_fire"}), "rule-alert-type", "Alert types", nil, nil},
		{"an unknown building", "/notifications/rules", rule(map[string]string{"where": "building:nowhere"}), "rule-where", "Where",
			map[string]string{"#rule-name": "Night shift"}, nil},
		{"a wait left out", "/notifications/rules", rule(map[string]string{"when": "alert.unclaimed"}), "rule-after-minutes", "After minutes",
			map[string]string{"#rule-name": "Night shift"}, nil},
		{"a digest too short", "/notifications/rules", rule(map[string]string{"digest_minutes": "2"}), "rule-digest-minutes", "Digest minutes",
			map[string]string{"#rule-digest-minutes": "2"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.form.Set("csrf_token", b.pageCSRF("/notifications"))
			r := b.post(tt.path, tt.form)
			if r.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("= %d, want 422", r.StatusCode)
			}
			doc := r.doc(t)
			alert := doc.Find("main [role=alert]")
			if !strings.Contains(alert.Text(), tt.says) || alert.Find(`a[href="#`+tt.field+`"]`).Length() != 1 {
				t.Errorf("the message %q does not say %q or link to #%s", strings.TrimSpace(alert.Text()), tt.says, tt.field)
			}
			field := doc.Find("#" + tt.field)
			problem := doc.Find("#" + tt.field + "-problem")
			if problem.Length() != 1 || !strings.Contains(field.AttrOr("aria-describedby", ""), tt.field+"-problem") {
				t.Errorf("#%s is not described by its problem (aria-describedby %q)", tt.field, field.AttrOr("aria-describedby", ""))
			}
			if field.Is("input, select, textarea") && field.AttrOr("aria-invalid", "") != "true" {
				t.Errorf("#%s is not marked invalid", tt.field)
			}
			for sel, want := range tt.kept {
				got := doc.Find(sel).AttrOr("value", doc.Find(sel).Text())
				if got != want {
					t.Errorf("%s holds %q, want %q as typed", sel, got, want)
				}
			}
			for _, s := range tt.notShown {
				if strings.Contains(r.body, s) {
					t.Errorf("the page shows %q again", s)
				}
			}
		})
	}
	if rows := b.get("/notifications").doc(t).Find(".rules-table, .channels-table tbody tr"); rows.Length() != 1 {
		t.Errorf("the page lists %d channels and rule tables after refused forms, want the one channel", rows.Length())
	}
}

func TestNotificationsRefuseRemovingAChannelARuleUses(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	hook := newHookReceiver(t, http.StatusOK)
	const name = "Ops / night 100%"
	if r := b.addChannel(webhookChannel(name, hook.URL)); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding the channel = %d", r.StatusCode)
	}
	for _, rule := range []string{"Out of product", "Jams"} {
		if r := b.addRule(url.Values{"name": {rule}, "when": {"alert.opened"}, "channel": {name}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("adding the rule %q = %d", rule, r.StatusCode)
		}
	}
	page := b.get("/notifications").doc(t)
	remove := page.Find(`.channels-table form[action$="/remove"]`).AttrOr("action", "")
	if remove == "" {
		t.Fatal("no form to remove the channel")
	}
	token := b.pageCSRF("/notifications")
	r := b.post(remove, url.Values{"csrf_token": {token}})
	msg := r.doc(t).Find("main [role=alert]").Text()
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(msg, `"Out of product" and "Jams"`) {
		t.Errorf("removing a channel two rules use = %d: %q", r.StatusCode, msg)
	}
	if !strings.Contains(b.get("/notifications").doc(t).Find(".channels-table").Text(), name) {
		t.Error("the channel is gone")
	}
	page.Find(`.rules-table form[action$="/remove"]`).Each(func(_ int, f *goquery.Selection) {
		if r := b.post(f.AttrOr("action", ""), url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusSeeOther {
			t.Errorf("removing a rule = %d", r.StatusCode)
		}
	})
	if r := b.post(remove, url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing the channel no rule uses = %d:\n%s", r.StatusCode, r.doc(t).Find("main").Text())
	}
	doc := b.get("/notifications").doc(t)
	if doc.Find(".channels-table, .rules-table").Length() != 0 {
		t.Error("a channel or a rule is still listed")
	}
	if got := strings.TrimSpace(doc.Find(".flash").Text()); got != fmt.Sprintf("The channel %q was removed.", name) {
		t.Errorf("the flash reads %q", got)
	}
	if r := b.post(remove, url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("removing it again = %d, want 404", r.StatusCode)
	}
}

func TestNotificationsShowTheFilesChannelsAndRulesReadOnly(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	acc := a.world.Accounts()[0]
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	file, err := rules.ParseFile(fmt.Appendf(nil, `{"accounts": [{"account_id": %q,
		"channels": [{"name": "Facilities desk", "webhook": {"url": "https://hooks.example.com/services/file-path-secret", "format": "teams", "secret": %q}}],
		"rules": [{"name": "Overdue anywhere", "when": "alert.overdue", "channels": ["Facilities desk"], "building_id": %q}]}]}`,
		acc.ID, secret, acc.Buildings[0].ID))
	if err != nil {
		t.Fatal(err)
	}
	a.useNotifications(notifier.Config{File: file})
	b := a.browser()
	b.signIn(credA)
	r := b.get("/notifications")
	doc := r.doc(t)
	section := doc.Find(`section[aria-labelledby="file-heading"]`)
	if !strings.Contains(section.Text(), "read-only") {
		t.Fatalf("no section of the file's channels and rules that says they are read-only: %q", section.Text())
	}
	channel := section.Find(".channels-table tbody tr")
	if got := channel.Find("th").Text(); !strings.Contains(got, "Facilities desk") || !strings.Contains(got, "from the file") {
		t.Errorf("the file's channel reads %q", got)
	}
	if got := channel.Find(`td[data-label="Sends"]`).Text(); got != "teams webhook to https://hooks.example.com/…, signed" {
		t.Errorf("the file's channel sends %q", got)
	}
	ruleRow := section.Find(".rules-table tbody tr")
	if !strings.Contains(ruleRow.Text(), "Overdue anywhere") || !strings.Contains(ruleRow.Text(), acc.Buildings[0].Name) {
		t.Errorf("the file's rule reads %q", ruleRow.Text())
	}
	if section.Find(`form[action$="/remove"]`).Length() != 0 {
		t.Error("the file's channels or rules can be removed")
	}
	if section.Find(`form[action$="/test"]`).Length() != 1 {
		t.Error("the file's channel cannot be sent a test")
	}
	if got := doc.Find("main p.hint code").Text(); got != acc.ID {
		t.Errorf("the page names the account %q for the file, want %q", got, acc.ID)
	}
	if doc.Find(`#rule-channel input[value="Facilities desk"]`).Length() != 1 {
		t.Error("the rule form does not offer the file's channel")
	}
	for _, leak := range []string{secret, "file-path-secret"} {
		if strings.Contains(r.body, leak) {
			t.Errorf("the page shows %q", leak)
		}
	}
	token := b.pageCSRF("/notifications")
	if r := b.post("/notifications/rules/Overdue%20anywhere/remove", url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("removing the file's rule = %d, want 404", r.StatusCode)
	}
	// A page rule may send to the file's channel; a page channel may not
	// take the file's name.
	if r := b.addRule(url.Values{"name": {"Jams"}, "when": {"alert.opened"}, "channel": {"Facilities desk"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a rule sending to the file's channel = %d", r.StatusCode)
	}
	r = b.addChannel(webhookChannel("Facilities desk", "https://hooks.example.com/x"))
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.doc(t).Find("main [role=alert]").Text(), "notifications file has a channel") {
		t.Errorf("a channel named as the file's = %d: %q", r.StatusCode, r.doc(t).Find("main [role=alert]").Text())
	}
}

func TestNotificationsLogShowsWhatWasSent(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	good, broken := newHookReceiver(t, http.StatusOK), newHookReceiver(t, http.StatusServiceUnavailable)
	for name, u := range map[string]string{"Good": good.URL, "Broken": broken.URL} {
		if r := b.addChannel(webhookChannel(name, u)); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("adding %s = %d", name, r.StatusCode)
		}
	}
	if r := b.addRule(url.Values{"name": {"Everything opened"}, "when": {"alert.opened"}, "channel": {"Good", "Broken"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding the rule = %d", r.StatusCode)
	}
	openAlert(t, a, acc.Rooms[0].Locations[0], "log-alert-1")
	a.notifier.Pass(context.Background())

	doc := b.get("/notifications").doc(t)
	rowOf := func(channel string) map[string]string {
		t.Helper()
		var cells map[string]string
		doc.Find(".channel-log").Each(func(_ int, s *goquery.Selection) {
			if strings.TrimSpace(s.Find("h3").Text()) != channel {
				return
			}
			rows := s.Find("tbody tr")
			if rows.Length() != 1 {
				t.Errorf("the log of %s has %d rows, want 1", channel, rows.Length())
			}
			cells = map[string]string{}
			rows.First().Find("td").Each(func(_ int, td *goquery.Selection) {
				cells[td.AttrOr("data-label", "")] = strings.Join(strings.Fields(td.Text()), " ")
			})
		})
		if cells == nil {
			t.Fatalf("no log of %s", channel)
		}
		return cells
	}
	now := a.clock.Now().UTC().Format("15:04")
	sent := rowOf("Good")
	if sent["What"] != "Alert opened" || sent["Rule"] != "Everything opened" || sent["State"] != "Sent at "+now || sent["Attempts"] != "1" {
		t.Errorf("the log of the channel that took it reads %v", sent)
	}
	if !strings.Contains(sent["Created"], a.clock.Now().UTC().Format("2 Jan 2006 15:04 UTC")) {
		t.Errorf("the notification was created %q", sent["Created"])
	}
	failed := rowOf("Broken")
	if !strings.HasPrefix(failed["State"], "Pending, next attempt at ") || failed["Attempts"] != "1" || !strings.Contains(failed["Note"], "503") {
		t.Errorf("the log of the channel that refused it reads %v", failed)
	}
	if n := len(good.received()); n != 1 {
		t.Errorf("the receiver got %d notifications, want 1", n)
	}
}

// openAlert has the service's event open an alert at the location, as a
// webhook delivery would: a fact for the notifier.
func openAlert(t *testing.T, a *app, loc *sim.Location, id string) {
	t.Helper()
	now := a.clock.Now()
	alert := domain.Alert{ID: id, LocationID: fmt.Sprint(loc.ID), MACs: []string{loc.Devices[0].MAC}, Status: domain.AlertOpen,
		Type: domain.AlertJam, Created: now.Add(-time.Minute)}
	if _, err := a.store.ApplyAlertEvents(context.Background(), a.world.Accounts()[0].ID, []domain.Alert{alert}, now); err != nil {
		t.Fatal(err)
	}
}

func TestNotificationsPageIsAbsentWithoutANotifier(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.deps.Notifications = nil
	s, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	a.handler.Store(s)
	b := a.browser()
	b.signIn(credA)
	if r := b.get("/notifications"); r.StatusCode != http.StatusNotFound {
		t.Errorf("GET /notifications = %d, want 404", r.StatusCode)
	}
	if b.get("/").doc(t).Find(`.site-nav a[href="/notifications"]`).Length() != 0 {
		t.Error("the menu links to /notifications")
	}
}
