package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"washboard/internal/forecast"
	"washboard/internal/i18n"
)

// TestAlertsAndPlacesSpeakTheReadersLanguage: the words the handlers give
// the alerts page, the places and the search (titles, breadcrumbs, the
// filters' choices, the refusal of a bad parameter) are in the reader's
// language, as the pages around them.
func TestAlertsAndPlacesSpeakTheReadersLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	floor := acc.Buildings[0].Floors[0].ID

	d := b.get("/alerts?status=all&lang=de").doc(t)
	if got := d.Find("title").Text(); !strings.HasPrefix(got, "Meldungen") {
		t.Errorf("the German alerts page is titled %q", got)
	}
	if got := d.Find(".breadcrumbs a").First().Text(); got != "Übersicht" {
		t.Errorf("the German alerts page's first crumb says %q", got)
	}
	for sel, want := range map[string]string{
		"#filter-building option[value='']":                    "Alle Gebäude",
		"#filter-alert-type option[value=consumable_out]":      "Produkt leer",
		"#filter-status option[value=all]":                     "Offen und geschlossen",
		"#filter-resolution option[value=resolved_by_offline]": "Geschlossen: Gerät ging offline",
		"#filter-alert-runs-out option[value='8h']":            "Binnen 8 Std. (eine Schicht)",
		"#filter-alert-sort option[value='']":                  "Überfällige zuerst, dann älteste",
	} {
		if got := strings.TrimSpace(d.Find(sel).Text()); got != want {
			t.Errorf("German alerts filter %s says %q; want %q", sel, got, want)
		}
	}

	d = b.get("/floors/" + floor + "?lang=es").doc(t)
	for sel, want := range map[string]string{
		"#filter-type option[value=towel]":    "Toallas",
		"#filter-health option[value=action]": "Requiere acción",
		"#filter-sort option[value='']":       "En el orden de las salas",
		"#filter-sort option[value=runs_out]": "Lo que se agota antes",
	} {
		if got := strings.TrimSpace(d.Find(sel).Text()); got != want {
			t.Errorf("Spanish floor filter %s says %q; want %q", sel, got, want)
		}
	}

	r := b.get("/alerts?status=maybe&lang=fr")
	if want := "Le paramètre status doit être open, closed ou all, pas &#34;maybe&#34;"; r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, want) {
		t.Errorf("a bad status in French = %d; want 400 saying %q", r.StatusCode, want)
	}
	r = b.get("/search?lang=de&q=" + url.QueryEscape(strings.Repeat("x", 101)))
	if want := "Der Parameter q ist länger als 100 Zeichen"; r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, want) {
		t.Errorf("a long search in German = %d; want 400 saying %q", r.StatusCode, want)
	}
	if got := b.get("/search?q=x&lang=fr").doc(t).Find("h1").Text(); got != "Rechercher" {
		t.Errorf("the French search is headed %q", got)
	}

	claim := "/alerts/" + a.anOpenAlert().ID + "/claim"
	if got := b.get(claim + "?lang=de").doc(t).Find("title").Text(); !strings.HasPrefix(got, "Wer kümmert sich") {
		t.Errorf("the German claim page is titled %q", got)
	}
	me := a.owner(a.accountOf(false)).PersonID
	r = b.post(claim, url.Values{"csrf_token": {b.pageCSRF(claim)}, "person": {me}, "note": {"Bell\x07"}})
	if want := "Die Notiz enthält Steuerzeichen."; r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, want) {
		t.Errorf("a claim's note of control characters in German = %d; want 422 saying %q", r.StatusCode, want)
	}
}

// TestRunsOutIsSaidInTheReadersLanguage: when a dispenser runs out is
// said with the language's words and units, from the same estimate.
func TestRunsOutIsSaidInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	h := time.Hour
	estimates := map[string]forecast.Estimate{
		"levels": {At: now.Add(3 * h), Earliest: now.Add(2 * h), Latest: now.Add(5 * h), Basis: forecast.FromLevels},
		"soon":   {At: now, Earliest: now, Latest: now.Add(35 * time.Minute), Basis: forecast.FromLevels},
		"alerts": {At: now.Add(72 * h), Earliest: now.Add(30 * h), Latest: now.Add(120 * h), Basis: forecast.FromAlerts},
	}
	for _, c := range []struct{ lang, key, want string }{
		{"en", "levels", "Runs out in about 3 h, between 2 and 5 h"},
		{"en", "soon", "Runs out any time now, within 35 min"},
		{"en", "alerts", "Runs out in roughly 3 days, between 30 h and 5 days"},
		{"de", "levels", "Wird leer in etwa 3 Std., zwischen 2 und 5 Std."},
		{"de", "soon", "Wird leer: jeden Moment, binnen 35 Min."},
		{"es", "alerts", "Se agota en alrededor de 3 días, entre 30 h y 5 días"},
		{"fr", "levels", "Vide dans environ 3 h, entre 2 et 5 h"},
		{"fr", "soon", "Vide d’un moment à l’autre, d’ici 35 min"},
	} {
		ctx := i18n.WithLocalizer(context.Background(), i18n.For(c.lang))
		if got := runsOut(ctx, estimates, c.key, now); got != c.want {
			t.Errorf("%s in %s: %q; want %q", c.key, c.lang, got, c.want)
		}
	}
}
