package visitors

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Report is what a visitor sent: a kind of problem (or none), a short
// text with VisitorOther, and a rating (0 for none).
type Report struct {
	Kind   domain.VisitorKind
	Text   string
	Rating int
}

// What is wrong with a report, in the words of the page that sent it.
var (
	ErrNothingSaid = errors.New("choose what is wrong, or rate the washroom")
	ErrUnknownKind = errors.New("this is not one of the choices")
	ErrBadRating   = errors.New("a rating is from 1 to 5")
	ErrTextTooLong = errors.New("the text is too long")
	ErrTextMissing = errors.New("say in a few words what is wrong")
	// ErrTooMany says the report was refused for coming too fast, from
	// its address or to its room.
	ErrTooMany = errors.New("too many reports just now")
)

// check returns the report as kept: its text trimmed, and kept with
// VisitorOther only; a rating alone is a VisitorRatingOnly report.
func (r Report) check() (Report, error) {
	r.Text = strings.TrimSpace(r.Text)
	switch {
	case r.Rating < 0 || r.Rating > 5:
		return r, ErrBadRating
	case r.Kind == "" && r.Rating == 0:
		return r, ErrNothingSaid
	case r.Kind == "":
		r.Kind = domain.VisitorRatingOnly
	case !r.Kind.Chosen():
		return r, ErrUnknownKind
	}
	if r.Kind != domain.VisitorOther {
		r.Text = ""
		return r, nil
	}
	switch {
	case r.Text == "":
		return r, ErrTextMissing
	case utf8.RuneCountInString(r.Text) > domain.MaxVisitorText:
		return r, ErrTextTooLong
	}
	// One line, of what prints: spaces of any kind become one.
	r.Text = strings.Join(strings.Fields(strings.Map(func(c rune) rune {
		if !unicode.IsSpace(c) && (unicode.IsControl(c) || !unicode.IsPrint(c)) {
			return -1
		}
		return c
	}, r.Text)), " ")
	return r, nil
}

// roomBusy says whether the room has had its reports for the window
// already, by the store's count: the throttle in memory counts those
// this replica took, the store those of every replica.
func (s *Service) roomBusy(ctx context.Context, p Place, now time.Time) (refusal, error) {
	l := s.throttle.limits
	// Made in the window before now: one made a whole window ago is out.
	recent, err := s.store.VisitorReports(ctx, p.Account, store.VisitorReportFilter{Room: p.Room.ID,
		From: now.Add(-l.RoomWindow + time.Millisecond), Limit: l.PerRoom + 2})
	if err != nil {
		return allowed, err
	}
	n := 0
	for _, r := range recent {
		if r.Kind != domain.VisitorFlood {
			n++
		}
	}
	if n >= l.PerRoom {
		return roomTooFast, nil
	}
	return allowed, nil
}

// Report records what a visitor sent about the place's room from an
// address (which is counted in memory, and kept nowhere): its error is one
// of the Err… of a report when it is refused. A report refused for coming
// too fast is ErrTooMany, and the first one of a room within the flood
// period leaves a flood marker, said once.
func (s *Service) Report(ctx context.Context, p Place, r Report, addr string) (domain.VisitorReport, error) {
	r, err := r.check()
	if err != nil {
		return domain.VisitorReport{}, err
	}
	now := s.clock.Now()
	room := p.Account + "\x00" + p.Room.ID
	why := s.throttle.allow(room, addr, now)
	if why == allowed {
		if why, err = s.roomBusy(ctx, p, now); err != nil {
			return domain.VisitorReport{}, err
		}
	}
	if why != allowed {
		if s.throttle.floodToSay(room, now) {
			added, err := s.store.AddVisitorFlood(ctx, p.Account, p.Room.ID, now, now.Add(-s.throttle.limits.FloodPeriod), MaxReports)
			if err != nil {
				return domain.VisitorReport{}, err
			}
			if added {
				s.tell(p.Account)
			}
		}
		return domain.VisitorReport{}, ErrTooMany
	}
	v := domain.VisitorReport{RoomID: p.Room.ID, Kind: r.Kind, Text: r.Text, Rating: r.Rating, Created: now}
	if v.ID, err = s.store.AddVisitorReport(ctx, p.Account, v, MaxReports); err != nil {
		return v, err
	}
	if v.Kind != domain.VisitorRatingOnly {
		s.tell(p.Account)
	}
	return v, nil
}
