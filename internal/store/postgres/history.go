package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"washboard/internal/store"
	"washboard/internal/store/readings"
)

// KeepHistory says whether the writes of devices that begin from now on
// record readings.
func (s *Store) KeepHistory(on bool) { s.noHistory.Store(!on) }

// recordReadings appends the readings of the devices a write changed,
// taken at at, to their rows of at's day, in the write's transaction,
// which holds the account: no other write appends to them meanwhile.
func recordReadings(ctx context.Context, tx *txn, account int64, c *readings.Changes, at time.Time) error {
	macs, rs := c.Readings(at)
	day := readings.Day(at)
	for start := 0; start < len(macs); start += chunk {
		part := macs[start:min(start+chunk, len(macs))]
		held := make(map[string][]byte, len(part))
		rows, err := tx.Query(ctx, `SELECT mac, readings FROM device_history WHERE account_id = $1 AND day = $2 AND mac = ANY($3)`,
			account, day, part)
		if err != nil {
			return err
		}
		var mac string
		var data []byte
		if _, err := pgx.ForEachRow(rows, []any{&mac, &data}, func() error {
			held[mac] = data
			return nil
		}); err != nil {
			return err
		}
		days := make([][]byte, len(part))
		for i, mac := range part {
			days[i] = readings.Append(held[mac], rs[start+i])
		}
		if _, err := tx.Exec(ctx, `INSERT INTO device_history (account_id, mac, day, readings)
			SELECT $1, u.mac, $2, u.readings FROM unnest($3::text[], $4::bytea[]) AS u(mac, readings)
			ON CONFLICT (account_id, mac, day) DO UPDATE SET readings = excluded.readings`, account, day, part, days); err != nil {
			return err
		}
	}
	return nil
}

// DeviceHistory returns the readings of the account's devices from from
// on, with the last one before it. It reads, for each device, its rows
// from its last day of readings before from's day.
func (s *Store) DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	devices := `SELECT mac FROM devices WHERE account_id = $1`
	args := []any{key, readings.Day(from)}
	if len(macs) > 0 {
		devices = `SELECT DISTINCT unnest($3::text[])`
		args = append(args, macs)
	}
	rows, err := s.pool.Query(ctx, `WITH m(mac) AS (`+devices+`)
		SELECT h.mac, h.day, h.readings FROM m CROSS JOIN LATERAL (
			SELECT coalesce((SELECT p.day FROM device_history p WHERE p.account_id = $1 AND p.mac = m.mac AND p.day < $2
				ORDER BY p.day DESC LIMIT 1), $2) AS first
		) f JOIN device_history h ON h.account_id = $1 AND h.mac = m.mac AND h.day >= f.first
		ORDER BY h.mac, h.day`, args...)
	if err != nil {
		return nil, err
	}
	out := readings.NewJoin(from)
	var mac string
	var day int64
	var data []byte
	if _, err := pgx.ForEachRow(rows, []any{&mac, &day, &data}, func() error {
		return out.Add(mac, day, data)
	}); err != nil {
		return nil, err
	}
	return out.Done()
}

// PruneHistory removes the rows of the days before before's, except each
// device's last one before it.
func (s *Store) PruneHistory(ctx context.Context, before time.Time) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM device_history h WHERE h.day < $1 AND EXISTS (
		SELECT 1 FROM device_history n WHERE n.account_id = h.account_id AND n.mac = h.mac AND n.day > h.day AND n.day < $1)`,
		readings.Day(before))
	return err
}

// DeviceStates returns, of each of the account's devices, what tells
// whether its state changed since it was last read.
func (s *Store) DeviceStates(ctx context.Context, account string) ([]store.DeviceState, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT mac, location_id, compartments <> '[]'::jsonb, reading, last_seen FROM devices WHERE account_id = $1`, key)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.DeviceState, error) {
		var d store.DeviceState
		var seen pgtype.Timestamptz
		err := row.Scan(&d.MAC, &d.LocationID, &d.Dispenser, &d.Sum, &seen)
		d.LastSeen = fromTS(seen)
		return d, err
	})
}

// SeedHistory adds the readings given to the account's device history,
// but to the days a device already has readings of.
func (s *Store) SeedHistory(ctx context.Context, account string, history map[string][]store.Reading) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	var macs []string
	var days []int64
	var data [][]byte
	for mac, rs := range history {
		ds, encoded := readings.Days(rs)
		for range ds {
			macs = append(macs, mac)
		}
		days, data = append(days, ds...), append(data, encoded...)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for start := 0; start < len(macs); start += chunk {
			end := min(start+chunk, len(macs))
			if _, err := tx.Exec(ctx, `INSERT INTO device_history (account_id, mac, day, readings)
				SELECT $1, u.mac, u.day, u.readings FROM unnest($2::text[], $3::bigint[], $4::bytea[]) AS u(mac, day, readings)
				ON CONFLICT (account_id, mac, day) DO NOTHING`, key, macs[start:end], days[start:end], data[start:end]); err != nil {
				return err
			}
		}
		return nil
	})
}
