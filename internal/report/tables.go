package report

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
)

// TopLocationsLimit is the number of locations Report.TopLocations lists at
// most.
const TopLocationsLimit = 10

// AlertRow is an alert in one of the report's tables.
type AlertRow struct {
	Alert domain.Alert
	Place Place
	// TimeToResolve is how long the alert was open, also when it was
	// resolved after the period; zero while it is open.
	TimeToResolve time.Duration
	// MayBeUnfixed says the alert closed because its device went offline
	// (RESOLVED_BY_OFFLINE): the problem may still be there.
	MayBeUnfixed bool
	// OpenAtEnd says the alert was open at the end of the period.
	OpenAtEnd bool
	// OverdueAtEnd says the alert was open and overdue at the end of the
	// period, by the rule of Summary.OverdueAtEnd.
	OverdueAtEnd bool
	// AgeAtEnd is how long the alert had been open at the end of the
	// period; zero unless OpenAtEnd.
	AgeAtEnd time.Duration
}

// OfflineRow is a device offline at the end of the period.
type OfflineRow struct {
	Place Place
	// MAC is the device's MAC; "" when its device_off alert names none.
	MAC string
	// Since is when the device_off alert was created, or, for a device
	// found offline by its current state alone, when it was last seen.
	Since time.Time
	// LastSeen is when the device last reported; zero when unknown (the
	// device state is not current, or the device is not in it).
	LastSeen time.Time
	// AlertID is the device_off alert; "" for a device found offline by its
	// current state alone.
	AlertID string
}

// LocationCount is a location and the alerts opened there during the
// period.
type LocationCount struct {
	Place Place
	// Opened is the number of alerts opened.
	Opened int
	// Types are the types of those alerts, each once, in the order of
	// domain.AlertTypes and then other types by name.
	Types []domain.AlertType
}

func row(a domain.Alert, in Input) AlertRow {
	r := AlertRow{
		Alert:         a,
		Place:         placeOf(in.Places, a.LocationID),
		TimeToResolve: a.TimeToResolve(),
		MayBeUnfixed:  !a.Open() && a.Resolution.MayBeUnfixed(),
		OpenAtEnd:     openAt(a, in.Period.End),
		OverdueAtEnd:  overdueAt(a, in.Period.End),
	}
	if r.OpenAtEnd {
		r.AgeAtEnd = in.Period.End.Sub(a.Created)
	}
	return r
}

// rows makes a row of each alert that keep accepts, ordered by compare and
// then by alert id.
func rows(alerts []domain.Alert, in Input, keep func(domain.Alert) bool, compare func(a, b AlertRow) int) []AlertRow {
	var out []AlertRow
	for _, a := range alerts {
		if keep(a) {
			out = append(out, row(a, in))
		}
	}
	slices.SortFunc(out, func(a, b AlertRow) int {
		return cmp.Or(compare(a, b), strings.Compare(a.Alert.ID, b.Alert.ID))
	})
	return out
}

func opened(alerts []domain.Alert, in Input) []AlertRow {
	return rows(alerts, in,
		func(a domain.Alert) bool { return in.Period.Contains(a.Created) },
		func(a, b AlertRow) int { return a.Alert.Created.Compare(b.Alert.Created) })
}

func resolved(alerts []domain.Alert, in Input) []AlertRow {
	return rows(alerts, in,
		func(a domain.Alert) bool { return resolvedDuring(a, in.Period) },
		func(a, b AlertRow) int { return a.Alert.Resolved.Compare(b.Alert.Resolved) })
}

func stillOpen(alerts []domain.Alert, in Input) []AlertRow {
	return rows(alerts, in,
		func(a domain.Alert) bool { return openAt(a, in.Period.End) },
		func(a, b AlertRow) int {
			if a.OverdueAtEnd != b.OverdueAtEnd {
				if a.OverdueAtEnd {
					return -1
				}
				return 1
			}
			return a.Alert.Created.Compare(b.Alert.Created)
		})
}

// deviceKey names a device at a location; MAC "" stands for the whole
// location.
type deviceKey struct{ location, mac string }

// offline lists the device_off alerts open at the end of the period, one
// row per location and device, and, when the device state is current, the
// devices offline that no such alert covers.
func offline(alerts []domain.Alert, in Input) []OfflineRow {
	found := map[deviceKey]OfflineRow{}
	for _, a := range alerts {
		if a.Type != domain.AlertDeviceOff || !openAt(a, in.Period.End) {
			continue
		}
		for _, mac := range macsOrNone(a.MACs) {
			key := deviceKey{a.LocationID, macKey(mac)}
			r := OfflineRow{Place: placeOf(in.Places, a.LocationID), MAC: mac, Since: a.Created, AlertID: a.ID}
			if old, ok := found[key]; !ok || r.Since.Before(old.Since) || (r.Since.Equal(old.Since) && r.AlertID < old.AlertID) {
				found[key] = r
			}
		}
	}
	if in.DevicesCurrent {
		addOfflineDevices(found, in)
	}
	out := make([]OfflineRow, 0, len(found))
	for _, r := range found {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b OfflineRow) int {
		return cmp.Or(comparePlaces(a.Place, b.Place), strings.Compare(a.MAC, b.MAC), strings.Compare(a.AlertID, b.AlertID))
	})
	return out
}

// addOfflineDevices fills in when the devices of found were last seen, and
// adds the offline devices that found does not cover.
func addOfflineDevices(found map[deviceKey]OfflineRow, in Input) {
	for _, d := range in.Devices {
		key := deviceKey{d.LocationID, macKey(d.MAC)}
		if r, ok := found[key]; ok {
			r.LastSeen = d.LastSeen
			found[key] = r
			continue
		}
		if _, ok := found[deviceKey{d.LocationID, ""}]; ok || !d.Offline {
			continue
		}
		found[key] = OfflineRow{Place: placeOf(in.Places, d.LocationID), MAC: d.MAC, Since: d.LastSeen, LastSeen: d.LastSeen}
	}
}

// macsOrNone returns macs, or a single "" when there are none.
func macsOrNone(macs []string) []string {
	if len(macs) == 0 {
		return []string{""}
	}
	return macs
}

func topLocations(alerts []domain.Alert, in Input) []LocationCount {
	byLocation := map[string]*LocationCount{}
	for _, a := range alerts {
		if !in.Period.Contains(a.Created) {
			continue
		}
		lc := byLocation[a.LocationID]
		if lc == nil {
			lc = &LocationCount{Place: placeOf(in.Places, a.LocationID)}
			byLocation[a.LocationID] = lc
		}
		lc.Opened++
		if !slices.Contains(lc.Types, a.Type) {
			lc.Types = append(lc.Types, a.Type)
		}
	}
	out := make([]LocationCount, 0, len(byLocation))
	for _, lc := range byLocation {
		slices.SortFunc(lc.Types, CompareAlertTypes)
		out = append(out, *lc)
	}
	slices.SortFunc(out, func(a, b LocationCount) int {
		return cmp.Or(cmp.Compare(b.Opened, a.Opened), comparePlaces(a.Place, b.Place))
	})
	return out[:min(len(out), TopLocationsLimit)]
}

// HandledRow is one claim on an alert during the period: who was on it,
// how soon after the alert opened, and how it ended.
type HandledRow struct {
	Claim domain.Claim
	Alert AlertRow
	// TimeToClaim is how long after the alert opened the claim was made.
	TimeToClaim time.Duration
}

// HandledBy is what one person handled during the period: their claims,
// by the time they were made. A claim made before claims belonged to
// people has a name typed and no person: such claims go together by
// name.
type HandledBy struct {
	PersonID string // "" for a name typed
	Name     string // the person's name as it is now, or the name typed
	Rows     []HandledRow
}

// handled lists the claims made or held during the period on the
// report's alerts, by person (by name, then typed names after people of
// the same name), each's by the time they were made.
func handled(alerts []domain.Alert, in Input) []HandledBy {
	byID := make(map[string]domain.Alert, len(alerts))
	for _, a := range alerts {
		byID[a.ID] = a
	}
	var out []HandledBy
	index := map[[2]string]int{} // by person id and name typed
	for _, c := range in.Claims {
		a, ok := byID[c.AlertID]
		during := c.At.Before(in.Period.End) && (c.Active() || c.Ended.After(in.Period.Start))
		if !ok || !during {
			continue
		}
		key := [2]string{c.PersonID, ""}
		if c.PersonID == "" {
			key[1] = c.Name
		}
		i, seen := index[key]
		if !seen {
			i, index[key] = len(out), len(out)
			out = append(out, HandledBy{PersonID: c.PersonID, Name: c.Name})
		}
		out[i].Rows = append(out[i].Rows, HandledRow{Claim: c, Alert: row(a, in), TimeToClaim: max(c.At.Sub(a.Created), 0)})
	}
	for _, h := range out {
		slices.SortFunc(h.Rows, func(a, b HandledRow) int {
			return cmp.Or(a.Claim.At.Compare(b.Claim.At), strings.Compare(a.Claim.AlertID, b.Claim.AlertID))
		})
	}
	typed := func(h HandledBy) int {
		if h.PersonID == "" {
			return 1
		}
		return 0
	}
	slices.SortFunc(out, func(a, b HandledBy) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), strings.Compare(a.Name, b.Name),
			cmp.Compare(typed(a), typed(b)), strings.Compare(a.PersonID, b.PersonID))
	})
	return out
}
