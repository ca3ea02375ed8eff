package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Building returns one building of an account.
func (s *Store) Building(ctx context.Context, account, id string) (domain.Building, error) {
	b := domain.Building{ID: id}
	err := s.placeRow(ctx, account, `SELECT name FROM buildings WHERE account_id = $1 AND id = $2`, id, &b.Name)
	return b, notFound(err, "building", id)
}

// Floor returns one floor of an account.
func (s *Store) Floor(ctx context.Context, account, id string) (domain.Floor, error) {
	f := domain.Floor{ID: id}
	err := s.placeRow(ctx, account, `SELECT building_id, name FROM floors WHERE account_id = $1 AND id = $2`, id, &f.BuildingID, &f.Name)
	return f, notFound(err, "floor", id)
}

// Room returns one room of an account.
func (s *Store) Room(ctx context.Context, account, id string) (domain.Room, error) {
	r := domain.Room{ID: id}
	err := s.placeRow(ctx, account, `SELECT floor_id, name FROM rooms WHERE account_id = $1 AND id = $2`, id, &r.FloorID, &r.Name)
	return r, notFound(err, "room", id)
}

// Location returns one device location of an account.
func (s *Store) Location(ctx context.Context, account, id string) (domain.Location, error) {
	l := domain.Location{ID: id}
	var typ string
	err := s.placeRow(ctx, account, `SELECT room_id, name, type FROM locations WHERE account_id = $1 AND id = $2`, id, &l.RoomID, &l.Name, &typ)
	l.Type = domain.DeviceType(typ)
	return l, notFound(err, "device location", id)
}

func (s *Store) placeRow(ctx context.Context, account, q, id string, dest ...any) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.pool.QueryRow(ctx, q, key, id).Scan(dest...)
}

// notFound turns "no rows" into domain.ErrNotFound.
func notFound(err error, what, id string) error {
	if errors.Is(err, pgx.ErrNoRows) {
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
	return locationsIn(ctx, s.pool, key, building, floor, room)
}

func locationsIn(ctx context.Context, q querier, key int64, building, floor, room string) ([]domain.Location, error) {
	sql := `SELECT id, room_id, name, type FROM locations WHERE account_id = $1`
	args := []any{key}
	switch {
	case room != "":
		sql += ` AND room_id = $2`
		args = append(args, room)
	case floor != "":
		sql += ` AND floor_id = $2`
		args = append(args, floor)
	case building != "":
		sql += ` AND building_id = $2`
		args = append(args, building)
	}
	return scanLocations(ctx, q, sql+` ORDER BY position`, args...)
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
	return scanLocations(ctx, s.pool, `SELECT l.id, l.room_id, l.name, l.type FROM locations l
		JOIN rooms r ON r.account_id = l.account_id AND r.id = l.room_id
		WHERE l.account_id = $1 AND (lower(l.name) LIKE $2 OR lower(r.name) LIKE $2
			OR EXISTS (SELECT 1 FROM devices d WHERE d.account_id = l.account_id AND d.location_id = l.id AND d.mac LIKE $3))
		ORDER BY l.position LIMIT $4`, key, pattern, mac, limit)
}

// escapeLike escapes LIKE's wildcards with its default escape character.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func scanLocations(ctx context.Context, q querier, sql string, args ...any) ([]domain.Location, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Location, error) {
		var l domain.Location
		var typ string
		err := row.Scan(&l.ID, &l.RoomID, &l.Name, &typ)
		l.Type = domain.DeviceType(typ)
		return l, err
	})
}

// Paths returns where each of the given locations is, by location id.
// Identifiers the account does not have are left out.
func (s *Store) Paths(ctx context.Context, account string, ids []string) (map[string]store.Path, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.Path, len(ids))
	for start := 0; start < len(ids); start += chunk {
		rows, err := s.pool.Query(ctx, `SELECT l.id, l.name, l.type, r.id, r.name, f.id, f.name, b.id, b.name
			FROM locations l
			JOIN rooms r ON r.account_id = l.account_id AND r.id = l.room_id
			JOIN floors f ON f.account_id = l.account_id AND f.id = r.floor_id
			JOIN buildings b ON b.account_id = l.account_id AND b.id = f.building_id
			WHERE l.account_id = $1 AND l.id = ANY($2)`, key, ids[start:min(start+chunk, len(ids))])
		if err != nil {
			return nil, err
		}
		var p store.Path
		var typ string
		_, err = pgx.ForEachRow(rows, []any{&p.Location.ID, &p.Location.Name, &typ, &p.Room.ID, &p.Room.Name,
			&p.Floor.ID, &p.Floor.Name, &p.Building.ID, &p.Building.Name}, func() error {
			p.Location.Type = domain.DeviceType(typ)
			p.Location.RoomID, p.Room.FloorID, p.Floor.BuildingID = p.Room.ID, p.Floor.ID, p.Building.ID
			out[p.Location.ID] = p
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
