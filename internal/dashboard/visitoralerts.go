package dashboard

import (
	"context"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/visitors"
)

// Visitors' reports as alerts (docs/visitors.md). A report that says
// something is wrong is an alert of Washboard's own
// (domain.VisitorAlert, of the type domain.AlertVisitor, its id "v-12"):
// the reports stay in their own table, which the sync never writes, and
// are added here to the lists of the service's alerts, so that a refresh
// that rewrites the service's alerts cannot lose or overwrite one, and
// no id of the service's can name one. Only open reports are listed as
// alerts: a closed report is history of the room.

// maxVisitorAlerts bounds the open reports read for one list.
const maxVisitorAlerts = 500

// visitorAlerts reads the open reports the filter chooses as alerts, of
// the buildings the scope sees, oldest first, with the places they are
// in. A report open longer than domain.VisitorReportsOpenFor is closed as
// expired first, and not listed. A filter that names a location, a
// service's alert type, a resolution, closed alerts or a span of time
// open chooses none: those are the service's alerts' own.
func (s *Service) visitorAlerts(ctx context.Context, sc domain.BuildingScope, f AlertFilter) ([]domain.Alert, Places, error) {
	p := newPlaces()
	if f.Status == domain.AlertClosed || f.Type != "" && f.Type != domain.AlertVisitor || f.Resolution != "" || f.LocationID != "" ||
		!f.OpenFrom.IsZero() || !f.OpenTo.IsZero() {
		return nil, p, nil
	}
	rf := store.VisitorReportFilter{Room: f.RoomID, From: f.From, To: f.To, OpenOnly: true, Problems: true, Limit: maxVisitorAlerts}
	if f.AlertID != "" {
		id, ok := domain.VisitorReportID(f.AlertID)
		if !ok {
			return nil, p, nil
		}
		rf.ID = id
	}
	reports, err := s.store.VisitorReports(ctx, f.Account, rf)
	if err != nil || len(reports) == 0 {
		return nil, p, err
	}
	if reports, err = s.expireVisitorReports(ctx, f.Account, reports); err != nil || len(reports) == 0 {
		return nil, p, err
	}
	all, err := s.allPlaces(ctx, f.Account)
	if err != nil {
		return nil, p, err
	}
	var out []domain.Alert
	for _, r := range reports {
		b, fl, room, ok := all.Path(r.RoomID)
		if !sc.Sees(b.ID) || f.BuildingID != "" && b.ID != f.BuildingID || f.FloorID != "" && fl.ID != f.FloorID ||
			f.Buildings != nil && !slices.Contains(f.Buildings, b.ID) {
			continue
		}
		if ok {
			p.Rooms[room.ID], p.Floors[fl.ID], p.Buildings[b.ID] = room, fl, b
		}
		out = append(out, domain.VisitorAlert(r))
	}
	return out, p, nil
}

// expireVisitorReports closes, as expired, the open reports older than
// domain.VisitorReportsOpenFor, each when it reached that age, and
// returns the others.
func (s *Service) expireVisitorReports(ctx context.Context, account string, reports []domain.VisitorReport) ([]domain.VisitorReport, error) {
	now := s.clock.Now()
	keep := reports[:0:0]
	closed := 0
	for _, r := range reports {
		end := r.Created.Add(domain.VisitorReportsOpenFor)
		if now.Before(end) {
			keep = append(keep, r)
			continue
		}
		n, err := s.store.CloseVisitorReports(ctx, account, []int64{r.ID}, end, domain.ClosedExpired)
		if err != nil {
			return nil, err
		}
		closed += n
	}
	if closed > 0 && s.sync != nil {
		s.sync.Changed(account, domain.ResourceAlerts)
	}
	return keep, nil
}

// withVisitorAlerts puts the visitors' alerts before the service's in a
// located list, at most limit in all (0 for all), with their places.
func withVisitorAlerts(l Located, visitors []domain.Alert, p Places, limit int) Located {
	if len(visitors) == 0 {
		return l
	}
	l.Alerts = append(slices.Clip(visitors), l.Alerts...)
	if limit > 0 && len(l.Alerts) > limit {
		l.Alerts = l.Alerts[:limit]
	}
	l.Places = addPlaces(l.Places, p)
	return l
}

// addPlaces adds to dst the places of src.
func addPlaces(dst, src Places) Places {
	if dst.Rooms == nil {
		dst = newPlaces()
	}
	for id, r := range src.Rooms {
		dst.Rooms[id] = r
	}
	for id, f := range src.Floors {
		dst.Floors[id] = f
	}
	for id, b := range src.Buildings {
		dst.Buildings[id] = b
	}
	return dst
}

// CloseVisitorAlert closes a visitor's alert of the account the scope
// sees by hand (domain.ClosedPerson): a supervisor's decision that it
// needs nothing more. ErrNoOpenAlert when the scope sees no open one of
// the id.
func (s *Service) CloseVisitorAlert(ctx context.Context, account string, sc domain.BuildingScope, alertID string) error {
	return s.closeVisitorAlert(ctx, account, sc, alertID, domain.ClosedPerson)
}

func (s *Service) closeVisitorAlert(ctx context.Context, account string, sc domain.BuildingScope, alertID string, by domain.VisitorClosing) error {
	id, ok := domain.VisitorReportID(alertID)
	if !ok {
		return ErrNoOpenAlert
	}
	open, _, err := s.visitorAlerts(ctx, sc, AlertFilter{Account: account, AlertID: alertID})
	if err != nil {
		return err
	}
	if len(open) == 0 {
		return ErrNoOpenAlert
	}
	if _, err := s.store.CloseVisitorReports(ctx, account, []int64{id}, s.clock.Now(), by); err != nil {
		return err
	}
	if s.sync != nil {
		s.sync.Changed(account, domain.ResourceAlerts)
	}
	return nil
}

// seesVisitorAlert answers ErrNoOpenAlert when the scope sees no
// visitor's alert of the id: open, or, unless open, closed too.
func (s *Service) seesVisitorAlert(ctx context.Context, account string, sc domain.BuildingScope, alertID string, open bool) error {
	id, _ := domain.VisitorReportID(alertID)
	reports, err := s.store.VisitorReports(ctx, account, store.VisitorReportFilter{ID: id, OpenOnly: open, Problems: true, Limit: 1})
	if err != nil {
		return err
	}
	if len(reports) == 0 {
		return ErrNoOpenAlert
	}
	if !sc.Limited() {
		return nil
	}
	if err := s.seesRoom(ctx, account, sc, reports[0].RoomID); err != nil {
		return ErrNoOpenAlert
	}
	return nil
}

// RatingWeeks is how many weeks of a room's ratings its page shows: this
// week and the seven before.
const RatingWeeks = 8

// RoomRatings reads what visitors rated a room the scope sees, by week in
// zone, over this week and the RatingWeeks-1 before: the weeks that have
// a rating, oldest first.
func (s *Service) RoomRatings(ctx context.Context, account string, sc domain.BuildingScope, room string, zone *time.Location) ([]visitors.WeekRating, error) {
	if err := s.seesRoomOf(ctx, account, sc, room); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	l := now.In(zone)
	today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, zone)
	from := today.AddDate(0, 0, -(int(today.Weekday())+6)%7-7*(RatingWeeks-1))
	days, err := s.store.VisitorRatings(ctx, account, room, from, now.Add(time.Millisecond), zone)
	if err != nil {
		return nil, err
	}
	return visitors.ByWeek(days, zone), nil
}

// RatingTrends is what visitors rated over a period: the rooms the scope
// sees, by week, and the rooms rated lowest.
type RatingTrends struct {
	Weeks  []visitors.WeekRating
	Lowest []RatedRoom
	// Count and Average are of the whole period.
	Count   int
	Average float64
}

// RatedRoom is a room's ratings, with where it is.
type RatedRoom struct {
	visitors.RoomRating
	Building, Floor, Room string
}

// LowestRooms is how many of the rooms rated lowest the trends list.
const LowestRooms = 5

// RatingTrends reads the ratings of the rooms the scope sees made from
// from up to to (now, for a period that ends now), by week in zone, and
// the LowestRooms rooms rated lowest.
func (s *Service) RatingTrends(ctx context.Context, account string, sc domain.BuildingScope, from, to time.Time, zone *time.Location) (RatingTrends, error) {
	var t RatingTrends
	rs, err := s.store.RatingsDuring(ctx, account, from, to.Add(time.Millisecond))
	if err != nil || len(rs) == 0 {
		return t, err
	}
	all, err := s.allPlaces(ctx, account)
	if err != nil {
		return t, err
	}
	seen := rs[:0:0]
	sum := 0
	for _, r := range rs {
		if b, _, _, _ := all.Path(r.RoomID); sc.Sees(b.ID) {
			seen = append(seen, r)
			sum += r.Rating
		}
	}
	if len(seen) == 0 {
		return t, nil
	}
	t.Count, t.Average = len(seen), float64(sum)/float64(len(seen))
	t.Weeks = visitors.ByWeek(visitors.Daily(seen, zone), zone)
	for _, r := range visitors.ByRoom(seen) {
		if len(t.Lowest) == LowestRooms {
			break
		}
		b, f, room := all.Parts(r.RoomID)
		if room == "" {
			room = r.RoomID
		}
		t.Lowest = append(t.Lowest, RatedRoom{RoomRating: r, Building: b, Floor: f, Room: room})
	}
	return t, nil
}
