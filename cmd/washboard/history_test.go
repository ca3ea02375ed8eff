package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/levels"
	"washboard/internal/people"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
)

// TestDeviceHistoryFlag: by default the dashboard keeps each device's
// levels, and a location's page charts them; with --device-history 0 it
// keeps none, and the page says so.
func TestDeviceHistoryFlag(t *testing.T) {
	t.Parallel()
	up := newUpstreamSim(t)
	location := "/locations/" + strconv.FormatInt(up.world.Accounts()[0].Locations[0].ID, 10)
	for _, c := range []struct {
		name  string
		args  []string
		want  string
		wrong string
	}{
		// A chart of levels, or of a gateway's time online
		{"by default", nil, `class="chart history-chart`, "keeps no history"},
		{"with --device-history 0", []string{"--device-history", "0"}, "keeps no history", `class="chart history-chart`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			base, done, stderr := startServe(t, ctx, append([]string{"--upstream", up.srv.URL}, c.args...)...)
			page := get(t, signIn(t, base, up.cred), base+location)
			cancel()
			if code := <-done; code != 0 {
				t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
			}
			if !strings.Contains(page, c.want) || strings.Contains(page, c.wrong) {
				t.Errorf("the location's page has no %q, or has %q:\n%s", c.want, c.wrong, page)
			}
		})
	}
}

// countingStore counts the rounds of housekeeping: each begins by
// removing the expired sessions.
type countingStore struct {
	*sqlite.Store
	rounds atomic.Int32
}

func (s *countingStore) DeleteExpiredSessions(ctx context.Context) error {
	defer s.rounds.Add(1)
	return s.Store.DeleteExpiredSessions(ctx)
}

// TestHousekeepingRemovesOldDeviceHistory: what serve runs every half hour
// removes the device history older than --device-history, keeping the
// readings that tell each device's state then, and with --device-history 0
// removes none; and the audit log's entries, the measures of closed
// alerts and the records of client reports mailed, older than their 400
// days.
func TestHousekeepingRemovesOldDeviceHistory(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	written := []time.Time{now.Add(-100 * day), now.Add(-95 * day), now.Add(-day)}
	for _, c := range []struct {
		keep time.Duration
		want []time.Time
	}{
		{90 * day, written[1:]}, // the one of 95 days ago tells the state 90 days ago
		{0, written},
	} {
		t.Run("keeping "+c.keep.String(), func(t *testing.T) {
			ctx := t.Context()
			db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "washboard.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			st := &countingStore{Store: db}
			st.MeasureWith(levels.Measure)
			if _, err := st.ReplaceLayout(ctx, domain.Layout{
				Account:   domain.Account{ID: "a", Name: "A"},
				Buildings: []domain.Building{{ID: "b", Name: "B"}},
				Floors:    []domain.Floor{{ID: "f", BuildingID: "b", Name: "F"}},
				Rooms:     []domain.Room{{ID: "r", FloorID: "f", Name: "R"}},
				Locations: []domain.Location{{ID: "l", RoomID: "r", Name: "L", Type: domain.Towel}},
			}); err != nil {
				t.Fatal(err)
			}
			for i, at := range written {
				r, err := st.BeginDevices(ctx, "a")
				if err != nil {
					t.Fatal(err)
				}
				r.SeenAt(at)
				d := domain.Device{MAC: "0000000000A1", LocationID: "l", Position: "main", Compartments: []domain.Compartment{{Level: 90 - 10*i}}, LastSeen: at}
				if err := r.Write(ctx, []domain.Device{d}); err != nil {
					t.Fatal(err)
				}
				if _, err := r.Commit(ctx); err != nil {
					t.Fatal(err)
				}
			}

			// Two alerts measured when they closed, 401 and 399 days ago.
			if err := st.SaveServiceLevel(ctx, "a", store.ServiceLevel{Week: "always", Zone: "UTC", Updated: now,
				Targets: []store.ServiceTarget{{Type: domain.AlertJam, Resolve: time.Hour}}}); err != nil {
				t.Fatal(err)
			}
			jam := func(id string, closed time.Time) domain.Alert {
				a := domain.Alert{ID: id, LocationID: "l", Status: domain.AlertOpen, Type: domain.AlertJam, Created: now.Add(-402 * day)}
				if !closed.IsZero() {
					a.Status, a.Resolved, a.Resolution = domain.AlertClosed, closed, domain.ResolvedByUser
				}
				return a
			}
			for _, w := range [][]domain.Alert{{jam("old", time.Time{}), jam("newer", time.Time{})}, {jam("old", now.Add(-401*day)), jam("newer", now.Add(-399*day))}} {
				if _, err := st.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: w}); err != nil {
					t.Fatal(err)
				}
			}

			logged := []time.Time{now.Add(-401 * day), now.Add(-399 * day)}
			for _, at := range logged {
				if err := st.RecordAudit(ctx, "a", store.Audit{At: at, ActorName: "Ana", Action: domain.AuditScreenAdded, Subject: "Staff room"}); err != nil {
					t.Fatal(err)
				}
			}

			// Two client reports mailed, 401 and 399 days ago.
			if err := st.ConnectAccount(ctx, store.Connection{Account: "a", Sealed: []byte("s"), Connected: now.Add(-402 * day)}, store.Audit{}); err != nil {
				t.Fatal(err)
			}
			if err := st.AddReportSchedule(ctx, "a", store.ReportSchedule{ID: "s", Cadence: "weekly", Addresses: []string{"ops@client.example"}}, 1); err != nil {
				t.Fatal(err)
			}
			for _, at := range logged {
				if _, ok, err := st.TakeReportSending(ctx, "a", store.ReportSending{Schedule: "s", Period: at.Format(time.DateOnly), NextAttempt: at}, at, 3); err != nil || !ok {
					t.Fatal(ok, err)
				}
			}

			hctx, stop := context.WithCancel(ctx)
			done := make(chan struct{})
			team := people.New(db, ring(t, 1), clock.NewFake(now), people.Config{})
			go func() {
				housekeeping(hctx, st, team, clock.NewFake(now), c.keep, time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
				close(done)
			}()
			for deadline := time.Now().Add(10 * time.Second); st.rounds.Load() < 2; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("housekeeping did not run twice within 10 s")
				}
			}
			stop()
			<-done

			h, err := st.DeviceHistory(ctx, "a", nil, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			var got []time.Time
			for _, r := range h["0000000000A1"] {
				got = append(got, r.At)
			}
			if !slices.EqualFunc(got, c.want, time.Time.Equal) {
				t.Errorf("readings left from %s: %v; want %v", c.keep, got, c.want)
			}
			entries, err := st.AuditEntries(ctx, domain.AuditFilter{Account: "a"})
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 || !entries[0].At.Equal(logged[1]) {
				t.Errorf("the audit log keeps %d entries after housekeeping; want the one of 399 days ago alone", len(entries))
			}
			if sent, err := st.ReportSendings(ctx, "a", 10); err != nil || len(sent) != 1 || !sent[0].Started.Equal(logged[1]) {
				t.Errorf("the records of reports mailed after housekeeping are %+v, %v; want the one of 399 days ago alone", sent, err)
			}
			measures, err := st.AlertMeasures(ctx, "a", []string{"old", "newer"})
			if _, ok := measures["newer"]; err != nil || len(measures) != 1 || !ok {
				t.Errorf("the measures kept after housekeeping are %v, %v; want the one of the alert closed 399 days ago alone", measures, err)
			}
		})
	}
}

// TestDemoHistoryIsSeededOnce: the demo's past goes into a cache that
// keeps history and holds none of the account's devices; a cache kept
// from an earlier run, or one that keeps no history, gets none.
func TestDemoHistoryIsSeededOnce(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	past := &seededHistory{account: "a", readings: map[string][]store.Reading{
		"0000000000A1": {{At: at, Levels: []int{50}, Battery: 80, BatteryState: domain.BatteryNormal, LastSeen: at}},
	}}
	for _, c := range []struct {
		name     string
		held     bool // the account's devices are in the cache
		keep     bool
		readings int
	}{
		{"a new cache", false, true, 1},
		{"a cache kept from an earlier run", true, true, 0},
		{"a cache that keeps no history", false, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "washboard.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			st.KeepHistory(false) // the devices written here record none
			if c.held {
				if _, err := st.ReplaceDevices(ctx, "a", []domain.Device{{MAC: "0000000000A2", LocationID: "l", Compartments: []domain.Compartment{{Level: 10}}}}); err != nil {
					t.Fatal(err)
				}
			}
			if err := seedHistory(ctx, st, past, c.keep); err != nil {
				t.Fatal(err)
			}
			h, err := st.DeviceHistory(ctx, "a", []string{"0000000000A1"}, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(h["0000000000A1"]); got != c.readings {
				t.Errorf("%d readings of the past written; want %d", got, c.readings)
			}
		})
	}
}
