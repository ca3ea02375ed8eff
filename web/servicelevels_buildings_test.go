package web

import (
	"context"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// buildingAlert is a jam alert the service's events open at a location of
// the building, created ago before now.
func buildingAlert(t *testing.T, a *app, id, building string, ago time.Duration) upstream.Alert {
	t.Helper()
	ctx := context.Background()
	locs, err := a.store.LocationsIn(ctx, a.accountOf(false), building, "", "")
	if err != nil || len(locs) == 0 {
		t.Fatalf("building %s has no location: %v", building, err)
	}
	al := upstream.Alert{ID: id, LocationID: locs[0].ID, Status: upstream.StatusOpen, Type: string(domain.AlertJam), Created: a.clock.Now().Add(-ago)}
	if _, err := a.engine.ApplyAlerts(ctx, a.accountOf(false), []upstream.Alert{al}); err != nil {
		t.Fatal(err)
	}
	return al
}

// buildingRows are the rows of the account's page's buildings, in words.
func buildingRows(t *testing.T, r response) []string {
	t.Helper()
	var out []string
	r.doc(t).Find("#table-building-levels tbody tr").Each(func(_ int, s *goquery.Selection) {
		var cells []string
		s.Find("td").Each(func(_ int, td *goquery.Selection) {
			cells = append(cells, strings.Join(strings.Fields(td.Text()), " "))
		})
		out = append(out, strings.Join(cells, "|"))
	})
	return out
}

// TestBuildingServiceLevel: an admin gives a building its own service
// level on its page, and its alerts are measured against it from then on
// (a 5-minute claim target missed where the account's 15 minutes are
// met); the account's page says which buildings follow it; the building
// goes back to the account's. Each change is in the audit log.
func TestBuildingServiceLevel(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	own, other := acc.Buildings[0], acc.Buildings[1]
	token := b.pageCSRF("/service-levels")
	if r := b.post("/service-levels", serviceLevelForm(token, "always", "", "UTC", "15", "1h")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the account's targets: %d\n%s", r.StatusCode, r.body)
	}
	for _, row := range buildingRows(t, b.get("/service-levels")) {
		if !strings.Contains(row, "The account's") {
			t.Errorf("before any building has its own, a row reads %q", row)
		}
	}
	path := "/service-levels/buildings/" + own.ID
	page := b.get(path)
	if page.StatusCode != http.StatusOK || !strings.Contains(html.UnescapeString(page.body), own.Name+" follows the account's service level.") ||
		page.doc(t).Find("#sl-claim_jam_fault").AttrOr("value", "") != "15" {
		t.Fatalf("the building's page: %d, does not say it follows the account's, or does not start from its 15 min", page.StatusCode)
	}
	if r := b.post(path, serviceLevelForm(b.pageCSRF(path), "always", "", "UTC", "5", "1h")); r.StatusCode != http.StatusSeeOther ||
		r.Header.Get("Location") != path+"?saved=1" {
		t.Fatalf("saving the building's own: %d to %q\n%.500s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	page = b.get(path + "?saved=1")
	if body := html.UnescapeString(page.body); !strings.Contains(body, own.Name+" has its own service level") || !strings.Contains(body, "Saved.") ||
		page.doc(t).Find("#sl-claim_jam_fault").AttrOr("value", "") != "5" {
		t.Errorf("after saving, the building's page does not say it has its own of 5 min")
	}
	rows := strings.Join(buildingRows(t, b.get("/service-levels")), "\n")
	if !strings.Contains(rows, own.Name+"|Its own: always (UTC); Jammed: claim 5 min, resolve 1 h|Change its own : "+own.Name) ||
		!strings.Contains(rows, other.Name+"|The account's|Give it its own : "+other.Name) {
		t.Errorf("the account's page reads:\n%s", rows)
	}

	// Both claimed 10 minutes after they opened: the building's 5 minutes
	// are missed, the account's 15 met.
	now := a.clock.Now()
	inOwn := buildingAlert(t, a, "bl-own", own.ID, 30*time.Minute)
	inOther := buildingAlert(t, a, "bl-other", other.ID, 30*time.Minute)
	claimAt(t, a, inOwn.ID, now.Add(-20*time.Minute))
	claimAt(t, a, inOther.ID, now.Add(-20*time.Minute))
	closeAlert(t, a, inOwn)
	closeAlert(t, a, inOther)
	kept, err := a.store.AlertMeasures(context.Background(), a.accountOf(false), []string{inOwn.ID, inOther.ID})
	if err != nil {
		t.Fatal(err)
	}
	if m := kept[inOwn.ID]; m.Claim.State != "missed" || m.Claim.Target != 5*time.Minute {
		t.Errorf("the alert of the building with its own 5 min: %+v; want its claim missed against 5 min", m.Claim)
	}
	if m := kept[inOther.ID]; m.Claim.State != "met" || m.Claim.Target != 15*time.Minute {
		t.Errorf("the alert of the building following the account's 15 min: %+v; want its claim met", m.Claim)
	}

	r := b.post(path+"/follow", map[string][]string{"csrf_token": {b.pageCSRF(path)}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != path+"?followed=1" {
		t.Fatalf("following the account's again: %d to %q", r.StatusCode, r.Header.Get("Location"))
	}
	if body := html.UnescapeString(b.get(path + "?followed=1").body); !strings.Contains(body, own.Name+" follows the account's service level again.") {
		t.Errorf("the building's page does not say it follows the account's again")
	}
	for _, row := range buildingRows(t, b.get("/service-levels")) {
		if !strings.Contains(row, "The account's") {
			t.Errorf("after going back, a row reads %q", row)
		}
	}
	levels, err := a.store.ServiceLevels(context.Background(), a.accountOf(false))
	if _, ok := levels[own.ID]; err != nil || ok || len(levels) != 1 {
		t.Errorf("the building's own service level is still kept: %+v, %v", levels, err)
	}
	entries, err := a.store.AuditEntries(context.Background(), domain.AuditFilter{Account: a.accountOf(false), Action: domain.AuditServiceLevelsChanged})
	var subjects []string
	for _, e := range entries {
		subjects = append(subjects, e.Subject)
	}
	all := strings.Join(subjects, "\n")
	if err != nil || !strings.Contains(all, own.Name+" has its own: always (UTC); Jammed: claim 5 min") || !strings.Contains(all, own.Name+" follows the account's service level") {
		t.Errorf("the audit log reads %q, %v", all, err)
	}
}

// TestBuildingServiceLevelRefused: a building's service level that makes
// no sense is refused as the account's is, in words next to the field,
// everything typed kept and nothing saved; a building of another account
// or a guessed id is 404; a person limited to some buildings sees and
// changes theirs only; staff may not.
func TestBuildingServiceLevelRefused(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	own, other := acc.Buildings[0], acc.Buildings[1]
	path := "/service-levels/buildings/" + own.ID
	token := b.pageCSRF(path)
	for _, c := range []struct {
		week, holidays, claim, resolve string
		field, want                    string
	}{
		{"Mon-Fri 06:00-22:00", "", "-5", "60", "claim_jam_fault", "negative"},
		{"Mon-Fri 06:00-22:00", "", "60", "15", "resolve_jam_fault", "shorter than the time to claim"},
		{"Mon-Fri 06:00-14:00, 12:00-22:00", "", "15", "60", "week", "overlap"},
		{"Mon 08:00-08:00", "", "15", "60", "week", "covers no time"},
		{"Mon-Sun closed", "", "15", "60", "week", "closed every day"},
		{"Mon-Fri 06:00-22:00", "2026-02-30", "15", "60", "holidays", "2026-02-30"},
	} {
		r := b.post(path, serviceLevelForm(token, c.week, c.holidays, "UTC", c.claim, c.resolve))
		body := html.UnescapeString(r.body)
		doc := r.doc(t)
		problem := doc.Find("#sl-" + c.field + "-problem").Text()
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(problem, c.want) || doc.Find("#sl-"+c.field).AttrOr("aria-invalid", "") != "true" {
			t.Errorf("%+v: %d, the field %s says %q; want 422 saying %q", c, r.StatusCode, c.field, problem, c.want)
		}
		if !strings.Contains(body, ">"+c.week+"</textarea>") || !strings.Contains(body, ">"+c.holidays+"</textarea>") ||
			doc.Find(`#sl-claim_jam_fault`).AttrOr("value", "") != c.claim || doc.Find(`#sl-resolve_jam_fault`).AttrOr("value", "") != c.resolve ||
			!strings.Contains(body, "Service level of "+own.Name) {
			t.Errorf("%+v: the building's form did not keep what was typed", c)
		}
	}
	if levels, err := a.store.ServiceLevels(context.Background(), a.accountOf(false)); err != nil || len(levels) != 0 {
		t.Errorf("refused settings were kept: %+v, %v", levels, err)
	}

	otherAccount := a.world.Accounts()[1].Buildings[0].ID
	for _, id := range []string{otherAccount, "no-such-building"} {
		p := "/service-levels/buildings/" + id
		if r := b.get(p); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
		if r := b.post(p, serviceLevelForm(token, "always", "", "UTC", "5", "")); r.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s: %d, want 404", p, r.StatusCode)
		}
		if r := b.post(p+"/follow", map[string][]string{"csrf_token": {token}}); r.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s/follow: %d, want 404", p, r.StatusCode)
		}
	}
	if levels, err := a.store.ServiceLevels(context.Background(), a.accountOf(true)); err != nil || len(levels) != 0 {
		t.Errorf("the other account's service levels changed: %+v, %v", levels, err)
	}

	b.limitTo(other.ID)
	page := b.get("/service-levels")
	rows := strings.Join(buildingRows(t, page), "\n")
	if strings.Contains(rows, own.Name) || !strings.Contains(rows, other.Name) {
		t.Errorf("a person limited to %s sees the rows:\n%s", other.Name, rows)
	}
	if doc := page.doc(t); doc.Find(`form[action="/service-levels"]`).Length() != 0 ||
		!strings.Contains(doc.Find("#sl-account-locked").Text(), "only a person who sees every building changes it") {
		t.Errorf("a person limited to some buildings is offered the account's form")
	}
	if r := b.post("/service-levels", serviceLevelForm(token, "always", "", "UTC", "5", "")); r.StatusCode != http.StatusForbidden ||
		!strings.Contains(html.UnescapeString(r.body), "Give your buildings their own instead.") {
		t.Errorf("a person limited to some buildings saves the account's service level: %d", r.StatusCode)
	}
	if r := b.get(path); r.StatusCode != http.StatusNotFound {
		t.Errorf("a person limited to another building opens %s: %d, want 404", path, r.StatusCode)
	}
	if r := b.post(path, serviceLevelForm(token, "always", "", "UTC", "5", "")); r.StatusCode != http.StatusNotFound {
		t.Errorf("a person limited to another building saves %s: %d, want 404", path, r.StatusCode)
	}
	mine := "/service-levels/buildings/" + other.ID
	if r := b.post(mine, serviceLevelForm(token, "always", "", "UTC", "5", "")); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a person limited to %s saves its level: %d", other.Name, r.StatusCode)
	}
	if levels, err := a.store.ServiceLevels(context.Background(), a.accountOf(false)); err != nil || len(levels) != 1 || levels[other.ID].Building != other.ID {
		t.Errorf("after a limited person's changes the levels are %+v, %v; want their building's alone", levels, err)
	}
	staff := a.browserAs(domain.Staff, "Maria")
	if r := staff.get(mine); r.StatusCode != http.StatusForbidden {
		t.Errorf("staff open a building's service level: %d, want 403", r.StatusCode)
	}
}
