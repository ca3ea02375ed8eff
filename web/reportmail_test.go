package web

import (
	"context"
	"crypto/tls"
	"html"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/notify/mailtest"
	"washboard/internal/reportmail"
)

// withReportMail has the app's server mail client reports through the
// mail server ms, and returns the service, for a test to run its passes.
func (a *app) withReportMail(ms *mailtest.Server) *reportmail.Service {
	a.t.Helper()
	set := notify.SMTPSettings{Host: ms.Host, Port: ms.Port, TLS: notify.StartTLS, User: ms.User, Password: ms.Pass,
		From: "Washboard <reports@washboard.example.com>", Timeout: 5 * time.Second, TLSConfig: &tls.Config{RootCAs: ms.Roots}}
	svc := reportmail.New(a.store, reportmail.Config{Reports: a.deps.Dashboard, SMTP: &set, Zone: time.UTC, Link: "http://washboard.test"}, a.clock,
		slog.New(slog.NewTextHandler(a.logs, nil)))
	a.deps.ReportMail = svc
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
	return svc
}

func scheduleForm(token, cadence, addresses string) url.Values {
	return url.Values{"csrf_token": {token}, "cadence": {cadence}, "addresses": {addresses}}
}

// Without a mail server the page says so and how to set one up, offers
// no form, and a schedule posted anyway is refused in those words.
func TestReportMailWithoutMailSaysHowToSetItUp(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	r := b.get("/reports/client/schedules")
	if r.StatusCode != http.StatusOK || !strings.Contains(r.body, "This server sends no e-mail.") || !strings.Contains(r.body, "--smtp-url") ||
		strings.Contains(r.body, `name="addresses"`) {
		t.Fatalf("the page without mail: %d\n%s", r.StatusCode, r.body)
	}
	token := b.pageCSRF("/reports/client/schedules")
	r = b.post("/reports/client/schedules", scheduleForm(token, "weekly", "ops@client.example"))
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "cannot be mailed") {
		t.Errorf("a schedule without mail: %d\n%s", r.StatusCode, r.body)
	}
	if list, _ := a.store.ReportSchedules(context.Background(), a.accountOf(false)); len(list) != 0 {
		t.Errorf("schedules kept without mail: %+v", list)
	}
}

// An admin adds a schedule (a bad one is refused in words, as typed), it
// is sent when due and the sending listed; removed, it is gone, its
// sending still listed; both changes are in the audit log.
func TestReportSchedulesAreAddedSentAndRemoved(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ms := mailtest.Start(t, mailtest.Options{})
	svc := a.withReportMail(ms)
	b := a.browser()
	b.signIn(credA)
	if r := b.get("/reports/client"); !strings.Contains(r.body, `href="/reports/client/schedules"`) {
		t.Errorf("the client report does not link to its schedules for an owner")
	}
	token := b.pageCSRF("/reports/client/schedules")
	for _, c := range []struct{ cadence, addresses, words string }{
		{"weekly", "ops@client.example, the boss", "“the boss” is not an e-mail address such as ops@client.example."},
		{"daily", "ops@client.example", "Every"},
		{"weekly", "", "Give at least one address"},
	} {
		r := b.post("/reports/client/schedules", scheduleForm(token, c.cadence, c.addresses))
		if body := html.UnescapeString(r.body); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, c.words) ||
			!strings.Contains(body, ">"+c.addresses+"</textarea>") {
			t.Errorf("%s to %q: %d, want 422 saying %q", c.cadence, c.addresses, r.StatusCode, c.words)
		}
	}
	if r := b.post("/reports/client/schedules", scheduleForm(token, "weekly", "ops@client.example")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a schedule: %d\n%s", r.StatusCode, r.body)
	}
	page := html.UnescapeString(b.get("/reports/client/schedules?saved=1").body)
	for _, want := range []string{"The schedule was added.", "Every week (Monday to Sunday), sent on Monday at 06:00", "ops@client.example", "Nothing was sent yet."} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}

	a.clock.Set(time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC))
	svc.Pass(context.Background())
	if mails := ms.Received(); len(mails) != 1 || strings.Join(mails[0].To, ",") != "ops@client.example" {
		t.Fatalf("mails %+v", mails)
	}
	page = html.UnescapeString(b.get("/reports/client/schedules").body)
	for _, want := range []string{"16 Nov 2026 – 22 Nov 2026", "Weekly to ops@client.example", "23 Nov 2026 06:00", "1 address", "Sent", "1 attempt"} {
		if !strings.Contains(page, want) {
			t.Errorf("the sending does not say %q", want)
		}
	}

	list, err := a.store.ReportSchedules(context.Background(), a.accountOf(false))
	if err != nil || len(list) != 1 {
		t.Fatalf("schedules %+v, %v", list, err)
	}
	remove := "/reports/client/schedules/" + list[0].ID + "/remove"
	if r := b.post(remove, url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing: %d", r.StatusCode)
	}
	page = html.UnescapeString(b.get("/reports/client/schedules?removed=1").body)
	if !strings.Contains(page, "No report is mailed yet.") || !strings.Contains(page, "A schedule since removed") {
		t.Errorf("after removing, the page:\n%s", page)
	}
	if r := b.post(remove, url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("removing it again: %d, want 404", r.StatusCode)
	}
	for _, action := range []domain.AuditAction{domain.AuditReportScheduleAdded, domain.AuditReportScheduleRemoved} {
		entries, err := a.store.AuditEntries(context.Background(), domain.AuditFilter{Account: a.accountOf(false), Action: action})
		if err != nil || len(entries) != 1 {
			t.Errorf("%s in the audit log: %+v, %v", action, entries, err)
		}
	}
}

// An admin changes a schedule in place: its form comes filled, a bad
// change is refused in words with the form as typed and nothing changed,
// a good one keeps the schedule's id and is in the audit log; a schedule
// of no such id is a 404, and a supervisor may not change one.
func TestAReportScheduleIsChangedInPlace(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.withReportMail(mailtest.Start(t, mailtest.Options{}))
	b := a.browser()
	b.signIn(credA)
	token := b.pageCSRF("/reports/client/schedules")
	if r := b.post("/reports/client/schedules", scheduleForm(token, "weekly", "ops@client.example")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a schedule: %d\n%s", r.StatusCode, r.body)
	}
	ctx := context.Background()
	list, err := a.store.ReportSchedules(ctx, a.accountOf(false))
	if err != nil || len(list) != 1 {
		t.Fatalf("schedules %+v, %v", list, err)
	}
	path := "/reports/client/schedules/" + list[0].ID
	if got := b.get("/reports/client/schedules").doc(t).Find(`a[href="` + path + `"]`).Length(); got != 1 {
		t.Errorf("the list has %d links to change the schedule; want 1", got)
	}
	edit := b.get(path)
	doc := edit.doc(t)
	if edit.StatusCode != http.StatusOK || doc.Find(`form[action="`+path+`"]`).Length() != 1 ||
		strings.TrimSpace(doc.Find("#rm-addresses").Text()) != "ops@client.example" ||
		doc.Find(`input[name=cadence][value=weekly][checked]`).Length() != 1 || !strings.Contains(doc.Find("h2").Text(), "Change the schedule") {
		t.Fatalf("the form to change the schedule: %d\n%s", edit.StatusCode, edit.text(t))
	}

	bad := scheduleForm(token, "weekly", "ops@client.example, the boss")
	r := b.post(path, bad)
	if body := html.UnescapeString(r.body); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "The schedule was not changed.") ||
		!strings.Contains(body, "“the boss” is not an e-mail address") || r.doc(t).Find(`form[action="`+path+`"]`).Length() != 1 ||
		!strings.Contains(body, ">ops@client.example, the boss</textarea>") {
		t.Errorf("a bad change: %d\n%s", r.StatusCode, r.text(t))
	}
	if got, _ := a.store.ReportSchedules(ctx, a.accountOf(false)); strings.Join(got[0].Addresses, ",") != "ops@client.example" {
		t.Errorf("after a bad change the schedule mails %q", got[0].Addresses)
	}

	good := scheduleForm(token, "weekly", "ops@client.example, boss@client.example")
	good.Set("language", "de")
	if r := b.post(path, good); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/reports/client/schedules?changed=1" {
		t.Fatalf("changing the schedule: %d %s\n%s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	if page := b.get("/reports/client/schedules?changed=1").text(t); !strings.Contains(page, "The schedule was changed.") ||
		!strings.Contains(page, "ops@client.example, boss@client.example") || !strings.Contains(page, "Deutsch") {
		t.Errorf("the page after the change:\n%s", page)
	}
	after, err := a.store.ReportSchedules(ctx, a.accountOf(false))
	if err != nil || len(after) != 1 || after[0].ID != list[0].ID || after[0].Language != "de" || len(after[0].Addresses) != 2 {
		t.Errorf("schedules after the change: %+v, %v; want the one, changed", after, err)
	}
	if entries, err := a.store.AuditEntries(ctx, domain.AuditFilter{Account: a.accountOf(false), Action: domain.AuditReportScheduleChanged}); err != nil || len(entries) != 1 {
		t.Errorf("the change in the audit log: %+v, %v", entries, err)
	}

	if r := b.get("/reports/client/schedules/nosuchschedule"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the form of no such schedule: %d, want 404", r.StatusCode)
	}
	if r := b.post("/reports/client/schedules/nosuchschedule", good); r.StatusCode != http.StatusNotFound {
		t.Errorf("changing no such schedule: %d, want 404", r.StatusCode)
	}
	sup := a.browserAs(domain.Supervisor, "Sue")
	if r := sup.get(path); r.StatusCode != http.StatusForbidden {
		t.Errorf("a supervisor opening the form: %d, want 403", r.StatusCode)
	}
	if r := sup.post(path, scheduleForm(sup.pageCSRF("/"), "monthly", "sue@client.example")); r.StatusCode != http.StatusForbidden {
		t.Errorf("a supervisor changing the schedule: %d, want 403", r.StatusCode)
	}
	if got, _ := a.store.ReportSchedules(ctx, a.accountOf(false)); got[0].Cadence != "weekly" {
		t.Errorf("after a supervisor's try the schedule is %s", got[0].Cadence)
	}
}
