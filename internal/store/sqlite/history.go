package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"washboard/internal/store"
	"washboard/internal/store/readings"
)

// KeepHistory says whether the writes of devices that begin from now on
// record readings.
func (s *Store) KeepHistory(on bool) { s.noHistory.Store(!on) }

// recordReadings appends the readings of the devices a write changed,
// taken at at, to their rows of at's day, in the write's transaction.
func recordReadings(ctx context.Context, tx *sql.Tx, account int64, c *readings.Changes, at time.Time) error {
	macs, rs := c.Readings(at)
	if len(macs) == 0 {
		return nil
	}
	day := readings.Day(at)
	held, err := historyOfDay(ctx, tx, account, day, macs)
	if err != nil {
		return err
	}
	b := newBatch(tx, "device_history", func(n int) string {
		return `INSERT INTO device_history (account_id, mac, day, readings) VALUES ` + placeholders(4, n) +
			` ON CONFLICT (account_id, mac, day) DO UPDATE SET readings = excluded.readings`
	})
	defer b.close()
	for i, mac := range macs {
		if err := b.add(ctx, account, mac, day, readings.Append(held[mac], rs[i])); err != nil {
			return err
		}
	}
	return b.flush(ctx)
}

// historyOfDay reads the rows of a day of the given devices, by MAC.
func historyOfDay(ctx context.Context, tx *sql.Tx, account, day int64, macs []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(macs))
	const chunk = 500
	for start := 0; start < len(macs); start += chunk {
		part := macs[start:min(start+chunk, len(macs))]
		args := make([]any, 0, 2+len(part))
		args = append(args, account, day)
		for _, mac := range part {
			args = append(args, mac)
		}
		rows, err := tx.QueryContext(ctx, `SELECT mac, readings FROM device_history WHERE account_id = ? AND day = ? AND mac IN (`+
			strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var mac string
			var data []byte
			if err := rows.Scan(&mac, &data); err != nil {
				rows.Close()
				return nil, err
			}
			out[mac] = data
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DeviceHistory returns the readings of the account's devices from from
// on, with the last one before it. It reads, for each device, its rows
// from its last day of readings before from's day.
func (s *Store) DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	devices := `SELECT mac FROM devices WHERE account_id = ?1`
	args := []any{key, readings.Day(from)}
	if len(macs) > 0 {
		j, _ := json.Marshal(macs) // strings always encode
		devices = `SELECT DISTINCT value FROM json_each(?3)`
		args = append(args, string(j))
	}
	rows, err := s.read.QueryContext(ctx, `WITH m(mac) AS (`+devices+`)
		SELECT h.mac, h.day, h.readings FROM m CROSS JOIN device_history h
		WHERE h.account_id = ?1 AND h.mac = m.mac AND h.day >= coalesce(
			(SELECT p.day FROM device_history p WHERE p.account_id = ?1 AND p.mac = m.mac AND p.day < ?2 ORDER BY p.day DESC LIMIT 1), ?2)
		ORDER BY h.mac, h.day`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := readings.NewJoin(from)
	var mac string
	var day int64
	var data sql.RawBytes // the join copies it
	for rows.Next() {
		if err := rows.Scan(&mac, &day, &data); err != nil {
			return nil, err
		}
		if err := out.Add(mac, day, data); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out.Done()
}

// PruneHistory removes the rows of the days before before's, except each
// device's last one before it.
func (s *Store) PruneHistory(ctx context.Context, before time.Time) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM device_history WHERE day < ?1 AND EXISTS (
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
	rows, err := s.read.QueryContext(ctx, `SELECT mac, location_id, compartments <> '[]', reading, last_seen FROM devices WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.DeviceState
	for rows.Next() {
		var d store.DeviceState
		var seen int64
		if err := rows.Scan(&d.MAC, &d.LocationID, &d.Dispenser, &d.Sum, &seen); err != nil {
			return nil, err
		}
		d.LastSeen = fromMS(seen)
		out = append(out, d)
	}
	return out, rows.Err()
}

// SeedHistory adds the readings given to the account's device history,
// but to the days a device already has readings of.
func (s *Store) SeedHistory(ctx context.Context, account string, history map[string][]store.Reading) error {
	key, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	b := newBatch(tx, "device_history", func(n int) string {
		return `INSERT INTO device_history (account_id, mac, day, readings) VALUES ` + placeholders(4, n) +
			` ON CONFLICT (account_id, mac, day) DO NOTHING`
	})
	defer b.close()
	for mac, rs := range history {
		days, data := readings.Days(rs)
		for i, day := range days {
			if err := b.add(ctx, key, mac, day, data[i]); err != nil {
				return err
			}
		}
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	return tx.Commit()
}
