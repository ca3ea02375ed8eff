package visitors

import (
	"context"
	"errors"
	"time"

	"washboard/internal/domain"
)

// ErrNotPresent says that a person's role does not count their scans: they
// are below staff in the room's account, or their role leaves its
// building out. Their phone shows the visitors' page.
var ErrNotPresent = errors.New("this person's scans of the room are not recorded")

// Present records that a member of the place's account was in its room:
// once a minute, a second scan in the same minute counting as the first.
// It returns when the scan was made.
func (s *Service) Present(ctx context.Context, p Place, m domain.Member) (time.Time, error) {
	if m.Account != p.Account || m.Role < domain.Staff || !domain.ScopeOf(m.Membership).Sees(p.Building.ID) {
		return time.Time{}, ErrNotPresent
	}
	now := s.clock.Now()
	_, err := s.store.AddPresenceScan(ctx, p.Account, domain.PresenceScan{RoomID: p.Room.ID, PersonID: m.PersonID, Name: m.Name, At: now}, MaxScans)
	return now, err
}
