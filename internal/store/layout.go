package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"washboard/internal/domain"
)

var (
	buildingsTable = &table{name: "buildings", key: "id", cols: []string{"name", "position"}}
	floorsTable    = &table{name: "floors", key: "id", cols: []string{"building_id", "name", "position"}}
	roomsTable     = &table{name: "rooms", key: "id", cols: []string{"floor_id", "building_id", "name", "position"}}
	locationsTable = &table{name: "locations", key: "id", cols: []string{"room_id", "floor_id", "building_id", "name", "type", "position"}}
)

// ReplaceLayout writes an account's layout as the service now lists it, in
// one transaction: new and changed rows are written, rows the service no
// longer lists are removed, and nothing is written when nothing changed.
func (s *Store) ReplaceLayout(ctx context.Context, l domain.Layout) (Change, error) {
	account := l.Account.ID
	if account == "" {
		return Change{}, errors.New("store: layout without an account id")
	}
	floorBuilding := make(map[string]string, len(l.Floors))
	for _, f := range l.Floors {
		floorBuilding[f.ID] = f.BuildingID
	}
	roomFloor := make(map[string]string, len(l.Rooms))
	for _, r := range l.Rooms {
		roomFloor[r.ID] = r.FloorID
	}

	parts := []struct {
		t    *table
		rows []row
	}{
		{buildingsTable, make([]row, 0, len(l.Buildings))},
		{floorsTable, make([]row, 0, len(l.Floors))},
		{roomsTable, make([]row, 0, len(l.Rooms))},
		{locationsTable, make([]row, 0, len(l.Locations))},
	}
	for i, b := range l.Buildings {
		parts[0].rows = append(parts[0].rows, row{b.ID, []any{b.Name, int64(i)}})
	}
	for i, f := range l.Floors {
		parts[1].rows = append(parts[1].rows, row{f.ID, []any{f.BuildingID, f.Name, int64(i)}})
	}
	for i, r := range l.Rooms {
		parts[2].rows = append(parts[2].rows, row{r.ID, []any{r.FloorID, floorBuilding[r.FloorID], r.Name, int64(i)}})
	}
	for i, loc := range l.Locations {
		floor := roomFloor[loc.RoomID]
		parts[3].rows = append(parts[3].rows, row{loc.ID, []any{loc.RoomID, floor, floorBuilding[floor], loc.Name, string(loc.Type), int64(i)}})
	}

	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return Change{}, err
	}
	var total Change
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var name string
		if err := tx.QueryRowContext(ctx, `SELECT name FROM accounts WHERE key = ?`, key).Scan(&name); err != nil {
			return err
		}
		if name != l.Account.Name {
			if _, err := tx.ExecContext(ctx, `UPDATE accounts SET name = ?, updated_ms = ? WHERE key = ?`, l.Account.Name, s.Now().UnixMilli(), key); err != nil {
				return err
			}
			if name == "" {
				total.Added++
			} else {
				total.Changed++
			}
		}
		for _, p := range parts {
			existing, err := existingHashes(ctx, tx, p.t, key, "")
			if err != nil {
				return err
			}
			c, err := upsert(ctx, tx, p.t, key, p.rows, existing, true)
			if err != nil {
				return err
			}
			total = total.Plus(c)
		}
		if total.Empty() {
			return nil
		}
		return recomputeRollups(ctx, tx, key, account)
	})
	return total, err
}

// Account returns a cached account.
func (s *Store) Account(ctx context.Context, id string) (domain.Account, error) {
	a := domain.Account{ID: id}
	err := s.read.QueryRowContext(ctx, `SELECT name FROM accounts WHERE id = ? AND name != ''`, id).Scan(&a.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return a, fmt.Errorf("account %q: %w", id, domain.ErrNotFound)
	}
	return a, err
}

// Layout reads an account's whole layout, in the service's order.
func (s *Store) Layout(ctx context.Context, account string) (domain.Layout, error) {
	var l domain.Layout
	var err error
	if l.Account, err = s.Account(ctx, account); err != nil {
		return l, err
	}
	if l.Buildings, err = s.Buildings(ctx, account); err != nil {
		return l, err
	}
	if l.Floors, err = s.Floors(ctx, account, ""); err != nil {
		return l, err
	}
	if l.Rooms, err = s.Rooms(ctx, account, ""); err != nil {
		return l, err
	}
	l.Locations, err = s.Locations(ctx, account, "")
	return l, err
}

// Buildings lists an account's buildings.
func (s *Store) Buildings(ctx context.Context, account string) ([]domain.Building, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT id, name FROM buildings WHERE account_id = ? ORDER BY position`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Building
	for rows.Next() {
		var b domain.Building
		if err := rows.Scan(&b.ID, &b.Name); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// Floors lists an account's floors, of one building or of all when
// building is "".
func (s *Store) Floors(ctx context.Context, account, building string) ([]domain.Floor, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT id, building_id, name FROM floors
		WHERE account_id = ? AND (? = '' OR building_id = ?) ORDER BY position`, key, building, building)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Floor
	for rows.Next() {
		var f domain.Floor
		if err := rows.Scan(&f.ID, &f.BuildingID, &f.Name); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// Rooms lists an account's rooms, of one floor or of all when floor is "".
func (s *Store) Rooms(ctx context.Context, account, floor string) ([]domain.Room, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	q, args := `SELECT id, floor_id, name FROM rooms WHERE account_id = ? ORDER BY position`, []any{key}
	if floor != "" {
		// A floor's rooms by their index, not the account's filtered.
		q, args = `SELECT id, floor_id, name FROM rooms INDEXED BY rooms_floor WHERE account_id = ? AND floor_id = ? ORDER BY position`, []any{key, floor}
	}
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Room
	for rows.Next() {
		var r domain.Room
		if err := rows.Scan(&r.ID, &r.FloorID, &r.Name); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Locations lists an account's device locations, of one room or of all
// when room is "".
func (s *Store) Locations(ctx context.Context, account, room string) ([]domain.Location, error) {
	return s.LocationsIn(ctx, account, "", "", room)
}
