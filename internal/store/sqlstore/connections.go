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

// Connections (store.Connections): the accounts connected to Washboard,
// with the service's credentials sealed by the caller.

const connectionCols = `a.id, c.credentials, c.connected_by, c.connected_by_name, c.connected, c.replaced`

func (s *Store) scanConnection(scan func(...any) error) (store.Connection, error) {
	var c store.Connection
	err := scan(&c.Account, &c.Sealed, &c.By, &c.ByName, s.d.ScanTime(&c.Connected), s.d.ScanTime(&c.Replaced))
	return c, err
}

// JoinAccount makes j.Person a member of j.Account, connecting the account
// if it is not connected.
func (s *Store) JoinAccount(ctx context.Context, j store.Join) (domain.Membership, error) {
	key, err := s.accountKey(ctx, j.Account, true)
	if err != nil {
		return domain.Membership{}, err
	}
	var m domain.Membership
	err = s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		if j.NewPerson {
			if err := s.insertPerson(ctx, tx, j.Person); err != nil {
				return err
			}
		}
		if err := tx.LockLimits(ctx, key); err != nil {
			return err
		}
		st, err := s.joinState(ctx, tx, key)
		if err != nil {
			return err
		}
		audit := store.Audit{At: j.At, ActorID: j.Person.ID, ActorName: j.Person.Name}
		if !st.Connected {
			if _, err := tx.Exec(ctx, `INSERT INTO account_connections (account_id, credentials, connected_by, connected_by_name, connected, replaced)
				VALUES (?, ?, ?, ?, ?, ?)`, key, j.Sealed, j.Person.ID, j.Person.Name, s.d.Time(j.At), s.d.TimeOrNever(time.Time{})); err != nil {
				return err
			}
			if err := s.recordAudit(ctx, tx, key, auditOf(audit, domain.AuditAccountConnected, "with the service's credentials")); err != nil {
				return err
			}
		}
		if m, err = s.heldMembership(ctx, tx, key, j.Person.ID); !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		role, err := j.Decide(st)
		if err != nil {
			return err
		}
		m = domain.Membership{PersonID: j.Person.ID, Account: j.Account, Role: role, Created: j.At}
		if err := s.addMembership(ctx, tx, key, m, j.MaxPeople, j.MaxAccounts); err != nil {
			return err
		}
		return s.recordAudit(ctx, tx, key, auditOf(audit, domain.AuditAccountJoined, "as "+role.String()+", with the service's credentials"))
	})
	return m, err
}

// joinState is what a join finds of the account, holding its limits lock.
func (s *Store) joinState(ctx context.Context, tx Tx, key int64) (store.JoinState, error) {
	var st store.JoinState
	var by string
	err := tx.QueryRow(ctx, `SELECT connected_by FROM account_connections WHERE account_id = ?`, key).Scan(&by)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return st, err
	default:
		st.Connected, st.ByUpgrade = true, by == ""
	}
	err = tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM memberships WHERE account_id = ? AND role = ?), (SELECT count(*) FROM account_connections)`,
		key, domain.Owner.String()).Scan(&st.Owners, &st.Connections)
	return st, err
}

// ConnectAccount connects an account without making anyone its member.
func (s *Store) ConnectAccount(ctx context.Context, c store.Connection, audit store.Audit) error {
	key, err := s.accountKey(ctx, c.Account, true)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, key); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `INSERT INTO account_connections (account_id, credentials, connected_by, connected_by_name, connected, replaced)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account_id) DO NOTHING`,
			key, c.Sealed, c.By, c.ByName, s.d.Time(c.Connected), s.d.TimeOrNever(c.Replaced))
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("account %q: %w", c.Account, domain.ErrAlreadyConnected)
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
}

// Connection returns an account's connection, as just written.
func (s *Store) Connection(ctx context.Context, account string) (store.Connection, error) {
	c, err := s.scanConnection(s.write.QueryRow(ctx, `SELECT `+connectionCols+` FROM account_connections c
		JOIN accounts a ON a.key = c.account_id WHERE a.id = ?`, account).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return c, fmt.Errorf("account %q: %w", account, domain.ErrNotConnected)
	}
	return c, err
}

// Connections returns every connected account's connection, by account
// id.
func (s *Store) Connections(ctx context.Context) ([]store.Connection, error) {
	return listOf(ctx, s.write, s.scanConnection, `SELECT `+connectionCols+` FROM account_connections c
		JOIN accounts a ON a.key = c.account_id ORDER BY a.id`)
}

// ReplaceAccountCredentials replaces a connected account's sealed
// credentials.
func (s *Store) ReplaceAccountCredentials(ctx context.Context, account string, sealed []byte, at time.Time, audit store.Audit) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE account_connections SET credentials = ?, replaced = ? WHERE account_id = ?`, sealed, s.d.TimeOrNever(at), key)
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("account %q: %w", account, domain.ErrNotConnected)
		}
		return s.recordAudit(ctx, tx, key, audit)
	})
}

// ResealAccountCredentials replaces accounts' sealed credentials, by
// account, each only if it still holds Old.
func (s *Store) ResealAccountCredentials(ctx context.Context, byAccount map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, `UPDATE account_connections SET credentials = ?
		WHERE account_id = (SELECT key FROM accounts WHERE id = ?) AND credentials = ?`, byAccount)
}

// UnconnectedAccounts lists the accounts the cache holds that are not
// connected, at most limit of them, by id.
func (s *Store) UnconnectedAccounts(ctx context.Context, limit int) ([]string, error) {
	var out []string
	var id string
	err := each(ctx, s.write, `SELECT id FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM account_connections c WHERE c.account_id = a.key)
		ORDER BY id LIMIT ?`, []any{limit}, []any{&id}, func() error {
		out = append(out, id)
		return nil
	})
	return out, err
}

// AccountSummary counts what the cache keeps of an account.
func (s *Store) AccountSummary(ctx context.Context, account string) (domain.AccountSummary, error) {
	var sum domain.AccountSummary
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return sum, err
	}
	var notifications int
	err = s.read.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM memberships WHERE account_id = ?1),
		(SELECT count(*) FROM invitations WHERE account_id = ?1 AND `+s.d.IsNever("used")+` AND `+s.d.IsNever("withdrawn")+` AND expires > ?2),
		(SELECT count(*) FROM screens WHERE account_id = ?1),
		(SELECT count(*) FROM webhook_receivers WHERE account_id = ?1),
		(SELECT count(*) FROM devices WHERE account_id = ?1),
		(SELECT count(*) FROM locations WHERE account_id = ?1),
		(SELECT count(*) FROM alerts WHERE account_id = ?1),
		(SELECT count(*) FROM claims WHERE account_id = ?1),
		(SELECT count(*) FROM enrolled_devices WHERE account_id = ?1),
		(SELECT count(*) FROM audit_log WHERE account_id = ?1),
		(SELECT count(*) FROM notification_settings WHERE account_id = ?1)`, key, s.d.Time(s.Now())).
		Scan(&sum.People, &sum.Invitations, &sum.Screens, &sum.Webhooks, &sum.Devices, &sum.Locations, &sum.Alerts, &sum.Claims,
			&sum.Enrolled, &sum.AuditEntries, &notifications)
	sum.Notifications = notifications > 0
	return sum, err
}

// accountTables are the tables whose rows are an account's, by
// account_id: what disconnecting an account removes.
var accountTables = []string{
	"buildings", "floors", "rooms", "locations", "devices", "device_history", "alerts", "rollups", "sync_status", "facts",
	"claims", "screens", "report_settings", "service_levels", "alert_measures", "webhook_receivers", "notification_settings", "notifications",
	"account_connections", "memberships", "invitations", "enrolled_devices", "audit_log", "organisation_accounts",
	"report_schedules", "report_sendings",
	"floor_plans", "floor_placements",
}

// DisconnectAccount removes everything the cache keeps of an account.
func (s *Store) DisconnectAccount(ctx context.Context, account string) ([]string, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var ended []string
	err = s.inTx(ctx, func(tx Tx) error {
		// The account's row, locked: a refresh of it under way ends first.
		var held int64
		if err := tx.QueryRow(ctx, `SELECT key FROM accounts WHERE key = ?`+s.d.ForUpdate(), key).Scan(&held); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var connected int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM account_connections WHERE account_id = ?`, key).Scan(&connected); err != nil {
			return err
		}
		if connected == 0 {
			return fmt.Errorf("account %q: %w", account, domain.ErrNotConnected)
		}
		if err := tx.LockLimits(ctx, key); err != nil {
			return err
		}
		if ended, err = s.endSessions(ctx, tx, `account_id = ?`, key); err != nil {
			return err
		}
		stmts := []Statement{{SQL: `DELETE FROM notification_items WHERE notification_id IN (SELECT id FROM notifications WHERE account_id = ?)`,
			Args: []any{key}}}
		for _, t := range accountTables {
			stmts = append(stmts, Statement{SQL: `DELETE FROM ` + t + ` WHERE account_id = ?`, Args: []any{key}})
		}
		never := s.d.TimeOrNever(time.Time{})
		stmts = append(stmts, Statement{SQL: `UPDATE accounts SET name = '', alerts_baseline = ?, devices_baseline = ? WHERE key = ?`,
			Args: []any{never, never, key}})
		return tx.Batch(ctx, stmts)
	})
	s.statuses.forget(key)
	return ended, err
}
