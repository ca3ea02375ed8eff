package report

import (
	"testing"
	"time"

	"washboard/internal/domain"
)

// The sum of two accounts' reports counts as one report of all their
// alerts would: counts and hours added, medians of every resolved alert,
// pick list totals added.
func TestSumAddsAccountsReports(t *testing.T) {
	t.Parallel()
	places := testPlaces()
	a := []domain.Alert{
		closedAlert("a1", "l1", domain.AlertConsumableOut, at(5, 0), at(7, 0), domain.ResolvedByDevice), // 2h
		closedAlert("a2", "l2", domain.AlertConsumableOut, at(6, 30), at(7, 0), domain.ResolvedByUser),  // 30m
		openAlert("a3", "l2", domain.AlertConsumableOut, at(8, 0)),
	}
	b := []domain.Alert{
		closedAlert("b1", "l3", domain.AlertConsumableOut, at(9, 0), at(10, 0), domain.ResolvedByDevice), // 1h
		openAlert("b2", "l4", domain.AlertBatteryOut, at(5, 0)),
		openAlert("b3", "l1", domain.AlertConsumableOut, at(13, 0)),
	}
	build := func(alerts []domain.Alert) Report {
		return Build(Input{Period: early(), Alerts: alerts, Places: places})
	}
	ra, rb := build(a), build(b)
	sum, skipped := Sum([]Report{ra, rb})
	all := build(append(append([]domain.Alert{}, a...), b...))
	if skipped != 0 {
		t.Errorf("skipped %d reports; want none", skipped)
	}
	got, want := sum.Summary, all.Summary
	if got.OpenAtStart != want.OpenAtStart || got.OpenedDuring != want.OpenedDuring || got.ResolvedDuring != want.ResolvedDuring ||
		got.OpenAtEnd != want.OpenAtEnd || got.OverdueAtEnd != want.OverdueAtEnd {
		t.Errorf("summed counts %+v; want those of all the alerts, %+v", got, want)
	}
	if len(got.TimeToResolve) != 1 || got.TimeToResolve[0].Count != 3 || got.TimeToResolve[0].Median != time.Hour {
		t.Errorf("summed medians %+v; want 3 product-out alerts, median 1h (not a mean of the accounts' medians)", got.TimeToResolve)
	}
	for i, r := range got.Resolutions {
		if r != want.Resolutions[i] {
			t.Errorf("resolution %d: %+v; want %+v", i, r, want.Resolutions[i])
		}
	}
	for i, h := range sum.Hourly {
		if h.Opened != all.Hourly[i].Opened || h.Resolved != all.Hourly[i].Resolved {
			t.Errorf("hour %s: %d opened, %d resolved; want %d, %d", h.Label, h.Opened, h.Resolved, all.Hourly[i].Opened, all.Hourly[i].Resolved)
		}
	}
	if sum.PickList.BatterySets != 1 || refillsOf(sum.PickList) != refillsOf(all.PickList) || refillsOf(sum.PickList) != 2 {
		t.Errorf("summed pick list %+v; want %+v", sum.PickList, all.PickList)
	}
	if len(sum.Opened) != 0 || len(sum.PickList.Rows) != 0 {
		t.Errorf("the sum has tables of its own: %d opened, %d pick rows; want none", len(sum.Opened), len(sum.PickList.Rows))
	}

	other := Build(Input{Period: DefaultShifts().On(Date{2026, 6, 2}, 1, time.UTC), Alerts: b, Places: places})
	if _, skipped := Sum([]Report{ra, other}); skipped != 1 {
		t.Errorf("a report of another period: %d skipped; want 1", skipped)
	}
}

func refillsOf(p PickList) int {
	n := 0
	for _, r := range p.Refills {
		n += r.Count
	}
	return n
}
