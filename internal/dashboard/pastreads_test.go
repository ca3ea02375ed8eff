package dashboard

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"washboard/internal/domain"
)

// The reads of old periods are bounded: PastReadsPerAccount per account,
// the one viewed least lately going first; pastReadsKept of all accounts;
// pastReadsMaxAlerts alerts together. A failed read is not kept.
func TestPastReadsAreBounded(t *testing.T) {
	var c pastReads
	ctx := context.Background()
	t0 := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	reads := 0
	read := func(n int) func(context.Context) (pastRead, error) {
		return func(context.Context) (pastRead, error) {
			reads++
			return pastRead{alerts: make([]domain.Alert, n), at: t0}, nil
		}
	}
	period := func(account string, i int) pastKey {
		return pastKey{account: account, from: int64(i), to: int64(i + 1)}
	}

	// Account a views periods 0, 1, 2, then 0 again, then 3: period 1,
	// viewed least lately, is the one forgotten.
	for i, p := range []int{0, 1, 2, 0, 3} {
		c.get(ctx, period("a", p), t0.Add(time.Duration(i)*time.Second), read(10))
	}
	if reads != 4 {
		t.Errorf("%d reads for 4 periods, one viewed twice; want 4", reads)
	}
	for p, kept := range map[int]bool{0: true, 1: false, 2: true, 3: true} {
		if _, ok := c.m[period("a", p)]; ok != kept {
			t.Errorf("period %d kept: %v, want %v", p, ok, kept)
		}
	}

	// Many accounts: no more than pastReadsKept reads.
	for i := range 3 * pastReadsKept {
		c.get(ctx, period(fmt.Sprint("acc-", i), 0), t0.Add(time.Minute), read(10))
	}
	if len(c.m) > pastReadsKept {
		t.Errorf("%d reads kept; want at most %d", len(c.m), pastReadsKept)
	}

	// A read that holds too many alerts answers, and is not kept.
	big, err := c.get(ctx, period("big", 0), t0.Add(time.Minute), read(pastReadsMaxAlerts+1))
	if err != nil || len(big.alerts) != pastReadsMaxAlerts+1 {
		t.Errorf("a large read: %d alerts, %v", len(big.alerts), err)
	}
	if _, ok := c.m[period("big", 0)]; ok || c.held > pastReadsMaxAlerts {
		t.Errorf("a read of %d alerts is kept (%d alerts held); want at most %d held", pastReadsMaxAlerts+1, c.held, pastReadsMaxAlerts)
	}

	// A failure is not kept: the next view tries again.
	tries := 0
	fail := func(context.Context) (pastRead, error) { tries++; return pastRead{}, errors.New("the service is away") }
	c.get(ctx, period("f", 0), t0, fail)
	if _, err := c.get(ctx, period("f", 0), t0, fail); err == nil || tries != 2 {
		t.Errorf("a failed read: %v after %d tries; want it tried again", err, tries)
	}

	// A read answers for PastReadsKeptFor, then is made again.
	key := period("g", 0)
	reads = 0
	c.get(ctx, key, t0, read(1))
	c.get(ctx, key, t0.Add(PastReadsKeptFor-time.Second), read(1))
	if reads != 1 {
		t.Errorf("%d reads within the time a read is kept; want 1", reads)
	}
	c.get(ctx, key, t0.Add(PastReadsKeptFor), read(1))
	if reads != 2 {
		t.Errorf("%d reads once the first is %s old; want 2", reads, PastReadsKeptFor)
	}
}
