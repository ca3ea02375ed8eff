package web

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// serviceLevelForm is the service level form with the hours, holidays and
// zone given, and targets of jam_fault alerts.
func serviceLevelForm(token, week, holidays, zone, claim, resolve string) url.Values {
	return url.Values{"csrf_token": {token}, "week": {week}, "holidays": {holidays}, "zone": {zone},
		"claim_jam_fault": {claim}, "resolve_jam_fault": {resolve}}
}

// slAlert is a jam alert the service's events open at the location, created
// ago before now, and the room to find it in.
func slAlert(t *testing.T, a *app, id string, ago time.Duration) (upstream.Alert, string) {
	t.Helper()
	ctx := context.Background()
	account := a.accountOf(false)
	where := a.anOpenAlert()
	loc, err := a.store.Location(ctx, account, where.LocationID)
	if err != nil {
		t.Fatal(err)
	}
	al := upstream.Alert{ID: id, LocationID: where.LocationID, MacIDs: where.MACs, Status: upstream.StatusOpen,
		Type: string(domain.AlertJam), Created: a.clock.Now().Add(-ago)}
	if _, err := a.engine.ApplyAlerts(ctx, account, []upstream.Alert{al}); err != nil {
		t.Fatal(err)
	}
	return al, loc.RoomID
}

// closeAlert has the service's events close the alert now.
func closeAlert(t *testing.T, a *app, al upstream.Alert) {
	t.Helper()
	al.Status, al.Resolved, al.ResolutionType = upstream.StatusClosed, a.clock.Now(), upstream.ResolvedByUser
	if _, err := a.engine.ApplyAlerts(context.Background(), a.accountOf(false), []upstream.Alert{al}); err != nil {
		t.Fatal(err)
	}
}

func claimAt(t *testing.T, a *app, alertID string, at time.Time) {
	t.Helper()
	if err := a.store.ClaimAlert(context.Background(), a.accountOf(false), domain.Claim{AlertID: alertID, Name: "Maria", At: at}); err != nil {
		t.Fatal(err)
	}
}

// TestServiceLevelsShowOnAlerts: with no targets set nothing shows; once
// an admin sets a jam's targets, an alert claimed late shows missed, one
// claimed within the target met, and an open one near its deadline at
// risk, on the alerts page, the alert's own page and the overview, in
// words. The change is in the audit log.
func TestServiceLevelsShowOnAlerts(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	now := a.clock.Now()
	late, room := slAlert(t, a, "sl-late", 40*time.Minute)
	onTime, _ := slAlert(t, a, "sl-on-time", 30*time.Minute)
	// 13 of its 15 minutes used. The clock stands still from here: a
	// poll would find the service not listing these alerts and close them.
	risky, _ := slAlert(t, a, "sl-risky", 13*time.Minute)
	claimAt(t, a, late.ID, now.Add(-20*time.Minute))   // 20 min after it opened
	claimAt(t, a, onTime.ID, now.Add(-25*time.Minute)) // 5 min after

	list := "/alerts?status=all&room=" + url.QueryEscape(room)
	for _, path := range []string{list, "/", "/alerts/" + risky.ID + "/claim"} {
		if r := b.get(path); strings.Contains(r.body, "Target") || strings.Contains(r.body, "missing a target") {
			t.Errorf("%s speaks of targets before any is set", path)
		}
	}

	token := b.pageCSRF("/service-levels")
	if r := b.post("/service-levels", serviceLevelForm(token, "always", "", "UTC", "15", "1h")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving targets: %d\n%s", r.StatusCode, r.body)
	}
	if r := b.get("/service-levels?saved=1"); !strings.Contains(r.body, `value="15"`) || !strings.Contains(r.body, `value="1h"`) || !strings.Contains(r.body, "Saved.") {
		t.Errorf("the saved form does not show the targets saved")
	}
	closeAlert(t, a, late)
	closeAlert(t, a, onTime)

	body := html.UnescapeString(b.get(list).body)
	for _, want := range []string{"Target missed", "Time to claim: missed (20 min of 15 min)", "Time to claim: met (5 min of 15 min)",
		"Target at risk", "Time to claim: at risk (13 min of 15 min)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the alerts page does not say %q", want)
		}
	}
	claim := html.UnescapeString(b.get("/alerts/" + risky.ID + "/claim").body)
	due := risky.Created.Add(15 * time.Minute).UTC().Format("15:04 on Monday 2 Jan 2006")
	if !strings.Contains(claim, "Target at risk") || !strings.Contains(claim, "Time to claim: at risk, 13 min of 15 min used, due at "+due+".") {
		t.Errorf("the alert's page does not say it is at risk and when it is due:\n%s", claim)
	}
	if r := b.get("/"); !strings.Contains(r.body, "At risk of missing a target") || !strings.Contains(r.body, "Missed a target") {
		t.Errorf("the overview does not count the alerts at risk and missed")
	}
	entries, err := a.store.AuditEntries(context.Background(), domain.AuditFilter{Account: a.accountOf(false), Action: domain.AuditServiceLevelsChanged})
	if err != nil || len(entries) != 1 || !strings.Contains(entries[0].Subject, "Jammed: claim 15 min, resolve 1 h") {
		t.Errorf("the audit log has %+v, %v; want one change naming the targets", entries, err)
	}
}

// TestServiceLevelsClockStopsOutsideHours: an alert opened before the
// service hours begin has used none of its target, and its page says
// where the clock stopped and when it runs again.
func TestServiceLevelsClockStopsOutsideHours(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	token := b.pageCSRF("/service-levels")
	// The test's clock is Wed 18 Nov 2026 09:30 UTC.
	if r := b.post("/service-levels", serviceLevelForm(token, "Mon-Fri 10:00-18:00", "", "UTC", "15", "")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving targets: %d\n%s", r.StatusCode, r.body)
	}
	al, _ := slAlert(t, a, "sl-early", 30*time.Minute)
	claim := html.UnescapeString(b.get("/alerts/" + al.ID + "/claim").body)
	for _, want := range []string{"Within target", "Time to claim: within target, under 1 min of 15 min used, due at 10:15 on Wednesday 18 Nov 2026.",
		"The clock stopped for 30 min: 09:00–09:30 outside service hours. It runs again at 10:00 on Wed 18 Nov."} {
		if !strings.Contains(claim, want) {
			t.Errorf("the page of an alert opened before hours does not say %q", want)
		}
	}
}

// TestServiceLevelsRefusedInWords: settings that make no sense are
// refused with the reason next to the field, 422, and everything typed
// kept; staff may not see the page.
func TestServiceLevelsRefusedInWords(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	token := b.pageCSRF("/service-levels")
	for _, c := range []struct {
		week, holidays, zone, claim, resolve string
		field, want                          string
	}{
		{"Mnday 08:00-12:00", "2026-12-25", "UTC", "15", "60", "week", `"Mnday" is not a day of the week`},
		{"Mon-Fri 06:00-14:00, 12:00-22:00", "", "UTC", "15", "60", "week", "overlap"},
		{"Mon-Sun closed", "", "UTC", "15", "60", "week", "closed every day"},
		{"Mon-Fri 06:00-22:00", "2026-02-30", "UTC", "15", "60", "holidays", "2026-02-30"},
		{"Mon-Fri 06:00-22:00", "", "Mars/Olympus", "15", "60", "zone", `"Mars/Olympus" is not a time zone`},
		{"Mon-Fri 06:00-22:00", "", "UTC", "-5", "60", "claim_jam_fault", "negative"},
		{"Mon-Fri 06:00-22:00", "", "UTC", "60", "15", "resolve_jam_fault", "shorter than the time to claim"},
		{"Mon-Fri 06:00-22:00", "", "UTC", "soon", "", "claim_jam_fault", `"soon" is not a time`},
	} {
		r := b.post("/service-levels", serviceLevelForm(token, c.week, c.holidays, c.zone, c.claim, c.resolve))
		body := html.UnescapeString(r.body)
		doc := r.doc(t)
		problem := doc.Find("#sl-" + c.field + "-problem").Text()
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(problem, c.want) {
			t.Errorf("%+v: %d, the field %s says %q; want 422 saying %q", c, r.StatusCode, c.field, problem, c.want)
		}
		if !strings.Contains(body, ">"+c.week+"</textarea>") || !strings.Contains(body, ">"+c.holidays+"</textarea>") ||
			doc.Find(`#sl-claim_jam_fault`).AttrOr("value", "") != c.claim || doc.Find(`#sl-resolve_jam_fault`).AttrOr("value", "") != c.resolve ||
			doc.Find(`#sl-zone option[selected]`).AttrOr("value", "") != c.zone {
			t.Errorf("%+v: the form did not keep what was typed", c)
		}
	}
	if levels, err := a.store.ServiceLevels(context.Background(), a.accountOf(false)); err != nil || len(levels) != 0 {
		t.Errorf("refused settings were kept: %+v, %v", levels, err)
	}
	staff := a.browserAs(domain.Staff, "Maria")
	if r := staff.get("/service-levels"); r.StatusCode != http.StatusForbidden {
		t.Errorf("staff open the service levels: %d, want 403", r.StatusCode)
	}
}
