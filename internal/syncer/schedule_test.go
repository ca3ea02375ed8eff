package syncer

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/upstream"
)

// portfolioSource serves many small accounts, each named by its API key,
// and records when each account's devices were asked for. The account
// named slow answers its closed alerts only when release is closed, after
// its open alerts' page came: its alerts refresh has begun writing.
type portfolioSource struct {
	clock   clock.Clock
	slow    string
	release chan struct{}

	once  sync.Once
	mu    sync.Mutex
	polls map[string][]time.Time // by account
}

// answer lets the slow account's answer come.
func (s *portfolioSource) answer() { s.once.Do(func() { close(s.release) }) }

func (s *portfolioSource) Layout(ctx context.Context, cred upstream.Credentials, page func(domain.Layout) error) (Fetched, error) {
	id := cred.APIKey
	return Fetched{Pages: 1}, page(domain.Layout{
		Account:   domain.Account{ID: id, Name: "Client " + id},
		Buildings: []domain.Building{{ID: id + "-b", Name: "North Tower"}},
	})
}

func (s *portfolioSource) Devices(ctx context.Context, cred upstream.Credentials, page func([]domain.Device) error) (Fetched, error) {
	s.mu.Lock()
	s.polls[cred.APIKey] = append(s.polls[cred.APIKey], s.clock.Now())
	s.mu.Unlock()
	return Fetched{}, nil
}

func (s *portfolioSource) Alerts(ctx context.Context, cred upstream.Credentials, status domain.AlertStatus, from, to time.Time, page func([]domain.Alert) error) (Fetched, error) {
	if cred.APIKey != s.slow {
		return Fetched{}, nil
	}
	if status == domain.AlertOpen {
		a := domain.Alert{ID: "a-1", LocationID: "l-1", Type: domain.AlertConsumableOut, Status: domain.AlertOpen, Created: from.Add(time.Hour)}
		return Fetched{Pages: 1}, page([]domain.Alert{a})
	}
	select {
	case <-s.release:
		return Fetched{}, nil
	case <-ctx.Done():
		return Fetched{}, ctx.Err()
	}
}

func (s *portfolioSource) Alert(ctx context.Context, cred upstream.Credentials, id string, created time.Time) (domain.Alert, bool, error) {
	return domain.Alert{}, false, nil
}

func (s *portfolioSource) pollsOf(account string) []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.polls[account]...)
}

// portfolio holds n accounts' syncs at once on one engine and one cache,
// waits for their first rounds, and returns the accounts, the source, the
// engine's clock and the lags it observed.
func portfolio(t *testing.T, n int, cfg Config, slow string) ([]string, *portfolioSource, *clock.Fake) {
	t.Helper()
	clk := clock.NewFake(start)
	src := &portfolioSource{clock: clk, slow: slow, release: make(chan struct{}), polls: map[string][]time.Time{}}
	t.Cleanup(src.answer)
	st, _ := sqlitetest.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	e := New(ctx, src, st, clk, cfg, nil)
	t.Cleanup(func() { cancel(); e.Wait() })
	accounts := make([]string, n)
	for k := range accounts {
		accounts[k] = fmt.Sprintf("client-%03d", k)
		e.Hold("screen-"+accounts[k], accounts[k], upstream.Credentials{APIKey: accounts[k], Authorization: "auth"}, start.Add(24*time.Hour))
	}
	asleep := n
	if slow != "" {
		asleep-- // the slow account waits for its service, not for the clock
		// Should the others wait for the slow answer, the test would wait
		// for them forever: the answer comes after a while instead, and
		// the test fails.
		done := make(chan struct{})
		t.Cleanup(func() { close(done) })
		go func() {
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Error("the other accounts' refreshes waited for the slow account's answer")
				src.answer()
			}
		}()
	}
	clk.BlockUntil(asleep)
	return accounts, src, clk
}

// TestRoundsOfManyAccountsSpreadOverTheInterval: 200 accounts connected
// at the same moment (a restart) are refreshed once every interval each,
// never twice within an interval, and their rounds spread over the
// interval: no second asks the service for more than 5 of them. (Before,
// every account was polled in the first second of each minute.)
func TestRoundsOfManyAccountsSpreadOverTheInterval(t *testing.T) {
	t.Parallel()
	const n = 200
	accounts, src, clk := portfolio(t, n, Config{}, "")
	perSecond := map[time.Time]int{}
	for range 3 * 60 {
		clk.Advance(time.Second)
		clk.BlockUntil(n)
	}
	for _, a := range accounts {
		polls := src.pollsOf(a)
		if len(polls) < 3 {
			t.Fatalf("account %s was polled %d times in 3 minutes, want at least 3 (at %v)", a, len(polls), polls)
		}
		for k, at := range polls[1:] {
			// The second round waits for the account's phase; the next
			// come an interval apart, to within the test's steps.
			most := MinInterval + time.Second
			if k == 0 {
				most = 2 * MinInterval
			}
			if gap := at.Sub(polls[k]); gap < MinInterval || gap > most {
				t.Errorf("account %s polled %s after its last poll; want at least %s and at most %s (polls %v)", a, gap, MinInterval, most, polls)
			}
			if at.After(start.Add(time.Minute)) { // after the first rounds, all at the start
				perSecond[at.Truncate(time.Second)]++
			}
		}
	}
	for at, count := range perSecond {
		if count > 5 {
			t.Errorf("%d accounts were polled in the second from %s; want at most 5", count, at.Format(time.TimeOnly))
		}
	}
}

// TestSlowAccountDoesNotDelayTheOthers: one account's service takes its
// time over an answer in the middle of a refresh; the other accounts are
// refreshed on time meanwhile, on the workers left.
func TestSlowAccountDoesNotDelayTheOthers(t *testing.T) {
	t.Parallel()
	const n = 11
	var lagged atomic.Int64
	cfg := Config{Workers: 2, ObserveLag: func(_ string, lag time.Duration) {
		if lag >= time.Second { // the test's clock moves a second at a time
			lagged.Add(1)
		}
	}}
	accounts, src, clk := portfolio(t, n, cfg, "client-000")
	for range 3 * 60 {
		clk.Advance(time.Second)
		clk.BlockUntil(n - 1)
	}
	for _, a := range accounts[1:] {
		if polls := src.pollsOf(a); len(polls) < 3 {
			t.Errorf("account %s was polled %d times in 3 minutes while another's service was slow; want 3", a, len(polls))
		}
	}
	if l := lagged.Load(); l > 0 {
		t.Errorf("%d rounds started late while another account's service was slow; want none", l)
	}
}
