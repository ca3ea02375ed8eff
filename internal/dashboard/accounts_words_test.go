package dashboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/store"
	"washboard/internal/syncer"
)

// The portfolio's trends say what their figures miss in the language of
// whoever asks: a period longer than the cache keeps closed alerts.
func TestPortfolioTrendsGapsInTheReadersLanguage(t *testing.T) {
	runCtx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st := historyStore(t)
	clk := clock.NewFake(day(24, 9))
	engine := syncer.New(runCtx, nil, st, clk, syncer.Config{History: 30 * 24 * time.Hour}, nil)
	s := New(Deps{Store: st, Sync: engine, Clock: clk})
	for lang, want := range map[string]string{
		"en": "The cache keeps closed alerts for 30 days: those before 25 Oct 2026 09:00 UTC are not counted.",
		"de": "Der Cache behält geschlossene Alarme 30 Tage: Die vor 25.10.2026, 09:00 UTC werden nicht gezählt.",
		"es": "La caché guarda las alertas cerradas 30 días: las anteriores al 25/10/2026 09:00 UTC no se cuentan.",
	} {
		ctx := i18n.WithLocalizer(context.Background(), i18n.For(lang))
		got, err := s.AccountsTrends(ctx, []AccountScope{{Account: "acme"}}, 90, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got.Gaps, " | ") != want {
			t.Errorf("in %s the gaps read %q; want %q", lang, got.Gaps, want)
		}
	}
}

// The service level's form says the level kept in the language of
// whoever asks.
func TestServiceLevelWordsInTheReadersLanguage(t *testing.T) {
	st := historyStore(t)
	s := New(Deps{Store: st, Clock: clock.NewFake(day(24, 9))})
	if err := st.SaveServiceLevel(context.Background(), "acme", store.ServiceLevel{Week: "always", Zone: "UTC",
		Targets: []store.ServiceTarget{{Type: domain.AlertJam, Resolve: time.Hour}}}); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": "always (UTC); Jammed: resolve 1 h", "de": "immer (UTC); Stau: Erledigung 1 Std."} {
		f, err := s.ServiceLevelForm(i18n.WithLocalizer(context.Background(), i18n.For(lang)), "acme", time.UTC)
		if err != nil || f.Words != want {
			t.Errorf("in %s the form says %q, %v; want %q", lang, f.Words, err, want)
		}
	}
}
