package servicelevel

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
)

// Sample is one measured alert, as the client report counts it: its type,
// its building and location (ids, or names: whatever the report groups
// and shows by), and its measure.
type Sample struct {
	Type     domain.AlertType
	Building string
	Location string
	Measure  Measure
}

// Tally counts measured alerts for the client report. What it keeps grows
// with the buildings, types and locations it sees, not with the alerts:
// service times are kept as counts per bucket (see Stat), so a month of
// 100,000 alerts takes no more than the buckets they fall in.
type Tally struct {
	all        group
	byType     map[domain.AlertType]*group
	byBuilding map[string]*group
	locations  map[locationKey]*Location
	unmeasured int
}

type locationKey struct{ building, location string }

// NewTally is an empty tally.
func NewTally() *Tally {
	return &Tally{
		byType:     map[domain.AlertType]*group{},
		byBuilding: map[string]*group{},
		locations:  map[locationKey]*Location{},
	}
}

// Add counts one alert. An alert with no target of either kind is counted
// as unmeasured only.
func (t *Tally) Add(s Sample) {
	m := s.Measure
	if m.Claim.State == NotApplicable && m.Resolve.State == NotApplicable {
		t.unmeasured++
		return
	}
	t.all.add(m)
	of(t.byType, s.Type).add(m)
	of(t.byBuilding, s.Building).add(m)
	key := locationKey{s.Building, s.Location}
	loc := t.locations[key]
	if loc == nil {
		loc = &Location{Building: s.Building, Location: s.Location}
		t.locations[key] = loc
	}
	loc.Alerts++
	if m.Claim.State == Missed || m.Resolve.State == Missed {
		loc.Missed++
	}
	if m.Resolve.State.Outcome() && m.Resolve.Used > loc.Longest {
		loc.Longest = m.Resolve.Used
	}
}

func of[K comparable](m map[K]*group, k K) *group {
	g := m[k]
	if g == nil {
		g = &group{}
		m[k] = g
	}
	return g
}

// Report is what the client report shows of the alerts tallied.
type Report struct {
	// All is every measured alert.
	All Group
	// ByType is each alert type measured, in the domain's order.
	ByType []TypeGroup
	// ByBuilding is each building, by name.
	ByBuilding []BuildingGroup
	// Worst is the locations with the most alerts that missed a target,
	// then the longest time to resolve, then by building and location.
	Worst []Location
	// Unmeasured counts the alerts of types without targets.
	Unmeasured int
}

// Group is the measure of a set of alerts.
type Group struct {
	Alerts         int
	Claim, Resolve Stat
}

// TypeGroup is the measure of the alerts of one type.
type TypeGroup struct {
	Type domain.AlertType
	Group
}

// BuildingGroup is the measure of the alerts of one building.
type BuildingGroup struct {
	Building string
	Group
}

// Location is a location of the worst: how many of its alerts were
// measured and missed a target, and its longest time to resolve.
type Location struct {
	Building, Location string
	Alerts, Missed     int
	Longest            time.Duration
}

// Stat is a set of alerts against one kind of target (claim or resolve).
//
// Median and P90 are nearest-rank percentiles of the service times of the
// alerts done (claimed, or closed): the smallest time that at least half,
// or nine in ten, of them took no longer than; rank ceil(p × n) of the
// times in order. Times are counted to the minute (rounded down) up to a
// day, and to the hour beyond, so a percentile is exact to that.
type Stat struct {
	// Met and Missed count the alerts with an outcome: done within the
	// target, or done after it or still not done past it.
	Met, Missed int
	// Open counts those still open within their target: no outcome yet.
	Open int
	// Done counts those the times are of.
	Done        int
	Median, P90 time.Duration
}

// ShareMet is the share of alerts with an outcome that met the target, 0
// to 1; false when none has an outcome.
func (s Stat) ShareMet() (float64, bool) {
	if s.Met+s.Missed == 0 {
		return 0, false
	}
	return float64(s.Met) / float64(s.Met+s.Missed), true
}

// Report is the tally's figures; worst is how many of the worst
// locations it lists.
func (t *Tally) Report(worst int) Report {
	r := Report{All: t.all.group(), Unmeasured: t.unmeasured}
	for _, typ := range sortedTypes(t.byType) {
		r.ByType = append(r.ByType, TypeGroup{typ, t.byType[typ].group()})
	}
	names := make([]string, 0, len(t.byBuilding))
	for b := range t.byBuilding {
		names = append(names, b)
	}
	slices.Sort(names)
	for _, b := range names {
		r.ByBuilding = append(r.ByBuilding, BuildingGroup{b, t.byBuilding[b].group()})
	}
	locs := make([]*Location, 0, len(t.locations))
	for _, l := range t.locations {
		locs = append(locs, l)
	}
	slices.SortFunc(locs, func(a, b *Location) int {
		return cmp.Or(b.Missed-a.Missed, cmp.Compare(b.Longest, a.Longest),
			strings.Compare(a.Building, b.Building), strings.Compare(a.Location, b.Location))
	})
	for _, l := range locs[:min(max(worst, 0), len(locs))] {
		r.Worst = append(r.Worst, *l)
	}
	return r
}

type group struct {
	alerts         int
	claim, resolve kindTally
}

func (g *group) add(m Measure) {
	g.alerts++
	g.claim.add(m.Claim)
	g.resolve.add(m.Resolve)
}

func (g *group) group() Group {
	return Group{Alerts: g.alerts, Claim: g.claim.stat(), Resolve: g.resolve.stat()}
}

// kindTally counts alerts against one kind of target.
type kindTally struct {
	met, missed, open int
	times             histogram
}

func (k *kindTally) add(o Outcome) {
	switch o.State {
	case Met:
		k.met++
	case Missed:
		k.missed++
	case Pending, AtRisk:
		k.open++
	}
	if o.State.Outcome() && !o.Done.IsZero() {
		k.times.add(o.Used)
	}
}

func (k *kindTally) stat() Stat {
	return Stat{
		Met: k.met, Missed: k.missed, Open: k.open, Done: k.times.n,
		Median: k.times.percentile(50), P90: k.times.percentile(90),
	}
}

// histogram counts durations in buckets: one a minute up to a day, one an
// hour beyond, one for a Horizon and more. It holds at most some 19,000
// buckets, whatever it counts.
type histogram struct {
	n      int
	counts map[int32]int32
}

const dayMinutes = 24 * 60

func bucketOf(d time.Duration) int32 {
	m := max(int64(d/time.Minute), 0)
	if m < dayMinutes {
		return int32(m)
	}
	h := min((m-dayMinutes)/60, int64(Horizon/time.Hour))
	return int32(dayMinutes + h)
}

// floorOf is the shortest duration of a bucket.
func floorOf(b int32) time.Duration {
	if b < dayMinutes {
		return time.Duration(b) * time.Minute
	}
	return 24*time.Hour + time.Duration(b-dayMinutes)*time.Hour
}

func (h *histogram) add(d time.Duration) {
	if h.counts == nil {
		h.counts = map[int32]int32{}
	}
	h.counts[bucketOf(d)]++
	h.n++
}

// percentile is the nearest-rank p-th percentile, 0 < p <= 100: the
// bucket of the ceil(p × n / 100)-th duration in order; zero when empty.
func (h *histogram) percentile(p int) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := (p*h.n + 99) / 100
	buckets := make([]int32, 0, len(h.counts))
	for b := range h.counts {
		buckets = append(buckets, b)
	}
	slices.Sort(buckets)
	seen := 0
	for _, b := range buckets {
		seen += int(h.counts[b])
		if seen >= rank {
			return floorOf(b)
		}
	}
	return floorOf(buckets[len(buckets)-1])
}
