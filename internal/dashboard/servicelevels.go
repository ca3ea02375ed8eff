package dashboard

import (
	"context"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/levels"
	"washboard/internal/servicelevel"
	"washboard/internal/store"
)

// Service levels: the account's, set on its page, and each alert measured
// against the one in force, live while it is open and as kept when it
// closed (store.ServiceLevels).

// MeasureRetention is how long the measures of closed alerts are kept
// (store.ServiceLevels): a year and a month, so that a client's month can
// be set against the same month a year before.
const MeasureRetention = 400 * 24 * time.Hour

// serviceLevelStore keeps the service levels and the measures of alerts.
type serviceLevelStore interface {
	ServiceLevels(ctx context.Context, account string) (map[string]store.ServiceLevel, error)
	SaveServiceLevel(ctx context.Context, account string, sl store.ServiceLevel) error
	RemoveServiceLevel(ctx context.Context, account, building string) error
	AlertMeasures(ctx context.Context, account string, ids []string) (map[string]store.AlertMeasure, error)
	FirstClaims(ctx context.Context, account string, ids []string) (map[string]time.Time, error)
	EachAlertMeasure(ctx context.Context, account string, from, to time.Time, buildings []string, f func(store.AlertMeasure) error) error
}

// WeekLevel is how an account kept its service level this week: of the
// alerts closed since Monday (in its time zone) that were measured, those
// that met each target they had, and those that missed one.
type WeekLevel struct {
	// Set says the account has a service level with targets.
	Set         bool
	Met, Missed int
}

// mondayOf is the start of now's week: Monday 00:00 in zone.
func mondayOf(now time.Time, zone *time.Location) time.Time {
	y, m, d := now.In(zone).Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, zone)
	return today.AddDate(0, 0, -(int(today.Weekday())+6)%7)
}

// weekLevel reads the measures of the scope's alerts closed from monday
// on.
func (s *Service) weekLevel(ctx context.Context, account string, sc domain.BuildingScope, monday time.Time) (WeekLevel, error) {
	ps, err := s.policies(ctx, account)
	if err != nil || len(ps) == 0 {
		return WeekLevel{}, err
	}
	wl := WeekLevel{Set: true}
	err = s.store.EachAlertMeasure(ctx, account, monday, time.Time{}, sc.IDs(), func(m store.AlertMeasure) error {
		claim, resolve := levels.Outcome(m.Claim).State, levels.Outcome(m.Resolve).State
		switch {
		case claim == servicelevel.Missed || resolve == servicelevel.Missed:
			wl.Missed++
		case claim == servicelevel.Met || resolve == servicelevel.Met:
			wl.Met++
		}
		return nil
	})
	return wl, err
}

// ServiceLevelForm is the service level page's fields as typed: the
// hours, the holidays, the time zone, and by alert type the time to claim
// and the time to resolve ("" for none).
type ServiceLevelForm struct {
	Week, Holidays, Zone string
	Claim, Resolve       map[domain.AlertType]string
	Updated              time.Time // when it was saved; zero when never
	// Words is the service level kept, in words; "" when none is.
	Words string
}

// FieldProblem says why a field of a form was refused, in words.
type FieldProblem struct {
	Field string // "week", "holidays", "zone", "claim_<type>" or "resolve_<type>"
	Msg   string // in English
	// Err is the *servicelevel.Error refused, whose Code and Args a page
	// says in its own language.
	Err error
}

func (p *FieldProblem) Error() string { return p.Msg }

// ServiceLevelForm reads the account's own service level as its page
// shows it; an account without one gets an empty form in zone.
func (s *Service) ServiceLevelForm(ctx context.Context, account string, zone *time.Location) (ServiceLevelForm, error) {
	levels, err := s.store.ServiceLevels(ctx, account)
	if err != nil {
		return emptyForm(zone), err
	}
	sl, ok := levels[""]
	if !ok {
		return emptyForm(zone), nil
	}
	return formOf(ctx, sl), nil
}

func emptyForm(zone *time.Location) ServiceLevelForm {
	return ServiceLevelForm{Zone: zone.String(), Claim: map[domain.AlertType]string{}, Resolve: map[domain.AlertType]string{}}
}

// formOf is a kept service level as its form shows it.
func formOf(ctx context.Context, sl store.ServiceLevel) ServiceLevelForm {
	f := ServiceLevelForm{Week: sl.Week, Holidays: sl.Holidays, Zone: sl.Zone, Updated: sl.Updated,
		Claim: map[domain.AlertType]string{}, Resolve: map[domain.AlertType]string{}}
	for _, t := range sl.Targets {
		f.Claim[t.Type], f.Resolve[t.Type] = minutes(t.Claim), minutes(t.Resolve)
	}
	if p, err := levels.Policy(sl); err == nil {
		f.Words = levels.WordsIn(i18n.From(ctx), p) // in the language of whoever asks
	}
	return f
}

// minutes writes a target as the form reads it: "" for none, "15" for
// minutes, "1h30m" beyond an hour.
func minutes(d time.Duration) string {
	switch {
	case d == 0:
		return ""
	case d < time.Hour:
		return fmt.Sprint(int(d / time.Minute))
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dh%dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// ReadServiceLevel checks a service level as typed, field by field in
// the page's order, and returns it as kept: the hours in the form
// servicelevel writes back. A refusal is a *FieldProblem naming the field.
func ReadServiceLevel(f ServiceLevelForm) (store.ServiceLevel, error) {
	week, err := servicelevel.ParseWeek(f.Week)
	if err != nil {
		return store.ServiceLevel{}, problem("week", err)
	}
	holidays, err := servicelevel.ParseHolidays(f.Holidays)
	if err != nil {
		return store.ServiceLevel{}, problem("holidays", err)
	}
	zone, err := servicelevel.ParseZone(f.Zone)
	if err != nil {
		return store.ServiceLevel{}, problem("zone", err)
	}
	hours, err := servicelevel.NewHours(week, holidays, zone)
	if err != nil {
		return store.ServiceLevel{}, problem("holidays", err)
	}
	sl := store.ServiceLevel{Week: week.String(), Holidays: servicelevel.FormatHolidays(hours.Holidays()), Zone: zone.String()}
	for _, typ := range domain.AlertTypes {
		claim, err := servicelevel.ParseTargetTime(f.Claim[typ])
		if err != nil {
			return store.ServiceLevel{}, problem("claim_"+string(typ), fmt.Errorf("%s, time to claim: %w", typ.Label(), err))
		}
		resolve, err := servicelevel.ParseTargetTime(f.Resolve[typ])
		if err != nil {
			return store.ServiceLevel{}, problem("resolve_"+string(typ), fmt.Errorf("%s, time to resolve: %w", typ.Label(), err))
		}
		if claim == 0 && resolve == 0 {
			continue
		}
		t := servicelevel.Target{Claim: claim, Resolve: resolve}
		if _, err := servicelevel.NewTargets(map[domain.AlertType]servicelevel.Target{typ: t}); err != nil {
			return store.ServiceLevel{}, problem("resolve_"+string(typ), err)
		}
		sl.Targets = append(sl.Targets, store.ServiceTarget{Type: typ, Claim: claim, Resolve: resolve})
	}
	return sl, nil
}

func problem(field string, err error) error {
	if !errors.Is(err, servicelevel.ErrInvalid) {
		return err
	}
	return &FieldProblem{Field: field, Msg: err.Error(), Err: err}
}

// SaveServiceLevel checks the account's own service level as typed
// (ReadServiceLevel) and keeps it; it returns what it kept, in words. It
// measures the alerts of every building without one of its own, so a
// person limited to some buildings may not change it
// (domain.ErrForbidden): they give their buildings their own.
func (s *Service) SaveServiceLevel(ctx context.Context, account string, sc domain.BuildingScope, f ServiceLevelForm) (string, error) {
	if sc.Limited() {
		return "", &domain.ForbiddenError{Why: "The account's service level covers every building, so only a person who sees every building changes it. Give your buildings their own instead."}
	}
	return s.saveServiceLevel(ctx, account, "", f)
}

// saveServiceLevel checks a service level as typed and keeps it as the
// building's ("" for the account's own).
func (s *Service) saveServiceLevel(ctx context.Context, account, building string, f ServiceLevelForm) (string, error) {
	sl, err := ReadServiceLevel(f)
	if err != nil {
		return "", err
	}
	sl.Building, sl.Updated = building, s.clock.Now()
	p, err := levels.Policy(sl)
	if err != nil {
		return "", err
	}
	if err := s.store.SaveServiceLevel(ctx, account, sl); err != nil {
		return "", err
	}
	// Alerts are measured against the new targets from now on.
	s.announce(account, domain.ResourceAlerts)
	return levels.Words(p), nil
}

// BuildingLevel is a building and the service level its alerts are
// measured against: its own, or the account's.
type BuildingLevel struct {
	domain.Building
	// Own says the building has a service level of its own; Words is it
	// in words, and Updated when it was saved.
	Own     bool
	Words   string
	Updated time.Time
}

// BuildingLevels lists the buildings the scope sees, in the layout's
// order, each with whether it has a service level of its own.
func (s *Service) BuildingLevels(ctx context.Context, account string, sc domain.BuildingScope) ([]BuildingLevel, error) {
	bs, err := s.store.Buildings(ctx, account)
	if err != nil {
		return nil, err
	}
	kept, err := s.store.ServiceLevels(ctx, account)
	if err != nil {
		return nil, err
	}
	var out []BuildingLevel
	for _, b := range seen(sc, bs) {
		bl := BuildingLevel{Building: b}
		if sl, ok := kept[b.ID]; ok && b.ID != "" {
			bl.Own, bl.Updated = true, sl.Updated
			if p, err := levels.Policy(sl); err == nil {
				bl.Words = levels.WordsIn(i18n.From(ctx), p)
			}
		}
		out = append(out, bl)
	}
	return out, nil
}

// building is the account's building of the id, when the scope sees it:
// domain.ErrNotFound otherwise, as for an id the account has not.
func (s *Service) building(ctx context.Context, account string, sc domain.BuildingScope, id string) (domain.Building, error) {
	if id == "" || !sc.Sees(id) {
		return domain.Building{}, notSeen("building", id)
	}
	return s.store.Building(ctx, account, id)
}

// BuildingServiceLevelForm reads a building's service level as its page
// shows it, and whether it is its own: a building that follows the
// account's gets the account's (or an empty form in zone) to start from.
func (s *Service) BuildingServiceLevelForm(ctx context.Context, account string, sc domain.BuildingScope, id string,
	zone *time.Location) (domain.Building, ServiceLevelForm, bool, error) {
	b, err := s.building(ctx, account, sc, id)
	if err != nil {
		return b, emptyForm(zone), false, err
	}
	kept, err := s.store.ServiceLevels(ctx, account)
	if err != nil {
		return b, emptyForm(zone), false, err
	}
	if sl, ok := kept[id]; ok {
		return b, formOf(ctx, sl), true, nil
	}
	if sl, ok := kept[""]; ok {
		f := formOf(ctx, sl)
		f.Updated = time.Time{}
		return b, f, false, nil
	}
	return b, emptyForm(zone), false, nil
}

// SaveBuildingServiceLevel checks a building's service level as typed
// (ReadServiceLevel) and keeps it as the building's own: its alerts are
// measured against it from now on. It returns the building and what it
// kept, in words.
func (s *Service) SaveBuildingServiceLevel(ctx context.Context, account string, sc domain.BuildingScope, id string,
	f ServiceLevelForm) (domain.Building, string, error) {
	b, err := s.building(ctx, account, sc, id)
	if err != nil {
		return b, "", err
	}
	words, err := s.saveServiceLevel(ctx, account, id, f)
	return b, words, err
}

// FollowAccountLevel removes a building's own service level: its alerts
// are measured against the account's again.
func (s *Service) FollowAccountLevel(ctx context.Context, account string, sc domain.BuildingScope, id string) (domain.Building, error) {
	b, err := s.building(ctx, account, sc, id)
	if err != nil {
		return b, err
	}
	if err := s.store.RemoveServiceLevel(ctx, account, id); err != nil {
		return b, err
	}
	// Its alerts are measured against the account's from now on.
	s.announce(account, domain.ResourceAlerts)
	return b, nil
}

// AlertLevel is an alert measured against its targets: live while it is
// open, as kept when it closed.
type AlertLevel struct {
	Claim, Resolve servicelevel.Outcome
	// Explanation says where the clock stopped, and while the alert is
	// open and the clock stands still, when it runs again; empty when it
	// never stopped.
	Explanation string
	// Clock is the same, as a value a page says in its reader's language,
	// while the alert is open; nil once it closed (a kept measure keeps
	// the words alone).
	Clock *servicelevel.Explanation
}

// Worst is the state that tells most of the two: missed, then at risk,
// within target, met.
func (l AlertLevel) Worst() servicelevel.State {
	rank := map[servicelevel.State]int{servicelevel.NotApplicable: 0, servicelevel.Met: 1, servicelevel.Pending: 2, servicelevel.AtRisk: 3, servicelevel.Missed: 4}
	if rank[l.Resolve.State] > rank[l.Claim.State] {
		return l.Resolve.State
	}
	return l.Claim.State
}

// policies reads the account's service levels into policies, by
// building (levels.Policies).
func (s *Service) policies(ctx context.Context, account string) (map[string]servicelevel.Policy, error) {
	kept, err := s.store.ServiceLevels(ctx, account)
	if err != nil || len(kept) == 0 {
		return nil, err
	}
	return levels.Policies(kept), nil
}

// alertLevels measures the alerts located at now, by alert id: the open
// ones live, the closed ones as kept when they closed. An alert of a type
// without targets, or closed without a measure kept, is left out; so is
// every alert of an account without service levels.
func (s *Service) alertLevels(ctx context.Context, account string, al Located, now time.Time) (map[string]AlertLevel, error) {
	ps, err := s.policies(ctx, account)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	return s.measureAlerts(ctx, account, ps, al, now)
}

// measureAlerts measures the alerts located at now against the account's
// policies, as alertLevels says.
func (s *Service) measureAlerts(ctx context.Context, account string, ps map[string]servicelevel.Policy, al Located, now time.Time) (map[string]AlertLevel, error) {
	if len(al.Alerts) == 0 {
		return nil, nil
	}
	var open, closed []string
	for _, a := range al.Alerts {
		if a.Open() {
			open = append(open, a.ID)
		} else {
			closed = append(closed, a.ID)
		}
	}
	out := map[string]AlertLevel{}
	if len(closed) > 0 {
		kept, err := s.store.AlertMeasures(ctx, account, closed)
		if err != nil {
			return nil, err
		}
		for id, m := range kept {
			out[id] = AlertLevel{Claim: levels.Outcome(m.Claim), Resolve: levels.Outcome(m.Resolve), Explanation: m.Explanation}
		}
	}
	if len(open) == 0 {
		return out, nil
	}
	first, err := s.store.FirstClaims(ctx, account, open)
	if err != nil {
		return nil, err
	}
	for _, a := range al.Alerts {
		if !a.Open() {
			continue
		}
		b, _, _, _ := al.Places.Path(al.Locations[a.LocationID].RoomID)
		p, ok := levels.For(ps, b.ID)
		if !ok {
			continue
		}
		if _, measured := p.Targets.For(a.Type); !measured {
			continue
		}
		in := servicelevel.Alert{Type: a.Type, Opened: a.Created, Claimed: first[a.ID]}
		m := p.Evaluate(in, now)
		l := AlertLevel{Claim: m.Claim, Resolve: m.Resolve}
		if e := p.Explain(in, now); e.Stopped > 0 || !e.Resumes.IsZero() {
			l.Explanation, l.Clock = e.String(), &e
		}
		out[a.ID] = l
	}
	return out, nil
}

// LevelCounts counts the open alerts of a scope by where they stand
// against their targets.
type LevelCounts struct {
	// Set says the account has a service level with targets.
	Set            bool
	AtRisk, Missed int
}

// overviewLevels counts the open alerts of the scope at risk and missed,
// in all and by building, and measures the alerts the overview lists.
func (s *Service) overviewLevels(ctx context.Context, account string, sc domain.BuildingScope, m *Overview) error {
	ps, err := s.policies(ctx, account)
	if err != nil || len(ps) == 0 {
		return err
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), Status: domain.AlertOpen})
	if err != nil {
		return err
	}
	all, err := s.locate(ctx, account, open)
	if err != nil {
		return err
	}
	levels, err := s.alertLevels(ctx, account, all, s.clock.Now())
	if err != nil {
		return err
	}
	m.Levels.Set = true
	m.BuildingLevels = map[string]LevelCounts{}
	for _, a := range open {
		b, _, _, _ := all.Places.Path(all.Locations[a.LocationID].RoomID)
		c := m.BuildingLevels[b.ID]
		c.Set = true
		switch levels[a.ID].Worst() {
		case servicelevel.AtRisk:
			m.Levels.AtRisk++
			c.AtRisk++
		case servicelevel.Missed:
			m.Levels.Missed++
			c.Missed++
		}
		m.BuildingLevels[b.ID] = c
	}
	m.AlertLevels = map[string]AlertLevel{}
	for _, a := range m.Alerts.Alerts {
		if l, ok := levels[a.ID]; ok {
			m.AlertLevels[a.ID] = l
		}
	}
	return nil
}
