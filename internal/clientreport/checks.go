package clientreport

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"washboard/internal/i18n"
	"washboard/internal/levels"
	"washboard/internal/rounds"
	"washboard/internal/store"
)

// Checks saved (docs/rounds.md#checks-saved): the room visits rounds from
// need made in the period (the rooms ticked done on rounds) against those
// fixed rounds every N hours would have made, and the dispensers'
// out-hours under both, from the history, building by building, each
// within its service hours (the building's, else the account's) when set.

// The bounds of checks saved: fixed rounds every 1 to 24 hours, at most
// MaxTicks rooms ticked read.
const (
	MinEvery = time.Hour
	MaxEvery = 24 * time.Hour
	MaxTicks = 100_000
)

// ChecksStore is what checks saved read: the rooms ticked done on rounds,
// and the dispensers' history with the service levels.
type ChecksStore interface {
	OutStore
	RoundTicksIn(ctx context.Context, f store.ServiceFilter) ([]store.RoundTick, error)
}

// ChecksRoom is a room fixed rounds would visit, with its building.
type ChecksRoom struct{ RoomID, Building string }

// ChecksBuilding is what rounds from need saved in a building's rooms.
type ChecksBuilding struct {
	Building string // its id
	rounds.Checks
}

// Checks is what rounds from need saved over a period.
type Checks struct {
	// Read says the checks were read (ReadChecks).
	Read bool
	// Every is how often fixed rounds would have visited every room.
	Every time.Duration
	// ServiceHours says a building's service hours counted.
	ServiceHours bool
	// Total is the buildings' summed; ByBuilding each building's, by id.
	Total      rounds.Checks
	ByBuilding []ChecksBuilding
	// Cut says more rooms were ticked than MaxTicks: the visits counted
	// are the newest MaxTicks.
	Cut bool
}

// None says no room was ticked done on a round in the period: nothing
// to compare.
func (c Checks) None() bool { return c.Total.NeedVisits == 0 }

// ChecksQuery is what ReadChecks compares: the rooms of buildings (nil:
// every building) over [From, To), read no later than Now, with fixed
// rounds every Every; Locations are the rooms of the dispensers'
// locations, by location id.
type ChecksQuery struct {
	Account   string
	Buildings []string
	Rooms     []ChecksRoom
	Locations map[string]string
	From, To  time.Time
	Now       time.Time
	Every     time.Duration
}

// ReadChecks reads checks saved: the rooms ticked done on rounds and the
// dispensers' out spans of the period up to now, compared
// (rounds.ChecksSaved) building by building.
func ReadChecks(ctx context.Context, st ChecksStore, q ChecksQuery) (Checks, error) {
	c := Checks{Read: true, Every: q.Every}
	to := q.To
	if q.Now.Before(to) {
		to = q.Now
	}
	if !to.After(q.From) {
		return c, nil
	}
	kept, err := st.ServiceLevels(ctx, q.Account)
	if err != nil {
		return c, err
	}
	policies := levels.Policies(kept)
	ticks, err := st.RoundTicksIn(ctx, store.ServiceFilter{Account: q.Account, Buildings: q.Buildings, From: q.From, To: to, Limit: MaxTicks})
	if err != nil {
		return c, err
	}
	c.Cut = len(ticks) == MaxTicks
	type part struct {
		rooms  []string
		visits []rounds.Visit
		outs   []rounds.Out
	}
	parts, buildingOf := map[string]*part{}, map[string]string{}
	for _, r := range q.Rooms {
		p := parts[r.Building]
		if p == nil {
			p = &part{}
			parts[r.Building] = p
		}
		p.rooms = append(p.rooms, r.RoomID)
		buildingOf[r.RoomID] = r.Building
	}
	for _, t := range ticks {
		if b, ok := buildingOf[t.RoomID]; ok {
			parts[b].visits = append(parts[b].visits, rounds.Visit{RoomID: t.RoomID, At: t.At})
		}
	}
	err = st.EachDeviceHistory(ctx, store.HistoryFilter{Account: q.Account, From: q.From, To: to, Buildings: q.Buildings, Dispensers: true},
		func(d store.DeviceReadings) error {
			room := q.Locations[d.LocationID]
			b, ok := buildingOf[room]
			if !ok {
				return nil
			}
			for _, s := range OutSpans(d.Readings, q.From, to) {
				parts[b].outs = append(parts[b].outs, rounds.Out{RoomID: room, Dispenser: d.MAC, From: s.From, To: s.To})
			}
			return nil
		})
	if err != nil {
		return c, err
	}
	for b, p := range parts {
		in := rounds.ChecksInput{From: q.From, To: to, Rooms: p.rooms, Visits: p.visits, Outs: p.outs, Every: q.Every}
		if pol, ok := levels.For(policies, b); ok {
			in.Hours, c.ServiceHours = &pol.Hours, true
		}
		got, err := rounds.ChecksSaved(in)
		if err != nil {
			return c, err
		}
		c.ByBuilding = append(c.ByBuilding, ChecksBuilding{Building: b, Checks: got})
		c.Total.FixedRounds = max(c.Total.FixedRounds, got.FixedRounds)
		c.Total.FixedVisits += got.FixedVisits
		c.Total.NeedVisits += got.NeedVisits
		addOut(&c.Total.NeedOut, got.NeedOut)
		addOut(&c.Total.FixedOut, got.FixedOut)
	}
	slices.SortFunc(c.ByBuilding, func(a, b ChecksBuilding) int { return cmp.Compare(a.Building, b.Building) })
	return c, nil
}

func addOut(o *rounds.OutTime, p rounds.OutTime) {
	o.Out += p.Out
	o.InService += p.InService
}

// EveryHours is how often fixed rounds visit, in whole hours.
func (c Checks) EveryHours() int { return int(c.Every / time.Hour) }

// SavedWords is what rounds from need saved in words: "87.8% fewer room
// visits than fixed rounds every 2 h", more visits when they made more,
// or that there were no rounds from need.
func (c Checks) SavedWords(l *i18n.Localizer) string {
	switch {
	case c.None():
		return l.T("checks.none")
	case c.Total.Saved() < 0:
		return l.T("checks.more", "need", l.Number(c.Total.NeedVisits), "fixed", l.Number(c.Total.FixedVisits), "every", l.Number(c.EveryHours()))
	}
	return l.T("checks.fewer", "percent", l.T("client.percent", "n", l.Decimal(c.Total.SavedPercent(), 1)), "every", l.Number(c.EveryHours()))
}

// ChecksSummary is checks saved in a few sentences, for the PDF; none
// when they were not read.
func (r Report) ChecksSummary(l *i18n.Localizer) []string {
	c := r.Checks
	if !c.Read {
		return nil
	}
	if c.None() {
		return []string{c.SavedWords(l)}
	}
	every := l.Number(c.EveryHours())
	out := []string{c.SavedWords(l),
		l.T("checks.visits_line", "need", l.Number(c.Total.NeedVisits), "fixed", l.Number(c.Total.FixedVisits), "every", every),
		l.T("checks.out_line", "need", OutWords(l, c.Total.NeedOut.Out), "fixed", OutWords(l, c.Total.FixedOut.Out))}
	if c.ServiceHours {
		out = append(out, l.T("checks.out_service_line", "need", OutWords(l, c.Total.NeedOut.InService), "fixed", OutWords(l, c.Total.FixedOut.InService)))
	}
	if c.Cut {
		out = append(out, l.T("checks.cut", "count", l.Number(MaxTicks)))
	}
	return out
}

// checksCells are a building's checks saved for the CSV, in the order of
// the header's last columns; empty when not read.
func (c Checks) checksCells(building string) []string {
	if !c.Read {
		return []string{"", "", "", "", "", "", ""}
	}
	for _, b := range c.ByBuilding {
		if b.Building == building {
			in := func(o rounds.OutTime) string {
				if !c.ServiceHours {
					return ""
				}
				return Hours(o.InService)
			}
			return []string{strconv.Itoa(c.EveryHours()), strconv.Itoa(b.NeedVisits), strconv.Itoa(b.FixedVisits),
				Hours(b.NeedOut.Out), Hours(b.FixedOut.Out), in(b.NeedOut), in(b.FixedOut)}
		}
	}
	return []string{"", "", "", "", "", "", ""}
}

// writeChecks writes checks saved: a few sentences.
func (r Report) writeChecks(l *i18n.Localizer, text func(size float64, style, s string), heading func(string)) {
	if !r.Checks.Read {
		return
	}
	heading(l.T("checks.heading"))
	for _, line := range r.ChecksSummary(l) {
		text(10, "", line)
	}
	text(8, "I", l.T("checks.help", "every", l.Number(r.Checks.EveryHours())))
}
