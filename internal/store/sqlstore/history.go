package sqlstore

import (
	"context"
	"time"

	"washboard/internal/store"
	"washboard/internal/store/readings"
)

// KeepHistory says whether the writes of devices that begin from now on
// record readings.
func (s *Store) KeepHistory(on bool) { s.noHistory.Store(!on) }

// The statements that write a device's readings of a day: appended to the
// day's row, or added where the day has none.
var (
	historyAppend = &Insert{Table: "device_history", Columns: historyColumns,
		Then: `ON CONFLICT (account_id, mac, day) DO UPDATE SET readings = excluded.readings`}
	historySeed    = &Insert{Table: "device_history", Columns: historyColumns, Then: `ON CONFLICT (account_id, mac, day) DO NOTHING`}
	historyColumns = []Column{{"account_id", Int}, {"mac", Text}, {"day", Int}, {"readings", Bytes}}
)

// recordReadings appends the readings of the devices a write changed,
// taken at at, to their rows of at's day, in the write's transaction,
// which holds the account: no other write appends to them meanwhile.
func (s *Store) recordReadings(ctx context.Context, tx Tx, account int64, c *readings.Changes, at time.Time) error {
	macs, rs := c.Readings(at)
	if len(macs) == 0 {
		return nil
	}
	day := readings.Day(at)
	held := make(map[string][]byte, len(macs))
	var mac string
	var data []byte
	err := chunks(macs, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return each(ctx, tx, `SELECT mac, readings FROM device_history WHERE account_id = ? AND day = ? AND mac `+in,
			append([]any{account, day}, args...), []any{&mac, &data}, func() error {
				held[mac] = data
				return nil
			})
	})
	if err != nil {
		return err
	}
	rows := make([][]any, len(macs))
	for i, mac := range macs {
		rows[i] = []any{account, mac, day, readings.Append(held[mac], rs[i])}
	}
	return tx.Insert(ctx, historyAppend, rows, nil)
}

// DeviceHistory returns the readings of the account's devices from from
// on, with the last one before it. It reads, for each device, its rows
// from its last day of readings before from's day.
func (s *Store) DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	devices, arg := `SELECT mac FROM devices WHERE account_id = ?`, any(key)
	if len(macs) > 0 {
		var list string
		list, arg = s.d.Strings(macs)
		devices = `SELECT DISTINCT value FROM (` + list + `) m`
	}
	day := readings.Day(from)
	// Each device's first day is worked out once, before its rows are read
	// from it on.
	out := readings.NewJoin(from)
	var mac string
	var d int64
	var data []byte
	err = each(ctx, s.read, `WITH m(mac) AS (`+devices+`),
		f(mac, first) AS MATERIALIZED (SELECT m.mac, coalesce((SELECT p.day FROM device_history p
			WHERE p.account_id = ? AND p.mac = m.mac AND p.day < ? ORDER BY p.day DESC LIMIT 1), ?) FROM m)
		SELECT h.mac, h.day, h.readings FROM f `+s.d.JoinInOrder()+` device_history h ON h.account_id = ? AND h.mac = f.mac AND h.day >= f.first
		ORDER BY h.mac, h.day`, []any{arg, key, day, day, key}, []any{&mac, &d, s.d.ScanRaw(&data)}, func() error {
		return out.Add(mac, d, data) // which keeps no reference to data
	})
	if err != nil {
		return nil, err
	}
	return out.Done()
}

// historyChunk is how many devices EachDeviceHistory reads the rows of
// in one statement: the engine sorts that many devices' rows of the
// span, not the account's.
const historyChunk = 200

// EachDeviceHistory passes visit, one device at a time, the readings of
// the account's devices the filter selects over its span, with the last
// one before it. It lists the devices in order of MAC, then reads their
// rows a chunk of devices at a time, each device's from its last day of
// readings before the span's first day, and decodes one device's at a
// time.
func (s *Store) EachDeviceHistory(ctx context.Context, f store.HistoryFilter, visit func(store.DeviceReadings) error) error {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return err
	}
	list, args := `SELECT d.mac, d.location_id, coalesce(l.building_id, '') FROM devices d
		LEFT JOIN locations l ON l.account_id = d.account_id AND l.id = d.location_id WHERE d.account_id = ?`, []any{key}
	if f.Dispensers {
		list += ` AND d.compartments <> '[]'`
	}
	in, inArgs := s.inBuildings("l.building_id", f.Buildings)
	var devices []store.DeviceReadings
	var d store.DeviceReadings
	err = each(ctx, s.read, list+in+` ORDER BY d.mac`, append(args, inArgs...), []any{&d.MAC, &d.LocationID, &d.BuildingID}, func() error {
		devices = append(devices, d)
		return nil
	})
	if err != nil {
		return err
	}
	var days readings.Device
	for start := 0; start < len(devices); start += historyChunk {
		if err := s.eachHistoryOf(ctx, key, f, devices[start:min(start+historyChunk, len(devices))], &days, visit); err != nil {
			return err
		}
	}
	return nil
}

// eachHistoryOf passes visit the readings of the devices given, one at a
// time, those without readings of the span left out.
func (s *Store) eachHistoryOf(ctx context.Context, key int64, f store.HistoryFilter, devices []store.DeviceReadings,
	days *readings.Device, visit func(store.DeviceReadings) error) error {
	macs := make([]string, len(devices))
	index := make(map[string]int, len(devices))
	for i, d := range devices {
		macs[i], index[d.MAC] = d.MAC, i
	}
	list, arg := s.d.Strings(macs)
	first := readings.Day(f.From)
	last, args := ``, []any{arg, key, first, first, key}
	if !f.To.IsZero() {
		last, args = ` AND h.day <= ?`, append(args, readings.Day(f.To.Add(-time.Second)))
	}
	i := -1 // the device whose days are being added
	flush := func() error {
		if i < 0 {
			return nil
		}
		rs, err := days.Readings(devices[i].MAC, f.From, f.To)
		days.Reset()
		if err != nil || len(rs) == 0 {
			return err
		}
		d := devices[i]
		d.Readings = rs
		return visit(d)
	}
	var mac string
	var day int64
	var data []byte
	err := each(ctx, s.read, `WITH m(mac) AS (SELECT DISTINCT value FROM (`+list+`) v),
		f(mac, first) AS MATERIALIZED (SELECT m.mac, coalesce((SELECT p.day FROM device_history p
			WHERE p.account_id = ? AND p.mac = m.mac AND p.day < ? ORDER BY p.day DESC LIMIT 1), ?) FROM m)
		SELECT f.mac, h.day, h.readings FROM f `+s.d.JoinInOrder()+` device_history h
			ON h.account_id = ? AND h.mac = f.mac AND h.day >= f.first`+last+`
		ORDER BY f.mac, h.day`, args, []any{&mac, &day, s.d.ScanRaw(&data)}, func() error {
		if i < 0 || mac != devices[i].MAC { // a device's rows come together
			if err := flush(); err != nil {
				return err
			}
			i = index[mac]
		}
		days.Add(day, data) // which keeps no reference to data
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// PruneHistory removes the rows of the days before before's, except each
// device's last one before it.
func (s *Store) PruneHistory(ctx context.Context, before time.Time) error {
	_, err := s.write.Exec(ctx, `DELETE FROM device_history WHERE day < ?1 AND EXISTS (
		SELECT 1 FROM device_history n WHERE n.account_id = device_history.account_id AND n.mac = device_history.mac
			AND n.day > device_history.day AND n.day < ?1)`, readings.Day(before))
	return err
}

// DeviceStates returns, of each of the account's devices, what tells
// whether its state changed since it was last read.
func (s *Store) DeviceStates(ctx context.Context, account string) ([]store.DeviceState, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var out []store.DeviceState
	var d store.DeviceState
	err = each(ctx, s.read, `SELECT mac, location_id, compartments <> '[]', reading, last_seen FROM devices WHERE account_id = ?`, []any{key},
		[]any{&d.MAC, &d.LocationID, &d.Dispenser, &d.Sum, s.d.ScanTime(&d.LastSeen)}, func() error {
			out = append(out, d)
			return nil
		})
	return out, err
}

// SeedHistory adds the readings given to the account's device history,
// but to the days a device already has readings of.
func (s *Store) SeedHistory(ctx context.Context, account string, history map[string][]store.Reading) error {
	held, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rows [][]any
	for mac, rs := range history {
		days, data := readings.Days(rs)
		for i, day := range days {
			rows = append(rows, []any{held.key, mac, day, data[i]})
		}
	}
	if err := tx.Insert(ctx, historySeed, rows, nil); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
