package sqlstore

import (
	"context"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The audit log (store.AuditLog): each account's entries, newest first by
// their time and then their id.

const auditInsert = `INSERT INTO audit_log (account_id, at, actor_id, actor_name, action, subject)`

// recordAudit appends a to the account's log, in tx; an Audit without an
// action records nothing.
func (s *Store) recordAudit(ctx context.Context, q Querier, key int64, a store.Audit) error {
	if a.Action == "" {
		return nil
	}
	_, err := q.Exec(ctx, auditInsert+` VALUES (?, ?, ?, ?, ?, ?)`, append([]any{key}, s.auditValues(a)...)...)
	return err
}

// recordPersonAudit appends a to the log of each account the person
// belongs to, in tx.
func (s *Store) recordPersonAudit(ctx context.Context, tx Tx, person string, a store.Audit) error {
	if a.Action == "" {
		return nil
	}
	_, err := tx.Exec(ctx, auditInsert+` SELECT account_id, ?, ?, ?, ?, ? FROM memberships WHERE person_id = ?`,
		append(s.auditValues(a), person)...)
	return err
}

func (s *Store) auditValues(a store.Audit) []any {
	return []any{s.d.Time(a.At), a.ActorID, a.ActorName, string(a.Action), store.Cut(a.Subject, domain.MaxAuditSubject)}
}

// RecordAudit appends an entry to an account's log.
func (s *Store) RecordAudit(ctx context.Context, account string, a store.Audit) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	return s.recordAudit(ctx, s.write, key, a)
}

// AuditEntries returns the entries of an account's log matching the
// filter, newest first, at most store.AuditPageMax.
func (s *Store) AuditEntries(ctx context.Context, f domain.AuditFilter) ([]domain.AuditEntry, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	conds, args := []string{`l.account_id = ?`}, []any{key}
	add := func(cond string, vals ...any) {
		conds, args = append(conds, cond), append(args, vals...)
	}
	if f.ActorID != "" {
		add(`l.actor_id = ?`, f.ActorID)
	}
	if f.Action != "" {
		add(`l.action = ?`, string(f.Action))
	}
	if !f.From.IsZero() {
		add(`l.at >= ?`, s.d.Time(f.From))
	}
	if !f.To.IsZero() {
		add(`l.at < ?`, s.d.Time(f.To))
	}
	if !f.After.IsZero() {
		at := s.d.Time(f.After.At)
		add(`(l.at < ? OR (l.at = ? AND l.id < ?))`, at, at, f.After.ID)
	}
	limit := f.Limit
	if limit <= 0 || limit > store.AuditPageMax {
		limit = store.AuditPageMax
	}
	var out []domain.AuditEntry
	var e domain.AuditEntry
	var action string
	err = each(ctx, s.read, `SELECT l.id, a.id, l.at, l.actor_id, l.actor_name, l.action, l.subject
		FROM audit_log l JOIN accounts a ON a.key = l.account_id
		WHERE `+strings.Join(conds, " AND ")+` ORDER BY l.at DESC, l.id DESC LIMIT ?`, append(args, limit),
		[]any{&e.ID, &e.Account, s.d.ScanTime(&e.At), &e.ActorID, &e.ActorName, &action, &e.Subject}, func() error {
			e.Action = domain.AuditAction(action)
			out = append(out, e)
			return nil
		})
	return out, err
}

// PruneAudit removes at most max entries made before before, oldest
// first.
func (s *Store) PruneAudit(ctx context.Context, before time.Time, max int) (int, error) {
	n, err := s.write.Exec(ctx, `DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ? ORDER BY at, id LIMIT ?)`,
		s.d.Time(before), max)
	return int(n), err
}
