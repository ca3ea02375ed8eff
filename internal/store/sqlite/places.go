package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Building returns one building of an account.
func (s *Store) Building(ctx context.Context, account, id string) (domain.Building, error) {
	b := domain.Building{ID: id}
	err := s.placeRow(ctx, account, `SELECT name FROM buildings WHERE account_id = ? AND id = ?`, id, &b.Name)
	return b, notFound(err, "building", id)
}

// Floor returns one floor of an account.
func (s *Store) Floor(ctx context.Context, account, id string) (domain.Floor, error) {
	f := domain.Floor{ID: id}
	err := s.placeRow(ctx, account, `SELECT building_id, name FROM floors WHERE account_id = ? AND id = ?`, id, &f.BuildingID, &f.Name)
	return f, notFound(err, "floor", id)
}

// Room returns one room of an account.
func (s *Store) Room(ctx context.Context, account, id string) (domain.Room, error) {
	r := domain.Room{ID: id}
	err := s.placeRow(ctx, account, `SELECT floor_id, name FROM rooms WHERE account_id = ? AND id = ?`, id, &r.FloorID, &r.Name)
	return r, notFound(err, "room", id)
}

// Location returns one device location of an account.
func (s *Store) Location(ctx context.Context, account, id string) (domain.Location, error) {
	l := domain.Location{ID: id}
	var typ string
	err := s.placeRow(ctx, account, `SELECT room_id, name, type FROM locations WHERE account_id = ? AND id = ?`, id, &l.RoomID, &l.Name, &typ)
	l.Type = domain.DeviceType(typ)
	return l, notFound(err, "device location", id)
}

func (s *Store) placeRow(ctx context.Context, account, q, id string, dest ...any) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.read.QueryRowContext(ctx, q, key, id).Scan(dest...)
}

func notFound(err error, what, id string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s %q: %w", what, id, domain.ErrNotFound)
	}
	return err
}

// LocationsIn lists the device locations of a building, floor or room (the
// first non-empty of the three), or of the whole account, in the service's
// order.
func (s *Store) LocationsIn(ctx context.Context, account, building, floor, room string) ([]domain.Location, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	// Without statistics the planner would rather walk all the account's
	// locations by primary key than a room's or a floor's by their index.
	q := `SELECT id, room_id, name, type FROM locations WHERE account_id = ?`
	args := []any{key}
	switch {
	case room != "":
		q = `SELECT id, room_id, name, type FROM locations INDEXED BY locations_room WHERE account_id = ? AND room_id = ?`
		args = append(args, room)
	case floor != "":
		q = `SELECT id, room_id, name, type FROM locations INDEXED BY locations_floor WHERE account_id = ? AND floor_id = ?`
		args = append(args, floor)
	case building != "":
		q += ` AND building_id = ?`
		args = append(args, building)
	}
	return s.scanLocations(ctx, q+` ORDER BY position`, args...)
}

// SearchLocations finds the device locations whose name or room name
// contains the query, or one of whose devices has a MAC address containing
// it, case-insensitively; at most limit of them, in the service's order.
func (s *Store) SearchLocations(ctx context.Context, account, query string, limit int) ([]domain.Location, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	pattern := "%" + escapeLike(strings.ToLower(strings.TrimSpace(query))) + "%"
	mac := "%" + escapeLike(strings.ToUpper(strings.NewReplacer(":", "", "-", "", " ", "").Replace(query))) + "%"
	return s.scanLocations(ctx, `SELECT l.id, l.room_id, l.name, l.type FROM locations l
		JOIN rooms r ON r.account_id = l.account_id AND r.id = l.room_id
		WHERE l.account_id = ? AND (lower(l.name) LIKE ? ESCAPE '\' OR lower(r.name) LIKE ? ESCAPE '\'
			OR EXISTS (SELECT 1 FROM devices d WHERE d.account_id = l.account_id AND d.location_id = l.id AND d.mac LIKE ? ESCAPE '\'))
		ORDER BY l.position LIMIT ?`, key, pattern, pattern, mac, limit)
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func (s *Store) scanLocations(ctx context.Context, q string, args ...any) ([]domain.Location, error) {
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Location
	for rows.Next() {
		var l domain.Location
		var typ string
		if err := rows.Scan(&l.ID, &l.RoomID, &l.Name, &typ); err != nil {
			return nil, err
		}
		l.Type = domain.DeviceType(typ)
		out = append(out, l)
	}
	return out, rows.Err()
}

// Paths returns where each of the given locations is, by location id.
// Identifiers the account does not have are left out.
func (s *Store) Paths(ctx context.Context, account string, ids []string) (map[string]store.Path, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.Path, len(ids))
	const chunk = 500
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		args := make([]any, 0, len(part)+1)
		args = append(args, key)
		for _, id := range part {
			args = append(args, id)
		}
		rows, err := s.read.QueryContext(ctx, `SELECT l.id, l.name, l.type, r.id, r.name, f.id, f.name, b.id, b.name
			FROM locations l
			JOIN rooms r ON r.account_id = l.account_id AND r.id = l.room_id
			JOIN floors f ON f.account_id = l.account_id AND f.id = r.floor_id
			JOIN buildings b ON b.account_id = l.account_id AND b.id = f.building_id
			WHERE l.account_id = ? AND l.id IN (`+strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var p store.Path
			var typ string
			if err := rows.Scan(&p.Location.ID, &p.Location.Name, &typ, &p.Room.ID, &p.Room.Name,
				&p.Floor.ID, &p.Floor.Name, &p.Building.ID, &p.Building.Name); err != nil {
				rows.Close()
				return nil, err
			}
			p.Location.Type = domain.DeviceType(typ)
			p.Location.RoomID, p.Room.FloorID, p.Floor.BuildingID = p.Room.ID, p.Floor.ID, p.Building.ID
			out[p.Location.ID] = p
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
