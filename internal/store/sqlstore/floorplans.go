package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
)

// Floor plans: a floor's image, and where its locations and rooms are on
// it (docs/floor-plans.md).

var placementsInsert = &Insert{Table: "floor_placements", Columns: []Column{
	{"account_id", Int}, {"floor_id", Text}, {"kind", Text}, {"item_id", Text}, {"points", Text}}}

// The kinds of placements.
const (
	placedLocation = "location"
	placedRoom     = "room"
)

// PutFloorPlan keeps the image of a floor's plan, replacing the one it
// had, and returns the plan kept. The placements stay: as they were on a
// plan of the same size; scaled in proportion and marked for review on
// one of another size. A body over domain.MaxPlanBytes, or a side of no
// pixel or over domain.MaxPlanSide, is refused.
func (s *Store) PutFloorPlan(ctx context.Context, account string, p domain.FloorPlan, body []byte) (domain.FloorPlan, error) {
	if err := planBounds(p, body); err != nil {
		return p, err
	}
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return p, err
	}
	err = s.inTx(ctx, func(tx Tx) error {
		old, err := s.readFloorPlan(ctx, tx, acc, p.FloorID, s.d.ForUpdate())
		if errors.Is(err, domain.ErrNotFound) {
			p.Review, p.Placements = false, domain.Placements{}
		} else if err != nil {
			return err
		} else {
			p.Review, p.Placements = old.Review, old.Placements
			if old.Width != p.Width || old.Height != p.Height {
				p.Review = len(old.Placements.Locations)+len(old.Placements.Rooms) > 0
				p.Placements = old.Placements.Scaled(old.Width, old.Height, p.Width, p.Height)
				if err := s.writePlacements(ctx, tx, acc, p.FloorID, p.Placements); err != nil {
					return err
				}
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO floor_plans (account_id, floor_id, content_type, body, width, height, updated, updated_by, review)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, floor_id) DO UPDATE SET content_type = excluded.content_type,
			body = excluded.body, width = excluded.width, height = excluded.height, updated = excluded.updated,
			updated_by = excluded.updated_by, review = excluded.review`,
			acc, p.FloorID, p.ContentType, body, p.Width, p.Height, s.d.Time(p.Updated), p.UpdatedBy, s.d.Bool(p.Review))
		return err
	})
	p.Updated = p.Updated.UTC().Truncate(time.Millisecond)
	return p, err
}

func planBounds(p domain.FloorPlan, body []byte) error {
	switch {
	case len(body) > domain.MaxPlanBytes:
		return fmt.Errorf("a plan of %d bytes, over %d: %w", len(body), domain.MaxPlanBytes, domain.ErrLimit)
	case p.Width < 1 || p.Height < 1 || p.Width > domain.MaxPlanSide || p.Height > domain.MaxPlanSide:
		return fmt.Errorf("a plan of %d × %d pixels, not within 1 to %d a side: %w", p.Width, p.Height, domain.MaxPlanSide, domain.ErrLimit)
	}
	return nil
}

// FloorPlan reads a floor's plan, without its image, with its placements
// (domain.ErrNotFound when the floor has none).
func (s *Store) FloorPlan(ctx context.Context, account, floor string) (domain.FloorPlan, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return domain.FloorPlan{}, err
	}
	tx, err := s.read.Begin(ctx)
	if err != nil {
		return domain.FloorPlan{}, err
	}
	defer tx.Rollback()
	return s.readFloorPlan(ctx, tx, acc, floor, "")
}

func (s *Store) readFloorPlan(ctx context.Context, q Querier, acc int64, floor, lock string) (domain.FloorPlan, error) {
	p := domain.FloorPlan{FloorID: floor}
	err := q.QueryRow(ctx, `SELECT content_type, width, height, updated, updated_by, review FROM floor_plans
		WHERE account_id = ? AND floor_id = ?`+lock, acc, floor).
		Scan(&p.ContentType, &p.Width, &p.Height, s.d.ScanTime(&p.Updated), &p.UpdatedBy, &p.Review)
	if err != nil {
		return p, notFound(err, "plan of floor", floor)
	}
	p.Placements = domain.Placements{Locations: map[string]domain.PlanPoint{}, Rooms: map[string][]domain.PlanPoint{}}
	var kind, id, points string
	err = each(ctx, q, `SELECT kind, item_id, points FROM floor_placements WHERE account_id = ? AND floor_id = ?`,
		[]any{acc, floor}, []any{&kind, &id, &points}, func() error {
			pts, err := parsePoints(points)
			if err != nil || len(pts) == 0 {
				return fmt.Errorf("the placement of %s %q: %q: %w", kind, id, points, err)
			}
			if kind == placedLocation {
				p.Placements.Locations[id] = pts[0]
			} else {
				p.Placements.Rooms[id] = pts
			}
			return nil
		})
	return p, err
}

// FloorPlanImage reads the image of a floor's plan, and its content type
// (domain.ErrNotFound when the floor has none).
func (s *Store) FloorPlanImage(ctx context.Context, account, floor string) (string, []byte, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return "", nil, err
	}
	var contentType string
	var body []byte
	err = s.read.QueryRow(ctx, `SELECT content_type, body FROM floor_plans WHERE account_id = ? AND floor_id = ?`, acc, floor).
		Scan(&contentType, &body)
	return contentType, body, notFound(err, "plan of floor", floor)
}

// SavePlacements replaces the placements of a floor's plan, which are no
// longer waiting for review, as placed by a person at a time
// (domain.ErrNotFound when the floor has no plan). A room of fewer than
// three or more than domain.MaxRoomPoints corners is refused; what the
// ids name is the caller's to check.
func (s *Store) SavePlacements(ctx context.Context, account, floor string, p domain.Placements, by string, at time.Time) error {
	for id, shape := range p.Rooms {
		switch {
		case len(shape) < 3:
			return &domain.PlacementError{Problem: domain.TooFewPoints, ID: id}
		case len(shape) > domain.MaxRoomPoints:
			return &domain.PlacementError{Problem: domain.TooManyPoints, ID: id}
		}
	}
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE floor_plans SET review = ?, updated = ?, updated_by = ? WHERE account_id = ? AND floor_id = ?`,
			s.d.Bool(false), s.d.Time(at), by, acc, floor)
		if err = oneRow(n, err, "plan of floor", floor); err != nil {
			return err
		}
		return s.writePlacements(ctx, tx, acc, floor, p)
	})
}

// writePlacements replaces a floor's placements with p.
func (s *Store) writePlacements(ctx context.Context, tx Tx, acc int64, floor string, p domain.Placements) error {
	if _, err := tx.Exec(ctx, `DELETE FROM floor_placements WHERE account_id = ? AND floor_id = ?`, acc, floor); err != nil {
		return err
	}
	rows := make([][]any, 0, len(p.Locations)+len(p.Rooms))
	for id, pt := range p.Locations {
		rows = append(rows, []any{acc, floor, placedLocation, id, formatPoints([]domain.PlanPoint{pt})})
	}
	for id, shape := range p.Rooms {
		rows = append(rows, []any{acc, floor, placedRoom, id, formatPoints(shape)})
	}
	if len(rows) == 0 {
		return nil
	}
	return tx.Insert(ctx, placementsInsert, rows, nil)
}

// RemoveFloorPlan removes a floor's plan and its placements (domain.ErrNotFound
// when it has none).
func (s *Store) RemoveFloorPlan(ctx context.Context, account, floor string) error {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	on, off, after := s.d.Erase()
	err = s.inTx(ctx, func(tx Tx) error {
		if on != "" {
			if _, err := tx.Exec(ctx, on); err != nil {
				return err
			}
			defer tx.Exec(ctx, off) //nolint:errcheck // a connection left erasing is slower, no less right
		}
		if _, err := tx.Exec(ctx, `DELETE FROM floor_placements WHERE account_id = ? AND floor_id = ?`, acc, floor); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `DELETE FROM floor_plans WHERE account_id = ? AND floor_id = ?`, acc, floor)
		return oneRow(n, err, "plan of floor", floor)
	})
	if err == nil && after != "" {
		_, err = s.write.Exec(ctx, after)
	}
	return err
}

// formatPoints writes points as "x,y x,y".
func formatPoints(pts []domain.PlanPoint) string {
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(p.X))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(p.Y))
	}
	return b.String()
}

// parsePoints reads what formatPoints wrote.
func parsePoints(s string) ([]domain.PlanPoint, error) {
	var out []domain.PlanPoint
	for f := range strings.FieldsSeq(s) {
		x, y, ok := strings.Cut(f, ",")
		if !ok {
			return nil, errors.New("not a pair x,y")
		}
		px, err1 := strconv.Atoi(x)
		py, err2 := strconv.Atoi(y)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		out = append(out, domain.PlanPoint{X: px, Y: py})
	}
	return out, nil
}
