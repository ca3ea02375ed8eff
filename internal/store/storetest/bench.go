package storetest

import (
	"fmt"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// benchAccount builds an account of 10,000 locations in 2,500 rooms with
// one device each and 50,000 alerts.
func benchAccount() (domain.Layout, []domain.Device, []domain.Alert) {
	l := domain.Layout{Account: domain.Account{ID: "acc", Name: "Bench"}}
	var devices []domain.Device
	var alerts []domain.Alert
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for b := 0; b < 25; b++ {
		bid := fmt.Sprintf("b%02d", b)
		l.Buildings = append(l.Buildings, domain.Building{ID: bid, Name: "Building " + bid})
		for f := 0; f < 10; f++ {
			fid := fmt.Sprintf("%s-f%d", bid, f)
			l.Floors = append(l.Floors, domain.Floor{ID: fid, BuildingID: bid, Name: "Level " + fid})
			for r := 0; r < 10; r++ {
				rid := fmt.Sprintf("%s-r%d", fid, r)
				l.Rooms = append(l.Rooms, domain.Room{ID: rid, FloorID: fid, Name: "Room " + rid})
				for k := 0; k < 4; k++ {
					lid := fmt.Sprint(1_000_000 + len(l.Locations))
					l.Locations = append(l.Locations, domain.Location{ID: lid, RoomID: rid, Name: "Sink", Type: domain.Soap})
					devices = append(devices, device(fmt.Sprintf("%012X", len(devices)), lid, len(devices)%100))
				}
			}
		}
	}
	for i := 0; i < 50_000; i++ {
		a := alert(fmt.Sprintf("%08x-alert", i*7919%50_000), l.Locations[i%len(l.Locations)].ID, start.Add(time.Duration(i)*time.Minute), i%50 == 0, i%200 == 0)
		alerts = append(alerts, a)
	}
	return l, devices, alerts
}

// BenchFirstRefresh writes a whole account into an empty cache: one op is
// the layout, the devices and the alerts, in pages of 500 as the sync
// reads them. Opening and closing the store are not timed.
func BenchFirstRefresh(b *testing.B, open func(b *testing.B) store.Store) {
	l, devices, alerts := benchAccount()
	for b.Loop() {
		b.StopTimer()
		s := open(b)
		b.StartTimer()
		firstRefresh(b, s, l, devices, alerts)
		b.StopTimer()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// Engine is a store engine a benchmark runs on: its name, and how to open
// an empty store of it.
type Engine struct {
	Name string
	Open func(b *testing.B) store.Store
}

// CompareFirstRefresh runs BenchFirstRefresh's workload on two engines in
// turn, each op one refresh on each, so that a machine busy with other
// work slows both alike. It reports each engine's time per refresh and the
// ratio of the second's to the first's.
func CompareFirstRefresh(b *testing.B, base, other Engine) {
	l, devices, alerts := benchAccount()
	var took [2]time.Duration
	for b.Loop() {
		for i, e := range []Engine{base, other} {
			b.StopTimer()
			s := e.Open(b)
			b.StartTimer()
			start := time.Now()
			firstRefresh(b, s, l, devices, alerts)
			took[i] += time.Since(start)
			b.StopTimer()
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
	n := float64(b.N)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(took[0].Milliseconds())/n, base.Name+"-ms/op")
	b.ReportMetric(float64(took[1].Milliseconds())/n, other.Name+"-ms/op")
	b.ReportMetric(float64(took[1])/float64(took[0]), other.Name+"/"+base.Name)
}

// firstRefresh writes the layout, the devices and the alerts.
func firstRefresh(b *testing.B, s store.Store, l domain.Layout, devices []domain.Device, alerts []domain.Alert) {
	ctx := b.Context()
	if _, err := s.ReplaceLayout(ctx, l); err != nil {
		b.Fatal(err)
	}
	if _, err := s.ReplaceDevices(ctx, "acc", devices); err != nil {
		b.Fatal(err)
	}
	r, err := s.BeginAlerts(ctx, "acc")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(alerts); i += 500 {
		if err := r.Write(ctx, alerts[i:min(i+500, len(alerts))]); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := r.Commit(ctx, nil, time.Time{}); err != nil {
		b.Fatal(err)
	}
}

// HistoryFleet is a simulated fleet that BenchHistoryStorage polls.
type HistoryFleet struct {
	Locations int           // its device locations
	Every     time.Duration // how far each poll moves it on
	// Poll moves the fleet on by Every and returns the time then and its
	// devices as /devices lists them, appended to into[:0].
	Poll func(into []domain.Device) (time.Time, []domain.Device)
}

// BenchHistoryStorage polls a fleet for the given days, writing each poll
// as a refresh of devices that saw the service at the poll's time, and
// reports what the history takes: size says how many bytes of the store
// it takes. It reports, extrapolated linearly to 10,000 locations and 90
// days, the megabytes (millions of bytes) the history takes (MB-10k-90d),
// and, of the run itself, the bytes per device and day, the readings per
// device and day, the bytes per reading, the time a poll's refresh took,
// and the time reading the whole history back took. The locations, days
// and poll interval it ran with are reported as metrics too. One op is
// the whole run: run it with -benchtime 1x.
func BenchHistoryStorage(b *testing.B, open func(b *testing.B) store.Store, size func(store.Store) int64, fleet func() HistoryFleet, days int) {
	ctx := b.Context()
	for b.Loop() {
		b.StopTimer()
		s, f := open(b), fleet()
		s.KeepHistory(true)
		b.StartTimer()
		var devices []domain.Device
		var at, first time.Time
		var writing time.Duration
		polls := int(time.Duration(days) * 24 * time.Hour / f.Every)
		for range polls {
			at, devices = f.Poll(devices)
			if first.IsZero() {
				first = at
			}
			start := time.Now()
			r, err := s.BeginDevices(ctx, "acc")
			if err != nil {
				b.Fatal(err)
			}
			r.SeenAt(at)
			if err := r.Write(ctx, devices); err != nil {
				b.Fatal(err)
			}
			if _, err := r.Commit(ctx); err != nil {
				b.Fatal(err)
			}
			writing += time.Since(start)
		}
		b.StopTimer()
		bytes := float64(size(s))
		start := time.Now()
		h, err := s.DeviceHistory(ctx, "acc", nil, first)
		if err != nil {
			b.Fatal(err)
		}
		reading := time.Since(start)
		readings := 0
		for _, rs := range h {
			readings += len(rs)
		}
		deviceDays := float64(len(devices) * days)
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(bytes*(10_000/float64(f.Locations))*(90/float64(days))/1e6, "MB-10k-90d")
		b.ReportMetric(bytes/deviceDays, "B/device-day")
		b.ReportMetric(float64(readings)/deviceDays, "readings/device-day")
		b.ReportMetric(bytes/float64(readings), "B/reading")
		b.ReportMetric(float64(writing.Microseconds())/1000/float64(polls), "ms/poll")
		b.ReportMetric(float64(reading.Milliseconds()), "read-all-ms")
		b.ReportMetric(float64(f.Locations), "locations")
		b.ReportMetric(float64(days), "days")
		b.ReportMetric(f.Every.Seconds(), "poll-s")
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
