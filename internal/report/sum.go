package report

import (
	"slices"
	"time"

	"washboard/internal/domain"
)

// Sum adds up the reports of several accounts over one period: the
// summary's counts, the alerts per hour and the pick lists' totals. The
// median times to resolve are those of every alert resolved in any of
// them, not a mean of medians. The tables of alerts, devices, locations
// and claims are each account's own and are left empty, as are the pick
// lists' rows (their buildings are each account's); the totals, Refills
// and BatterySets, are summed. Reports of another period than the first's
// are not added, and the second result counts them.
func Sum(reports []Report) (Report, int) {
	if len(reports) == 0 {
		return Report{}, 0
	}
	p := reports[0].Period
	out := Report{Period: p, DevicesCurrent: true, NextShiftEnd: reports[0].NextShiftEnd, Hourly: slices.Clone(reports[0].Hourly)}
	for i := range out.Hourly {
		out.Hourly[i].Opened, out.Hourly[i].Resolved = 0, 0
	}
	resolutions := map[domain.Resolution]int{}
	durations := map[domain.AlertType][]time.Duration{}
	skipped := 0
	for _, r := range reports {
		if !r.Period.Start.Equal(p.Start) || !r.Period.End.Equal(p.End) || len(r.Hourly) != len(out.Hourly) {
			skipped++
			continue
		}
		out.DevicesCurrent = out.DevicesCurrent && r.DevicesCurrent
		s := r.Summary
		out.Summary.OpenAtStart += s.OpenAtStart
		out.Summary.OpenedDuring += s.OpenedDuring
		out.Summary.ResolvedDuring += s.ResolvedDuring
		out.Summary.OpenAtEnd += s.OpenAtEnd
		out.Summary.OverdueAtEnd += s.OverdueAtEnd
		for _, rc := range s.Resolutions {
			resolutions[rc.Resolution] += rc.Count
		}
		for _, row := range r.Resolved {
			durations[row.Alert.Type] = append(durations[row.Alert.Type], row.Alert.TimeToResolve())
		}
		for i, b := range r.Hourly {
			out.Hourly[i].Opened += b.Opened
			out.Hourly[i].Resolved += b.Resolved
		}
		out.PickList = addTotals(out.PickList, r.PickList)
		out.RunningOut = addTotals(out.RunningOut, r.RunningOut)
	}
	out.Summary.Resolutions = resolutionCounts(resolutions)
	out.Summary.TimeToResolve = medians(durations)
	return out, skipped
}

// addTotals adds the totals of b to those of a.
func addTotals(a, b PickList) PickList {
	a.BatterySets += b.BatterySets
	for _, r := range b.Refills {
		i := slices.IndexFunc(a.Refills, func(t Refill) bool { return t.Type == r.Type })
		if i < 0 {
			a.Refills = append(a.Refills, Refill{Type: r.Type})
			i = len(a.Refills) - 1
		}
		a.Refills[i].Count += r.Count
	}
	slices.SortFunc(a.Refills, func(x, y Refill) int { return compareDeviceTypes(x.Type, y.Type) })
	return a
}
