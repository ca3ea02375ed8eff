package sqlstore

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Enrolled devices (store.People): shared devices signed in for a person
// in an account, by the hash of their token.

const enrolledCols = `e.id, a.id, e.person_id, coalesce(p.name, ''), e.name, e.made_by, e.made_by_name, e.created, e.last_seen, e.revoked`

const enrolledFrom = ` FROM enrolled_devices e JOIN accounts a ON a.key = e.account_id LEFT JOIN people p ON p.id = e.person_id`

func (s *Store) scanEnrolled(scan func(...any) error) (domain.EnrolledDevice, error) {
	var d domain.EnrolledDevice
	err := scan(&d.ID, &d.Account, &d.PersonID, &d.PersonName, &d.Name, &d.MadeBy, &d.MadeByName,
		s.d.ScanTime(&d.Created), s.d.ScanTime(&d.LastSeen), s.d.ScanTime(&d.Revoked))
	return d, err
}

// EnrolDevice stores a device enrolled for a person in an account, unless
// the account has max devices already.
func (s *Store) EnrolDevice(ctx context.Context, d domain.EnrolledDevice, tokenHash []byte, max int, audit store.Audit) error {
	key, err := s.accountKey(ctx, d.Account, true)
	if err != nil {
		return err
	}
	never := s.d.TimeOrNever(time.Time{})
	return s.inTx(ctx, func(tx Tx) error {
		if err := insertWithinLimitTx(ctx, tx, key, max, `INSERT INTO enrolled_devices (id, account_id, person_id, token_hash, name,
			made_by, made_by_name, created, last_seen, revoked)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM enrolled_devices WHERE account_id = ?) < ?`,
			d.ID, key, d.PersonID, tokenHash, d.Name, d.MadeBy, d.MadeByName, s.d.Time(d.Created), never, never); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
}

// EnrolledDevices lists an account's enrolled devices, newest first.
func (s *Store) EnrolledDevices(ctx context.Context, account string) ([]domain.EnrolledDevice, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return s.enrolledDevices(ctx, `e.account_id = ?`, key)
}

// EnrolledDevicesOf lists a person's enrolled devices, in every account,
// newest first.
func (s *Store) EnrolledDevicesOf(ctx context.Context, person string) ([]domain.EnrolledDevice, error) {
	return s.enrolledDevices(ctx, `e.person_id = ?`, person)
}

func (s *Store) enrolledDevices(ctx context.Context, cond string, arg any) ([]domain.EnrolledDevice, error) {
	return listOf(ctx, s.read, s.scanEnrolled, `SELECT `+enrolledCols+enrolledFrom+` WHERE `+cond+` ORDER BY e.created DESC, e.id`, arg)
}

// EnrolledDeviceByToken finds the device whose token has the hash, as just
// written.
func (s *Store) EnrolledDeviceByToken(ctx context.Context, tokenHash []byte) (domain.EnrolledDevice, error) {
	d, err := s.scanEnrolled(s.write.QueryRow(ctx, `SELECT `+enrolledCols+enrolledFrom+` WHERE e.token_hash = ?`, tokenHash).Scan)
	return d, notFound(err, "enrolled device", "by token")
}

// TouchEnrolledDevice records that a device was used.
func (s *Store) TouchEnrolledDevice(ctx context.Context, id string, at time.Time) error {
	_, err := s.write.Exec(ctx, `UPDATE enrolled_devices SET last_seen = ? WHERE id = ?`, s.d.TimeOrNever(at), id)
	return err
}

// OpenEnrolledDevice opens a device's enrolment link once: the device
// takes the hash of the key it keeps in place of the link's.
func (s *Store) OpenEnrolledDevice(ctx context.Context, linkHash, keyHash []byte, at time.Time) (domain.EnrolledDevice, error) {
	var d domain.EnrolledDevice
	err := s.inTx(ctx, func(tx Tx) error {
		var err error
		if d, err = s.scanEnrolled(tx.QueryRow(ctx, `SELECT `+enrolledCols+enrolledFrom+` WHERE e.token_hash = ?`, linkHash).Scan); err != nil {
			return notFound(err, "enrolled device", "by its link")
		}
		switch {
		case !d.Revoked.IsZero():
			return domain.ErrEnrolmentRevoked
		case !d.LastSeen.IsZero():
			return domain.ErrEnrolmentUsed
		}
		n, err := tx.Exec(ctx, `UPDATE enrolled_devices SET token_hash = ?, last_seen = ? WHERE id = ? AND token_hash = ? AND `+
			s.d.IsNever("last_seen")+` AND `+s.d.IsNever("revoked"), keyHash, s.d.TimeOrNever(at), d.ID, linkHash)
		if err != nil {
			return err
		}
		if n == 0 { // opened by another at the same moment
			return domain.ErrEnrolmentUsed
		}
		d.LastSeen = at
		return nil
	})
	return d, err
}

// RevokeEnrolledDevice revokes one of the account's devices, and ends
// the sessions it signed in; a device revoked already keeps its first
// time, and records no second entry.
func (s *Store) RevokeEnrolledDevice(ctx context.Context, account, id string, audit store.Audit) ([]string, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var ended []string
	err = s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE enrolled_devices SET revoked = ? WHERE account_id = ? AND id = ? AND `+s.d.IsNever("revoked"),
			s.d.TimeOrNever(audit.At), key, id)
		if err != nil {
			return err
		}
		if n == 0 {
			var one int
			if err := notFound(tx.QueryRow(ctx, `SELECT 1 FROM enrolled_devices WHERE account_id = ? AND id = ?`, key, id).Scan(&one), "enrolled device", id); err != nil {
				return err
			}
		} else if err := s.recordAudit(ctx, tx, key, audit); err != nil {
			return err
		}
		ended, err = s.endSessions(ctx, tx, `device_id = ?`, id)
		return err
	})
	return ended, err
}

// RemoveEnrolledDevice removes a revoked device of the account.
func (s *Store) RemoveEnrolledDevice(ctx context.Context, account, id string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	n, err := s.write.Exec(ctx, `DELETE FROM enrolled_devices WHERE account_id = ? AND id = ? AND NOT `+s.d.IsNever("revoked"), key, id)
	return oneRow(n, err, "revoked enrolled device", id)
}
