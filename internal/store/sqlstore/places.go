package sqlstore

import (
	"context"
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
	return s.read.QueryRow(ctx, q, key, id).Scan(dest...)
}

// LocationsIn lists the device locations of a building, floor or room (the
// first non-empty of the three), or of the whole account, in the service's
// order.
func (s *Store) LocationsIn(ctx context.Context, account, building, floor, room string) ([]domain.Location, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return s.locationsIn(ctx, s.read, key, building, floor, room)
}

func (s *Store) locationsIn(ctx context.Context, q Querier, key int64, building, floor, room string) ([]domain.Location, error) {
	// An engine without statistics would rather walk all the account's
	// locations by primary key than a room's or a floor's by their index.
	query := `SELECT id, room_id, name, type FROM locations WHERE account_id = ?`
	args := []any{key}
	switch {
	case room != "":
		query = `SELECT id, room_id, name, type FROM locations` + s.d.IndexedBy("locations_room") + ` WHERE account_id = ? AND room_id = ?`
		args = append(args, room)
	case floor != "":
		query = `SELECT id, room_id, name, type FROM locations` + s.d.IndexedBy("locations_floor") + ` WHERE account_id = ? AND floor_id = ?`
		args = append(args, floor)
	case building != "":
		query += ` AND building_id = ?`
		args = append(args, building)
	}
	return scanLocations(ctx, q, query+` ORDER BY position`, args...)
}

// SearchLocations finds the device locations whose name or room name
// contains the query, or one of whose devices has a MAC address containing
// it, case-insensitively; at most limit of them, in the service's order.
// Buildings, when not nil, keeps those of these buildings only.
func (s *Store) SearchLocations(ctx context.Context, account, query string, buildings []string, limit int) ([]domain.Location, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	pattern := "%" + escapeLike(strings.ToLower(strings.TrimSpace(query))) + "%"
	mac := "%" + escapeLike(strings.ToUpper(strings.NewReplacer(":", "", "-", "", " ", "").Replace(query))) + "%"
	in, inArgs := s.inBuildings("l.building_id", buildings)
	args := append(append([]any{key, pattern, pattern, mac}, inArgs...), limit)
	return scanLocations(ctx, s.read, `SELECT l.id, l.room_id, l.name, l.type FROM locations l
		JOIN rooms r ON r.account_id = l.account_id AND r.id = l.room_id
		WHERE l.account_id = ? AND (lower(l.name) LIKE ? ESCAPE '\' OR lower(r.name) LIKE ? ESCAPE '\'
			OR EXISTS (SELECT 1 FROM devices d WHERE d.account_id = l.account_id AND d.location_id = l.id AND d.mac LIKE ? ESCAPE '\'))`+in+`
		ORDER BY l.position LIMIT ?`, args...)
}

// inBuildings is the condition, with its leading AND, that keeps the rows
// whose building (the column col) is one of the ids, and its arguments:
// none when ids is nil (every building), a false one when it is empty.
// A scope holds at most people.MaxBuildings ids, within one list.
func (s *Store) inBuildings(col string, ids []string) (string, []any) {
	switch {
	case ids == nil:
		return "", nil
	case len(ids) == 0:
		return " AND 1 = 0", nil
	}
	in, args := s.d.In(ids)
	return " AND " + col + " " + in, args
}

// escapeLike escapes LIKE's wildcards with \, the escape character the
// statements name.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func scanLocations(ctx context.Context, q Querier, query string, args ...any) ([]domain.Location, error) {
	var out []domain.Location
	var l domain.Location
	var typ string
	err := each(ctx, q, query, args, []any{&l.ID, &l.RoomID, &l.Name, &typ}, func() error {
		l.Type = domain.DeviceType(typ)
		out = append(out, l)
		return nil
	})
	return out, err
}

// Paths returns where each of the given locations is, by location id.
// Identifiers the account does not have are left out.
func (s *Store) Paths(ctx context.Context, account string, ids []string) (map[string]store.Path, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.Path, len(ids))
	var p store.Path
	var typ string
	err = chunks(ids, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return each(ctx, s.read, `SELECT l.id, l.name, l.type, r.id, r.name, f.id, f.name, b.id, b.name
			FROM locations l
			JOIN rooms r ON r.account_id = l.account_id AND r.id = l.room_id
			JOIN floors f ON f.account_id = l.account_id AND f.id = r.floor_id
			JOIN buildings b ON b.account_id = l.account_id AND b.id = f.building_id
			WHERE l.account_id = ? AND l.id `+in, append([]any{key}, args...),
			[]any{&p.Location.ID, &p.Location.Name, &typ, &p.Room.ID, &p.Room.Name, &p.Floor.ID, &p.Floor.Name, &p.Building.ID, &p.Building.Name},
			func() error {
				p.Location.Type = domain.DeviceType(typ)
				p.Location.RoomID, p.Room.FloorID, p.Floor.BuildingID = p.Room.ID, p.Floor.ID, p.Building.ID
				out[p.Location.ID] = p
				return nil
			})
	})
	return out, err
}
