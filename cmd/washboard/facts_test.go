package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
)

// TestOutboxFactsAreRemovedASweepLater: until notifications are decided
// from them, each sweep removes the facts the previous sweep saw, and
// keeps those recorded since.
func TestOutboxFactsAreRemovedASweepLater(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "washboard.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	var open []domain.Alert
	write := func(id string) {
		t.Helper()
		open = append(open, domain.Alert{ID: id, LocationID: "l1", Status: domain.AlertOpen, Type: domain.AlertJam, Created: now})
		if _, err := st.ApplyAlerts(ctx, "acc", store.AlertWrite{Upserts: open, SeenAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	facts := func() []string {
		t.Helper()
		fs, err := st.FactsAfter(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, f := range fs {
			ids = append(ids, f.AlertID)
		}
		return ids
	}
	write("a0") // the baseline: no fact
	write("a1")
	var seen int64
	if err := pruneFacts(ctx, st, &seen); err != nil {
		t.Fatal(err)
	}
	if got := facts(); len(got) != 1 || got[0] != "a1" {
		t.Fatalf("after the first sweep the outbox holds %q, want a1 still", got)
	}
	write("a2")
	if err := pruneFacts(ctx, st, &seen); err != nil {
		t.Fatal(err)
	}
	if got := facts(); len(got) != 1 || got[0] != "a2" {
		t.Errorf("after the second sweep the outbox holds %q, want a2 alone", got)
	}
}
