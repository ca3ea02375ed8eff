package report

import (
	"slices"

	"washboard/internal/domain"
)

// DoneRow is a "done" report made during the period from "My work": who
// said what they did about which alert, and whether the service
// contradicts it now (domain.DoneReport.ContradictedBy).
type DoneRow struct {
	Done          domain.DoneReport
	Alert         AlertRow
	Contradiction domain.Contradiction
}

// done lists the "done" reports of in.Done made during the period on the
// report's alerts, by the time they were made, each checked against the
// alert as the service reports it and, with the devices current, the
// device it is about.
func done(alerts []domain.Alert, in Input) []DoneRow {
	byID := make(map[string]domain.Alert, len(alerts))
	for _, a := range alerts {
		byID[a.ID] = a
	}
	var out []DoneRow
	for _, r := range in.Done {
		a, ok := byID[r.AlertID]
		if !ok || !in.Period.Contains(r.At) {
			continue
		}
		var device *domain.Device
		if in.DevicesCurrent {
			device = deviceOf(a, in.Devices)
		}
		out = append(out, DoneRow{Done: r, Alert: row(a, in), Contradiction: r.ContradictedBy(a, device, in.CheckedAt, in.DoneGrace)})
	}
	slices.SortStableFunc(out, func(a, b DoneRow) int { return a.Done.At.Compare(b.Done.At) })
	return out
}

// deviceOf is the device the alert is about: one of its MACs, else the
// only device at its location; nil when none is known.
func deviceOf(a domain.Alert, devices []domain.Device) *domain.Device {
	var at *domain.Device
	n := 0
	for i, d := range devices {
		if slices.Contains(a.MACs, d.MAC) {
			return &devices[i]
		}
		if d.LocationID == a.LocationID {
			at, n = &devices[i], n+1
		}
	}
	if n == 1 {
		return at
	}
	return nil
}

// Contradicted counts the rows the service contradicts.
func Contradicted(rows []DoneRow) int {
	n := 0
	for _, r := range rows {
		if r.Contradiction != domain.NotContradicted {
			n++
		}
	}
	return n
}
