package main

import (
	"context"
	"testing"
	"time"

	"washboard/internal/receiver"
	"washboard/internal/store/sqlite/sqlitetest"
)

// TestTheDemoStartsAgainOnItsDataAsOftenAsWanted: each run of the demo on
// the same --data makes the demo account's receiver anew, in place of the
// earlier runs' (whose simulator is gone), so that it never reaches the
// account's limit of receivers.
func TestTheDemoStartsAgainOnItsDataAsOftenAsWanted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	events := receiver.New(st, ring(t, 1), nil, receiver.Config{}, nil)
	for run := range receiver.MaxReceivers + 2 {
		if _, _, err := demoReceiver(ctx, events, "demo-account", time.Now()); err != nil {
			t.Fatalf("run %d of the demo: %v", run+1, err)
		}
	}
	if list, err := events.List(ctx, "demo-account"); err != nil || len(list) != 1 {
		t.Errorf("after %d runs the demo account has %d receivers (%v); want 1", receiver.MaxReceivers+2, len(list), err)
	}
}
