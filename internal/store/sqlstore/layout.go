package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/rollup"
)

var (
	buildingsTable = &Table{Name: "buildings", Key: "id", Cols: []string{"name", "position"}}
	floorsTable    = &Table{Name: "floors", Key: "id", Cols: []string{"building_id", "name", "position"}}
	roomsTable     = &Table{Name: "rooms", Key: "id", Cols: []string{"floor_id", "building_id", "name", "position"}}
	locationsTable = &Table{Name: "locations", Key: "id", Cols: []string{"room_id", "floor_id", "building_id", "name", "type", "position"}}
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
// page, in one transaction that holds the account until Commit or
// Rollback.
type LayoutRefresh struct {
	tx      Tx
	d       Dialect
	account heldAccount
	now     func() time.Time
	change  domain.Change // of the account's name

	// The buildings, floors, rooms and locations, in that order, and how
	// many of each the refresh has listed: the position of the next one.
	parts  [4]*TableWriter
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
	held, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, err
	}
	r := &LayoutRefresh{
		tx: tx, d: s.d, account: held, now: s.Now,
		floorBuilding: map[string]string{}, roomFloor: map[string]string{}, places: map[string]rollup.Place{},
	}
	for i, t := range []*Table{buildingsTable, floorsTable, roomsTable, locationsTable} {
		existing, err := existingHashes(ctx, tx, t, held.key)
		if err != nil {
			r.Rollback()
			return nil, err
		}
		r.parts[i] = newTableWriter(tx, t, held.key, existing)
	}
	return r, nil
}

// existingHashes reads the key and content hash of every row of the
// account in the table.
func existingHashes(ctx context.Context, q Querier, t *Table, account int64) (map[string]int64, error) {
	out := map[string]int64{}
	var k string
	var h int64
	err := each(ctx, q, fmt.Sprintf("SELECT %s, hash FROM %s WHERE account_id = ?", t.Key, t.Name), []any{account}, []any{&k, &h}, func() error {
		out[k] = h
		return nil
	})
	return out, err
}

// Write writes a part of the layout: the account, and the buildings,
// floors, rooms and locations that the service lists next, in its order.
// A room's floor and a location's room are listed in the same part or an
// earlier one. Rows may wait for the next part or for Commit, to be
// written together.
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
	rows := [4][]Row{
		make([]Row, 0, len(l.Buildings)), make([]Row, 0, len(l.Floors)),
		make([]Row, 0, len(l.Rooms)), make([]Row, 0, len(l.Locations)),
	}
	for _, b := range l.Buildings {
		rows[0] = append(rows[0], Row{Key: b.ID, Vals: []any{b.Name, r.next(0)}})
	}
	for _, f := range l.Floors {
		rows[1] = append(rows[1], Row{Key: f.ID, Vals: []any{f.BuildingID, f.Name, r.next(1)}})
	}
	for _, room := range l.Rooms {
		rows[2] = append(rows[2], Row{Key: room.ID, Vals: []any{room.FloorID, r.floorBuilding[room.FloorID], room.Name, r.next(2)}})
	}
	for _, loc := range l.Locations {
		p := rollup.Place{Location: loc.ID, Room: loc.RoomID}
		p.Floor = r.roomFloor[p.Room]
		p.Building = r.floorBuilding[p.Floor]
		r.places[p.Location] = p
		rows[3] = append(rows[3], Row{Key: loc.ID, Vals: []any{p.Room, p.Floor, p.Building, loc.Name, string(loc.Type), r.next(3)}})
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
	if name == r.account.name {
		return nil
	}
	if _, err := r.tx.Exec(ctx, `UPDATE accounts SET name = ?, updated = ? WHERE key = ?`, name, r.d.Time(r.now()), r.account.key); err != nil {
		return err
	}
	if r.account.name == "" {
		r.change.Added++
	} else {
		r.change.Changed++
	}
	r.account.name = name
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
		if err := recomputeRollups(ctx, r.tx, r.account, rollupInputs{places: r.listedPlaces()}); err != nil {
			return total, err
		}
	}
	return total, r.tx.Commit(ctx)
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
	return readAccount(ctx, s.read, id)
}

func readAccount(ctx context.Context, q Querier, id string) (domain.Account, error) {
	a := domain.Account{ID: id}
	err := q.QueryRow(ctx, `SELECT name FROM accounts WHERE id = ? AND name != ''`, id).Scan(&a.Name)
	return a, notFound(err, "account", id)
}

// Layout reads an account's whole layout, in the service's order, in one
// read-only transaction: a refresh that commits meanwhile shows whole or
// not at all.
func (s *Store) Layout(ctx context.Context, account string) (domain.Layout, error) {
	var l domain.Layout
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return l, err
	}
	tx, err := s.read.Begin(ctx)
	if err != nil {
		return l, err
	}
	defer tx.Rollback()
	if l.Account, err = readAccount(ctx, tx, account); err != nil {
		return l, err
	}
	if l.Buildings, err = buildings(ctx, tx, key); err != nil {
		return l, err
	}
	if l.Floors, err = floors(ctx, tx, key, ""); err != nil {
		return l, err
	}
	if l.Rooms, err = s.rooms(ctx, tx, key, ""); err != nil {
		return l, err
	}
	l.Locations, err = s.locationsIn(ctx, tx, key, "", "", "")
	return l, err
}

// Buildings lists an account's buildings.
func (s *Store) Buildings(ctx context.Context, account string) ([]domain.Building, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return buildings(ctx, s.read, key)
}

func buildings(ctx context.Context, q Querier, key int64) ([]domain.Building, error) {
	var out []domain.Building
	var b domain.Building
	err := each(ctx, q, `SELECT id, name FROM buildings WHERE account_id = ? ORDER BY position`, []any{key}, []any{&b.ID, &b.Name}, func() error {
		out = append(out, b)
		return nil
	})
	return out, err
}

// Floors lists an account's floors, of one building or of all when
// building is "".
func (s *Store) Floors(ctx context.Context, account, building string) ([]domain.Floor, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return floors(ctx, s.read, key, building)
}

func floors(ctx context.Context, q Querier, key int64, building string) ([]domain.Floor, error) {
	query, args := `SELECT id, building_id, name FROM floors WHERE account_id = ? ORDER BY position`, []any{key}
	if building != "" {
		query, args = `SELECT id, building_id, name FROM floors WHERE account_id = ? AND building_id = ? ORDER BY position`, append(args, building)
	}
	var out []domain.Floor
	var f domain.Floor
	err := each(ctx, q, query, args, []any{&f.ID, &f.BuildingID, &f.Name}, func() error {
		out = append(out, f)
		return nil
	})
	return out, err
}

// Rooms lists an account's rooms, of one floor or of all when floor is "".
func (s *Store) Rooms(ctx context.Context, account, floor string) ([]domain.Room, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return s.rooms(ctx, s.read, key, floor)
}

func (s *Store) rooms(ctx context.Context, q Querier, key int64, floor string) ([]domain.Room, error) {
	query, args := `SELECT id, floor_id, name FROM rooms WHERE account_id = ? ORDER BY position`, []any{key}
	if floor != "" {
		// A floor's rooms by their index, not the account's filtered.
		query, args = `SELECT id, floor_id, name FROM rooms`+s.d.IndexedBy("rooms_floor")+` WHERE account_id = ? AND floor_id = ? ORDER BY position`,
			append(args, floor)
	}
	var out []domain.Room
	var r domain.Room
	err := each(ctx, q, query, args, []any{&r.ID, &r.FloorID, &r.Name}, func() error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// Locations lists an account's device locations, of one room or of all
// when room is "".
func (s *Store) Locations(ctx context.Context, account, room string) ([]domain.Location, error) {
	return s.LocationsIn(ctx, account, "", "", room)
}
