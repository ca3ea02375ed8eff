// Package clientreport is the client report: how an account kept to its
// service levels over a period (a month, or any range of days), by alert
// type and by building, with the worst locations, against the period
// before. It reads the measures kept when alerts closed
// (store.ServiceLevels.EachAlertMeasure) one at a time and counts them
// with servicelevel.Tally, so what it holds does not grow with the alerts.
package clientreport

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/levels"
	"washboard/internal/servicelevel"
	"washboard/internal/store"
)

// MaxWorst is how many of the worst locations a report lists.
const MaxWorst = 20

// MaxDays is the longest period a report covers: the measures are kept
// 400 days.
const MaxDays = 400

// Store is what the report reads: the service levels and the measures
// kept, and the names of buildings and locations.
type Store interface {
	ServiceLevels(ctx context.Context, account string) (map[string]store.ServiceLevel, error)
	EachAlertMeasure(ctx context.Context, account string, from, to time.Time, buildings []string, f func(store.AlertMeasure) error) error
	Buildings(ctx context.Context, account string) ([]domain.Building, error)
	Paths(ctx context.Context, account string, ids []string) (map[string]store.Path, error)
}

// Period is a report's period, [From, To), of whole days in its zone.
type Period struct {
	From, To time.Time
	// Month says the period is a calendar month: the one before is the
	// month before; otherwise it is as many days just before.
	Month bool
}

// MonthOf is the calendar month of t in zone.
func MonthOf(t time.Time, zone *time.Location) Period {
	y, m, _ := t.In(zone).Date()
	from := time.Date(y, m, 1, 0, 0, 0, 0, zone)
	return Period{From: from, To: from.AddDate(0, 1, 0), Month: true}
}

// ParseMonth reads a month written 2026-11, in zone.
func ParseMonth(s string, zone *time.Location) (Period, error) {
	t, err := time.ParseInLocation("2006-01", s, zone)
	if err != nil {
		return Period{}, fmt.Errorf("%q is not a month such as 2026-11", clip(s))
	}
	return MonthOf(t, zone), nil
}

// ParseDays reads a range of days written 2026-11-01 to 2026-11-15, both
// included, in zone; at most MaxDays.
func ParseDays(from, to string, zone *time.Location) (Period, error) {
	f, err := time.ParseInLocation(time.DateOnly, from, zone)
	if err != nil {
		return Period{}, fmt.Errorf("%q is not a date such as 2026-11-01", clip(from))
	}
	t, err := time.ParseInLocation(time.DateOnly, to, zone)
	if err != nil {
		return Period{}, fmt.Errorf("%q is not a date such as 2026-11-30", clip(to))
	}
	if t.Before(f) {
		return Period{}, fmt.Errorf("the last day, %s, is before the first, %s", to, from)
	}
	p := Period{From: f, To: t.AddDate(0, 0, 1)}
	if p.To.Sub(p.From) > (MaxDays+1)*24*time.Hour || p.Days() > MaxDays {
		return Period{}, fmt.Errorf("the range is longer than the %d days a report covers", MaxDays)
	}
	return p, nil
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Days is how many calendar days the period covers.
func (p Period) Days() int {
	n := 0
	for d := p.From; d.Before(p.To); d = d.AddDate(0, 0, 1) {
		n++
	}
	return n
}

// Last is the period's last day.
func (p Period) Last() time.Time { return p.To.AddDate(0, 0, -1) }

// Before is the period the report sets this one against: the month
// before a month, else as many days just before.
func (p Period) Before() Period {
	if p.Month {
		return Period{From: p.From.AddDate(0, -1, 0), To: p.From, Month: true}
	}
	return Period{From: p.From.AddDate(0, 0, -p.Days()), To: p.From}
}

// String is the period in English words: "November 2026", "1 Nov 2026
// – 15 Nov 2026".
func (p Period) String() string { return p.In(i18n.For("en")) }

// In is the period in words of the localizer's language: "November
// 2026", "novembre 2026", "1 Nov 2026 – 15 Nov 2026", "01.11.2026 –
// 15.11.2026".
func (p Period) In(l *i18n.Localizer) string {
	if p.Month {
		return monthName(l, p.From.Month(), p.From.Year())
	}
	if p.Days() == 1 {
		return l.Date(p.From, p.From.Location())
	}
	return l.Date(p.From, p.From.Location()) + " – " + l.Date(p.Last(), p.From.Location())
}

// monthName is a month of a year in words: "November 2026".
func monthName(l *i18n.Localizer, m time.Month, year int) string {
	y := strconv.Itoa(year)
	switch m {
	case time.January:
		return l.T("client.month_01", "year", y)
	case time.February:
		return l.T("client.month_02", "year", y)
	case time.March:
		return l.T("client.month_03", "year", y)
	case time.April:
		return l.T("client.month_04", "year", y)
	case time.May:
		return l.T("client.month_05", "year", y)
	case time.June:
		return l.T("client.month_06", "year", y)
	case time.July:
		return l.T("client.month_07", "year", y)
	case time.August:
		return l.T("client.month_08", "year", y)
	case time.September:
		return l.T("client.month_09", "year", y)
	case time.October:
		return l.T("client.month_10", "year", y)
	case time.November:
		return l.T("client.month_11", "year", y)
	}
	return l.T("client.month_12", "year", y)
}

// Report is the client report of a period.
type Report struct {
	Period, Prior Period
	// Set says the account has a service level: without one nothing is
	// measured.
	Set bool
	// Now is the report's figures, Then the prior period's.
	Now, Then servicelevel.Report
	// Cells is the alerts of each type in each building, by building name
	// then type.
	Cells []Cell
	// Worst is the worst locations, at most MaxWorst, named.
	Worst []WorstLocation
	// Buildings names the buildings of the figures, by id.
	Buildings map[string]string
	// Outs is how long the dispensers were out of product (AddOutHours).
	Outs Outs
	// Service is the service record's visits (AddService).
	Service Service
	// Checks is what rounds from need saved (ReadChecks).
	Checks Checks
	// Ratings are what visitors rated the rooms (AddRatings).
	Ratings Ratings
}

// Cell is the measure of the alerts of one type in one building.
type Cell struct {
	Building string // its name
	Type     domain.AlertType
	servicelevel.Group
}

// WorstLocation is a location of the worst, with its names.
type WorstLocation struct {
	servicelevel.Location
	Building, Floor, Room, Name string
}

// BuildingName is the name of the building of this id, in English words
// for none or one since removed: for the CSV and the order of rows.
func (r Report) BuildingName(id string) string { return r.BuildingNameIn(i18n.For("en"), id) }

// BuildingNameIn is the name of the building of this id, or words in the
// localizer's language for none, or one since removed.
func (r Report) BuildingNameIn(l *i18n.Localizer, id string) string {
	if n, ok := r.Buildings[id]; ok {
		return n
	}
	if id == "" {
		return l.T("client.no_building")
	}
	return l.T("client.building_removed")
}

// Build makes the client report of the account's alerts closed in the
// period, of the buildings the scope sees.
func Build(ctx context.Context, st Store, account string, sc domain.BuildingScope, p Period) (Report, error) {
	r := Report{Period: p, Prior: p.Before(), Buildings: map[string]string{}}
	kept, err := st.ServiceLevels(ctx, account)
	if err != nil {
		return r, err
	}
	r.Set = len(kept) > 0
	bs, err := st.Buildings(ctx, account)
	if err != nil {
		return r, err
	}
	for _, b := range bs {
		if sc.Sees(b.ID) {
			r.Buildings[b.ID] = b.Name
		}
	}
	all, byBuilding := servicelevel.NewTally(), map[string]*servicelevel.Tally{}
	err = st.EachAlertMeasure(ctx, account, p.From, p.To, sc.IDs(), func(m store.AlertMeasure) error {
		s := sample(m)
		all.Add(s)
		t := byBuilding[m.BuildingID]
		if t == nil {
			t = servicelevel.NewTally()
			byBuilding[m.BuildingID] = t
		}
		t.Add(s)
		return nil
	})
	if err != nil {
		return r, err
	}
	r.Now = all.Report(MaxWorst)
	for id, t := range byBuilding {
		for _, g := range t.Report(0).ByType {
			r.Cells = append(r.Cells, Cell{Building: r.BuildingName(id), Type: g.Type, Group: g.Group})
		}
	}
	slices.SortStableFunc(r.Cells, func(a, b Cell) int {
		return cmp.Or(strings.Compare(a.Building, b.Building), slices.Index(domain.AlertTypes, a.Type)-slices.Index(domain.AlertTypes, b.Type))
	})
	slices.SortStableFunc(r.Now.ByBuilding, func(a, b servicelevel.BuildingGroup) int {
		return strings.Compare(r.BuildingName(a.Building), r.BuildingName(b.Building))
	})
	if err := r.nameWorst(ctx, st, account); err != nil {
		return r, err
	}
	prior := servicelevel.NewTally()
	err = st.EachAlertMeasure(ctx, account, r.Prior.From, r.Prior.To, sc.IDs(), func(m store.AlertMeasure) error {
		prior.Add(sample(m))
		return nil
	})
	r.Then = prior.Report(0)
	return r, err
}

// sample is a kept measure as the tally counts it: the alert was claimed
// when first claimed, or else when it closed, and resolved when it closed.
func sample(m store.AlertMeasure) servicelevel.Sample {
	claim, resolve := levels.Outcome(m.Claim), levels.Outcome(m.Resolve)
	claim.Done, resolve.Done = cmp.Or(m.Claimed, m.Closed), m.Closed
	return servicelevel.Sample{Type: m.Type, Building: m.BuildingID, Location: m.LocationID,
		Measure: servicelevel.Measure{Claim: claim, Resolve: resolve}}
}

// nameWorst names the worst locations from the account's layout.
func (r *Report) nameWorst(ctx context.Context, st Store, account string) error {
	ids := make([]string, len(r.Now.Worst))
	for i, l := range r.Now.Worst {
		ids[i] = l.Location
	}
	paths, err := st.Paths(ctx, account, ids)
	if err != nil {
		return err
	}
	for _, l := range r.Now.Worst {
		w := WorstLocation{Location: l, Building: r.BuildingName(l.Building)} // no name: a location since removed
		if p, ok := paths[l.Location]; ok {
			w.Floor, w.Room, w.Name = p.Floor.Name, p.Room.Name, p.Location.Name
		}
		r.Worst = append(r.Worst, w)
	}
	return nil
}

// Comparison is the alerts of one type in the period and in the one
// before.
type Comparison struct {
	Type      domain.AlertType
	Now, Then servicelevel.Group
}

// Against sets each alert type measured in either period against the
// period before, in the domain's order of types.
func (r Report) Against() []Comparison {
	by := map[domain.AlertType]*Comparison{}
	var out []Comparison
	for _, typ := range domain.AlertTypes {
		by[typ] = &Comparison{Type: typ}
	}
	for _, g := range r.Now.ByType {
		if c, ok := by[g.Type]; ok {
			c.Now = g.Group
		}
	}
	for _, g := range r.Then.ByType {
		if c, ok := by[g.Type]; ok {
			c.Then = g.Group
		}
	}
	for _, typ := range domain.AlertTypes {
		if c := by[typ]; c.Now.Alerts+c.Then.Alerts > 0 {
			out = append(out, *c)
		}
	}
	return out
}

// Zone is the time zone of the account's client report: its service
// level's, else fallback.
func Zone(ctx context.Context, st interface {
	ServiceLevels(ctx context.Context, account string) (map[string]store.ServiceLevel, error)
}, account string, fallback *time.Location) (*time.Location, error) {
	kept, err := st.ServiceLevels(ctx, account)
	if err != nil {
		return nil, err
	}
	if sl, ok := kept[""]; ok {
		if z, err := time.LoadLocation(sl.Zone); err == nil {
			return z, nil
		}
	}
	return fallback, nil
}

// FileDate names the period in a file name: 2026-11, or
// 2026-11-01_2026-11-15.
func (p Period) FileDate() string {
	if p.Month {
		return p.From.Format("2006-01")
	}
	return p.From.Format(time.DateOnly) + "_" + p.Last().Format(time.DateOnly)
}

// ScopeWords is whom the report covers: "All buildings", or, for a
// report of some buildings, "Buildings: " and their names.
func (r Report) ScopeWords(l *i18n.Localizer, limited bool) string {
	if !limited {
		return l.T("client.all_buildings")
	}
	names := make([]string, 0, len(r.Buildings))
	for _, n := range r.Buildings {
		names = append(names, n)
	}
	slices.Sort(names)
	return l.T("client.some_buildings", "names", strings.Join(names, ", "))
}
