package clientreport

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/readings"
)

// EachDeviceHistory passes the fake's devices' readings as the store
// does: those before the span's end, from the last one before its start.
func (f fakeStore) EachDeviceHistory(_ context.Context, h store.HistoryFilter, fn func(store.DeviceReadings) error) error {
	for _, d := range f.history {
		if h.Buildings != nil && !slices.Contains(h.Buildings, d.BuildingID) {
			continue
		}
		var rs []store.Reading
		for _, r := range d.Readings {
			if h.To.IsZero() || r.At.Before(h.To) {
				rs = append(rs, r)
			}
		}
		if rs = readings.From(rs, h.From); len(rs) == 0 {
			continue
		}
		d.Readings = rs
		if err := fn(d); err != nil {
			return err
		}
	}
	return nil
}

func level(at time.Time, levels ...int) store.Reading { return store.Reading{At: at, Levels: levels} }

// TestOutHours: a dispenser is out of product from a reading of a
// compartment at 0% to the next reading without one; its hours are
// counted in the month and in the month before, up to now, in all and
// within its building's service hours, summed over dispensers, by
// building and by location.
func TestOutHours(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time {
		v, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	st := fakeStore{
		buildings: []domain.Building{{ID: "b1", Name: "North"}, {ID: "b2", Name: "South"}},
		levels: map[string]store.ServiceLevel{
			"":   {Week: "Mon-Fri 08:00-18:00", Zone: "UTC", Targets: []store.ServiceTarget{{Type: domain.AlertJam, Claim: 15 * time.Minute}}},
			"b2": {Week: "always", Zone: "UTC", Targets: []store.ServiceTarget{{Type: domain.AlertJam, Claim: 15 * time.Minute}}},
		},
		history: []store.DeviceReadings{
			// Out from Sat 31 Oct 20:00 to Mon 2 Nov 10:00: 4 h in October,
			// none within hours; 34 h in November, 2 within hours.
			{MAC: "D1", LocationID: "l1", BuildingID: "b1", Readings: []store.Reading{level(at("2026-10-20 00:00"), 60), level(at("2026-10-31 20:00"), 0),
				level(at("2026-11-02 10:00"), 80)}},
			// One compartment of two out for 2.5 h, open round the clock.
			{MAC: "D2", LocationID: "l2", BuildingID: "b2", Readings: []store.Reading{level(at("2026-11-10 12:00"), 50, 0), level(at("2026-11-10 14:30"), 50, 100)}},
			// Out from Fri 20 Nov 00:00 until now, Sat 21 Nov 00:00: 24 h,
			// 10 within hours.
			{MAC: "D3", LocationID: "l1", BuildingID: "b1", Readings: []store.Reading{level(at("2026-11-20 00:00"), 0)}},
		},
	}
	p, err := ParseMonth("2026-11", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	now := at("2026-11-21 00:00")
	r, err := Build(t.Context(), st, "a", domain.EveryBuilding(), p)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AddOutHours(t.Context(), st, "a", domain.EveryBuilding(), now); err != nil {
		t.Fatal(err)
	}
	o := r.Outs
	if o.Now != (OutHours{Dispensers: 3, Out: 60*time.Hour + 30*time.Minute, InService: 14*time.Hour + 30*time.Minute}) ||
		o.Then != (OutHours{Dispensers: 1, Out: 4 * time.Hour}) {
		t.Errorf("November %+v, October %+v; want 60.5 h (14.5 within hours) over 3 dispensers, and 4 h (none within) over 1", o.Now, o.Then)
	}
	want := []string{
		"Dispensers were out of product for 60.5 hours (14.5 within service hours) in November 2026, summed over 3 dispensers whose levels were kept.",
		"In October 2026 they were out of product for 4.0 hours (0.0 within service hours), over 1 dispenser.",
	}
	if got := r.OutSummary(en); !slices.Equal(got, want) {
		t.Errorf("the summary reads\n%q\nwant\n%q", got, want)
	}
	if len(o.ByBuilding) != 2 || o.ByBuilding[0].Building != "b1" || o.ByBuilding[0].Now.Out != 58*time.Hour || o.ByBuilding[0].Then.Out != 4*time.Hour ||
		o.ByBuilding[1].Now.InService != 150*time.Minute {
		t.Errorf("by building: %+v", o.ByBuilding)
	}
	if len(o.Worst) != 2 || o.Worst[0].Location != "l1" || o.Worst[0].Out != 58*time.Hour || o.Worst[0].Place(en) != "Loc l1 (Floor, Room)" ||
		o.Worst[0].BuildingName != "North" || o.Worst[1].Location != "l2" {
		t.Errorf("the locations out longest: %+v", o.Worst)
	}
	var rows []string
	for _, row := range r.CSVRows() {
		rows = append(rows, strings.Join(row, ","))
	}
	if !slices.Contains(rows, "North,all,0,0,0,,,,0,0,,,,2,58.0,12.0,,,,,,,,,,,,") || !slices.Contains(rows, "South,all,0,0,0,,,,0,0,,,,1,2.5,2.5,,,,,,,,,,,,") {
		t.Errorf("the CSV's rows of each building's whole:\n%s", strings.Join(rows, "\n"))
	}

	// A building's own hours alone: the dispensers of the others are
	// always within service hours, as with no hours set.
	st.levels = map[string]store.ServiceLevel{"b2": {Week: "Sat 08:00-14:00", Zone: "UTC"}}
	r, _ = Build(t.Context(), st, "a", domain.EveryBuilding(), p)
	if err := r.AddOutHours(t.Context(), st, "a", domain.EveryBuilding(), now); err != nil || !r.Outs.ServiceHours ||
		r.Outs.Now.InService != 58*time.Hour || r.Outs.Now.Out != 60*time.Hour+30*time.Minute {
		t.Errorf("with the south's own hours alone: %+v, %v; want 58 of 60.5 hours within service hours", r.Outs.Now, err)
	}

	// Limited to the south building; without a service level, no hours
	// within it.
	south := domain.OnlyBuildings("b2")
	st.levels = nil
	r, err = Build(t.Context(), st, "a", south, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AddOutHours(t.Context(), st, "a", south, now); err != nil {
		t.Fatal(err)
	}
	want = []string{
		"Dispensers were out of product for 2.5 hours in November 2026, summed over 1 dispenser whose levels were kept.",
		"No dispenser's level was kept for October 2026 to set it against.",
	}
	if got := r.OutSummary(en); !slices.Equal(got, want) {
		t.Errorf("limited to the south, without service hours, the summary reads\n%q\nwant\n%q", got, want)
	}

	// A month to come has nothing yet.
	next, _ := ParseMonth("2026-12", time.UTC)
	r, _ = Build(t.Context(), st, "a", domain.EveryBuilding(), next)
	if err := r.AddOutHours(t.Context(), st, "a", domain.EveryBuilding(), now); err != nil || r.Outs.Now.Dispensers != 0 || r.Outs.Then.Out != 60*time.Hour+30*time.Minute {
		t.Errorf("December, from 21 November: %+v, %v", r.Outs, err)
	}
}

// TestOutSpans: the spans a dispenser was out, as its out-hours count
// them: readings out one after the other make one span, cut to the
// period; one still out at the period's end is out until it; one whose
// level was not known in the period has none.
func TestOutSpans(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	h := func(hours float64) time.Time { return day.Add(time.Duration(hours * float64(time.Hour))) }
	rs := []store.Reading{
		level(h(0), 60, 40), level(h(2), 60, 0), level(h(3), 55, 0), // one compartment of two out, read twice
		level(h(5), 50, 100), level(h(7), 0, 100),
	}
	for _, c := range []struct {
		name     string
		from, to time.Time
		want     []OutSpan
	}{
		{"whole", h(1), h(8), []OutSpan{{h(2), h(5)}, {h(7), h(8)}}},
		{"from within a span", h(4), h(8), []OutSpan{{h(4), h(5)}, {h(7), h(8)}}},
		{"ending within a span", h(0), h(2.5), []OutSpan{{h(2), h(2.5)}}},
		{"between spans", h(5), h(7), nil},
		{"before any reading", h(-3), h(0), nil},
	} {
		got := OutSpans(rs, c.from, c.to)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: spans %v, want %v", c.name, got, c.want)
		}
	}
}
