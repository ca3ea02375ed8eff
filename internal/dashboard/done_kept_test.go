package dashboard

import (
	"context"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/syncer"
)

// TestDoneReportsAreKeptAsLongAsTheAlerts: a "done" report is kept as
// long as the cache keeps closed alerts (-history, a year here), so that
// a service record of any month the alerts cover has the work done in
// it: one made 100 days before the latest stays, one made over a year
// before it goes.
func TestDoneReportsAreKeptAsLongAsTheAlerts(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	st := historyStore(t)
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: []domain.Alert{
		{ID: "a1", LocationID: "l1", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: start.Add(-time.Hour)},
	}, SeenAt: start}); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(start)
	runCtx, cancel := context.WithCancel(ctx)
	engine := syncer.New(runCtx, nil, st, clk, syncer.Config{History: 365 * 24 * time.Hour}, nil)
	t.Cleanup(func() { cancel(); engine.Wait() })
	s := New(Deps{Store: st, Sync: engine, Clock: clk})

	done := func(key string) time.Time {
		t.Helper()
		if added, err := s.MarkDone(ctx, "acme", domain.EveryBuilding(), "a1", NewDone{Name: "Maria", Outcome: domain.Refilled, Key: key}); !added || err != nil {
			t.Fatalf("marking done with %s: %v, %v", key, added, err)
		}
		return clk.Now()
	}
	kept := func() []time.Time {
		t.Helper()
		reports, err := st.DoneReportsDuring(ctx, "acme", start.Add(-time.Hour), clk.Now().Add(time.Hour), 0)
		if err != nil {
			t.Fatal(err)
		}
		var at []time.Time
		for _, r := range reports {
			at = append(at, r.At)
		}
		return at
	}
	first := done("key-done-first-00001")
	clk.Advance(100 * 24 * time.Hour)
	second := done("key-done-second-0001")
	if got := kept(); len(got) != 2 {
		t.Errorf("100 days after the first report, the reports kept are of %v; want both, %v and %v", got, first, second)
	}
	clk.Advance(300 * 24 * time.Hour)
	third := done("key-done-third-00001")
	if got := kept(); len(got) != 2 || !got[0].Equal(second) || !got[1].Equal(third) {
		t.Errorf("400 days after the first report, the reports kept are of %v; want the last two, %v and %v", got, second, third)
	}
}
