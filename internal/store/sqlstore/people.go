package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// People (store.People) are no account's rows: a person may belong to
// several accounts. The writes that create people or give them an e-mail
// address, and those of sign-in links and passkeys, follow one another
// under peopleLock; those that count an account's members, or its owners,
// under the account's limits lock. A transaction that takes both takes
// peopleLock first, and the accounts' locks in the order of their keys.

// peopleLock is the key under which LockLimits serialises the writes of
// people: the accounts' keys start at 1.
const peopleLock int64 = 0

const personCols = `p.id, p.name, p.email, coalesce(p.oidc_issuer, ''), coalesce(p.oidc_subject, ''), p.created, p.last_seen, p.language`

func (s *Store) scanPerson(scan func(...any) error) (domain.Person, error) {
	var p domain.Person
	err := scan(&p.ID, &p.Name, &p.Email, &p.Issuer, &p.Subject, s.d.ScanTime(&p.Created), s.d.ScanTime(&p.LastSeen), &p.Language)
	return p, err
}

// emailKey is how an e-mail address is compared, as a parameter: in lower
// case, NULL for none.
func emailKey(email string) any {
	if email == "" {
		return nil
	}
	return strings.ToLower(email)
}

// nullText is a text as a parameter, NULL when empty.
func nullText(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// Person returns a person by id.
func (s *Store) Person(ctx context.Context, id string) (domain.Person, error) {
	return s.findPerson(ctx, s.write, `p.id = ?`, id)
}

// PersonByEmail returns the person whose e-mail address is email,
// whatever its case.
func (s *Store) PersonByEmail(ctx context.Context, email string) (domain.Person, error) {
	if email == "" {
		return domain.Person{}, fmt.Errorf("person of no address: %w", domain.ErrNotFound)
	}
	return s.findPerson(ctx, s.write, `p.email_key = ?`, emailKey(email))
}

func (s *Store) findPerson(ctx context.Context, q Querier, cond string, arg any) (domain.Person, error) {
	p, err := s.scanPerson(q.QueryRow(ctx, `SELECT `+personCols+` FROM people p WHERE `+cond, arg).Scan)
	return p, notFound(err, "person", fmt.Sprint(arg))
}

// insertPerson creates a person, in a transaction holding peopleLock:
// domain.ErrEmailTaken when their address is another's.
func (s *Store) insertPerson(ctx context.Context, tx Tx, p domain.Person) error {
	if err := s.emailFree(ctx, tx, p.Email, ""); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO people (id, name, email, email_key, oidc_issuer, oidc_subject, created, last_seen)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, p.ID, p.Name, p.Email, emailKey(p.Email), nullText(p.Issuer), nullText(p.Subject),
		s.d.Time(p.Created), s.d.TimeOrNever(p.LastSeen))
	return err
}

// emailFree answers domain.ErrEmailTaken when a person other than except
// has the address.
func (s *Store) emailFree(ctx context.Context, q Querier, email, except string) error {
	if email == "" {
		return nil
	}
	var id string
	err := q.QueryRow(ctx, `SELECT id FROM people WHERE email_key = ?`, emailKey(email)).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	case id != except:
		return domain.ErrEmailTaken
	}
	return nil
}

// UpdatePerson changes a person's name and e-mail address.
func (s *Store) UpdatePerson(ctx context.Context, p domain.Person) error {
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		if err := s.emailFree(ctx, tx, p.Email, p.ID); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE people SET name = ?, email = ?, email_key = ? WHERE id = ?`, p.Name, p.Email, emailKey(p.Email), p.ID)
		return oneRow(n, err, "person", p.ID)
	})
}

// SetPersonLanguage records the language a person chose.
func (s *Store) SetPersonLanguage(ctx context.Context, id, language string) error {
	n, err := s.write.Exec(ctx, `UPDATE people SET language = ? WHERE id = ?`, language, id)
	return oneRow(n, err, "person", id)
}

// TouchPerson records that a person signed in, or came back.
func (s *Store) TouchPerson(ctx context.Context, id string, at time.Time) error {
	n, err := s.write.Exec(ctx, `UPDATE people SET last_seen = ? WHERE id = ?`, s.d.TimeOrNever(at), id)
	return oneRow(n, err, "person", id)
}

// SignInOIDC creates or updates the person of an identity at an OpenID
// provider, and their memberships made by single sign-on (see
// store.OIDCSignIn); it returns the person and the token hashes of the
// sessions the changes of memberships ended.
func (s *Store) SignInOIDC(ctx context.Context, o store.OIDCSignIn) (domain.Person, []string, error) {
	// The accounts' keys are made before the transaction: the writer is
	// one connection on some engines.
	wanted := map[int64]domain.Membership{}
	for _, m := range o.Memberships {
		key, err := s.accountKey(ctx, m.Account, true)
		if err != nil {
			return domain.Person{}, nil, err
		}
		wanted[key] = m
	}
	var p domain.Person
	var ended []string
	err := s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		var err error
		if p, err = s.oidcPerson(ctx, tx, o); err != nil {
			return err
		}
		// The accounts whose membership may change: those the groups give,
		// and those single sign-on gave before.
		keys := make([]int64, 0, len(wanted))
		for k := range wanted {
			keys = append(keys, k)
		}
		var key int64
		if err := each(ctx, tx, `SELECT account_id FROM memberships WHERE person_id = ? AND from_groups = `+s.d.BoolLiteral(true),
			[]any{p.ID}, []any{&key}, func() error {
				keys = append(keys, key)
				return nil
			}); err != nil {
			return err
		}
		slices.Sort(keys)
		for _, key := range slices.Compact(keys) {
			m, ok := wanted[key]
			e, err := s.syncGroupMembership(ctx, tx, key, p, m, ok, o)
			if err != nil {
				return err
			}
			ended = append(ended, e...)
		}
		return nil
	})
	return p, ended, err
}

// oidcPerson finds, links or creates the person of a sign-in through an
// OpenID provider, with the name and address the provider gave, in a
// transaction holding peopleLock.
func (s *Store) oidcPerson(ctx context.Context, tx Tx, o store.OIDCSignIn) (domain.Person, error) {
	in := o.Person
	p, err := s.scanPerson(tx.QueryRow(ctx, `SELECT `+personCols+` FROM people p WHERE p.oidc_issuer = ? AND p.oidc_subject = ?`,
		in.Issuer, in.Subject).Scan)
	if errors.Is(err, sql.ErrNoRows) && o.LinkByEmail && in.Email != "" {
		p, err = s.scanPerson(tx.QueryRow(ctx, `SELECT `+personCols+` FROM people p WHERE p.email_key = ? AND p.oidc_issuer IS NULL`,
			emailKey(in.Email)).Scan)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		p = in
		if s.emailFree(ctx, tx, p.Email, "") != nil {
			p.Email = ""
		}
		p.Created, p.LastSeen = o.At, o.At
		return p, s.insertPerson(ctx, tx, p)
	case err != nil:
		return p, err
	}
	p.Name, p.Issuer, p.Subject, p.LastSeen = in.Name, in.Issuer, in.Subject, o.At
	if in.Email != "" && s.emailFree(ctx, tx, in.Email, p.ID) == nil {
		p.Email = in.Email
	}
	_, err = tx.Exec(ctx, `UPDATE people SET name = ?, email = ?, email_key = ?, oidc_issuer = ?, oidc_subject = ?, last_seen = ? WHERE id = ?`,
		p.Name, p.Email, emailKey(p.Email), p.Issuer, p.Subject, s.d.TimeOrNever(o.At), p.ID)
	return p, err
}

// syncGroupMembership makes a person's membership of an account what
// single sign-on's groups give (want, when given), holding the account's
// limits lock; a change that would leave the account without an owner, or
// a membership it has no room for, is not made. It returns the sessions
// it ended.
func (s *Store) syncGroupMembership(ctx context.Context, tx Tx, key int64, p domain.Person, want domain.Membership, given bool, o store.OIDCSignIn) ([]string, error) {
	if err := tx.LockLimits(ctx, key); err != nil {
		return nil, err
	}
	had, err := s.heldMembership(ctx, tx, key, p.ID)
	if errors.Is(err, domain.ErrNotFound) {
		if !given {
			return nil, nil
		}
		want.PersonID, want.Created, want.FromGroups = p.ID, o.At, true
		switch err := s.addMembership(ctx, tx, key, want, o.MaxPeople, 0); {
		case errors.Is(err, domain.ErrLimit):
			return nil, nil
		case err != nil:
			return nil, err
		}
		return nil, s.recordAudit(ctx, tx, key, auditOf(o.Audit, domain.AuditAccountJoined, "as "+want.Role.String()+", from single sign-on"))
	}
	if err != nil {
		return nil, err
	}
	if given && had.FromGroups && had.Role == want.Role && slices.Equal(had.Buildings, want.Buildings) {
		return nil, nil
	}
	if had.Role == domain.Owner && (!given || want.Role != domain.Owner) {
		if err := s.notLastOwner(ctx, tx, key); errors.Is(err, domain.ErrLastOwner) {
			return nil, nil
		} else if err != nil {
			return nil, err
		}
	}
	if !given {
		ended, err := s.removeMembership(ctx, tx, key, p.ID, o.At)
		if err != nil {
			return nil, err
		}
		return ended, s.recordAudit(ctx, tx, key, auditOf(o.Audit, domain.AuditPersonRemoved, "no group gives "+p.Name+" a role any more"))
	}
	want.PersonID, want.FromGroups = p.ID, true
	ended, err := s.updateMembership(ctx, tx, key, want)
	if err != nil {
		return nil, err
	}
	return ended, s.recordAudit(ctx, tx, key, auditOf(o.Audit, domain.AuditRoleChanged,
		fmt.Sprintf("%s from %s to %s, from single sign-on", p.Name, had.Role, want.Role)))
}

// auditOf is a with the action and subject.
func auditOf(a store.Audit, action domain.AuditAction, subject string) store.Audit {
	a.Action, a.Subject = action, subject
	return a
}

// buildingsJSON is a list of building ids as the tables keep it.
func buildingsJSON(ids []string) string {
	if len(ids) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ids) // strings always encode
	return string(b)
}

// parseGrant reads a role and a list of building ids as the tables keep
// them (memberships, invitations).
func parseGrant(role, buildings string) (domain.Role, []string, error) {
	r, err := domain.ParseRole(role)
	if err != nil {
		return r, nil, err
	}
	var ids []string
	if err := json.Unmarshal([]byte(buildings), &ids); err != nil {
		return r, nil, fmt.Errorf("a list of buildings: %w", err)
	}
	if len(ids) == 0 {
		return r, nil, nil
	}
	return r, ids, nil
}
