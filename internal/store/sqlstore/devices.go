package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/outbox"
	"washboard/internal/store/readings"
	"washboard/internal/store/rollup"
)

var devicesTable = &Table{Name: "devices", Key: "mac", Cols: []string{
	"location_id", "position", "generation", "compartments", "battery", "battery_state",
	"faults", "offline", "last_seen", "health", "reading",
}}

// compartmentJSON and faultJSON are how compartments and faults are kept in
// their JSON columns.
type compartmentJSON struct {
	Level int  `json:"l"`
	Low   bool `json:"lo,omitempty"`
	Out   bool `json:"o,omitempty"`
}

type faultJSON struct {
	Kind string `json:"k"`
	Key  string `json:"f"`
}

// deviceRow is a device's row; sum is its readings.Sum.
func (s *Store) deviceRow(d domain.Device, sum int64) Row {
	comps := make([]compartmentJSON, len(d.Compartments))
	for i, c := range d.Compartments {
		comps[i] = compartmentJSON{c.Level, c.Low, c.Out}
	}
	faults := make([]faultJSON, len(d.Faults))
	for i, f := range d.Faults {
		faults[i] = faultJSON{string(f.Kind), f.Key}
	}
	cj, _ := json.Marshal(comps) // slices of plain structs always encode
	fj, _ := json.Marshal(faults)
	var battery any
	if d.Battery != nil {
		battery = int64(*d.Battery)
	}
	return Row{Key: d.MAC, Vals: []any{
		d.LocationID, d.Position, d.Generation, string(cj), battery, string(d.BatteryState),
		string(fj), s.d.Bool(d.Offline), s.d.TimeOrNever(d.LastSeen), int64(domain.Classify(d, false)), sum,
	}}
}

// ReplaceDevices writes an account's devices as the service now lists them,
// in one transaction, and brings the health rollups up to date. Devices the
// service no longer lists are removed; nothing is written when nothing
// changed.
func (s *Store) ReplaceDevices(ctx context.Context, account string, devices []domain.Device) (domain.Change, error) {
	r, err := s.beginDevices(ctx, account)
	if err != nil {
		return domain.Change{}, err
	}
	defer r.Rollback()
	if err := r.Write(ctx, devices); err != nil {
		return domain.Change{}, err
	}
	return r.Commit(ctx)
}

// DeviceRefresh is a refresh of an account's devices being written page by
// page, in one transaction that holds the account until Commit or
// Rollback.
type DeviceRefresh struct {
	s       *Store
	tx      Tx
	w       *TableWriter
	account heldAccount
	listed  map[string]placedHealth // each device listed, by MAC
	places  []rollup.Place          // read once the refresh changes something
	seen    time.Time               // when the refresh saw the service, if its caller says
	// changes are the devices the refresh changes that may record facts;
	// nil when the account's devices have no baseline yet: this refresh
	// makes it, and records none.
	changes *outbox.Changes[domain.Device]
	// readings are the devices the refresh records readings of; nil when
	// the store keeps no history.
	readings *readings.Changes
}

// placedHealth is a device's location and health.
type placedHealth struct {
	location string
	health   domain.Health
}

// BeginDevices starts a refresh of an account's devices.
func (s *Store) BeginDevices(ctx context.Context, account string) (store.DeviceRefresh, error) {
	r, err := s.beginDevices(ctx, account)
	if err != nil {
		return nil, err // not a nil *DeviceRefresh in a non-nil interface
	}
	return r, nil
}

func (s *Store) beginDevices(ctx context.Context, account string) (*DeviceRefresh, error) {
	held, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, err
	}
	existing, sums, err := existingDevices(ctx, tx, held.key)
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	r := &DeviceRefresh{
		s: s, tx: tx, w: newTableWriter(tx, devicesTable, held.key, existing), account: held,
		listed: map[string]placedHealth{},
	}
	if !s.noHistory.Load() {
		r.readings = readings.NewChanges(sums)
	}
	if held.devicesBaseline {
		r.changes = outbox.NewChanges[domain.Device]()
	}
	return r, nil
}

// existingDevices reads the content hash and the reading's sum of every
// device of the account, by MAC.
func existingDevices(ctx context.Context, q Querier, account int64) (hashes, sums map[string]int64, err error) {
	hashes, sums = map[string]int64{}, map[string]int64{}
	var mac string
	var h, sum int64
	err = each(ctx, q, `SELECT mac, hash, reading FROM devices WHERE account_id = ?`, []any{account}, []any{&mac, &h, &sum}, func() error {
		hashes[mac], sums[mac] = h, sum
		return nil
	})
	return hashes, sums, err
}

// SeenAt says when the refresh saw the service.
func (r *DeviceRefresh) SeenAt(t time.Time) { r.seen = t }

// Write writes a page of devices. They may wait for the next page or for
// Commit, to be written together.
func (r *DeviceRefresh) Write(ctx context.Context, devices []domain.Device) error {
	rows := make([]Row, len(devices))
	for i, d := range devices {
		sum := readings.Sum(d)
		rows[i] = r.s.deviceRow(d, sum)
		r.listed[d.MAC] = placedHealth{d.LocationID, domain.Classify(d, false)}
		if r.readings != nil {
			r.readings.Listed(d, sum)
		}
	}
	if err := r.readBefore(ctx, devices, rows); err != nil {
		return err
	}
	if err := r.w.write(ctx, rows); err != nil {
		return err
	}
	r.noteChanges(devices)
	return r.readPlaces(ctx)
}

// readBefore reads what the cache holds of the devices listed, each the
// row of rows at its index, that may record facts and that the refresh is
// about to change, before it writes them.
func (r *DeviceRefresh) readBefore(ctx context.Context, devices []domain.Device, rows []Row) error {
	if r.changes == nil {
		return nil
	}
	var macs []string
	for i, d := range devices {
		if outbox.DeviceMayRecord(d) && !r.changes.Knows(d.MAC) && r.w.differs(rows[i]) {
			macs = append(macs, d.MAC)
		}
	}
	if len(macs) == 0 {
		return nil
	}
	held, err := r.s.devicesByMAC(ctx, r.tx, r.account.key, macs)
	if err != nil {
		return err
	}
	for mac, d := range held {
		r.changes.Held(mac, d)
	}
	return nil
}

// noteChanges records the refresh's last version of the devices listed
// that it changed and that may record facts.
func (r *DeviceRefresh) noteChanges(devices []domain.Device) {
	if r.changes == nil || r.w.change.Empty() {
		return
	}
	for _, d := range devices {
		if outbox.DeviceMayRecord(d) && r.w.modified(d.MAC) {
			r.changes.Leaves(d.MAC, d)
		} else {
			r.changes.Drop(d.MAC)
		}
	}
}

// readPlaces reads where the locations are once the refresh has changed
// something, for the rollups, while the next page is on its way: a
// refresh of devices does not move them.
func (r *DeviceRefresh) readPlaces(ctx context.Context) (err error) {
	if r.places == nil && !r.w.change.Empty() {
		r.places, err = locationPlaces(ctx, r.tx, r.account.key)
	}
	return err
}

// healths returns the worst health of the devices listed at each location:
// once the refresh commits, the devices the cache holds.
func (r *DeviceRefresh) healths() map[string]domain.Health {
	out := map[string]domain.Health{}
	for _, d := range r.listed {
		rollup.Worsen(out, d.location, d.health)
	}
	return out
}

// Commit writes the devices still waiting, removes those the refresh did
// not list, brings the rollups up to date, records the readings and the
// facts of what it changed (or the baseline), and commits.
func (r *DeviceRefresh) Commit(ctx context.Context) (domain.Change, error) {
	defer r.w.close()
	if err := r.w.flush(ctx); err != nil {
		return r.w.change, err
	}
	if err := r.w.removeUnseen(ctx); err != nil {
		return r.w.change, err
	}
	if !r.w.change.Empty() {
		if err := recomputeRollups(ctx, r.tx, r.account, rollupInputs{places: r.places, healths: r.healths()}); err != nil {
			return r.w.change, err
		}
	}
	now := r.seen
	if now.IsZero() {
		now = r.s.Now()
	}
	if r.readings != nil {
		if err := r.s.recordReadings(ctx, r.tx, r.account.key, r.readings, now); err != nil {
			return r.w.change, err
		}
	}
	if err := r.recordFacts(ctx, now); err != nil {
		return r.w.change, err
	}
	return r.w.change, r.tx.Commit(ctx)
}

// recordFacts records the facts of the devices the refresh changed, or,
// when the account's devices have no baseline yet, makes it. now is when
// the refresh saw the service.
func (r *DeviceRefresh) recordFacts(ctx context.Context, now time.Time) error {
	if r.changes == nil {
		return r.s.setBaseline(ctx, r.tx, r.account.key, domain.ResourceDevices, now)
	}
	var facts []store.Fact
	for before, d := range r.changes.All() {
		facts = append(facts, outbox.DeviceFacts(r.account.id, before, d, now)...)
	}
	return r.s.recordFacts(ctx, r.tx, r.account.key, facts)
}

// Rollback abandons the refresh; after Commit it does nothing.
func (r *DeviceRefresh) Rollback() {
	r.w.close()
	r.tx.Rollback()
}

// FindDevices returns the devices matching the filter, by location in the
// service's order; those of locations the layout does not list first.
func (s *Store) FindDevices(ctx context.Context, f store.DeviceFilter) ([]domain.Device, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	var q string
	args := []any{key}
	in, inArgs := s.inBuildings("l.building_id", f.Buildings)
	switch {
	case in != "":
		// A person's scope: from the locations of their buildings.
		q = `SELECT ` + deviceCols + ` FROM locations l JOIN devices d ON d.account_id = l.account_id AND d.location_id = l.id
			WHERE l.account_id = ?` + in
		args = append(args, inArgs...)
		for _, c := range []struct{ col, val string }{{"l.id", f.LocationID}, {"l.room_id", f.RoomID}, {"l.floor_id", f.FloorID}, {"l.building_id", f.BuildingID}} {
			if c.val != "" {
				q += " AND " + c.col + " = ?"
				args = append(args, c.val)
			}
		}
		q += " ORDER BY l.position, d.position, d.mac"
	case f.LocationID != "":
		q = `SELECT ` + deviceCols + ` FROM devices d WHERE d.account_id = ? AND d.location_id = ? ORDER BY d.position, d.mac`
		args = append(args, f.LocationID)
	case f.RoomID != "" || f.FloorID != "" || f.BuildingID != "":
		// From the place's locations to their devices, so that a floor
		// page reads its own devices and not the fleet's.
		col, val := "l.building_id", f.BuildingID
		if f.RoomID != "" {
			col, val = "l.room_id", f.RoomID
		} else if f.FloorID != "" {
			col, val = "l.floor_id", f.FloorID
		}
		q = `SELECT ` + deviceCols + ` FROM locations l ` + s.d.JoinInOrder() + ` devices d` + s.d.IndexedBy("devices_location") + `
			ON d.account_id = l.account_id AND d.location_id = l.id
			WHERE l.account_id = ? AND ` + col + ` = ? ORDER BY l.position, d.position, d.mac`
		args = append(args, val)
	default:
		q = `SELECT ` + deviceCols + ` FROM devices d LEFT JOIN locations l ON l.account_id = d.account_id AND l.id = d.location_id
			WHERE d.account_id = ? ORDER BY l.position NULLS FIRST, d.position, d.mac`
	}
	var out []domain.Device
	err = s.devices(ctx, s.read, q, args, func(d domain.Device) { out = append(out, d) })
	return out, err
}

// deviceCols are the columns devices reads, of devices as d.
const deviceCols = `d.mac, d.location_id, d.position, d.generation, d.compartments, d.battery, d.battery_state,
	d.faults, d.offline, d.last_seen`

// devices runs a query of deviceCols and passes each device to f.
func (s *Store) devices(ctx context.Context, q Querier, query string, args []any, f func(domain.Device)) error {
	var d domain.Device
	var comps, faults []byte
	var state string
	var battery sql.NullInt64
	return each(ctx, q, query, args, []any{&d.MAC, &d.LocationID, &d.Position, &d.Generation, &comps, &battery, &state, &faults,
		&d.Offline, s.d.ScanTime(&d.LastSeen)}, func() error {
		var cj []compartmentJSON
		var fj []faultJSON
		if err := json.Unmarshal(comps, &cj); err != nil {
			return fmt.Errorf("device %s compartments: %w", d.MAC, err)
		}
		if err := json.Unmarshal(faults, &fj); err != nil {
			return fmt.Errorf("device %s faults: %w", d.MAC, err)
		}
		d.Compartments, d.Faults, d.Battery = nil, nil, nil
		for _, c := range cj {
			d.Compartments = append(d.Compartments, domain.Compartment{Level: c.Level, Low: c.Low, Out: c.Out})
		}
		for _, f := range fj {
			d.Faults = append(d.Faults, domain.Fault{Kind: domain.FaultKind(f.Kind), Key: f.Key})
		}
		if battery.Valid {
			b := int(battery.Int64)
			d.Battery = &b
		}
		d.BatteryState = domain.BatteryState(state)
		f(d)
		return nil
	})
}

// devicesByMAC reads the given devices of an account within a transaction.
func (s *Store) devicesByMAC(ctx context.Context, tx Tx, account int64, macs []string) (map[string]domain.Device, error) {
	out := make(map[string]domain.Device, len(macs))
	err := chunks(macs, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return s.devices(ctx, tx, `SELECT `+deviceCols+` FROM devices d WHERE d.account_id = ? AND d.mac `+in, append([]any{account}, args...),
			func(d domain.Device) { out[d.MAC] = d })
	})
	return out, err
}
