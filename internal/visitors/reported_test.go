package visitors

import (
	"fmt"
	"testing"

	"washboard/internal/domain"
)

// Each report that is an alert, and each flood marker, is told at once
// (the pages and the notifier look again); a rating alone, and a report
// refused without a marker, are not.
func TestReportsThatAreAlertsAreTold(t *testing.T) {
	s, _, _ := newService(t)
	var told []string
	s.OnReport(func(account string) { told = append(told, account) })
	p := Place{Account: "acc", Room: domain.Room{ID: "r1"}}
	if _, err := s.Report(t.Context(), p, Report{Rating: 4}, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	if len(told) != 0 {
		t.Errorf("a rating alone was told: %v", told)
	}
	for i := range 20 {
		s.Report(t.Context(), p, Report{Kind: domain.VisitorNoSoap}, fmt.Sprint("192.0.2.", 10+i))
	}
	// The room takes DefaultLimits.PerRoom a minute, the rating one of
	// them; then one flood marker.
	if want := DefaultLimits.PerRoom - 1 + 1; len(told) != want {
		t.Errorf("told %d times of 20 reports on a room in a minute; want %d", len(told), want)
	}
}
