package clientreport

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
)

// heapWatch is a store whose history reads sample the heap held as they
// go, every 50 dispensers: what the out-hours hold while they read.
type heapWatch struct {
	*sqlite.Store
	peak uint64
}

func (h *heapWatch) EachDeviceHistory(ctx context.Context, f store.HistoryFilter, each func(store.DeviceReadings) error) error {
	n := 0
	return h.Store.EachDeviceHistory(ctx, f, func(d store.DeviceReadings) error {
		if n++; n%50 == 0 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			h.peak = max(h.peak, m.HeapAlloc)
		}
		return each(d)
	})
}

// BenchmarkOutHours: the dispensers' out-hours of a client report of a
// month, read from SQLite with the month before: an account of
// WASHBOARD_OUT_LOCATIONS dispensers (500), each with two months of
// readings about every 50 minutes (29 a day, as the simulator's fleets
// record), out of product now and then for hours, in service hours with
// nights and weekends. It reports the time of an op (the period and the
// one before, one read), the readings it read (readings), the heap held
// before the read (base-MB) and at most during it (peak-MB), and what the
// readings would take held at once (all-MB), for the comparison:
//
//	go test ./internal/clientreport -run '^$' -bench OutHours -benchtime 5x
func BenchmarkOutHours(b *testing.B) {
	n := 500
	if v := os.Getenv("WASHBOARD_OUT_LOCATIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "washboard.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	from, to := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	readings := seedOutFleet(b, s, n, from, to)
	if err := s.SaveServiceLevel(ctx, "acc", store.ServiceLevel{Week: "Mon-Fri 06:00-22:00; Sat 08:00-14:00", Holidays: "2026-11-11", Zone: "Europe/Berlin",
		Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute}}}); err != nil {
		b.Fatal(err)
	}
	period, err := ParseMonth("2026-11", time.UTC)
	if err != nil {
		b.Fatal(err)
	}
	w := &heapWatch{Store: s}
	var r Report
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	for b.Loop() {
		r = Report{Period: period, Prior: period.Before()}
		if err := r.AddOutHours(ctx, w, "acc", domain.EveryBuilding(), to); err != nil {
			b.Fatal(err)
		}
	}
	if r.Outs.Now.Dispensers != n || r.Outs.Now.Out == 0 {
		b.Fatalf("read %d dispensers, out %s; want %d, out some time", r.Outs.Now.Dispensers, r.Outs.Now.Out, n)
	}
	b.ReportMetric(float64(readings), "readings")
	b.ReportMetric(float64(base.HeapAlloc)/1e6, "base-MB")
	b.ReportMetric(float64(w.peak)/1e6, "peak-MB")
	b.ReportMetric(float64(readings)*float64(64+8)/1e6, "all-MB") // a store.Reading and its one level
}

// seedOutFleet makes an account of n dispensers, one a location, with
// readings from from to to, and returns how many.
func seedOutFleet(b *testing.B, s *sqlite.Store, n int, from, to time.Time) int {
	ctx := context.Background()
	l := domain.Layout{Account: domain.Account{ID: "acc", Name: "Bench"}}
	devices := make([]domain.Device, n)
	for i := range n {
		bid, fid, rid := fmt.Sprintf("b%d", i/100), fmt.Sprintf("f%d", i/50), fmt.Sprintf("r%d", i/10)
		if i%100 == 0 {
			l.Buildings = append(l.Buildings, domain.Building{ID: bid, Name: "Building " + bid})
		}
		if i%50 == 0 {
			l.Floors = append(l.Floors, domain.Floor{ID: fid, BuildingID: bid, Name: "Floor " + fid})
		}
		if i%10 == 0 {
			l.Rooms = append(l.Rooms, domain.Room{ID: rid, FloorID: fid, Name: "Room " + rid})
		}
		loc := fmt.Sprintf("l%d", i)
		l.Locations = append(l.Locations, domain.Location{ID: loc, RoomID: rid, Name: "Towel " + loc, Type: domain.Towel})
		devices[i] = domain.Device{MAC: fmt.Sprintf("00000000%04X", i), LocationID: loc, Compartments: []domain.Compartment{{Level: 50}}}
	}
	if _, err := s.ReplaceLayout(ctx, l); err != nil {
		b.Fatal(err)
	}
	if _, err := s.ReplaceDevices(ctx, "acc", devices); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	total := 0
	for start := 0; start < n; start += 50 {
		history := map[string][]store.Reading{}
		for _, d := range devices[start:min(start+50, n)] {
			var rs []store.Reading
			level := 100
			for at := from; at.Before(to); at = at.Add(time.Duration(40+rng.IntN(20)) * time.Minute) {
				switch {
				case level == 0 && rng.IntN(4) == 0:
					level = 100 // refilled, after three readings out on average
				case level > 0:
					level = max(level-rng.IntN(6), 0)
				}
				rs = append(rs, store.Reading{At: at, Levels: []int{level}, Battery: 80, BatteryState: domain.BatteryNormal, LastSeen: at})
			}
			history[d.MAC] = rs
			total += len(rs)
		}
		if err := s.SeedHistory(ctx, "acc", history); err != nil {
			b.Fatal(err)
		}
	}
	return total
}
