package sqlstore

import (
	"context"
	"errors"

	"washboard/internal/domain"
)

// OpenVisitorComplaints returns the open visitors' reports of the rooms
// of the buildings that say something is wrong, oldest first, at most
// limit.
func (s *Store) OpenVisitorComplaints(ctx context.Context, account string, buildings []string, limit int) ([]domain.VisitorReport, error) {
	if limit <= 0 {
		return nil, errors.New("a read of open visitors' reports needs a limit")
	}
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	kinds := make([]string, len(domain.VisitorKinds))
	for i, k := range domain.VisitorKinds {
		kinds[i] = string(k)
	}
	kindIn, kindArgs := s.d.In(kinds)
	cond, condArgs := s.inBuildings("r.building_id", buildings)
	args := append(append(append([]any{acc}, kindArgs...), condArgs...), limit)
	var out []domain.VisitorReport
	var r domain.VisitorReport
	var kind, closedBy string
	err = each(ctx, s.read, `SELECT v.id, v.room_id, v.kind, v.text, v.rating, v.created, v.closed, v.closed_by
		FROM visitor_reports v
		JOIN rooms r ON r.account_id = v.account_id AND r.id = v.room_id
		WHERE v.account_id = ? AND `+s.d.IsNever("v.closed")+` AND v.kind `+kindIn+cond+`
		ORDER BY v.created, v.id LIMIT ?`, args,
		[]any{&r.ID, &r.RoomID, &kind, &r.Text, &r.Rating, s.d.ScanTime(&r.Created), s.d.ScanTime(&r.Closed), &closedBy}, func() error {
			r.Kind, r.ClosedBy = domain.VisitorKind(kind), domain.VisitorClosing(closedBy)
			out = append(out, r)
			return nil
		})
	return out, err
}
