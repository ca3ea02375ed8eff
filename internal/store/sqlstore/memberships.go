package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

const membershipCols = `m.person_id, a.id, m.role, m.buildings, m.from_groups, m.created`

func (s *Store) scanMembership(scan func(...any) error, more ...any) (domain.Membership, error) {
	var m domain.Membership
	var role, buildings string
	if err := scan(append([]any{&m.PersonID, &m.Account, &role, &buildings, &m.FromGroups, s.d.ScanTime(&m.Created)}, more...)...); err != nil {
		return m, err
	}
	var err error
	if m.Role, m.Buildings, err = parseGrant(role, buildings); err != nil {
		return m, err
	}
	return m, nil
}

// Members lists an account's members, by name.
func (s *Store) Members(ctx context.Context, account string) ([]domain.Member, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return listOf(ctx, s.read, func(scan func(...any) error) (domain.Member, error) {
		var mb domain.Member
		var err error
		mb.Membership, err = s.scanMembership(scan, &mb.Name, &mb.Email, s.d.ScanTime(&mb.LastSeen))
		return mb, err
	}, `SELECT `+membershipCols+`, p.name, p.email, p.last_seen
		FROM memberships m JOIN accounts a ON a.key = m.account_id JOIN people p ON p.id = m.person_id
		WHERE m.account_id = ? ORDER BY p.name, p.id`, key)
}

// Membership returns a person's membership of an account, as just written.
func (s *Store) Membership(ctx context.Context, account, person string) (domain.Membership, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return domain.Membership{}, err
	}
	return s.heldMembership(ctx, s.write, key, person)
}

func (s *Store) heldMembership(ctx context.Context, q Querier, key int64, person string) (domain.Membership, error) {
	m, err := s.scanMembership(q.QueryRow(ctx, `SELECT `+membershipCols+` FROM memberships m JOIN accounts a ON a.key = m.account_id
		WHERE m.account_id = ? AND m.person_id = ?`, key, person).Scan)
	return m, notFound(err, "membership of person", person)
}

// MembershipsOf lists a person's memberships, by account id.
func (s *Store) MembershipsOf(ctx context.Context, person string) ([]domain.Membership, error) {
	return listOf(ctx, s.write, func(scan func(...any) error) (domain.Membership, error) { return s.scanMembership(scan) },
		`SELECT `+membershipCols+` FROM memberships m JOIN accounts a ON a.key = m.account_id WHERE m.person_id = ? ORDER BY a.id`, person)
}

// addMembership makes a person a member of the account, in a transaction
// holding the account's limits lock (and peopleLock when maxAccounts is
// set): domain.ErrLimit, in words, when the account has maxPeople members
// or the person maxAccounts memberships already (<= 0: no bound).
func (s *Store) addMembership(ctx context.Context, tx Tx, key int64, m domain.Membership, maxPeople, maxAccounts int) error {
	for _, c := range []struct {
		max     int
		count   string
		arg     any
		holder  string
		what    string
		advisor string
	}{
		{maxPeople, `SELECT count(*) FROM memberships WHERE account_id = ?`, key, "", "people",
			"Remove someone who no longer needs it before adding another."},
		{maxAccounts, `SELECT count(*) FROM memberships WHERE person_id = ?`, m.PersonID, "A person", "accounts",
			"Leave one before joining another."},
	} {
		if c.max <= 0 {
			continue
		}
		var n int
		if err := tx.QueryRow(ctx, c.count, c.arg).Scan(&n); err != nil {
			return err
		}
		if n >= c.max {
			return &domain.LimitError{Holder: c.holder, What: c.what, Max: c.max, Advice: c.advisor}
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO memberships (account_id, person_id, role, buildings, from_groups, created) VALUES (?, ?, ?, ?, ?, ?)`,
		key, m.PersonID, m.Role.String(), buildingsJSON(m.Buildings), s.d.Bool(m.FromGroups), s.d.Time(m.Created))
	return err
}

// notLastOwner answers domain.ErrLastOwner when the account has one owner
// or none, in a transaction holding its limits lock.
func (s *Store) notLastOwner(ctx context.Context, tx Tx, key int64) error {
	var owners int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM memberships WHERE account_id = ? AND role = ?`, key, domain.Owner.String()).Scan(&owners); err != nil {
		return err
	}
	if owners <= 1 {
		return domain.ErrLastOwner
	}
	return nil
}

// updateMembership writes a membership's role, buildings and origin, and
// ends the person's sessions in the account.
func (s *Store) updateMembership(ctx context.Context, tx Tx, key int64, m domain.Membership) ([]string, error) {
	n, err := tx.Exec(ctx, `UPDATE memberships SET role = ?, buildings = ?, from_groups = ? WHERE account_id = ? AND person_id = ?`,
		m.Role.String(), buildingsJSON(m.Buildings), s.d.Bool(m.FromGroups), key, m.PersonID)
	if err := oneRow(n, err, "membership of person", m.PersonID); err != nil {
		return nil, err
	}
	return s.endSessions(ctx, tx, `person_id = ? AND account_id = ?`, m.PersonID, key)
}

// removeMembership ends a person's membership of the account, their
// sessions in it, and their devices enrolled in it (revoked at at).
func (s *Store) removeMembership(ctx context.Context, tx Tx, key int64, person string, at time.Time) ([]string, error) {
	n, err := tx.Exec(ctx, `DELETE FROM memberships WHERE account_id = ? AND person_id = ?`, key, person)
	if err := oneRow(n, err, "membership of person", person); err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `UPDATE enrolled_devices SET revoked = ? WHERE account_id = ? AND person_id = ? AND `+s.d.IsNever("revoked"),
		s.d.TimeOrNever(at), key, person); err != nil {
		return nil, err
	}
	return s.endSessions(ctx, tx, `person_id = ? AND account_id = ?`, person, key)
}

// ChangeMembership changes a member's role and buildings, made by a
// person (FromGroups is cleared): the next sign-in through single sign-on
// leaves it as it is.
func (s *Store) ChangeMembership(ctx context.Context, m domain.Membership, audit store.Audit) ([]string, error) {
	return s.changeMember(ctx, m.Account, m.PersonID, audit, func(tx Tx, key int64, had domain.Membership) ([]string, error) {
		if had.Role == domain.Owner && m.Role != domain.Owner {
			if err := s.notLastOwner(ctx, tx, key); err != nil {
				return nil, err
			}
		}
		m.FromGroups = false
		return s.updateMembership(ctx, tx, key, m)
	})
}

// RemoveMember ends a person's membership of an account.
func (s *Store) RemoveMember(ctx context.Context, account, person string, audit store.Audit) ([]string, error) {
	return s.changeMember(ctx, account, person, audit, func(tx Tx, key int64, had domain.Membership) ([]string, error) {
		if had.Role == domain.Owner {
			if err := s.notLastOwner(ctx, tx, key); err != nil {
				return nil, err
			}
		}
		return s.removeMembership(ctx, tx, key, person, audit.At)
	})
}

// changeMember runs change on a member's membership, in a transaction
// holding the account's limits lock, and records audit with it.
func (s *Store) changeMember(ctx context.Context, account, person string, audit store.Audit,
	change func(tx Tx, key int64, had domain.Membership) ([]string, error)) ([]string, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var ended []string
	err = s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, key); err != nil {
			return err
		}
		had, err := s.heldMembership(ctx, tx, key, person)
		if err != nil {
			return err
		}
		if ended, err = change(tx, key, had); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return nil, fmt.Errorf("person %q of account %q: %w", person, account, domain.ErrNotFound)
	}
	return ended, err
}
