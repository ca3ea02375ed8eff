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

// Invitations (store.People): offers of a membership, by the hash of their
// link's token.

const invitationCols = `i.id, a.id, i.role, i.buildings, i.email, i.made_by, i.made_by_name, i.created, i.expires, i.used, i.used_by, i.withdrawn`

// invitationsKept is how long a closed invitation (used, withdrawn,
// expired) stays, for the record.
const invitationsKept = 30 * 24 * time.Hour

func (s *Store) scanInvitation(scan func(...any) error) (domain.Invitation, error) {
	var inv domain.Invitation
	var role, buildings string
	if err := scan(&inv.ID, &inv.Account, &role, &buildings, &inv.Email, &inv.MadeBy, &inv.MadeByName, s.d.ScanTime(&inv.Created),
		s.d.ScanTime(&inv.Expires), s.d.ScanTime(&inv.Used), &inv.UsedBy, s.d.ScanTime(&inv.Withdrawn)); err != nil {
		return inv, err
	}
	var err error
	inv.Role, inv.Buildings, err = parseGrant(role, buildings)
	return inv, err
}

// openInvitation is the condition that an invitation, i, is open at the
// time of its one parameter.
func (s *Store) openInvitation() string {
	return s.d.IsNever("i.used") + ` AND ` + s.d.IsNever("i.withdrawn") + ` AND i.expires > ?`
}

// CreateInvitation stores a new invitation, unless its account has max
// open ones already.
func (s *Store) CreateInvitation(ctx context.Context, inv domain.Invitation, tokenHash []byte, max int, audit store.Audit) error {
	key, err := s.accountKey(ctx, inv.Account, true)
	if err != nil {
		return err
	}
	never := s.d.TimeOrNever(time.Time{})
	return s.inTx(ctx, func(tx Tx) error {
		cut := s.d.Time(inv.Created.Add(-invitationsKept))
		if _, err := tx.Exec(ctx, `DELETE FROM invitations WHERE account_id = ? AND (expires < ?
			OR (NOT `+s.d.IsNever("used")+` AND used < ?) OR (NOT `+s.d.IsNever("withdrawn")+` AND withdrawn < ?))`, key, cut, cut, cut); err != nil {
			return err
		}
		if err := insertWithinLimitTx(ctx, tx, key, max, `INSERT INTO invitations (id, account_id, token_hash, role, buildings, email,
			made_by, made_by_name, created, expires, used, used_by, withdrawn)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?
			WHERE (SELECT count(*) FROM invitations i WHERE `+s.openInvitation()+` AND i.account_id = ?) < ?`,
			inv.ID, key, tokenHash, inv.Role.String(), buildingsJSON(inv.Buildings), inv.Email, inv.MadeBy, inv.MadeByName,
			s.d.Time(inv.Created), s.d.Time(inv.Expires), never, never, s.d.Time(inv.Created)); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
}

// Invitations lists an account's invitations open at at, newest first.
func (s *Store) Invitations(ctx context.Context, account string, at time.Time) ([]domain.Invitation, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return listOf(ctx, s.read, s.scanInvitation, `SELECT `+invitationCols+` FROM invitations i JOIN accounts a ON a.key = i.account_id
		WHERE i.account_id = ? AND `+s.openInvitation()+` ORDER BY i.created DESC, i.id`, key, s.d.Time(at))
}

// InvitationByToken returns the invitation whose token has the hash if it
// is open at at.
func (s *Store) InvitationByToken(ctx context.Context, tokenHash []byte, at time.Time) (domain.Invitation, error) {
	inv, err := s.invitationByToken(ctx, s.write, tokenHash)
	if err != nil {
		return inv, err
	}
	return inv, inv.Problem(at)
}

func (s *Store) invitationByToken(ctx context.Context, q Querier, tokenHash []byte) (domain.Invitation, error) {
	inv, err := s.scanInvitation(q.QueryRow(ctx, `SELECT `+invitationCols+` FROM invitations i JOIN accounts a ON a.key = i.account_id
		WHERE i.token_hash = ?`, tokenHash).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return inv, domain.ErrInvitationUnknown
	}
	return inv, err
}

// WithdrawInvitation withdraws an open invitation of the account.
func (s *Store) WithdrawInvitation(ctx context.Context, account, id string, audit store.Audit) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE invitations SET withdrawn = ? WHERE account_id = ? AND id = ? AND `+
			s.d.IsNever("used")+` AND `+s.d.IsNever("withdrawn"), s.d.TimeOrNever(audit.At), key, id)
		if err := oneRow(n, err, "open invitation", id); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
}

// AcceptInvitation uses an invitation's token and makes its person a
// member, in one transaction.
func (s *Store) AcceptInvitation(ctx context.Context, a store.Acceptance) (domain.Person, domain.Membership, error) {
	var m domain.Membership
	p := a.Person
	err := s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		// The token is used first: of two acceptances at once, the second
		// waits for the first and finds it used.
		n, err := tx.Exec(ctx, `UPDATE invitations SET used = ?, used_by = ? WHERE token_hash = ? AND `+
			s.d.IsNever("used")+` AND `+s.d.IsNever("withdrawn")+` AND expires > ?`, s.d.TimeOrNever(a.At), p.ID, a.TokenHash, s.d.Time(a.At))
		if err != nil {
			return err
		}
		inv, err := s.invitationByToken(ctx, tx, a.TokenHash)
		if err != nil {
			return err
		}
		if n == 0 {
			return inv.Problem(a.At)
		}
		if a.NewPerson {
			err = s.insertPerson(ctx, tx, p)
		} else {
			p, err = s.findPerson(ctx, tx, `p.id = ?`, p.ID)
		}
		if err != nil {
			return err
		}
		var key int64
		if err := tx.QueryRow(ctx, `SELECT account_id FROM invitations WHERE token_hash = ?`, a.TokenHash).Scan(&key); err != nil {
			return err
		}
		if err := tx.LockLimits(ctx, key); err != nil {
			return err
		}
		if _, err := s.heldMembership(ctx, tx, key, p.ID); !errors.Is(err, domain.ErrNotFound) {
			if err == nil {
				err = domain.ErrAlreadyMember
			}
			return err
		}
		m = domain.Membership{PersonID: p.ID, Account: inv.Account, Role: inv.Role, Buildings: inv.Buildings, Created: a.At}
		if err := s.addMembership(ctx, tx, key, m, a.MaxPeople, a.MaxAccounts); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, store.Audit{At: a.At, ActorID: p.ID, ActorName: p.Name, Action: domain.AuditInvitationAccepted,
			Subject: fmt.Sprintf("as %s, invited by %s", inv.Role, inv.MadeByName)})
	})
	return p, m, err
}
