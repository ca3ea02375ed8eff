package dashboard

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/readings"
	"washboard/internal/store/sqlite"
)

// trendsBench is the large account BenchmarkTrends counts, made once per
// run of the benchmarks.
var trendsBench struct {
	once sync.Once
	dir  string
	err  error
	now  time.Time
	rows struct{ alerts, readings int }
}

// benchTrendsAccount is an account of 10,000 locations (5 buildings of 10
// floors of 40 rooms of 5 locations, a one-compartment dispenser at each)
// with 100,000 alerts created over 90 days, all resolved within 10 h but
// the last 2,000, and 29 days of each dispenser's levels: a reading every
// 40 minutes, falling 1 to 3 points, refilled below 10 percent (about
// 1,000 readings a dispenser, as polling every five minutes records).
func benchTrendsAccount(b *testing.B) (string, time.Time) {
	trendsBench.once.Do(func() {
		dir, err := os.MkdirTemp("", "washboard-trends-bench-")
		if err != nil {
			trendsBench.err = err
			return
		}
		trendsBench.dir = dir
		trendsBench.err = fillTrendsAccount(filepath.Join(dir, "washboard.db"))
	})
	if trendsBench.err != nil {
		b.Fatal(trendsBench.err)
	}
	return filepath.Join(trendsBench.dir, "washboard.db"), trendsBench.now
}

func TestMain(m *testing.M) {
	code := m.Run()
	if trendsBench.dir != "" {
		os.RemoveAll(trendsBench.dir)
	}
	os.Exit(code)
}

func fillTrendsAccount(path string) error {
	ctx := context.Background()
	const account = "bench-account"
	now := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	trendsBench.now = now
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	l := domain.Layout{Account: domain.Account{ID: account, Name: "Benchmark Estates"}}
	var devices []domain.Device
	for bi := range 5 {
		bid := fmt.Sprintf("b%d", bi)
		l.Buildings = append(l.Buildings, domain.Building{ID: bid, Name: fmt.Sprintf("Tower %d", bi+1)})
		for fi := range 10 {
			fid := fmt.Sprintf("%s-f%d", bid, fi)
			l.Floors = append(l.Floors, domain.Floor{ID: fid, BuildingID: bid, Name: fmt.Sprintf("Level %d", fi)})
			for ri := range 40 {
				rid := fmt.Sprintf("%s-r%d", fid, ri)
				l.Rooms = append(l.Rooms, domain.Room{ID: rid, FloorID: fid, Name: fmt.Sprintf("Restroom %d.%02d", fi, ri)})
				for li := range 5 {
					n := len(l.Locations)
					lid := fmt.Sprint(1_000_000 + n)
					l.Locations = append(l.Locations, domain.Location{ID: lid, RoomID: rid, Name: fmt.Sprintf("Place %d", li+1), Type: domain.Tissue})
					devices = append(devices, domain.Device{MAC: fmt.Sprintf("%012X", n), LocationID: lid, Position: "main", Generation: "2.0",
						Compartments: []domain.Compartment{{Level: 50}}, BatteryState: domain.BatteryNormal, LastSeen: now})
				}
			}
		}
	}
	if _, err := st.ReplaceLayout(ctx, l); err != nil {
		return err
	}
	if _, err := st.ReplaceDevices(ctx, account, devices); err != nil {
		return err
	}
	types := []domain.AlertType{domain.AlertConsumableOut, domain.AlertConsumableOut, domain.AlertConsumableOut, domain.AlertBatteryOut, domain.AlertJam}
	const alerts = 100_000
	from := now.Add(-90 * 24 * time.Hour)
	var batch []domain.Alert
	for i := range alerts {
		loc := (i * 7919) % len(l.Locations)
		a := domain.Alert{ID: fmt.Sprintf("alert-%d", i), LocationID: l.Locations[loc].ID, MACs: []string{devices[loc].MAC},
			Status: domain.AlertOpen, Type: types[i%len(types)], Created: from.Add(time.Duration(i) * (90 * 24 * time.Hour / alerts)), RefillCount: 1}
		if i < alerts-2000 {
			a.Status, a.Resolution, a.Resolved = domain.AlertClosed, domain.ResolvedByDevice, a.Created.Add(time.Duration(10+i%590)*time.Minute)
		}
		batch = append(batch, a)
	}
	if _, err := st.ApplyAlerts(ctx, account, store.AlertWrite{Upserts: batch}); err != nil {
		return err
	}
	trendsBench.rows.alerts = alerts

	// The history, written as the store keeps it: a row per device and day.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var key int64
	if err := tx.QueryRowContext(ctx, `SELECT key FROM accounts WHERE id = ?`, account).Scan(&key); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM device_history WHERE account_id = ?`, key); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO device_history (account_id, mac, day, readings) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	start := now.Add(-29 * 24 * time.Hour).Truncate(24 * time.Hour)
	for n, d := range devices {
		level := 30 + n%70
		var day []store.Reading
		dayOf := readings.Day(start)
		for t := start.Add(time.Duration(n%40) * time.Minute); t.Before(now); t = t.Add(40 * time.Minute) {
			if readings.Day(t) != dayOf {
				if _, err := ins.ExecContext(ctx, key, d.MAC, dayOf, readings.Encode(day)); err != nil {
					return err
				}
				day, dayOf = day[:0], readings.Day(t)
			}
			level -= 1 + (n+int(t.Unix()/2400))%3
			if level < 10 {
				level = 100
			}
			day = append(day, store.Reading{At: t, Levels: []int{level}, Battery: 80, BatteryState: domain.BatteryNormal, LastSeen: t})
			trendsBench.rows.readings++
		}
		if _, err := ins.ExecContext(ctx, key, d.MAC, dayOf, readings.Encode(day)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// BenchmarkTrends counts the trends of an account of 10,000 locations on
// SQLite, as the trends page does when they are not kept: 90 days of
// 100,000 alerts (alerts-ms) and the heat maps of 28 days of 10,000
// dispensers' levels (heat-ms), each from a cache read afresh:
//
//	go test ./internal/dashboard -run '^$' -bench Trends -benchtime 3x -benchmem
//
// Making the account takes about ten seconds, once. On two cores of an
// AMD EPYC it gave alerts-ms 360–610 and heat-ms 2,900–4,100 (2.9 GB and
// 13.9 million allocations a run, most of it decoding the history);
// decoding each device's days into one slice, their levels into shared
// arrays, brought heat-ms to 2,240–2,330 (1.4 GB, 2.8 million) where it
// had been 3,030–3,090 in the runs just before. BenchmarkTrendsKept, the
// same trends kept, 3–6 µs.
func BenchmarkTrends(b *testing.B) {
	path, now := benchTrendsAccount(b)
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := New(Deps{Store: st, Clock: clock.NewFake(now)})
	ctx := context.Background()
	var alertsTook, heatTook time.Duration
	var spans, devices int
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		al, err := s.countAlerts(ctx, "bench-account", domain.EveryBuilding(), "", 90, time.UTC, now)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		heat, err := s.countHeat(ctx, "bench-account", time.UTC, now)
		if err != nil {
			b.Fatal(err)
		}
		alertsTook += t1.Sub(t0)
		heatTook += time.Since(t1)
		spans, devices = al.alerts.Created, heat.total.Devices
	}
	if spans < 90_000 || devices != 10_000 {
		b.Fatalf("counted %d alerts and %d dispensers; the account has about 100,000 and 10,000", spans, devices)
	}
	b.ReportMetric(float64(alertsTook.Milliseconds())/float64(b.N), "alerts-ms")
	b.ReportMetric(float64(heatTook.Milliseconds())/float64(b.N), "heat-ms")
	b.ReportMetric(float64(trendsBench.rows.readings)/float64(devices), "readings/dispenser")
}

// BenchmarkTrendsKept is the trends page's read when its trends are kept:
// the common case within TrendsKeptFor.
func BenchmarkTrendsKept(b *testing.B) {
	path, now := benchTrendsAccount(b)
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := New(Deps{Store: st, Clock: clock.NewFake(now)})
	ctx := context.Background()
	if _, err := s.Trends(ctx, "bench-account", domain.EveryBuilding(), "", 90, time.UTC); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Trends(ctx, "bench-account", domain.EveryBuilding(), "", 90, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
}
