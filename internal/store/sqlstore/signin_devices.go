package sqlstore

import (
	"context"
	"time"

	"washboard/internal/store"
)

// Devices people sign in from (store.People): by person, the hash of the
// random value each browser keeps.

// SeeSignInDevice records a sign-in of a person from a device, and
// reports whether the device is new for them; a new one records audit in
// the account, and makes room past max by forgetting the devices seen
// longest ago.
func (s *Store) SeeSignInDevice(ctx context.Context, person, account string, deviceHash []byte, at time.Time, max int, audit store.Audit) (bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	fresh := false
	err = s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `INSERT INTO signin_devices (person_id, device_hash, first_seen, last_seen) VALUES (?, ?, ?, ?)
			ON CONFLICT (person_id, device_hash) DO NOTHING`, person, deviceHash, s.d.Time(at), s.d.Time(at))
		if err != nil {
			return err
		}
		if n == 0 {
			_, err := tx.Exec(ctx, `UPDATE signin_devices SET last_seen = ? WHERE person_id = ? AND device_hash = ?`, s.d.Time(at), person, deviceHash)
			return err
		}
		fresh = true
		if max > 0 {
			if _, err := tx.Exec(ctx, `DELETE FROM signin_devices WHERE person_id = ? AND device_hash NOT IN (
				SELECT device_hash FROM signin_devices WHERE person_id = ? ORDER BY last_seen DESC, device_hash LIMIT ?)`,
				person, person, max); err != nil {
				return err
			}
		}
		if key == noAccount {
			return nil
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
	return fresh, err
}
