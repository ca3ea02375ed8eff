package web

import (
	"context"
	"html"
	"mime"
	"net/http"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"washboard/internal/notify/mailtest"
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

	for path, want := range map[string]string{
		"/reports/shift?lang=de": "Schichtbericht",
		"/reports/settings":      "Schichtzeiten",
		"/trends":                "Alarme pro Tag",
		"/reports/client":        "Kundenbericht",
	} {
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
	if err != nil || len(list) != 2 || list[0].Language != "de" || list[1].Language != "fr" {
		t.Fatalf("the schedules kept: %+v, %v", list, err)
	}
	langs := b.get("/reports/client/schedules").doc(t).Find(".report-schedules td[lang]")
	if langs.Length() != 2 || strings.TrimSpace(langs.Eq(0).Text()) != "Deutsch" || strings.TrimSpace(langs.Eq(1).Text()) != "Français" {
		t.Errorf("the schedules' languages on the page: %q", langs.Text())
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
	if sent := html.UnescapeString(b.get("/reports/client/schedules").body); !strings.Contains(sent, "16.11.2026 – 22.11.2026") ||
		!strings.Contains(sent, "Wöchentlich an ops@client.example") || !strings.Contains(sent, "Gesendet") {
		t.Errorf("the sending in German: the page does not say its period, schedule and state")
	}
}
