package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The writes of organisations run under peopleLock, one after the other:
// what they check (that a person or an account belongs to no other
// organisation, that an organisation keeps an owner) holds when they
// write.

// CreateOrganisation stores a new organisation with its first owner and
// its first account.
func (s *Store) CreateOrganisation(ctx context.Context, o domain.Organisation, owner domain.OrganisationMember, first domain.OrganisationAccount, audit store.Audit) error {
	key, err := s.knownAccount(ctx, first.Account)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO organisations (id, name, created) VALUES (?, ?, ?)`, o.ID, o.Name, s.d.Time(o.Created)); err != nil {
			return err
		}
		owner.Organisation, first.Organisation = o.ID, o.ID
		if err := s.insertOrganisationMember(ctx, tx, owner); err != nil {
			return err
		}
		if err := s.insertOrganisationAccount(ctx, tx, key, first); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
}

// Organisation returns an organisation; domain.ErrNotFound when there is
// none of the id.
func (s *Store) Organisation(ctx context.Context, id string) (domain.Organisation, error) {
	var o domain.Organisation
	err := s.read.QueryRow(ctx, `SELECT id, name, created FROM organisations WHERE id = ?`, id).Scan(&o.ID, &o.Name, s.d.ScanTime(&o.Created))
	return o, notFound(err, "organisation", id)
}

const organisationMemberCols = `op.organisation_id, op.person_id, op.role, op.accounts, op.created, p.name, p.email`

func scanOrganisationMember(scan func(...any) error, d Dialect) (domain.OrganisationMember, error) {
	var m domain.OrganisationMember
	var role, accounts string
	if err := scan(&m.Organisation, &m.PersonID, &role, &accounts, d.ScanTime(&m.Created), &m.Name, &m.Email); err != nil {
		return m, err
	}
	var err error
	if m.Role, m.Accounts, err = parseGrant(role, accounts); err != nil {
		return m, err
	}
	return m, nil
}

// OrganisationOf returns a person's role in their organisation, as just
// written; domain.ErrNotFound when they belong to none.
func (s *Store) OrganisationOf(ctx context.Context, person string) (domain.OrganisationMember, error) {
	m, err := scanOrganisationMember(s.write.QueryRow(ctx, `SELECT `+organisationMemberCols+`
		FROM organisation_people op JOIN people p ON p.id = op.person_id WHERE op.person_id = ?`, person).Scan, s.d)
	return m, notFound(err, "organisation of person", person)
}

// OrganisationGrant returns a person's role in the organisation of an
// account, as just written, whether it covers the account or not;
// domain.ErrNotFound when the account belongs to no organisation of the
// person.
func (s *Store) OrganisationGrant(ctx context.Context, account, person string) (domain.OrganisationMember, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return domain.OrganisationMember{}, err
	}
	m, err := scanOrganisationMember(s.write.QueryRow(ctx, `SELECT `+organisationMemberCols+`
		FROM organisation_accounts oa JOIN organisation_people op ON op.organisation_id = oa.organisation_id JOIN people p ON p.id = op.person_id
		WHERE oa.account_id = ? AND op.person_id = ?`, key, person).Scan, s.d)
	return m, notFound(err, "organisation role in account of person", person)
}

// OrganisationMembers lists an organisation's people, by name.
func (s *Store) OrganisationMembers(ctx context.Context, org string) ([]domain.OrganisationMember, error) {
	return listOf(ctx, s.read, func(scan func(...any) error) (domain.OrganisationMember, error) {
		return scanOrganisationMember(scan, s.d)
	},
		`SELECT `+organisationMemberCols+` FROM organisation_people op JOIN people p ON p.id = op.person_id
		WHERE op.organisation_id = ? ORDER BY p.name, p.id`, org)
}

// AccountOrganisationMembers lists the people of the organisation an
// account belongs to, by name; none when it belongs to none.
func (s *Store) AccountOrganisationMembers(ctx context.Context, account string) ([]domain.OrganisationMember, error) {
	return listOf(ctx, s.read, func(scan func(...any) error) (domain.OrganisationMember, error) {
		return scanOrganisationMember(scan, s.d)
	},
		`SELECT `+organisationMemberCols+` FROM accounts a JOIN organisation_accounts oa ON oa.account_id = a.key
		JOIN organisation_people op ON op.organisation_id = oa.organisation_id JOIN people p ON p.id = op.person_id
		WHERE a.id = ? ORDER BY p.name, p.id`, account)
}

// OrganisationAccounts lists an organisation's accounts, by account id.
func (s *Store) OrganisationAccounts(ctx context.Context, org string) ([]domain.OrganisationAccount, error) {
	return listOf(ctx, s.write, func(scan func(...any) error) (domain.OrganisationAccount, error) {
		var a domain.OrganisationAccount
		err := scan(&a.Organisation, &a.Account, &a.Name, &a.Client, &a.Region, s.d.ScanTime(&a.Added))
		return a, err
	}, `SELECT oa.organisation_id, a.id, a.name, oa.client, oa.region, oa.added
		FROM organisation_accounts oa JOIN accounts a ON a.key = oa.account_id
		WHERE oa.organisation_id = ? ORDER BY a.id`, org)
}

// AddOrganisationAccount adds an account to an organisation, unless it
// has max accounts already (<= 0: no bound).
func (s *Store) AddOrganisationAccount(ctx context.Context, a domain.OrganisationAccount, max int, audit store.Audit) error {
	key, err := s.knownAccount(ctx, a.Account)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		if err := s.organisationExists(ctx, tx, a.Organisation); err != nil {
			return err
		}
		if max > 0 {
			var n int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM organisation_accounts WHERE organisation_id = ?`, a.Organisation).Scan(&n); err != nil {
				return err
			}
			if n >= max {
				return &domain.LimitError{Holder: "An organisation", What: "accounts", Max: max, Advice: "Disconnect an account no longer served before adding another."}
			}
		}
		if err := s.insertOrganisationAccount(ctx, tx, key, a); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
}

// UpdateOrganisationAccount changes the client's name and the region of
// an account of the organisation; domain.ErrNotFound when the account is
// not one of its.
func (s *Store) UpdateOrganisationAccount(ctx context.Context, a domain.OrganisationAccount) error {
	key, err := s.accountKey(ctx, a.Account, false)
	if err != nil {
		return err
	}
	n, err := s.write.Exec(ctx, `UPDATE organisation_accounts SET client = ?, region = ? WHERE account_id = ? AND organisation_id = ?`,
		a.Client, a.Region, key, a.Organisation)
	return oneRow(n, err, "account of the organisation", a.Account)
}

// PutOrganisationMember adds a person to an organisation, or changes their
// role in it, unless it has max people already (<= 0: no bound). A change
// ends the person's sessions in the organisation's accounts, whose role
// they hold, and returns their token hashes (see EndSessions); an
// addition ends none, since it takes no role away (people.Effective).
func (s *Store) PutOrganisationMember(ctx context.Context, m domain.OrganisationMember, max int, audit store.Audit) ([]string, error) {
	var ended []string
	err := s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		if err := s.organisationExists(ctx, tx, m.Organisation); err != nil {
			return err
		}
		var had, role string
		switch err := tx.QueryRow(ctx, `SELECT organisation_id, role FROM organisation_people WHERE person_id = ?`, m.PersonID).Scan(&had, &role); {
		case errors.Is(err, sql.ErrNoRows):
			if err := s.underOrganisationLimit(ctx, tx, m.Organisation, max); err != nil {
				return err
			}
			if err := s.insertOrganisationMember(ctx, tx, m); err != nil {
				return err
			}
			return s.recordOrganisationAudit(ctx, tx, m.Organisation, audit)
		case err != nil:
			return err
		case had != m.Organisation:
			return domain.ErrPersonInOrganisation
		}
		if role == domain.Owner.String() && m.Role != domain.Owner {
			if err := s.notLastOrganisationOwner(ctx, tx, m.Organisation); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE organisation_people SET role = ?, accounts = ? WHERE person_id = ?`,
			m.Role.String(), buildingsJSON(m.Accounts), m.PersonID); err != nil {
			return err
		}
		if err := s.recordOrganisationAudit(ctx, tx, m.Organisation, audit); err != nil {
			return err
		}
		var err error
		ended, err = s.endOrganisationSessions(ctx, tx, m.Organisation, m.PersonID)
		return err
	})
	return ended, err
}

// RemoveOrganisationMember ends a person's role in an organisation, and
// their sessions in its accounts; it returns their token hashes. Their
// memberships of the accounts stay.
func (s *Store) RemoveOrganisationMember(ctx context.Context, org, person string, audit store.Audit) ([]string, error) {
	var ended []string
	err := s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		var role string
		if err := tx.QueryRow(ctx, `SELECT role FROM organisation_people WHERE person_id = ? AND organisation_id = ?`, person, org).Scan(&role); err != nil {
			return notFound(err, "person of the organisation", person)
		}
		if role == domain.Owner.String() {
			if err := s.notLastOrganisationOwner(ctx, tx, org); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM organisation_people WHERE person_id = ?`, person); err != nil {
			return err
		}
		if err := s.recordOrganisationAudit(ctx, tx, org, audit); err != nil {
			return err
		}
		var err error
		ended, err = s.endOrganisationSessions(ctx, tx, org, person)
		return err
	})
	return ended, err
}

// knownAccount is the key of an account the cache has; domain.ErrNotFound
// when it has none of the id.
func (s *Store) knownAccount(ctx context.Context, id string) (int64, error) {
	key, err := s.accountKey(ctx, id, false)
	if err == nil && key == noAccount {
		return key, fmt.Errorf("account %q: %w", id, domain.ErrNotFound)
	}
	return key, err
}

func (s *Store) organisationExists(ctx context.Context, tx Tx, org string) error {
	var id string
	return notFound(tx.QueryRow(ctx, `SELECT id FROM organisations WHERE id = ?`, org).Scan(&id), "organisation", org)
}

func (s *Store) underOrganisationLimit(ctx context.Context, tx Tx, org string, max int) error {
	if max <= 0 {
		return nil
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM organisation_people WHERE organisation_id = ?`, org).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return &domain.LimitError{Holder: "An organisation", What: "people", Max: max, Advice: "Remove someone who no longer needs it before adding another."}
	}
	return nil
}

func (s *Store) notLastOrganisationOwner(ctx context.Context, tx Tx, org string) error {
	var owners int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM organisation_people WHERE organisation_id = ? AND role = ?`, org, domain.Owner.String()).Scan(&owners); err != nil {
		return err
	}
	if owners <= 1 {
		return domain.ErrLastOrganisationOwner
	}
	return nil
}

// insertOrganisationMember adds a person to an organisation, in a
// transaction holding peopleLock: domain.ErrPersonInOrganisation when they
// belong to one.
func (s *Store) insertOrganisationMember(ctx context.Context, tx Tx, m domain.OrganisationMember) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM organisation_people WHERE person_id = ?`, m.PersonID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return domain.ErrPersonInOrganisation
	}
	_, err := tx.Exec(ctx, `INSERT INTO organisation_people (person_id, organisation_id, role, accounts, created) VALUES (?, ?, ?, ?, ?)`,
		m.PersonID, m.Organisation, m.Role.String(), buildingsJSON(m.Accounts), s.d.Time(m.Created))
	return err
}

// insertOrganisationAccount adds an account to an organisation, in a
// transaction holding peopleLock: domain.ErrAccountInOrganisation when it
// belongs to one.
func (s *Store) insertOrganisationAccount(ctx context.Context, tx Tx, key int64, a domain.OrganisationAccount) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM organisation_accounts WHERE account_id = ?`, key).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return domain.ErrAccountInOrganisation
	}
	_, err := tx.Exec(ctx, `INSERT INTO organisation_accounts (account_id, organisation_id, client, region, added) VALUES (?, ?, ?, ?, ?)`,
		key, a.Organisation, a.Client, a.Region, s.d.Time(a.Added))
	return err
}

// recordOrganisationAudit appends a to the log of each account of the
// organisation, in tx.
func (s *Store) recordOrganisationAudit(ctx context.Context, tx Tx, org string, a store.Audit) error {
	if a.Action == "" {
		return nil
	}
	_, err := tx.Exec(ctx, auditInsert+` SELECT account_id, ?, ?, ?, ?, ? FROM organisation_accounts WHERE organisation_id = ?`,
		append(s.auditValues(a), org)...)
	return err
}

// endOrganisationSessions ends a person's sessions in the accounts of an
// organisation.
func (s *Store) endOrganisationSessions(ctx context.Context, tx Tx, org, person string) ([]string, error) {
	return s.endSessions(ctx, tx, `person_id = ? AND account_id IN (SELECT account_id FROM organisation_accounts WHERE organisation_id = ?)`, person, org)
}
