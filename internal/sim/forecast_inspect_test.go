package sim

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"
)

// A backtest that reads ProductReadings sees what a client polling
// /devices sees: the same devices, levels, battery, last_seen and
// device_off, as the world moves on.
func TestProductReadingsMatchDevices(t *testing.T) {
	t.Parallel()
	w, clock := newAPIWorld(t)
	h := w.Handler()
	var readings []ProductReading
	offline, out := 0, 0
	for step := 0; step < 30; step++ {
		readings = w.ProductReadings(0, readings)
		var want []ProductReading
		for _, loc := range getDevices(t, h, "/devices?limit=1000", apiKeyA, apiAuthA) {
			for _, s := range loc.DeviceState {
				if len(s.Status.Product) == 0 {
					continue
				}
				for i, level := range s.Status.Product {
					if out := level == 0; out != s.Status.ProductOut[i] {
						t.Fatalf("%s: product %d with product_out %v: a reading of 0 must mean out", s.DeviceMacID, level, s.Status.ProductOut[i])
					}
				}
				seen, err := time.Parse(time.RFC3339, s.LastSeen)
				if err != nil {
					t.Fatal(err)
				}
				if string(s.DeviceOff) == "true" {
					offline++
				}
				if slices.Contains(s.Status.ProductOut, true) {
					out++
				}
				var level string
				if err := json.Unmarshal(s.Status.BatteryLevel, &level); err != nil {
					t.Fatal(err)
				}
				battery, err := strconv.Atoi(level)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, ProductReading{
					MAC: s.DeviceMacID, Levels: s.Status.Product, Battery: battery, BatteryState: s.Status.BatteryState,
					LastSeen: seen, Offline: string(s.DeviceOff) == "true",
				})
			}
		}
		if !slices.EqualFunc(readings, want, func(a, b ProductReading) bool {
			return a.MAC == b.MAC && slices.Equal(a.Levels, b.Levels) && a.Battery == b.Battery && a.BatteryState == b.BatteryState &&
				a.LastSeen.Equal(b.LastSeen) && a.Offline == b.Offline
		}) {
			t.Fatalf("at %s the readings differ from /devices:\n got %v\nwant %v", clock.Now(), readings, want)
		}
		clock.Add(5*time.Hour + 7*time.Minute)
	}
	if offline == 0 || out == 0 {
		t.Errorf("the polls saw %d offline and %d out readings: the comparison needs both", offline, out)
	}
}

// Config.Record gets, every RecordEvery of the history from RecordFrom
// on, the readings a poll would have got then, of the gateways too, and
// leaves the world as it would be without it.
func TestRecordedHistoryIsWhatPollsWouldHaveSeen(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	const history = 36 * time.Hour
	cfg := Config{Seed: 7, Locations: 40, Accounts: 2, History: history, Zone: time.UTC}
	recorded := map[time.Time][]ProductReading{}
	calls := 0
	rec := cfg
	rec.Clock, rec.RecordEvery, rec.RecordFrom = NewManualClock(now), 6*time.Hour, now.Add(-20*time.Hour)
	rec.Record = func(k int, at time.Time, readings []ProductReading) {
		calls++
		if k == 1 {
			recorded[at] = cloneReadings(readings)
		}
	}
	recording := New(rec)
	if calls != 2*3 || len(recorded) != 3 {
		t.Errorf("Record was called %d times, %d for account 1; want 3 for each of 2 accounts (every 6 h of the last 20 h of 36, now excluded)", calls, len(recorded))
	}
	for at, got := range recorded {
		// A world of the same seed, polled at at.
		then := cfg
		then.Clock, then.History = NewManualClock(at), history-now.Sub(at)
		polled := New(then)
		var products []ProductReading
		gateways := map[string]ProductReading{}
		for _, r := range got {
			if r.Levels == nil {
				gateways[r.MAC] = r
			} else {
				products = append(products, r)
			}
		}
		if want := polled.ProductReadings(1, nil); !slices.EqualFunc(products, want, sameReading) {
			t.Errorf("recorded at %s: %d readings with levels, not those a poll then gets (%d)", at, len(products), len(want))
		}
		a, n := polled.accounts[1], 0
		for _, l := range a.Locations {
			for _, d := range l.Devices {
				if len(d.compartments) > 0 {
					continue
				}
				n++
				s := a.stateOf(d, at)
				if r, ok := gateways[d.MAC]; !ok || r.LastSeen.Format(time.RFC3339) != s.LastSeen || r.Offline != s.DeviceOff {
					t.Errorf("recorded at %s: gateway %s as %+v; a poll then gets last_seen %s, device_off %v", at, d.MAC, r, s.LastSeen, s.DeviceOff)
				}
			}
		}
		if n == 0 || len(gateways) != n {
			t.Errorf("recorded at %s: %d gateways without levels; the account has %d", at, len(gateways), n)
		}
	}
	plain := cfg
	plain.Clock = NewManualClock(now)
	if got, want := recording.ProductReadings(1, nil), New(plain).ProductReadings(1, nil); !slices.EqualFunc(got, want, sameReading) {
		t.Error("recording the history changed the world it leads to")
	}
}

func cloneReadings(rs []ProductReading) []ProductReading {
	out := slices.Clone(rs)
	for i := range out {
		out[i].Levels = slices.Clone(out[i].Levels)
	}
	return out
}

func sameReading(a, b ProductReading) bool {
	return a.MAC == b.MAC && slices.Equal(a.Levels, b.Levels) && a.Battery == b.Battery && a.BatteryState == b.BatteryState &&
		a.LastSeen.Equal(b.LastSeen) && a.Offline == b.Offline
}
