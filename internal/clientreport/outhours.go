package clientreport

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/levels"
	"washboard/internal/servicelevel"
	"washboard/internal/store"
)

// Dispensers' out-hours: how long the dispensers were out of product over
// the period, from the history of their levels the cache keeps
// (store.History). A dispenser is out of product while one of its
// compartments reads 0%, the level the service reports with product_out;
// its hours out are counted from the reading that says so to the next
// reading that does not, the clock running or, within service hours,
// stopped outside them (the service level in force for its building,
// now). The hours of every dispenser are summed: two dispensers out for
// an hour each are 2 hours.

// OutStore is what the out-hours read: the dispensers' history of the
// period and the one before, one dispenser at a time; the service levels;
// the names of the worst locations.
type OutStore interface {
	EachDeviceHistory(ctx context.Context, f store.HistoryFilter, each func(store.DeviceReadings) error) error
	ServiceLevels(ctx context.Context, account string) (map[string]store.ServiceLevel, error)
	Paths(ctx context.Context, account string, ids []string) (map[string]store.Path, error)
}

// OutHours is how long dispensers were out of product over a period,
// summed over the dispensers: in all, and within service hours.
type OutHours struct {
	// Dispensers is how many dispensers had a known level during the
	// period.
	Dispensers     int
	Out, InService time.Duration
}

func (o *OutHours) add(p OutHours) {
	o.Dispensers += p.Dispensers
	o.Out += p.Out
	o.InService += p.InService
}

// OutBuilding is the out-hours of a building's dispensers in the period
// and the one before.
type OutBuilding struct {
	Building  string // its id
	Now, Then OutHours
}

// OutLocation is a location of those whose dispensers were out longest,
// with its names.
type OutLocation struct {
	Location, Building string // ids
	OutHours
	BuildingName, Floor, Room, Name string
}

// Place is the location's name with its floor and room.
func (l OutLocation) Place(loc *i18n.Localizer) string {
	return WorstLocation{Floor: l.Floor, Room: l.Room, Name: l.Name}.Place(loc)
}

// Outs is the out-hours of a report.
type Outs struct {
	// Read says the out-hours were read (AddOutHours).
	Read bool
	// ServiceHours says the account has a service level: InService is
	// counted.
	ServiceHours bool
	Now, Then    OutHours
	// ByBuilding is by building name; Worst the locations out longest in
	// the period, at most MaxWorst, out longest first.
	ByBuilding []OutBuilding
	Worst      []OutLocation
}

// AddOutHours reads the dispensers' out-hours of the report's period
// and the one before, of the buildings the scope sees, up to now: the
// history is read once, over both periods, one dispenser at a time.
func (r *Report) AddOutHours(ctx context.Context, st OutStore, account string, sc domain.BuildingScope, now time.Time) error {
	kept, err := st.ServiceLevels(ctx, account)
	if err != nil {
		return err
	}
	policies := levels.Policies(kept)
	o := Outs{Read: true, ServiceHours: len(policies) > 0}
	start, split, end := r.Prior.From, r.Period.From, r.Period.To
	if now.Before(end) {
		end = now
	}
	type location struct {
		building string
		OutHours
	}
	byBuilding, byLocation := map[string]*OutBuilding{}, map[string]*location{}
	if end.After(start) {
		err = st.EachDeviceHistory(ctx, store.HistoryFilter{Account: account, From: start, To: end, Buildings: sc.IDs(), Dispensers: true},
			func(d store.DeviceReadings) error {
				p, ok := levels.For(policies, d.BuildingID)
				var hours *servicelevel.Hours
				if ok {
					hours = &p.Hours
				}
				then, now := outOf(d.Readings, start, minTime(split, end), hours), outOf(d.Readings, split, end, hours)
				b := byBuilding[d.BuildingID]
				if b == nil {
					b = &OutBuilding{Building: d.BuildingID}
					byBuilding[d.BuildingID] = b
				}
				b.Now.add(now)
				b.Then.add(then)
				o.Now.add(now)
				o.Then.add(then)
				if now.Out > 0 {
					l := byLocation[d.LocationID]
					if l == nil {
						l = &location{building: d.BuildingID}
						byLocation[d.LocationID] = l
					}
					l.add(now)
				}
				return nil
			})
		if err != nil {
			return err
		}
	}
	for _, b := range byBuilding {
		o.ByBuilding = append(o.ByBuilding, *b)
	}
	slices.SortFunc(o.ByBuilding, func(a, b OutBuilding) int {
		return cmp.Or(strings.Compare(r.BuildingName(a.Building), r.BuildingName(b.Building)), strings.Compare(a.Building, b.Building))
	})
	for id, l := range byLocation {
		o.Worst = append(o.Worst, OutLocation{Location: id, Building: l.building, OutHours: l.OutHours})
	}
	slices.SortFunc(o.Worst, func(a, b OutLocation) int {
		return cmp.Or(cmp.Compare(b.Out, a.Out), cmp.Compare(b.InService, a.InService), strings.Compare(a.Location, b.Location))
	})
	o.Worst = o.Worst[:min(len(o.Worst), MaxWorst)]
	if err := o.nameWorst(ctx, st, account, *r); err != nil {
		return err
	}
	r.Outs = o
	return nil
}

// nameWorst names the locations out longest from the account's layout.
func (o *Outs) nameWorst(ctx context.Context, st OutStore, account string, r Report) error {
	ids := make([]string, len(o.Worst))
	for i, l := range o.Worst {
		ids[i] = l.Location
	}
	paths, err := st.Paths(ctx, account, ids)
	if err != nil {
		return err
	}
	for i, l := range o.Worst {
		o.Worst[i].BuildingName = r.BuildingName(l.Building) // no Name: a location since removed, which Place names
		if p, ok := paths[l.Location]; ok {
			o.Worst[i].Floor, o.Worst[i].Room, o.Worst[i].Name = p.Floor.Name, p.Room.Name, p.Location.Name
		}
	}
	return nil
}

// outOf is a dispenser's out-hours over [from, to), from its readings in
// time order (the last before from tells its level at from), in all and
// within the hours given; none given are always open. A dispenser whose
// first reading is at or after to had no known level then, and is not
// counted.
func outOf(rs []store.Reading, from, to time.Time, hours *servicelevel.Hours) OutHours {
	var o OutHours
	if !known(rs, from, to) {
		return o
	}
	o.Dispensers = 1
	eachOut(rs, from, to, func(a, b time.Time) {
		o.Out += b.Sub(a)
		if hours != nil {
			o.InService += hours.Elapsed(a, b)
		} else {
			o.InService += b.Sub(a) // no hours set: always open
		}
	})
	return o
}

// OutSpan is a stretch of time in which a dispenser was out of product.
type OutSpan struct{ From, To time.Time }

// OutSpans is when a dispenser was out of product over [from, to), as
// its out-hours count it: from a reading with a compartment at 0% to the
// next reading without one, readings out one after the other making one
// span, cut to [from, to). Its readings are in time order, the last
// before from telling its level at from. A dispenser still out at to is
// out until to. None when its level was not known in [from, to).
func OutSpans(rs []store.Reading, from, to time.Time) []OutSpan {
	var spans []OutSpan
	if !known(rs, from, to) {
		return nil
	}
	eachOut(rs, from, to, func(a, b time.Time) {
		if n := len(spans); n > 0 && spans[n-1].To.Equal(a) {
			spans[n-1].To = b
			return
		}
		spans = append(spans, OutSpan{From: a, To: b})
	})
	return spans
}

// known says a dispenser's level was known in [from, to): it has a
// reading before to.
func known(rs []store.Reading, from, to time.Time) bool {
	return len(rs) > 0 && to.After(from) && rs[0].At.Before(to)
}

// eachOut calls each with every stretch [a, b) within [from, to) that a
// reading showing a compartment out holds until the next reading.
func eachOut(rs []store.Reading, from, to time.Time, each func(a, b time.Time)) {
	for i, r := range rs {
		next := to
		if i+1 < len(rs) {
			next = rs[i+1].At
		}
		a, b := maxTime(r.At, from), minTime(next, to)
		if out(r) && b.After(a) {
			each(a, b)
		}
	}
}

// out says a reading shows a compartment out of product.
func out(r store.Reading) bool { return slices.Contains(r.Levels, 0) }

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// OutWords is a time out of product in hours, to a tenth: "12.5 hours".
func OutWords(l *i18n.Localizer, d time.Duration) string {
	return l.T("client.out_hours", "hours", l.Decimal(d.Hours(), 1))
}

// OutFigure is out-hours in words: "12.5 hours (8.0 within service
// hours)", without the part in brackets when the account has no service
// hours.
func (o Outs) OutFigure(l *i18n.Localizer, h OutHours) string {
	if !o.ServiceHours {
		return OutWords(l, h.Out)
	}
	return l.T("client.out_within", "out", OutWords(l, h.Out), "within", l.Decimal(h.InService.Hours(), 1))
}

// OutSummary is the out-hours in a few sentences, with the period before;
// none when they were not read.
func (r Report) OutSummary(l *i18n.Localizer) []string {
	o := r.Outs
	if !o.Read {
		return nil
	}
	if o.Now.Dispensers == 0 {
		return []string{l.T("client.out_unknown", "period", r.Period.In(l))}
	}
	out := []string{l.T("client.out_summary", "out", o.OutFigure(l, o.Now), "period", r.Period.In(l), "dispensers", l.N("client.dispensers_count", o.Now.Dispensers))}
	if o.Then.Dispensers == 0 {
		return append(out, l.T("client.out_prior_unknown", "prior", r.Prior.In(l)))
	}
	return append(out, l.T("client.out_prior", "prior", r.Prior.In(l), "out", o.OutFigure(l, o.Then), "dispensers", l.N("client.dispensers_count", o.Then.Dispensers)))
}

// Hours is a duration in hours to a tenth, for a CSV cell.
func Hours(d time.Duration) string { return fmt.Sprintf("%.1f", d.Hours()) }
