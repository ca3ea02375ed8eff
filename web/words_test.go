package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A channel's test that fails says why in the page's language: what the
// receiver answered, in German; the host and status as they are.
func TestChannelTestSaysWhyItFailedInThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	broken := newHookReceiver(t, http.StatusInternalServerError)
	if r := b.addChannel(webhookChannel("Broken", broken.URL+"/hook")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding the channel = %d", r.StatusCode)
	}
	host := strings.TrimPrefix(broken.URL, "http://")
	r := b.postHX("/notifications/channels/Broken/test", url.Values{"csrf_token": {b.pageCSRF("/notifications?lang=de")}})
	want := "Der Test wurde nicht zugestellt: " + host + " antwortete 500 Internal Server Error."
	if got := strings.TrimSpace(r.doc(t).Text()); r.StatusCode != http.StatusOK || got != want {
		t.Errorf("a failed test from the German page = %d: %q; want %q", r.StatusCode, got, want)
	}
}

// Why a service level's clock stopped reads in the page's language: an
// alert opened before the service hours begin, in German and French.
func TestServiceLevelsClockStopsInThePagesLanguage(t *testing.T) {
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
	for lang, want := range map[string]string{
		"de": "Die Uhr stand 30 Min. still: 09:00–09:30 außerhalb der Servicezeiten. Sie läuft am Mi, 18. Nov. um 10:00 wieder an.",
		"fr": "L'horloge s'est arrêtée 30 min\u00a0: 09:00–09:30 hors des heures de service. Elle repart le mer. 18 nov. à 10:00.",
	} {
		got := strings.TrimSpace(b.get("/alerts/" + al.ID + "/claim?lang=" + lang).doc(t).Find(".level-explanation").Text())
		if got != want {
			t.Errorf("in %s the page says %q; want %q", lang, got, want)
		}
	}
}

// The portfolio's shift report says what each account's figures miss in
// the reader's language, as the account's own report does: a day older
// than the cache covers, in German.
func TestPortfolioShiftReportNotesInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	old := a.clock.Now().AddDate(0, 0, -60).Format(time.DateOnly)
	doc := owner.get("/portfolio/reports/shift?lang=de&date=" + old).doc(t)
	gaps := doc.Find(".report-gap").Text()
	if !strings.Contains(gaps, "Dieser Zeitraum ist älter als der Cache") || strings.Contains(gaps, "older than the cache") {
		t.Errorf("the portfolio's report in German says of its gaps %q", gaps)
	}
}
