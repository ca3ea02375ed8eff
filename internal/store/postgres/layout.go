package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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
// page, in one transaction that holds the account until Commit or
// Rollback.
type LayoutRefresh struct {
	tx      *txn
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
	held, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, err
	}
	r := &LayoutRefresh{
		tx: tx, key: held.key, account: account, now: s.Now, name: held.name,
		floorBuilding: map[string]string{}, roomFloor: map[string]string{}, places: map[string]rollup.Place{},
	}
	for i, t := range []*table{buildingsTable, floorsTable, roomsTable, locationsTable} {
		existing, err := existingHashes(ctx, tx, t, held.key)
		if err != nil {
			r.Rollback()
			return nil, err
		}
		r.parts[i] = newTableWriter(tx, t, held.key, existing)
	}
	return r, nil
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
	if _, err := r.tx.Exec(ctx, `UPDATE accounts SET name = $1, updated = $2 WHERE key = $3`, name, r.now(), r.key); err != nil {
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
	rollback(r.tx)
}

// rollback ends a refresh's transaction if it is still open. It does not
// wait on a context the caller may have cancelled: the connection goes
// back to the pool either way.
func rollback(tx *txn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tx.Rollback(ctx)
}

// Account returns a cached account.
func (s *Store) Account(ctx context.Context, id string) (domain.Account, error) {
	a := domain.Account{ID: id}
	err := s.pool.QueryRow(ctx, `SELECT name FROM accounts WHERE id = $1 AND name != ''`, id).Scan(&a.Name)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, fmt.Errorf("account %q: %w", id, domain.ErrNotFound)
	}
	return a, err
}

// Layout reads an account's whole layout, in the service's order, in one
// transaction: a refresh that commits meanwhile shows whole or not at all.
func (s *Store) Layout(ctx context.Context, account string) (domain.Layout, error) {
	var l domain.Layout
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT name FROM accounts WHERE id = $1 AND name != ''`, account).Scan(&l.Account.Name)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("account %q: %w", account, domain.ErrNotFound)
		}
		if err != nil {
			return err
		}
		l.Account.ID = account
		key, err := s.accountKey(ctx, account, false)
		if err != nil {
			return err
		}
		if l.Buildings, err = buildings(ctx, tx, key); err != nil {
			return err
		}
		if l.Floors, err = floors(ctx, tx, key, ""); err != nil {
			return err
		}
		if l.Rooms, err = rooms(ctx, tx, key, ""); err != nil {
			return err
		}
		l.Locations, err = locationsIn(ctx, tx, key, "", "", "")
		return err
	})
	return l, err
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Buildings lists an account's buildings.
func (s *Store) Buildings(ctx context.Context, account string) ([]domain.Building, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return buildings(ctx, s.pool, key)
}

func buildings(ctx context.Context, q querier, key int64) ([]domain.Building, error) {
	rows, err := q.Query(ctx, `SELECT id, name FROM buildings WHERE account_id = $1 ORDER BY position`, key)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Building, error) {
		var b domain.Building
		return b, row.Scan(&b.ID, &b.Name)
	})
}

// Floors lists an account's floors, of one building or of all when
// building is "".
func (s *Store) Floors(ctx context.Context, account, building string) ([]domain.Floor, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return floors(ctx, s.pool, key, building)
}

func floors(ctx context.Context, q querier, key int64, building string) ([]domain.Floor, error) {
	sql, args := `SELECT id, building_id, name FROM floors WHERE account_id = $1 ORDER BY position`, []any{key}
	if building != "" {
		sql, args = `SELECT id, building_id, name FROM floors WHERE account_id = $1 AND building_id = $2 ORDER BY position`, append(args, building)
	}
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Floor, error) {
		var f domain.Floor
		return f, row.Scan(&f.ID, &f.BuildingID, &f.Name)
	})
}

// Rooms lists an account's rooms, of one floor or of all when floor is "".
func (s *Store) Rooms(ctx context.Context, account, floor string) ([]domain.Room, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return rooms(ctx, s.pool, key, floor)
}

func rooms(ctx context.Context, q querier, key int64, floor string) ([]domain.Room, error) {
	sql, args := `SELECT id, floor_id, name FROM rooms WHERE account_id = $1 ORDER BY position`, []any{key}
	if floor != "" {
		sql, args = `SELECT id, floor_id, name FROM rooms WHERE account_id = $1 AND floor_id = $2 ORDER BY position`, append(args, floor)
	}
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Room, error) {
		var r domain.Room
		return r, row.Scan(&r.ID, &r.FloorID, &r.Name)
	})
}

// Locations lists an account's device locations, of one room or of all
// when room is "".
func (s *Store) Locations(ctx context.Context, account, room string) ([]domain.Location, error) {
	return s.LocationsIn(ctx, account, "", "", room)
}
