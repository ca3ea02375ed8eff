package sqlite

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

var devicesTable = &table{name: "devices", key: "mac", cols: []string{
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
func deviceRow(d domain.Device, sum int64) row {
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
	return row{key: d.MAC, vals: []any{
		d.LocationID, d.Position, d.Generation, string(cj), battery, string(d.BatteryState),
		string(fj), boolInt(d.Offline), ms(d.LastSeen), int64(domain.Classify(d, false)), sum,
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
// page, in one transaction that holds the writer until Commit or Rollback.
type DeviceRefresh struct {
	tx      *sql.Tx
	w       *tableWriter
	key     int64
	account string
	listed  map[string]placedHealth // each device listed, by MAC
	places  []rollup.Place          // read once the refresh changes something
	now     func() time.Time        // the store's clock: when the refresh saw the service, unless seen says
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
	key, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, err
	}
	existing, sums, err := existingDevices(ctx, tx, key)
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	r := &DeviceRefresh{
		tx: tx, w: newTableWriter(tx, devicesTable, key, existing), key: key, account: account,
		listed: map[string]placedHealth{}, now: s.Now,
	}
	if !s.noHistory.Load() {
		r.readings = readings.NewChanges(sums)
	}
	if base, err := hasBaseline(ctx, tx, key, domain.ResourceDevices); err != nil {
		tx.Rollback()
		return nil, err
	} else if base {
		r.changes = outbox.NewChanges[domain.Device]()
	}
	return r, nil
}

// existingDevices reads the content hash and the reading's sum of every
// device of the account, by MAC.
func existingDevices(ctx context.Context, tx *sql.Tx, account int64) (hashes, sums map[string]int64, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT mac, hash, reading FROM devices WHERE account_id = ?`, account)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	hashes, sums = map[string]int64{}, map[string]int64{}
	for rows.Next() {
		var mac string
		var h, sum int64
		if err := rows.Scan(&mac, &h, &sum); err != nil {
			return nil, nil, err
		}
		hashes[mac], sums[mac] = h, sum
	}
	return hashes, sums, rows.Err()
}

// SeenAt says when the refresh saw the service.
func (r *DeviceRefresh) SeenAt(t time.Time) { r.seen = t }

// Write writes a page of devices. The last few may wait for the next page
// or for Commit, to be written in a full batch.
func (r *DeviceRefresh) Write(ctx context.Context, devices []domain.Device) error {
	rows := make([]row, len(devices))
	for i, d := range devices {
		sum := readings.Sum(d)
		rows[i] = deviceRow(d, sum)
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
func (r *DeviceRefresh) readBefore(ctx context.Context, devices []domain.Device, rows []row) error {
	if r.changes == nil {
		return nil
	}
	var macs []any
	for i, d := range devices {
		if outbox.DeviceMayRecord(d) && !r.changes.Knows(d.MAC) && r.w.differs(rows[i]) {
			macs = append(macs, d.MAC)
		}
	}
	if len(macs) == 0 {
		return nil
	}
	held, err := devicesByMAC(ctx, r.tx, r.key, macs)
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
		r.places, err = locationPlaces(ctx, r.tx, r.key)
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
// not list, brings the rollups up to date, records the facts of what it
// changed (or the baseline) and the readings, and commits.
func (r *DeviceRefresh) Commit(ctx context.Context) (domain.Change, error) {
	defer r.w.close()
	if err := r.w.flush(ctx); err != nil {
		return r.w.change, err
	}
	if err := r.w.removeUnseen(ctx); err != nil {
		return r.w.change, err
	}
	if !r.w.change.Empty() {
		if err := recomputeRollups(ctx, r.tx, r.key, r.account, rollupInputs{places: r.places, healths: r.healths()}); err != nil {
			return r.w.change, err
		}
	}
	now := r.seen
	if now.IsZero() {
		now = r.now()
	}
	if err := r.recordFacts(ctx, now); err != nil {
		return r.w.change, err
	}
	if r.readings != nil {
		if err := recordReadings(ctx, r.tx, r.key, r.readings, now); err != nil {
			return r.w.change, err
		}
	}
	return r.w.change, r.tx.Commit()
}

// recordFacts records the facts of the devices the refresh changed, or,
// when the account's devices have no baseline yet, makes it. now is when
// the refresh saw the service.
func (r *DeviceRefresh) recordFacts(ctx context.Context, now time.Time) error {
	if r.changes == nil {
		return setBaseline(ctx, r.tx, r.key, domain.ResourceDevices, now)
	}
	var facts []store.Fact
	for before, d := range r.changes.All() {
		facts = append(facts, outbox.DeviceFacts(r.account, before, d, now)...)
	}
	return recordFacts(ctx, r.tx, r.key, facts)
}

// Rollback abandons the refresh; after Commit it does nothing.
func (r *DeviceRefresh) Rollback() {
	r.w.close()
	r.tx.Rollback()
}

// FindDevices returns the devices matching the filter, by location in the
// service's order.
func (s *Store) FindDevices(ctx context.Context, f store.DeviceFilter) ([]domain.Device, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	var q string
	args := []any{key}
	switch {
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
		// CROSS JOIN keeps locations as the outer loop; without statistics
		// the planner would rather scan the account's devices.
		q = `SELECT ` + deviceCols + ` FROM locations l CROSS JOIN devices d INDEXED BY devices_location ON d.account_id = l.account_id AND d.location_id = l.id
			WHERE l.account_id = ? AND ` + col + ` = ? ORDER BY l.position, d.position, d.mac`
		args = append(args, val)
	default:
		q = `SELECT ` + deviceCols + ` FROM devices d LEFT JOIN locations l ON l.account_id = d.account_id AND l.id = d.location_id
			WHERE d.account_id = ? ORDER BY l.position, d.position, d.mac`
	}
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Device
	for rows.Next() {
		d, err := scanDevice(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// deviceCols are the columns scanDevice reads, of devices as d.
const deviceCols = `d.mac, d.location_id, d.position, d.generation, d.compartments, d.battery, d.battery_state,
	d.faults, d.offline, d.last_seen`

func scanDevice(rows *sql.Rows) (domain.Device, error) {
	var d domain.Device
	var comps, faults, state string
	var battery sql.NullInt64
	var offline, seen int64
	if err := rows.Scan(&d.MAC, &d.LocationID, &d.Position, &d.Generation, &comps, &battery, &state, &faults, &offline, &seen); err != nil {
		return d, err
	}
	var cj []compartmentJSON
	var fj []faultJSON
	if err := json.Unmarshal([]byte(comps), &cj); err != nil {
		return d, fmt.Errorf("device %s compartments: %w", d.MAC, err)
	}
	if err := json.Unmarshal([]byte(faults), &fj); err != nil {
		return d, fmt.Errorf("device %s faults: %w", d.MAC, err)
	}
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
	d.Offline = offline != 0
	d.LastSeen = fromMS(seen)
	return d, nil
}
