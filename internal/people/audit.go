package people

import (
	"context"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// AuditQuery is what the audit log page asks.
type AuditQuery struct {
	ActorID  string
	Action   domain.AuditAction
	From, To time.Time
	// Cursor continues after the page that gave it (AuditPage.Next); ""
	// starts from the newest.
	Cursor string
	Limit  int // <= 0 or above store.AuditPageMax: store.AuditPageMax
}

// AuditPage is a page of an account's audit log, newest first.
type AuditPage struct {
	Entries []domain.AuditEntry
	// Next is the cursor of the page after this one; "" when this is the
	// last.
	Next string
}

// AuditLog reads a page of an account's audit log; an error in words for
// a cursor that is not one.
func (s *Service) AuditLog(ctx context.Context, account string, q AuditQuery) (AuditPage, error) {
	after, err := ParseAuditCursor(q.Cursor)
	if err != nil {
		return AuditPage{}, err
	}
	limit := q.Limit
	if limit <= 0 || limit > store.AuditPageMax {
		limit = store.AuditPageMax
	}
	entries, err := s.store.AuditEntries(ctx, domain.AuditFilter{Account: account, ActorID: q.ActorID, Action: q.Action, From: q.From, To: q.To,
		After: after, Limit: limit})
	if err != nil {
		return AuditPage{}, err
	}
	page := AuditPage{Entries: entries}
	if len(entries) == limit {
		last := entries[len(entries)-1]
		page.Next = AuditCursorString(domain.AuditCursor{At: last.At, ID: last.ID})
	}
	return page, nil
}

// AuditCursorString writes a cursor for a link: "MILLISECONDS.ID".
func AuditCursorString(c domain.AuditCursor) string {
	return strconv.FormatInt(c.At.UnixMilli(), 10) + "." + strconv.FormatInt(c.ID, 10)
}

// ParseAuditCursor reads a cursor AuditCursorString wrote; "" is the
// first page.
func ParseAuditCursor(s string) (domain.AuditCursor, error) {
	if s == "" {
		return domain.AuditCursor{}, nil
	}
	ms, id, ok := strings.Cut(s, ".")
	at, err1 := strconv.ParseInt(ms, 10, 64)
	n, err2 := strconv.ParseInt(id, 10, 64)
	if !ok || err1 != nil || err2 != nil || n <= 0 || len(s) > 40 {
		return domain.AuditCursor{}, problem("The link to this page of the audit log is damaged: start again from its first page.")
	}
	return domain.AuditCursor{At: time.UnixMilli(at).UTC(), ID: n}, nil
}

// PruneAudit removes the audit log's entries older than the retention, at
// most AuditPruneBatch a call, oldest first, and returns how many: the
// caller calls it again while it removes that many.
func (s *Service) PruneAudit(ctx context.Context) (int, error) {
	return s.store.PruneAudit(ctx, s.clock.Now().Add(-s.cfg.AuditRetention), AuditPruneBatch)
}
