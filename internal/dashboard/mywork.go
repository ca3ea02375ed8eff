package dashboard

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/report"
	"washboard/internal/store"
)

// "My work" (docs/my-work.md) is what needs doing now for one person, on
// their phone: the alerts they are on, then the other open alerts of the
// buildings they see, then the dispensers that run out before the end of
// the account's current shift; each in the order one walks (building,
// floor and room in the layout's order, then location), with what to
// bring, and the round's pick list: the sum of what the items ask.

// maxMyWork bounds the open alerts and the dispensers that run out read
// for one person's page.
const maxMyWork = 500

// MyWork is one person's work now.
type MyWork struct {
	// Mine are the open alerts the person is on; Open the other open
	// alerts; RunsOut the dispensers, not out and on no open alert of
	// their location about supplies, estimated to run out by ShiftEnd.
	Mine, Open, RunsOut []WorkItem
	// Bring is the round's pick list: the items' Bring added up, products
	// in the device types' order, then batteries.
	Bring []RefillItem
	// Shift is the name of the account's shift at the time of the page (or
	// the next one, between shifts), ShiftEnd its end.
	Shift    string
	ShiftEnd time.Time
	// Cut says that there were more than maxMyWork alerts or dispensers,
	// and some are not listed.
	Cut bool
	// Round is the person's running round (docs/rounds.md); nil when they
	// have none.
	Round *RoundView
}

// WorkItem is one line of "My work": an open alert, or a dispenser that
// runs out.
type WorkItem struct {
	Alert domain.Alert // zero for a dispenser that runs out
	// MAC and RunsOut are the dispenser that runs out, and when.
	MAC     string
	RunsOut time.Time

	Location              domain.Location
	Building, Floor, Room string
	// Bring is what to carry there, as the shift report's pick list counts
	// it (report.AlertNeeds); one refill for a dispenser that runs out.
	Bring []RefillItem
	// Claim is who is on the alert; zero when nobody is.
	Claim domain.Claim
	// Done is the newest "done" report of the alert; zero when none.
	Done domain.DoneReport
}

// walkKey orders items the way one walks: by the layout's order of
// buildings, floors and rooms, then by location.
type walkKey struct {
	building, floor, room int
	location, locationID  string
	created               time.Time
}

// MyWork reads the work now of the person, of the buildings the scope
// sees; zone is the time zone of the shifts unless the account saved its
// own.
func (s *Service) MyWork(ctx context.Context, account string, sc domain.BuildingScope, personID string, zone *time.Location) (MyWork, error) {
	var w MyWork
	now := s.clock.Now()
	alerts, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), Status: domain.AlertOpen, Limit: maxMyWork + 1})
	if err != nil {
		return w, err
	}
	visitors, visitorPlaces, err := s.visitorAlerts(ctx, sc, store.AlertFilter{Account: account, Buildings: sc.IDs()})
	if err != nil {
		return w, err
	}
	alerts = append(visitors, alerts...)
	if len(alerts) > maxMyWork {
		alerts, w.Cut = alerts[:maxMyWork], true
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: sc.IDs()})
	if err != nil {
		return w, err
	}
	shifts, shiftZone, err := s.ReportSettings(ctx, account, zone)
	if err != nil {
		return w, err
	}
	w.Shift, w.ShiftEnd = shiftAt(shifts, shiftZone, now)
	if r, ok, err := s.MyRound(ctx, account, sc, personID); err != nil {
		return w, err
	} else if ok {
		w.Round = &r
	}
	// A location with an open alert about its supplies is on the list
	// already: its dispenser is not listed again as running out.
	supplied := map[string]bool{}
	for _, a := range alerts {
		if a.Type.Supplies() {
			supplied[a.LocationID] = true
		}
	}
	estimates := s.estimates(account)
	type runOut struct {
		d  domain.Device
		at time.Time
	}
	var outs []runOut
	for _, d := range devices {
		if at, ok := runsOutBy(d, estimates, w.ShiftEnd); ok && !supplied[d.LocationID] {
			if len(outs) == maxMyWork {
				w.Cut = true
				break
			}
			outs = append(outs, runOut{d, at})
		}
	}

	ids := make([]string, 0, len(alerts)+len(outs))
	alertIDs := make([]string, 0, len(alerts))
	for _, a := range alerts {
		ids, alertIDs = append(ids, a.LocationID), append(alertIDs, a.ID)
	}
	for _, o := range outs {
		ids = append(ids, o.d.LocationID)
	}
	places, locations, err := s.placesOf(ctx, account, ids)
	if err != nil {
		return w, err
	}
	places = addPlaces(places, visitorPlaces)
	order, err := s.layoutOrder(ctx, account)
	if err != nil {
		return w, err
	}
	claims, err := s.store.ActiveClaims(ctx, account)
	if err != nil {
		return w, err
	}
	done, err := s.store.LastDoneReports(ctx, account, alertIDs)
	if err != nil {
		return w, err
	}

	item := func(locationID string) (WorkItem, walkKey) {
		it := WorkItem{Location: locations[locationID]}
		b, f, r, _ := places.Path(it.Location.RoomID)
		it.Building, it.Floor, it.Room = b.Name, f.Name, r.Name
		return it, walkKey{building: order[placeID{'b', b.ID}], floor: order[placeID{'f', f.ID}], room: order[placeID{'r', r.ID}], location: it.Location.Name, locationID: locationID}
	}
	keys := map[*WorkItem]walkKey{}
	var mine, open, runs []*WorkItem
	for _, a := range alerts {
		it, k := item(a.LocationID)
		if a.Visitor != nil {
			// A visitor's report is of a room: the room's first place in
			// the walk, with nothing to bring but what it says is out.
			b, f, r, _ := places.Path(a.Visitor.RoomID)
			it.Building, it.Floor, it.Room = b.Name, f.Name, r.Name
			k = walkKey{building: order[placeID{'b', b.ID}], floor: order[placeID{'f', f.ID}], room: order[placeID{'r', r.ID}]}
		}
		it.Alert, it.Claim, it.Done, k.created = a, claims[a.ID], done[a.ID], a.Created
		refills, batteries := report.AlertNeeds(a, it.Location.Type)
		it.Bring = bring(it.Location.Type, refills, batteries)
		p := &it
		keys[p] = k
		if personID != "" && it.Claim.PersonID == personID {
			mine = append(mine, p)
		} else {
			open = append(open, p)
		}
	}
	for _, o := range outs {
		it, k := item(o.d.LocationID)
		it.MAC, it.RunsOut = o.d.MAC, o.at
		it.Bring = bring(it.Location.Type, 1, 0)
		p := &it
		keys[p] = k
		runs = append(runs, p)
	}
	byWalk := func(a, b *WorkItem) int { return keys[a].compare(keys[b]) }
	for _, list := range []struct {
		items []*WorkItem
		dst   *[]WorkItem
	}{{mine, &w.Mine}, {open, &w.Open}, {runs, &w.RunsOut}} {
		slices.SortStableFunc(list.items, byWalk)
		for _, it := range list.items {
			*list.dst = append(*list.dst, *it)
			w.Bring = addBring(w.Bring, it.Bring)
		}
	}
	return w, nil
}

func (a walkKey) compare(b walkKey) int {
	return cmp.Or(cmp.Compare(a.building, b.building), cmp.Compare(a.floor, b.floor), cmp.Compare(a.room, b.room),
		report.CompareNames(a.location, b.location), strings.Compare(a.locationID, b.locationID), a.created.Compare(b.created))
}

// layoutOrder is the place of each building, floor and room of the
// account in the layout's order, by kind ('b', 'f', 'r') and id.
func (s *Service) layoutOrder(ctx context.Context, account string) (map[placeID]int, error) {
	order := map[placeID]int{}
	bs, err := s.store.Buildings(ctx, account)
	if err != nil {
		return nil, err
	}
	for i, b := range bs {
		order[placeID{'b', b.ID}] = i
	}
	fs, err := s.store.Floors(ctx, account, "")
	if err != nil {
		return nil, err
	}
	for i, f := range fs {
		order[placeID{'f', f.ID}] = i
	}
	rs, err := s.store.Rooms(ctx, account, "")
	if err != nil {
		return nil, err
	}
	for i, r := range rs {
		order[placeID{'r', r.ID}] = i
	}
	return order, nil
}

// placeID names a building, floor or room by its kind and id.
type placeID struct {
	kind byte
	id   string
}

// bring is what to carry: refills of the device type, then battery sets.
func bring(t domain.DeviceType, refills, batteries int) []RefillItem {
	var out []RefillItem
	if refills > 0 {
		out = append(out, RefillItem{Kind: string(t), Count: refills})
	}
	if batteries > 0 {
		out = append(out, RefillItem{Kind: RefillBattery, Count: batteries})
	}
	return out
}

// addBring adds items to a pick list, kept in the device types' order,
// then batteries.
func addBring(list, items []RefillItem) []RefillItem {
	for _, it := range items {
		i := slices.IndexFunc(list, func(r RefillItem) bool { return r.Kind == it.Kind })
		if i < 0 {
			list = append(list, RefillItem{Kind: it.Kind})
			i = len(list) - 1
		}
		list[i].Count += it.Count
	}
	slices.SortStableFunc(list, func(a, b RefillItem) int { return cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)) })
	return list
}

// kindRank orders the kinds of things to carry: the device types known,
// others, then batteries.
func kindRank(kind string) int {
	for i, t := range []domain.DeviceType{domain.Tissue, domain.Towel, domain.Soap, domain.Sanitizer} {
		if kind == string(t) {
			return i
		}
	}
	if kind == RefillBattery {
		return 5
	}
	return 4
}

// Action keys: every action form of "My work" carries a random key made
// when the page was drawn; an action sent again with its key (a second
// tap, a phone sending what it kept offline) is done once.

// maxActionKey bounds an action's idempotency key.
const maxActionKey = 64

// CheckActionKey says, in words, what is wrong with an action's
// idempotency key: nil for 16 to 64 letters, digits, '-' or '_'.
func CheckActionKey(key string) error {
	if len(key) < 16 || len(key) > maxActionKey || strings.IndexFunc(key, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) >= 0 {
		return ClaimError{ActionKey, ActionKeyBad}
	}
	return nil
}

// MaxDoneReason bounds why an alert could not be fixed.
const MaxDoneReason = 200

// NewDone is what a person reports done about an alert, under the
// action's idempotency key.
type NewDone struct {
	PersonID, Name string
	Outcome        domain.Outcome
	Reason, Key    string
}

// MarkDone keeps what a person did about an alert of the account the
// scope sees: false, and nothing kept, when a report of the key was kept
// already. The alert may have closed since the page was drawn (the
// refill closed it): the report is kept all the same. ErrNoOpenAlert
// when the scope sees no alert of the id; a ClaimError for an outcome
// unknown, a reason missing (could not fix) or too long.
func (s *Service) MarkDone(ctx context.Context, account string, sc domain.BuildingScope, alertID string, in NewDone) (bool, error) {
	if err := CheckActionKey(in.Key); err != nil {
		return false, err
	}
	if !in.Outcome.Known() {
		return false, ClaimError{DoneOutcome, DoneOutcomeOther}
	}
	reason, err := cleanClaimText(DoneReason, in.Reason, false, MaxDoneReason)
	if err != nil {
		return false, err
	}
	if in.Outcome == domain.CouldNotFix && reason == "" {
		return false, ClaimError{DoneReason, DoneReasonNeeded}
	}
	if in.Outcome != domain.CouldNotFix {
		reason = ""
	}
	if err := s.seesAlert(ctx, account, sc, alertID); err != nil {
		return false, err
	}
	r := domain.DoneReport{AlertID: alertID, PersonID: in.PersonID, Name: in.Name, Outcome: in.Outcome, Reason: reason, At: s.clock.Now()}
	added, err := s.store.AddDoneReport(ctx, account, r, in.Key, r.At.Add(-s.historyKept()))
	if err != nil {
		return added, err
	}
	// "Done" closes a visitor's report, but for "could not fix": then
	// it stays open for someone else, as the service's alert would.
	if id, ok := domain.VisitorReportID(alertID); ok && added && in.Outcome != domain.CouldNotFix {
		if _, err := s.store.CloseVisitorReports(ctx, account, []int64{id}, r.At, domain.ClosedDone); err != nil {
			return added, err
		}
	}
	if added {
		s.sync.Changed(account, domain.ResourceAlerts)
	}
	return added, err
}

// doneGrace is how long after a "done" report the service may take to
// close the alert before the report counts as contradicted: two sync
// intervals, as the freshness rule allows, or ten minutes without an
// engine.
func (s *Service) doneGrace() time.Duration {
	if s.sync == nil {
		return 10 * time.Minute
	}
	return 2 * s.sync.Config().Interval
}

// Contradicted says whether the service contradicts a "done" report of
// an alert still open: longer than doneGrace after it was made
// (domain.DoneReport.ContradictedBy).
func (s *Service) Contradicted(r domain.DoneReport, alert domain.Alert) bool {
	return r.ContradictedBy(alert, nil, s.clock.Now(), s.doneGrace()) == domain.StillOpen
}
