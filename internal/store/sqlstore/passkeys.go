package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Passkeys (store.People): each person's WebAuthn credentials, by
// credential id.

const passkeyCols = `credential_id, person_id, name, credential, sign_count, created, last_used`

func (s *Store) scanPasskey(scan func(...any) error) (domain.Passkey, error) {
	var p domain.Passkey
	var count int64
	err := scan(&p.CredentialID, &p.PersonID, &p.Name, &p.Credential, &count, s.d.ScanTime(&p.Created), s.d.ScanTime(&p.LastUsed))
	p.SignCount = uint32(count)
	return p, err
}

// AddPasskey stores a person's new passkey, unless they have max already.
func (s *Store) AddPasskey(ctx context.Context, p domain.Passkey, max int, audit store.Audit) error {
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		var person string
		switch err := tx.QueryRow(ctx, `SELECT person_id FROM passkeys WHERE credential_id = ?`, p.CredentialID).Scan(&person); {
		case err == nil:
			return domain.ErrPasskeyRegistered
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM passkeys WHERE person_id = ?`, p.PersonID).Scan(&n); err != nil {
			return err
		}
		if max > 0 && n >= max {
			return &domain.LimitError{Holder: "A person", What: "passkeys", Max: max, Advice: "Remove one no longer used before adding another."}
		}
		if _, err := s.findPerson(ctx, tx, `p.id = ?`, p.PersonID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO passkeys (`+passkeyCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)`, p.CredentialID, p.PersonID, p.Name,
			p.Credential, int64(p.SignCount), s.d.Time(p.Created), s.d.TimeOrNever(p.LastUsed)); err != nil {
			return err
		}
		return s.recordPersonAudit(ctx, tx, p.PersonID, audit)
	})
}

// Passkeys lists a person's passkeys, oldest first.
func (s *Store) Passkeys(ctx context.Context, person string) ([]domain.Passkey, error) {
	return listOf(ctx, s.write, s.scanPasskey, `SELECT `+passkeyCols+` FROM passkeys WHERE person_id = ? ORDER BY created, credential_id`, person)
}

// PasskeyByCredentialID finds a passkey by its credential id, as just
// written.
func (s *Store) PasskeyByCredentialID(ctx context.Context, id []byte) (domain.Passkey, error) {
	p, err := s.scanPasskey(s.write.QueryRow(ctx, `SELECT `+passkeyCols+` FROM passkeys WHERE credential_id = ?`, id).Scan)
	return p, notFound(err, "passkey", "by credential id")
}

// RenamePasskey renames one of a person's passkeys.
func (s *Store) RenamePasskey(ctx context.Context, person string, id []byte, name string) error {
	n, err := s.write.Exec(ctx, `UPDATE passkeys SET name = ? WHERE person_id = ? AND credential_id = ?`, name, person, id)
	return oneRow(n, err, "passkey of person", person)
}

// UsePasskey records a sign-in with a passkey.
func (s *Store) UsePasskey(ctx context.Context, id, credential []byte, signCount uint32, at time.Time) error {
	n, err := s.write.Exec(ctx, `UPDATE passkeys SET credential = ?, sign_count = ?, last_used = ? WHERE credential_id = ?`,
		credential, int64(signCount), s.d.TimeOrNever(at), id)
	return oneRow(n, err, "passkey", "by credential id")
}

// RemovePasskey removes one of a person's passkeys.
func (s *Store) RemovePasskey(ctx context.Context, person string, id []byte, audit store.Audit) error {
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM passkeys WHERE person_id = ? AND credential_id = ?`, person, id)
		if err := oneRow(n, err, "passkey of person", person); err != nil {
			return fmt.Errorf("removing a passkey: %w", err)
		}
		return s.recordPersonAudit(ctx, tx, person, audit)
	})
}
