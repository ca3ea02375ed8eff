package runout_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/runout"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
)

// now is 09:00 UTC on a Tuesday, after four days of history.
var now = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

const account = "acme"

// fleet is a store with an account of three dispensers: "steady", used 2
// percent an hour and refilled when out; "new", heard from for an hour;
// "out", out since 08:00.
func fleet(t *testing.T) store.Store {
	t.Helper()
	ctx := context.Background()
	st := cache(t,
		domain.Location{ID: "l1", RoomID: "r1", Name: "Towel 1", Type: domain.Towel},
		domain.Location{ID: "l2", RoomID: "r1", Name: "Towel 2", Type: domain.Towel},
		domain.Location{ID: "l3", RoomID: "r1", Name: "Soap", Type: domain.Soap},
	)
	level := 100
	for at := now.Add(-96 * time.Hour); !at.After(now); at = at.Add(30 * time.Minute) {
		devices := []domain.Device{dispenser("steady", "l1", level, at)}
		if !at.Before(now.Add(-time.Hour)) {
			devices = append(devices, dispenser("new", "l2", 90, at))
		}
		out := dispenser("out", "l3", 20, at)
		if !at.Before(now.Add(-time.Hour)) {
			out = dispenser("out", "l3", 0, at)
		}
		devices = append(devices, out)
		r, err := st.BeginDevices(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		r.SeenAt(at)
		if err := r.Write(ctx, devices); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if level--; level < 0 {
			level = 100
		}
	}
	return st
}

// cache is an empty cache of the account, with the locations in one room.
func cache(t *testing.T, locations ...domain.Location) store.Store {
	t.Helper()
	st, _ := sqlitetest.Open(t)
	l := domain.Layout{
		Account:   domain.Account{ID: account, Name: "Acme"},
		Buildings: []domain.Building{{ID: "b1", Name: "North"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Ground"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Restroom"}},
		Locations: locations,
	}
	if _, err := st.ReplaceLayout(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	return st
}

func dispenser(mac, location string, level int, seen time.Time) domain.Device {
	return domain.Device{MAC: mac, LocationID: location, Compartments: []domain.Compartment{{Level: level, Low: level < 16, Out: level == 0}},
		BatteryState: domain.BatteryNormal, LastSeen: seen}
}

// A dispenser with days of history gets an estimate ahead of now with a
// range around it; one heard from for an hour gets none; one out says
// since when.
func TestEstimatesFromTheCachesHistory(t *testing.T) {
	t.Parallel()
	st := fleet(t)
	s := runout.New(st, clock.NewFake(now), time.UTC, nil)
	if err := s.Refresh(context.Background(), account); err != nil {
		t.Fatal(err)
	}
	got := s.Estimates(account)
	steady, ok := got["steady"]
	if !ok || steady.Basis != forecast.FromLevels {
		t.Fatalf("the steady dispenser: %+v (%v), want an estimate from its levels", steady, ok)
	}
	// One percent a half hour from 100 four days ago, refilled when out
	// two days ago: 9 left now, four and a half hours at its pace.
	if d := steady.At.Sub(now); d < 3*time.Hour || d > 6*time.Hour || steady.Earliest.After(steady.At) || steady.Latest.Before(steady.At) || steady.Earliest.Before(now) {
		t.Errorf("the steady dispenser runs out in %s (%s to %s), want about 4.5 h ahead with a range around it",
			d, steady.Earliest.Sub(now), steady.Latest.Sub(now))
	}
	if words := steady.Words(now); !strings.HasPrefix(words, "about") {
		t.Errorf("in words: %q", words)
	}
	if e, ok := got["new"]; ok {
		t.Errorf("a dispenser heard from for an hour has an estimate: %+v", e)
	}
	out, ok := got["out"]
	if !ok || out.Basis != forecast.ReportedOut || !out.At.Equal(now.Add(-time.Hour)) || !out.Latest.Equal(out.At) {
		t.Errorf("the dispenser out: %+v (%v), want out since 08:00 in all three", out, ok)
	}
}

// Touch makes the estimates of an account on the worker; models are
// fitted once, and estimates made again from the recent history.
func TestTouchEstimatesOnTheWorker(t *testing.T) {
	t.Parallel()
	st := fleet(t)
	clk := clock.NewFake(now)
	s := runout.New(st, clk, time.UTC, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	s.Touch(account)
	deadline := time.Now().Add(10 * time.Second)
	for s.Estimates(account) == nil && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	first := s.Estimates(account)["steady"]
	if first.At.IsZero() {
		t.Fatal("no estimate after Touch")
	}
	// Three hours on, the level kept falling at its pace: the estimate
	// stays about the same moment.
	for at := now.Add(30 * time.Minute); !at.After(now.Add(3 * time.Hour)); at = at.Add(30 * time.Minute) {
		r, err := st.BeginDevices(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		r.SeenAt(at)
		level := 9 - int(at.Sub(now)/(30*time.Minute))
		if err := r.Write(ctx, []domain.Device{dispenser("steady", "l1", level, at), dispenser("out", "l3", 0, at)}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	clk.Set(now.Add(3 * time.Hour))
	if err := s.Refresh(ctx, account); err != nil {
		t.Fatal(err)
	}
	later := s.Estimates(account)["steady"]
	if d := later.At.Sub(first.At); d < -time.Hour || d > time.Hour || later.At.Before(now.Add(3*time.Hour)) {
		t.Errorf("three hours on the pace it was learned at, the estimate moved by %s", d)
	}
	cancel()
	<-done
}

// A dispenser that stopped transmitting five hours ago, and is not yet
// offline, is projected from what it last sent: its use goes on while
// nothing is heard, so its run-out does not slip as the silence lasts.
func TestSilentDispenserProjectedFromItsLastReport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := cache(t, domain.Location{ID: "l1", RoomID: "r1", Name: "Towel", Type: domain.Towel})
	// One percent every half hour, refilled when out, polled every half
	// hour for four weeks; silent since 04:00, at 30 percent, and polled
	// on: the service repeats what it last heard.
	silent := now.Add(-5 * time.Hour)
	poll := func(at time.Time, level int) {
		d := dispenser("quiet", "l1", level, at)
		if at.After(silent) {
			d = dispenser("quiet", "l1", 30, silent)
		}
		r, err := st.BeginDevices(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		r.SeenAt(at)
		if err := r.Write(ctx, []domain.Device{d}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	level := 51 // 30 at 04:00
	for at := now.Add(-28 * 24 * time.Hour); !at.After(now); at = at.Add(30 * time.Minute) {
		poll(at, level)
		if level--; level < 0 {
			level = 100
		}
	}
	clk := clock.NewFake(now)
	s := runout.New(st, clk, time.UTC, nil)
	if err := s.Refresh(ctx, account); err != nil {
		t.Fatal(err)
	}
	first, ok := s.Estimates(account)["quiet"]
	// 30 percent at about two an hour from 04:00: out about ten hours
	// from now. Taken as heard until now, with less than a percent used
	// since 04:00, it would be nearly 15 hours.
	if d := first.At.Sub(now); !ok || d < 8*time.Hour || d > 13*time.Hour || first.Earliest.Before(now) || first.Latest.Before(first.At) {
		t.Fatalf("the silent dispenser: %+v (%v), runs out in %s; want about 10 h, from its last report", first, ok, d)
	}
	// Two hours more of silence, polled on: the estimate stays.
	for at := now.Add(30 * time.Minute); !at.After(now.Add(2 * time.Hour)); at = at.Add(30 * time.Minute) {
		poll(at, 0)
	}
	clk.Set(now.Add(2 * time.Hour))
	if err := s.Refresh(ctx, account); err != nil {
		t.Fatal(err)
	}
	later := s.Estimates(account)["quiet"]
	if d := later.At.Sub(first.At); d < -30*time.Minute || d > 30*time.Minute {
		t.Errorf("two hours more of silence moved the estimate by %s, from %s to %s", d, first.At, later.At)
	}
}

// A dispenser that the service lists without its compartments any more
// has no estimate from the next projection on.
func TestDispenserWithoutCompartmentsHasNoEstimate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := fleet(t)
	clk := clock.NewFake(now)
	s := runout.New(st, clk, time.UTC, nil)
	if err := s.Refresh(ctx, account); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Estimates(account)["steady"]; !ok {
		t.Fatal("no estimate of the steady dispenser to begin with; the test proves nothing")
	}
	at := now.Add(30 * time.Minute)
	bare := dispenser("steady", "l1", 0, at)
	bare.Compartments = nil
	r, err := st.BeginDevices(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	r.SeenAt(at)
	if err := r.Write(ctx, []domain.Device{bare, dispenser("out", "l3", 0, at)}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	clk.Set(at)
	if err := s.Refresh(ctx, account); err != nil {
		t.Fatal(err)
	}
	if e, ok := s.Estimates(account)["steady"]; ok {
		t.Errorf("a device without compartments has the estimate %+v", e)
	}
}
