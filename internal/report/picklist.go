package report

import (
	"cmp"
	"slices"
	"strings"

	"washboard/internal/domain"
)

// PickList is what to carry on the next shift's round, per building and
// floor, with totals.
type PickList struct {
	// Rows are the floors with something to carry, by building name and
	// then floor name.
	Rows []PickRow
	// Refills are the total refills per device type.
	Refills []Refill
	// BatterySets is the total number of battery sets.
	BatterySets int
}

// PickRow is what to carry to one floor. Building and floor are empty for
// locations the report does not know.
type PickRow struct {
	BuildingID, Building string
	FloorID, Floor       string
	// Refills are the refills per device type, in the order tissue,
	// towel, soap, sanitizer, then other types by name; only types with a
	// count.
	Refills []Refill
	// BatterySets is the number of battery sets.
	BatterySets int
}

// Refill is a number of refills for one type of device; see
// domain.DeviceType.RefillNoun.
type Refill struct {
	Type  domain.DeviceType
	Count int
}

// need is one thing to carry to one device or location.
type need struct {
	kind     domain.AlertType // consumable_out or battery_out
	location string
	macs     string // the alert's MACs, lower case and sorted; "" for a whole location
}

// pickList adds up what to carry:
//   - for each consumable_out alert open at the end, its refill count (at
//     least one) of refills for the location's device type;
//   - for each battery_out alert open at the end, its refill count (at least
//     one) of battery sets;
//   - when the device state is current, one refill per compartment that is
//     out or low, for a device no open consumable_out alert covers, and one
//     battery set for a device whose battery is Low or Shutdown that no open
//     battery_out alert covers.
//
// An alert covers the devices it names, or its whole location when it names
// none. Alerts of one kind naming the same devices at the same location are
// one need, of the largest refill count. Gateways (collectors) get no
// refills.
func pickList(alerts []domain.Alert, in Input) PickList {
	needs, covered := alertNeeds(alerts, in.Period)
	floors := map[[2]string]*PickRow{}
	for n, count := range needs {
		place := placeOf(in.Places, n.location)
		if n.kind == domain.AlertBatteryOut {
			floorOf(floors, place).BatterySets += count
		} else {
			addRefills(floors, place, count)
		}
	}
	if in.DevicesCurrent {
		addDeviceNeeds(floors, covered, in)
	}
	return totals(floors)
}

// alertNeeds returns the needs of the consumable_out and battery_out alerts
// open at the end of p, and the devices (or whole locations) they cover.
func alertNeeds(alerts []domain.Alert, p Period) (map[need]int, map[domain.AlertType]map[deviceKey]bool) {
	needs := map[need]int{}
	covered := map[domain.AlertType]map[deviceKey]bool{
		domain.AlertConsumableOut: {},
		domain.AlertBatteryOut:    {},
	}
	for _, a := range alerts {
		devices, ok := covered[a.Type]
		if !ok || !openAt(a, p.End) {
			continue
		}
		macs := make([]string, len(a.MACs))
		for i, mac := range a.MACs {
			macs[i] = macKey(mac)
			devices[deviceKey{a.LocationID, macs[i]}] = true
		}
		if len(macs) == 0 {
			devices[deviceKey{a.LocationID, ""}] = true
		}
		slices.Sort(macs)
		n := need{kind: a.Type, location: a.LocationID, macs: strings.Join(macs, " ")}
		needs[n] = max(needs[n], alertCount(a))
	}
	return needs, covered
}

// AlertNeeds is what one open alert asks staff to carry, as the pick list
// counts it: for consumable_out, its refill count (at least one) of
// refills for the location's device type t (none for a gateway); for
// battery_out, as many battery sets; nothing for other alerts.
func AlertNeeds(a domain.Alert, t domain.DeviceType) (refills, batterySets int) {
	switch {
	case a.Type == domain.AlertBatteryOut:
		return 0, alertCount(a)
	case a.Type == domain.AlertConsumableOut && t != domain.Collector:
		return alertCount(a), 0
	}
	return 0, 0
}

// alertCount is the number of things an alert asks for: its refill
// count, at least one.
func alertCount(a domain.Alert) int { return max(a.RefillCount, 1) }

// addDeviceNeeds adds what the devices' current state asks for and no
// alert covers. A device listed twice counts once.
func addDeviceNeeds(floors map[[2]string]*PickRow, covered map[domain.AlertType]map[deviceKey]bool, in Input) {
	isCovered := func(kind domain.AlertType, d domain.Device) bool {
		return covered[kind][deviceKey{d.LocationID, macKey(d.MAC)}] || covered[kind][deviceKey{d.LocationID, ""}]
	}
	seen := map[deviceKey]bool{}
	for _, d := range in.Devices {
		key := deviceKey{d.LocationID, macKey(d.MAC)}
		if seen[key] {
			continue
		}
		seen[key] = true
		place := placeOf(in.Places, d.LocationID)
		if !isCovered(domain.AlertConsumableOut, d) {
			addRefills(floors, place, emptying(d))
		}
		if (d.BatteryState == domain.BatteryLow || d.BatteryState == domain.BatteryShutdown) && !isCovered(domain.AlertBatteryOut, d) {
			floorOf(floors, place).BatterySets++
		}
	}
}

// emptying is the number of compartments of d that are out or low.
func emptying(d domain.Device) int {
	n := 0
	for _, c := range d.Compartments {
		if c.Out || c.Low {
			n++
		}
	}
	return n
}

// addRefills adds n refills for the device type of place, unless it is a
// gateway or n is zero.
func addRefills(floors map[[2]string]*PickRow, place Place, n int) {
	if n <= 0 || place.Type == domain.Collector {
		return
	}
	row := floorOf(floors, place)
	i := slices.IndexFunc(row.Refills, func(r Refill) bool { return r.Type == place.Type })
	if i < 0 {
		row.Refills = append(row.Refills, Refill{Type: place.Type})
		i = len(row.Refills) - 1
	}
	row.Refills[i].Count += n
}

func floorOf(floors map[[2]string]*PickRow, place Place) *PickRow {
	key := [2]string{place.BuildingID, place.FloorID}
	row := floors[key]
	if row == nil {
		row = &PickRow{BuildingID: place.BuildingID, Building: place.Building, FloorID: place.FloorID, Floor: place.Floor}
		floors[key] = row
	}
	return row
}

// totals orders the rows and adds them up.
func totals(floors map[[2]string]*PickRow) PickList {
	var list PickList
	for _, row := range floors {
		slices.SortFunc(row.Refills, func(a, b Refill) int { return compareDeviceTypes(a.Type, b.Type) })
		list.Rows = append(list.Rows, *row)
		list.BatterySets += row.BatterySets
		for _, r := range row.Refills {
			i := slices.IndexFunc(list.Refills, func(t Refill) bool { return t.Type == r.Type })
			if i < 0 {
				list.Refills = append(list.Refills, Refill{Type: r.Type})
				i = len(list.Refills) - 1
			}
			list.Refills[i].Count += r.Count
		}
	}
	slices.SortFunc(list.Refills, func(a, b Refill) int { return compareDeviceTypes(a.Type, b.Type) })
	slices.SortFunc(list.Rows, func(a, b PickRow) int {
		return cmp.Or(
			CompareNames(a.Building, b.Building), strings.Compare(a.BuildingID, b.BuildingID),
			CompareNames(a.Floor, b.Floor), strings.Compare(a.FloorID, b.FloorID),
		)
	})
	return list
}

// runningOut adds up a refill for each dispenser that will run out before
// the end of the next shift and is on no other list: none of its
// compartments out or low, no open consumable_out alert covering it. A
// device listed twice counts once.
func runningOut(alerts []domain.Alert, in Input) PickList {
	if !in.DevicesCurrent || len(in.RunsOut) == 0 || in.NextShiftEnd.IsZero() {
		return PickList{}
	}
	_, covered := alertNeeds(alerts, in.Period)
	floors := map[[2]string]*PickRow{}
	seen := map[deviceKey]bool{}
	for _, d := range in.Devices {
		key := deviceKey{d.LocationID, macKey(d.MAC)}
		at, ok := in.RunsOut[d.MAC]
		if seen[key] || !ok || at.After(in.NextShiftEnd) || emptying(d) > 0 ||
			covered[domain.AlertConsumableOut][key] || covered[domain.AlertConsumableOut][deviceKey{d.LocationID, ""}] {
			continue
		}
		seen[key] = true
		addRefills(floors, placeOf(in.Places, d.LocationID), 1)
	}
	return totals(floors)
}
