package web

import (
	"context"
	"html"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/notify/mailtest"
	"washboard/internal/reportmail"
	"washboard/internal/store"
)

// The reports speak the reader's language: the shift report, the trends
// and the client report with its PDF, the problems their handlers say,
// and the schedules by e-mail, whose new schedule mails in the language
// of whoever made it unless they chose another.
func TestReportsSpeakTheReadersLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ms := mailtest.Start(t, mailtest.Options{})
	svc := a.withReportMail(ms)
	b := a.browser()
	b.signIn(credA)

	for _, p := range [][2]string{ // the first asks for German, which the session keeps
		{"/reports/shift?lang=de", "Schichtbericht"},
		{"/reports/settings", "Schichtzeiten"},
		{"/trends", "Alarme pro Tag"},
		{"/reports/client", "Kundenbericht"},
	} {
		path, want := p[0], p[1]
		r := b.get(path)
		if body := html.UnescapeString(r.body); r.StatusCode != http.StatusOK || !strings.Contains(body, want) || !strings.Contains(body, `<html lang="de"`) {
			t.Errorf("%s in German: %d, without %q", path, r.StatusCode, want)
		}
	}
	for path, want := range map[string]string{
		"/reports/client?month=soon":             `Der Parameter month: "soon" ist kein Monat wie 2026-11.`,
		"/reports/shift?date=2026-11-21&shift=X": `Es gibt keine Schicht namens "X"`,
		"/trends?period=7":                       `Der Parameter period muss 30 oder 90 (Tage) sein, nicht "7"`,
	} {
		if r := b.get(path); r.StatusCode != http.StatusBadRequest || !strings.Contains(html.UnescapeString(r.body), want) {
			t.Errorf("%s: %d, without %q", path, r.StatusCode, want)
		}
	}

	settings := csrfInput.FindStringSubmatch(b.get("/reports/settings").body)[1]
	for shifts, want := range map[string]string{
		"Früh 06:00-14:00, Spät 14:00-25:00": `Die Schichten sind ungültig: Schicht 2: "25:00" ist keine Uhrzeit.`,
		"Früh 06:00-14:00, Früh 14:00-22:00": `Die Schichten sind ungültig: die Schichten 1 und 2 heißen beide "Früh".`,
		"Früh 06:00-14:00, Spät 13:00-22:00": `die Schichten 1 (Früh 06:00-14:00) und 2 (Spät 13:00-22:00) überschneiden sich`,
		"Früh 06:00-14:00, Spät":             `Schicht 2: "Spät" hat keinen Zeitraum`,
	} {
		form := url.Values{"csrf_token": {settings}, "shifts": {shifts}, "zone": {"Europe/Berlin"}}
		if r := b.post("/reports/settings", form); r.StatusCode != http.StatusBadRequest || !strings.Contains(html.UnescapeString(r.body), want) {
			t.Errorf("the shifts %q, in German: %d, without %q", shifts, r.StatusCode, want)
		}
	}

	r := b.get("/reports/client.pdf?month=2026-11")
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.body, "%PDF-") {
		t.Fatalf("the PDF: %d", r.StatusCode)
	}
	if pdftotext, err := exec.LookPath("pdftotext"); err == nil {
		path := filepath.Join(t.TempDir(), "client.pdf")
		must(t, os.WriteFile(path, []byte(r.body), 0o644), "writing the PDF")
		out, err := exec.Command(pdftotext, path, "-").Output()
		must(t, err, "reading the PDF")
		if text := string(out); !strings.Contains(text, "Kundenbericht: "+a.world.Accounts()[0].Name) || !strings.Contains(text, "November 2026") ||
			strings.Contains(text, "Client report") {
			t.Errorf("the PDF of a German reader:\n%s", text)
		}
	}

	page := b.get("/reports/client/schedules").doc(t)
	if got := page.Find("#rm-language option[selected]").AttrOr("value", ""); got != "de" {
		t.Errorf("the language offered for a new schedule is %q; want the reader's, de", got)
	}
	token := b.pageCSRF("/reports/client/schedules")
	if r := b.post("/reports/client/schedules", scheduleForm(token, "weekly", "")); !strings.Contains(html.UnescapeString(r.body), "Geben Sie mindestens eine Adresse") {
		t.Errorf("a schedule without addresses, in German: %d", r.StatusCode)
	}
	bad := scheduleForm(token, "weekly", "ops@client.example")
	bad.Set("language", "pt")
	if r := b.post("/reports/client/schedules", bad); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "de, en, es, fr") {
		t.Errorf("a schedule in Portuguese: %d", r.StatusCode)
	}
	if r := b.post("/reports/client/schedules", scheduleForm(token, "weekly", "ops@client.example")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a schedule: %d", r.StatusCode)
	}
	french := scheduleForm(token, "monthly", "direction@client.example")
	french.Set("language", "fr")
	if r := b.post("/reports/client/schedules", french); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a schedule in French: %d", r.StatusCode)
	}
	list, err := a.store.ReportSchedules(context.Background(), a.accountOf(false))
	if err != nil || len(list) != 2 {
		t.Fatalf("the schedules kept: %+v, %v", list, err)
	}
	for _, rs := range list {
		if want := map[string]string{"weekly": "de", "monthly": "fr"}[rs.Cadence]; rs.Language != want {
			t.Errorf("the %s schedule is kept in %q; want %q", rs.Cadence, rs.Language, want)
		}
	}
	shown := map[string]string{}
	b.get("/reports/client/schedules").doc(t).Find(".report-schedules tbody tr").Each(func(_ int, row *goquery.Selection) {
		shown[strings.TrimSpace(row.Find("td").Eq(1).Text())] = strings.TrimSpace(row.Find("td[lang]").Text())
	})
	if shown["ops@client.example"] != "Deutsch" || shown["direction@client.example"] != "Français" {
		t.Errorf("the schedules' languages on the page: %v", shown)
	}

	a.clock.Set(time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC))
	svc.Pass(context.Background())
	mails := ms.Received()
	if len(mails) != 1 {
		t.Fatalf("%d letters on Monday", len(mails))
	}
	msg, err := mail.ReadMessage(strings.NewReader(string(mails[0].Data)))
	must(t, err, "reading the letter")
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if want := "Kundenbericht: " + a.world.Accounts()[0].Name + ", 16.11.2026 – 22.11.2026"; subject != want {
		t.Errorf("the weekly letter's subject is %q; want %q", subject, want)
	}
	// A sending that failed for Washboard's own reason says so in German.
	var monthly string
	for _, rs := range list {
		if rs.Cadence == "monthly" {
			monthly = rs.ID
		}
	}
	failed, ok, err := a.store.TakeReportSending(context.Background(), a.accountOf(false), store.ReportSending{Schedule: monthly, Period: "2026-10",
		Words: "October 2026", Pending: []string{"direction@client.example"}, NextAttempt: a.clock.Now()}, a.clock.Now(), 3)
	if err != nil || !ok {
		t.Fatalf("taking a sending: %v, %v", ok, err)
	}
	failed.State, failed.Detail, failed.Updated = store.SendingFailed, reportmail.DetailNotMade, a.clock.Now()
	if ok, err := a.store.RecordReportSending(context.Background(), a.accountOf(false), failed); err != nil || !ok {
		t.Fatalf("recording a failed sending: %v, %v", ok, err)
	}
	if sent := html.UnescapeString(b.get("/reports/client/schedules").body); !strings.Contains(sent, "Der Bericht konnte nicht erstellt werden.") ||
		!strings.Contains(sent, "Oktober 2026") || !strings.Contains(sent, "Fehlgeschlagen") {
		t.Errorf("the failed sending is not said in German")
	}
	if sent := html.UnescapeString(b.get("/reports/client/schedules").body); !strings.Contains(sent, "16.11.2026 – 22.11.2026") ||
		!strings.Contains(sent, "Wöchentlich an ops@client.example") || !strings.Contains(sent, "Gesendet") {
		t.Errorf("the sending in German: the page does not say its period, schedule and state")
	}
}
