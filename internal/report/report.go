// Package report computes a supervisor's shift handover report: what was
// open when the shift began, what opened and was resolved during it, what is
// left for the next shift, which devices are offline, and what to carry on
// the next round. It is made of pure functions over domain values: no I/O,
// no clock, no store.
//
// An alert counts in a period [Start, End) as follows:
//   - open at a time t: created before t, and still open or resolved at or
//     after t (so an alert resolved exactly at End is open at the end);
//   - opened during: created at or after Start and before End;
//   - resolved during: resolved at or after Start and before End.
//
// A closed alert without a resolution time was resolved at an unknown time:
// it is never open at the start or end, nor resolved during the period, but
// counts as opened during it when it was created then.
package report

import (
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
)

// Place is where a device location is, with the names a report shows.
type Place struct {
	LocationID, Location string
	Room                 string
	FloorID, Floor       string
	BuildingID, Building string
	// Type is the type of device at the location.
	Type domain.DeviceType
}

// Input is what a report is built from.
type Input struct {
	// Period is the period the report covers.
	Period Period
	// Alerts holds at least every alert open at any moment of the period;
	// others are ignored. An alert listed twice (by ID) counts once, as it
	// is first listed.
	Alerts []domain.Alert
	// Places are the device locations by id. Alerts and devices at a
	// location not in it still count, shown with the location id.
	Places map[string]Place
	// Devices is the current state of the devices; it may be nil.
	Devices []domain.Device
	// DevicesCurrent says whether Devices reflects the state at the end of
	// the period. Only then do the offline table and the pick list use it.
	DevicesCurrent bool
	// Claims are who was on the alerts during the period (see
	// domain.Claim), ended claims included; claims of alerts not in
	// Alerts are ignored.
	Claims []domain.Claim
	// RunsOut holds when devices, by MAC, are estimated to next report a
	// compartment out; devices without an estimate are absent. With
	// DevicesCurrent, the report lists what will run out before
	// NextShiftEnd.
	RunsOut      map[string]time.Time
	NextShiftEnd time.Time
	// Done are the "done" reports made during the period (see
	// domain.DoneReport); those of alerts not in Alerts are ignored.
	// CheckedAt is the time the alerts' and devices' states are from, and
	// DoneGrace how long the service may take to agree with a report
	// (domain.DoneReport.ContradictedBy).
	Done      []domain.DoneReport
	CheckedAt time.Time
	DoneGrace time.Duration
}

// Report is a shift handover report: plain data for a view to render.
type Report struct {
	// Period is the period covered.
	Period Period
	// DevicesCurrent says whether the offline table and the pick list
	// include the devices' state, or were built from alerts alone.
	DevicesCurrent bool
	// Summary holds the counts.
	Summary Summary
	// Opened are the alerts opened during the period, by creation time.
	Opened []AlertRow
	// Resolved are the alerts resolved during the period, by resolution time.
	Resolved []AlertRow
	// StillOpen are the alerts open at the end of the period: those overdue
	// at the end first, then the oldest first.
	StillOpen []AlertRow
	// Offline are the devices offline at the end of the period, by place.
	Offline []OfflineRow
	// TopLocations are the locations with the most alerts opened during
	// the period, at most TopLocationsLimit of them, most first.
	TopLocations []LocationCount
	// Hourly counts the alerts opened and resolved in each hour of the
	// period.
	Hourly []Bucket
	// PickList is what to carry on the next shift's round.
	PickList PickList
	// RunningOut is what to carry for the dispensers that are neither out
	// nor low now but will run out before NextShiftEnd: one refill each.
	// Empty unless the devices are current and have estimates.
	RunningOut   PickList
	NextShiftEnd time.Time
	// Handled says who was on which alert during the period, by person
	// (HandledBy).
	Handled []HandledBy
	// Done are the "done" reports made during the period, by the time they
	// were made, each with whether the service contradicts it.
	Done []DoneRow
}

// Summary are the report's counts. OpenAtStart + OpenedDuring -
// ResolvedDuring = OpenAtEnd, up to alerts closed at an unknown time.
type Summary struct {
	// OpenAtStart is the number of alerts open at the start of the period.
	OpenAtStart int
	// OpenedDuring is the number of alerts opened during the period.
	OpenedDuring int
	// ResolvedDuring is the number of alerts resolved during the period.
	ResolvedDuring int
	// Resolutions breaks ResolvedDuring down by how the alerts were
	// resolved: RESOLVED, RESOLVED_BY_USER and RESOLVED_BY_OFFLINE always,
	// in that order and possibly with a zero count, then any other
	// resolution that occurred, by name.
	Resolutions []ResolutionCount
	// OpenAtEnd is the number of alerts open at the end of the period.
	OpenAtEnd int
	// OverdueAtEnd is the number of alerts open at the end of the period
	// that were overdue by then: overdue, and first seen overdue at or
	// before the end. When the alert is overdue but the time it became so
	// is unknown (OverdueSince is zero), it counts when it is still open
	// or was resolved after the end.
	OverdueAtEnd int
	// TimeToResolve is the median time to resolve of the alerts resolved
	// during the period, per alert type, in the order of domain.AlertTypes
	// and then other types by name; only types with resolved alerts.
	TimeToResolve []TypeMedian
}

// ResolutionCount is the number of alerts resolved one way.
type ResolutionCount struct {
	Resolution domain.Resolution
	Count      int
}

// TypeMedian is the median time to resolve of Count alerts of one type.
// For an even count it is the mean of the two middle values.
type TypeMedian struct {
	Type   domain.AlertType
	Count  int
	Median time.Duration
}

// Build computes the report of in.Period.
func Build(in Input) Report {
	p := in.Period
	alerts := relevant(in.Alerts, p)
	return Report{
		Period:         p,
		DevicesCurrent: in.DevicesCurrent,
		Summary:        summarize(alerts, p),
		Opened:         opened(alerts, in),
		Resolved:       resolved(alerts, in),
		StillOpen:      stillOpen(alerts, in),
		Offline:        offline(alerts, in),
		TopLocations:   topLocations(alerts, in),
		Hourly:         hourly(alerts, p),
		PickList:       pickList(alerts, in),
		RunningOut:     runningOut(alerts, in),
		NextShiftEnd:   in.NextShiftEnd,
		Handled:        handled(alerts, in),
		Done:           done(alerts, in),
	}
}

// relevant returns the alerts that count in p, each ID once.
func relevant(alerts []domain.Alert, p Period) []domain.Alert {
	seen := make(map[string]bool, len(alerts))
	var out []domain.Alert
	for _, a := range alerts {
		if a.ID != "" {
			if seen[a.ID] {
				continue
			}
			seen[a.ID] = true
		}
		if openAt(a, p.Start) || p.Contains(a.Created) || resolvedDuring(a, p) {
			out = append(out, a)
		}
	}
	return out
}

// resolvedAt is when a was resolved; false while it is open or when the
// time is unknown.
func resolvedAt(a domain.Alert) (time.Time, bool) {
	if a.Open() || a.Resolved.IsZero() {
		return time.Time{}, false
	}
	return a.Resolved, true
}

// openAt reports whether a was open at t.
func openAt(a domain.Alert, t time.Time) bool {
	if !a.Created.Before(t) {
		return false
	}
	if a.Open() {
		return true
	}
	r, ok := resolvedAt(a)
	return ok && !r.Before(t)
}

func resolvedDuring(a domain.Alert, p Period) bool {
	r, ok := resolvedAt(a)
	return ok && p.Contains(r)
}

// overdueAt reports whether a was open and overdue at t; see
// Summary.OverdueAtEnd.
func overdueAt(a domain.Alert, t time.Time) bool {
	if !a.Overdue || !openAt(a, t) {
		return false
	}
	if !a.OverdueSince.IsZero() {
		return !a.OverdueSince.After(t)
	}
	r, ok := resolvedAt(a)
	return a.Open() || (ok && r.After(t))
}

func summarize(alerts []domain.Alert, p Period) Summary {
	var s Summary
	resolutions := map[domain.Resolution]int{}
	durations := map[domain.AlertType][]time.Duration{}
	for _, a := range alerts {
		if openAt(a, p.Start) {
			s.OpenAtStart++
		}
		if p.Contains(a.Created) {
			s.OpenedDuring++
		}
		if resolvedDuring(a, p) {
			s.ResolvedDuring++
			resolutions[a.Resolution]++
			durations[a.Type] = append(durations[a.Type], a.TimeToResolve())
		}
		if openAt(a, p.End) {
			s.OpenAtEnd++
		}
		if overdueAt(a, p.End) {
			s.OverdueAtEnd++
		}
	}
	s.Resolutions = resolutionCounts(resolutions)
	s.TimeToResolve = medians(durations)
	return s
}

func resolutionCounts(counts map[domain.Resolution]int) []ResolutionCount {
	known := resolutionOrder()
	order := slices.Clone(known)
	for r := range counts {
		if !slices.Contains(known, r) {
			order = append(order, r)
		}
	}
	slices.SortFunc(order, func(a, b domain.Resolution) int { return compareListed(known, a, b) })
	out := make([]ResolutionCount, len(order))
	for i, r := range order {
		out[i] = ResolutionCount{Resolution: r, Count: counts[r]}
	}
	return out
}

func medians(durations map[domain.AlertType][]time.Duration) []TypeMedian {
	out := make([]TypeMedian, 0, len(durations))
	for t, ds := range durations {
		out = append(out, TypeMedian{Type: t, Count: len(ds), Median: Median(ds)})
	}
	slices.SortFunc(out, func(a, b TypeMedian) int { return CompareAlertTypes(a.Type, b.Type) })
	return out
}

// Median returns the median of ds, which it sorts: the mean of the two
// middle values when there is an even number of them; zero when ds is
// empty.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	n := len(ds)
	if n%2 == 1 {
		return ds[n/2]
	}
	return ds[n/2-1] + (ds[n/2]-ds[n/2-1])/2
}

// placeOf returns the place of a location. A location not in places is
// given as a Place whose Location is its id and whose other names are empty.
func placeOf(places map[string]Place, id string) Place {
	if p, ok := places[id]; ok {
		return p
	}
	return Place{LocationID: id, Location: id}
}

// macKey is how MACs are compared: the service writes them in either case.
func macKey(mac string) string { return strings.ToLower(strings.TrimSpace(mac)) }
