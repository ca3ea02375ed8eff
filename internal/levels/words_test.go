package levels

import (
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/store"
)

// A service level in words reads in the page's language; in English as
// the measure keeps it.
func TestPolicyWordsInThePagesLanguage(t *testing.T) {
	kept := store.ServiceLevel{Week: "Mon-Fri 06:00-22:00", Holidays: "2026-12-25", Zone: "Europe/Berlin",
		Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute, Resolve: 90 * time.Minute}, {Type: domain.AlertJam, Resolve: 26 * time.Hour}}}
	p, err := Policy(kept)
	if err != nil {
		t.Fatal(err)
	}
	always, err := Policy(store.ServiceLevel{Week: "always", Zone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := WordsIn(i18n.For("en"), p), Words(p); got != want {
		t.Errorf("in English %q; want the measure's %q", got, want)
	}
	if got, want := WordsIn(i18n.For("en"), always), Words(always); got != want {
		t.Errorf("always in English %q; want the measure's %q", got, want)
	}
	for lang, want := range map[string]string{
		"de": "Mon-Fri 06:00-22:00 (Europe/Berlin), geschlossen am 2026-12-25; Produkt leer: Übernahme 15 Min., Erledigung 1 Std. 30 Min.; Stau: Erledigung 1 T. 2 Std.",
		"fr": "toujours (UTC); aucun objectif",
	} {
		pol := p
		if lang == "fr" {
			pol = always
		}
		if got := WordsIn(i18n.For(lang), pol); got != want {
			t.Errorf("in %s %q; want %q", lang, got, want)
		}
	}
}
