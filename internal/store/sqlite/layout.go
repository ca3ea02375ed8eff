package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/rollup"
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
func (s *Store) ReplaceLayout(ctx context.Context, l domain.Layout) (domain.Change, error) {
	if l.Account.ID == "" {
		return domain.Change{}, errors.New("store: layout without an account id")
	}
	r, err := s.beginLayout(ctx, l.Account.ID)
	if err != nil {
		return domain.Change{}, err
	}
	defer r.Rollback()
	if err := r.Write(ctx, l); err != nil {
		return domain.Change{}, err
	}
	return r.Commit(ctx)
}

// LayoutRefresh is a refresh of an account's layout being written page by
// page, in one transaction that holds the writer until Commit or Rollback.
type LayoutRefresh struct {
	tx      *sql.Tx
	key     int64
	account string
	now     func() time.Time
	name    string        // the account's name in the cache
	change  domain.Change // of the account's name

	// The buildings, floors, rooms and locations, in that order, and how
	// many of each the refresh has listed: the position of the next one.
	parts  [4]*tableWriter
	listed [4]int64

	floorBuilding map[string]string       // the building of each floor listed
	roomFloor     map[string]string       // the floor of each room listed
	places        map[string]rollup.Place // each location listed, by id
}

// BeginLayout starts a refresh of an account's layout.
func (s *Store) BeginLayout(ctx context.Context, account string) (store.LayoutRefresh, error) {
	r, err := s.beginLayout(ctx, account)
	if err != nil {
		return nil, err // not a nil *LayoutRefresh in a non-nil interface
	}
	return r, nil
}

func (s *Store) beginLayout(ctx context.Context, account string) (*LayoutRefresh, error) {
	key, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, err
	}
	r := &LayoutRefresh{
		tx: tx, key: key, account: account, now: s.Now,
		floorBuilding: map[string]string{}, roomFloor: map[string]string{}, places: map[string]rollup.Place{},
	}
	if err := r.begin(ctx); err != nil {
		tx.Rollback()
		return nil, err
	}
	return r, nil
}

// begin reads what the cache holds of the layout.
func (r *LayoutRefresh) begin(ctx context.Context) error {
	if err := r.tx.QueryRowContext(ctx, `SELECT name FROM accounts WHERE key = ?`, r.key).Scan(&r.name); err != nil {
		return err
	}
	for i, t := range []*table{buildingsTable, floorsTable, roomsTable, locationsTable} {
		existing, err := existingHashes(ctx, r.tx, t, r.key, "")
		if err != nil {
			return err
		}
		r.parts[i] = newTableWriter(r.tx, t, r.key, existing)
	}
	return nil
}

// Write writes a part of the layout: the account, and the buildings,
// floors, rooms and locations that the service lists next, in its order.
// A room's floor and a location's room are listed in the same part or an
// earlier one. The last few rows may wait for the next part or for Commit,
// to be written in a full batch.
func (r *LayoutRefresh) Write(ctx context.Context, l domain.Layout) error {
	if err := r.writeName(ctx, l.Account.Name); err != nil {
		return err
	}
	for _, f := range l.Floors {
		r.floorBuilding[f.ID] = f.BuildingID
	}
	for _, room := range l.Rooms {
		r.roomFloor[room.ID] = room.FloorID
	}
	rows := [4][]row{
		make([]row, 0, len(l.Buildings)), make([]row, 0, len(l.Floors)),
		make([]row, 0, len(l.Rooms)), make([]row, 0, len(l.Locations)),
	}
	for _, b := range l.Buildings {
		rows[0] = append(rows[0], row{key: b.ID, vals: []any{b.Name, r.next(0)}})
	}
	for _, f := range l.Floors {
		rows[1] = append(rows[1], row{key: f.ID, vals: []any{f.BuildingID, f.Name, r.next(1)}})
	}
	for _, room := range l.Rooms {
		rows[2] = append(rows[2], row{key: room.ID, vals: []any{room.FloorID, r.floorBuilding[room.FloorID], room.Name, r.next(2)}})
	}
	for _, loc := range l.Locations {
		p := rollup.Place{Location: loc.ID, Room: loc.RoomID}
		p.Floor = r.roomFloor[p.Room]
		p.Building = r.floorBuilding[p.Floor]
		r.places[p.Location] = p
		rows[3] = append(rows[3], row{key: loc.ID, vals: []any{p.Room, p.Floor, p.Building, loc.Name, string(loc.Type), r.next(3)}})
	}
	for i, w := range r.parts {
		if err := w.write(ctx, rows[i]); err != nil {
			return err
		}
	}
	return nil
}

// next returns the position of the next row of part i.
func (r *LayoutRefresh) next(i int) int64 {
	r.listed[i]++
	return r.listed[i] - 1
}

// writeName writes the account's name when it differs from the cache's.
func (r *LayoutRefresh) writeName(ctx context.Context, name string) error {
	if name == r.name {
		return nil
	}
	if _, err := r.tx.ExecContext(ctx, `UPDATE accounts SET name = ?, updated = ? WHERE key = ?`, name, r.now().UnixMilli(), r.key); err != nil {
		return err
	}
	if r.name == "" {
		r.change.Added++
	} else {
		r.change.Changed++
	}
	r.name = name
	return nil
}

// Commit writes the rows still waiting, removes those the refresh did not
// list, brings the rollups up to date and commits.
func (r *LayoutRefresh) Commit(ctx context.Context) (domain.Change, error) {
	defer r.close()
	total := r.change
	for _, w := range r.parts {
		if err := w.flush(ctx); err != nil {
			return total, err
		}
		if err := w.removeUnseen(ctx); err != nil {
			return total, err
		}
		total = total.Plus(w.change)
	}
	if !total.Empty() {
		if err := recomputeRollups(ctx, r.tx, r.key, r.account, rollupInputs{places: r.listedPlaces()}); err != nil {
			return total, err
		}
	}
	return total, r.tx.Commit()
}

// listedPlaces returns where the locations listed are: once the refresh
// commits, the locations the cache holds.
func (r *LayoutRefresh) listedPlaces() []rollup.Place {
	out := make([]rollup.Place, 0, len(r.places))
	for _, p := range r.places {
		out = append(out, p)
	}
	return out
}

// Rollback abandons the refresh; after Commit it does nothing.
func (r *LayoutRefresh) Rollback() {
	r.close()
	r.tx.Rollback()
}

func (r *LayoutRefresh) close() {
	for _, w := range r.parts {
		if w != nil {
			w.close()
		}
	}
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
