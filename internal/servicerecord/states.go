package servicerecord

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The levels a state is said in: a dispenser is out when a compartment
// reads 0 % (the level the service reports with product_out), low at or
// below LowAt, full when every compartment reads FullAt or more.
const (
	LowAt  = 15
	FullAt = 90
)

// Dispenser is one of a room's dispensers, before and after a visit.
type Dispenser struct {
	MAC, Position string
	// LocationID, Location and Type are the dispenser's location now.
	LocationID, Location string
	Type                 domain.DeviceType
	Before, After        State
}

// State is a dispenser's state as the service last reported it at a
// time: the reading of the history in force then.
type State struct {
	// Known says a reading told it; the others are zero otherwise.
	Known   bool
	At      time.Time // when the reading was taken
	Levels  []int     // each compartment's level, in percent
	Offline bool
}

// Level is a state in one word.
type Level string

// The levels of a state.
const (
	Unknown Level = "unknown" // no reading tells it
	Offline Level = "offline"
	Out     Level = "out"
	Low     Level = "low"
	Some    Level = "some" // neither low nor full
	Full    Level = "full"
)

// Lowest is the level of the emptiest compartment; -1 when none is known.
func (s State) Lowest() int {
	if len(s.Levels) == 0 {
		return -1
	}
	return slices.Min(s.Levels)
}

// Level is the state in one word: offline says more than the levels a
// silent device last sent.
func (s State) Level() Level {
	low := s.Lowest()
	switch {
	case !s.Known:
		return Unknown
	case s.Offline:
		return Offline
	case low < 0:
		return Unknown
	case low == 0:
		return Out
	case low <= LowAt:
		return Low
	case low >= FullAt:
		return Full
	}
	return Some
}

// stateAt is the state the readings, in time order, tell at t: the last
// reading taken at or before it.
func stateAt(rs []store.Reading, t time.Time) State {
	i, _ := slices.BinarySearchFunc(rs, t, func(r store.Reading, t time.Time) int {
		if r.At.After(t) {
			return 1
		}
		return -1
	})
	if i == 0 {
		return State{}
	}
	r := rs[i-1]
	return State{Known: true, At: r.At, Levels: slices.Clone(r.Levels), Offline: r.Offline}
}

// HistoryStore is what AddStates reads: the dispensers, their locations
// and their history.
type HistoryStore interface {
	FindDevices(ctx context.Context, f store.DeviceFilter) ([]domain.Device, error)
	LocationsIn(ctx context.Context, account, building, floor, room string) ([]domain.Location, error)
	DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error)
	EachDeviceHistory(ctx context.Context, f store.HistoryFilter, each func(store.DeviceReadings) error) error
}

// AddStates adds to each visit of the record the dispensers its room has
// now, each with its state Settle before the visit began and Settle after
// it ended (or now, if that is later than now). The record is of one
// room (roomID), or of the buildings given (nil for every one): the
// history of a room's dispensers is read at once, an account's one
// dispenser at a time.
func AddStates(ctx context.Context, st HistoryStore, account string, buildings []string, roomID string, rec *Record, now time.Time) error {
	if len(rec.Visits) == 0 {
		return nil
	}
	from, to := rec.Visits[0].Start, rec.Visits[0].End
	byRoom := map[string][]int{}
	for i, v := range rec.Visits {
		from, to = minTime(from, v.Start), maxTime(to, v.End)
		byRoom[v.RoomID] = append(byRoom[v.RoomID], i)
	}
	from, to = from.Add(-Settle), minTime(to.Add(Settle), now).Add(time.Second)
	devices, err := st.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: buildings, RoomID: roomID})
	if err != nil {
		return err
	}
	locations, err := st.LocationsIn(ctx, account, "", "", roomID)
	if err != nil {
		return err
	}
	where := make(map[string]domain.Location, len(locations))
	for _, l := range locations {
		where[l.ID] = l
	}
	dispensers := map[string]domain.Device{}
	var macs []string
	for _, d := range devices {
		if len(d.Compartments) > 0 && len(byRoom[where[d.LocationID].RoomID]) > 0 {
			dispensers[d.MAC] = d
			macs = append(macs, d.MAC)
		}
	}
	add := func(mac string, readings []store.Reading) {
		d, ok := dispensers[mac]
		if !ok {
			return
		}
		l := where[d.LocationID]
		for _, i := range byRoom[l.RoomID] {
			v := &rec.Visits[i]
			v.Dispensers = append(v.Dispensers, Dispenser{MAC: d.MAC, Position: d.Position, LocationID: l.ID, Location: l.Name, Type: l.Type,
				Before: stateAt(readings, v.Start.Add(-Settle)), After: stateAt(readings, minTime(v.End.Add(Settle), now))})
		}
		delete(dispensers, mac)
	}
	switch {
	case len(macs) == 0:
	case roomID != "":
		history, err := st.DeviceHistory(ctx, account, macs, from)
		if err != nil {
			return err
		}
		for _, mac := range macs {
			add(mac, history[mac])
		}
	default:
		err := st.EachDeviceHistory(ctx, store.HistoryFilter{Account: account, From: from, To: to, Buildings: buildings, Dispensers: true},
			func(d store.DeviceReadings) error {
				add(d.MAC, d.Readings)
				return nil
			})
		if err != nil {
			return err
		}
		for _, mac := range macs { // those without readings
			if _, ok := dispensers[mac]; ok {
				add(mac, nil)
			}
		}
	}
	for i := range rec.Visits {
		slices.SortFunc(rec.Visits[i].Dispensers, func(a, b Dispenser) int {
			return cmp.Or(strings.Compare(a.Location, b.Location), strings.Compare(a.Position, b.Position), strings.Compare(a.MAC, b.MAC))
		})
	}
	return nil
}
