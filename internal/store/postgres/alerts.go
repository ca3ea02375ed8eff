package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/outbox"
	"washboard/internal/store/rollup"
)

var alertsTable = &table{name: "alerts", key: "id", cols: []string{
	"location_id", "macs", "status", "type", "created", "resolved", "resolution", "overdue", "refill_count",
}, onInsert: []string{"overdue_since"}}

// alertRow is the row of an alert read from the service at seen.
func alertRow(a domain.Alert, seen time.Time) row {
	status := domain.AlertOpen
	if !a.Open() {
		status = domain.AlertClosed
	}
	macs := a.MACs
	if macs == nil {
		macs = []string{}
	}
	return row{key: a.ID, vals: []any{
		a.LocationID, macs, string(status), string(a.Type), a.Created, ts(a.Resolved),
		string(a.Resolution), a.Overdue, int64(a.RefillCount),
	}, onInsert: []any{overdueSince(a, seen)}}
}

// overdueSince is the overdue_since of an alert the cache does not hold
// yet, read from the service at seen: seen, or the alert's resolution if
// that was earlier, when the alert is overdue; NULL when it is not, or
// when seen is zero.
func overdueSince(a domain.Alert, seen time.Time) any {
	if !a.Overdue || seen.IsZero() {
		return nil
	}
	if !a.Resolved.IsZero() && a.Resolved.Before(seen) {
		return a.Resolved
	}
	return seen
}

// ApplyAlerts writes a refresh of alerts in one transaction and brings the
// rollups up to date. Alerts whose content did not change are not written.
func (s *Store) ApplyAlerts(ctx context.Context, account string, w store.AlertWrite) (domain.Change, error) {
	r, err := s.beginAlerts(ctx, account)
	if err != nil {
		return domain.Change{}, err
	}
	defer r.Rollback()
	r.SeenAt(w.SeenAt)
	if err := r.Write(ctx, w.Upserts); err != nil {
		return domain.Change{}, err
	}
	return r.Commit(ctx, w.Remove, w.PruneBefore)
}

// AlertRefresh is a refresh of an account's alerts being written page by
// page, in one transaction that holds the account until Commit or
// Rollback. An alert written twice keeps the later version: an alert read
// as open and then as closed is stored closed.
type AlertRefresh struct {
	tx      *txn
	w       *tableWriter
	key     int64
	account string
	empty   bool             // the account had no alerts: nothing to compare with
	seen    time.Time        // when the service was read; zero leaves overdue_since alone
	now     func() time.Time // the store's clock, for claims a refresh without seen ends
	// touched, when set, holds the states of the only locations the
	// refresh may change, as they were before it: Commit adjusts their
	// parts' rollups instead of counting the whole account again.
	touched map[string]rollup.State
	// changes are the alerts the refresh changes that may record facts;
	// nil when the account's alerts have no baseline yet: this refresh
	// makes it, unless it is of events, and records none.
	changes *outbox.Changes[domain.Alert]
	events  bool // the write is of the service's events (ApplyAlertEvents)
}

// BeginAlerts starts a refresh of an account's alerts.
func (s *Store) BeginAlerts(ctx context.Context, account string) (store.AlertRefresh, error) {
	r, err := s.beginAlerts(ctx, account)
	if err != nil {
		return nil, err // not a nil *AlertRefresh in a non-nil interface
	}
	return r, nil
}

func (s *Store) beginAlerts(ctx context.Context, account string) (*AlertRefresh, error) {
	held, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, err
	}
	var has bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM alerts WHERE account_id = $1)`, held.key).Scan(&has); err != nil {
		rollback(tx)
		return nil, err
	}
	r := &AlertRefresh{tx: tx, w: newTableWriter(tx, alertsTable, held.key, nil), key: held.key, account: account, empty: !has, now: s.Now}
	if held.alertsBaseline {
		r.changes = outbox.NewChanges[domain.Alert]()
	}
	return r, nil
}

// SeenAt says when the service was read, before the first Write. The
// refresh records it as the time the alerts first seen overdue became
// overdue, or their resolution if that was earlier.
func (r *AlertRefresh) SeenAt(t time.Time) { r.seen = t }

// Write writes a page of alerts. They may wait for the next page or for
// Commit, to be written together.
func (r *AlertRefresh) Write(ctx context.Context, alerts []domain.Alert) error {
	rows := make([]row, len(alerts))
	var unknown []string
	for i, a := range alerts {
		rows[i] = alertRow(a, r.seen)
		if r.empty {
			continue
		}
		// Not those this refresh added: the cache held none of them, and
		// read back they would pass for alerts it held.
		_, cached := r.w.existing[a.ID]
		if _, added := r.w.seen[a.ID]; !cached && !added {
			unknown = append(unknown, a.ID)
		}
	}
	if err := alertHashes(ctx, r.tx, r.key, unknown, r.w.existing); err != nil {
		return err
	}
	if err := r.readBefore(ctx, alerts, rows); err != nil {
		return err
	}
	if err := r.w.write(ctx, rows); err != nil {
		return err
	}
	r.noteChanges(alerts)
	return nil
}

// readBefore reads what the cache holds of the alerts listed, each the row
// of rows at its index, that may record facts and that the refresh is
// about to change, before it writes them.
func (r *AlertRefresh) readBefore(ctx context.Context, alerts []domain.Alert, rows []row) error {
	if r.changes == nil {
		return nil
	}
	var ids []string
	for i, a := range alerts {
		if outbox.AlertMayRecord(a) && !r.changes.Knows(a.ID) && r.w.differs(rows[i]) {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	held, err := alertsByID(ctx, r.tx, r.key, ids)
	if err != nil {
		return err
	}
	for id, a := range held {
		r.changes.Held(id, a)
	}
	return nil
}

// noteChanges records the refresh's last version of the alerts listed
// that it changed and that may record facts.
func (r *AlertRefresh) noteChanges(alerts []domain.Alert) {
	if r.changes == nil || r.w.change.Empty() {
		return
	}
	for _, a := range alerts {
		if outbox.AlertMayRecord(a) && r.w.modified(a.ID) {
			r.changes.Leaves(a.ID, a)
		} else {
			r.changes.Drop(a.ID)
		}
	}
}

// Commit writes the alerts still waiting, removes those the service no
// longer has and the closed ones created before pruneBefore (unless it is
// zero), brings the rollups up to date, ends the claims of the alerts no
// longer open, records the facts of what it changed (or the baseline) and
// commits.
func (r *AlertRefresh) Commit(ctx context.Context, remove []string, pruneBefore time.Time) (domain.Change, error) {
	c := &r.w.change
	if err := r.w.flush(ctx); err != nil {
		return *c, err
	}
	n, err := deleteKeys(ctx, r.tx, "alerts", "id", r.key, remove)
	c.Removed += int(n)
	if err != nil {
		return *c, err
	}
	if !pruneBefore.IsZero() {
		tag, err := r.tx.Exec(ctx, `DELETE FROM alerts WHERE account_id = $1 AND status = 'CLOSED' AND created < $2`, r.key, pruneBefore)
		if err != nil {
			return *c, err
		}
		c.Removed += int(tag.RowsAffected())
		// The claims ended before then whose alerts are gone go with them.
		if _, err := r.tx.Exec(ctx, `DELETE FROM claims c WHERE c.account_id = $1 AND c.ended < $2
			AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.account_id = $1 AND a.id = c.alert_id)`, r.key, pruneBefore); err != nil {
			return *c, err
		}
	}
	if !r.seen.IsZero() {
		if _, err := r.tx.Exec(ctx, `UPDATE alerts SET overdue_since = least($2, coalesce(resolved, $2))
			WHERE account_id = $1 AND overdue AND overdue_since IS NULL`, r.key, r.seen); err != nil {
			return *c, err
		}
	}
	switch {
	case c.Empty():
	case r.touched != nil:
		ids := make([]string, 0, len(r.touched))
		for id := range r.touched {
			ids = append(ids, id)
		}
		after, err := readLocationStates(ctx, r.tx, r.key, ids)
		if err != nil {
			return *c, err
		}
		if err := adjustRollups(ctx, r.tx, r.key, r.account, r.touched, after); err != nil {
			return *c, err
		}
	default:
		if err := recomputeRollups(ctx, r.tx, r.key, r.account, rollupInputs{}); err != nil {
			return *c, err
		}
	}
	if err := endClaimsOfClosedAlerts(ctx, r.tx, r.key, r.seen, r.now()); err != nil {
		return *c, err
	}
	if err := r.recordFacts(ctx, remove); err != nil {
		return *c, err
	}
	return *c, r.tx.Commit(ctx)
}

// recordFacts records the facts of the alerts the refresh changed and did
// not remove; or, when the account's alerts have no baseline yet, makes
// it, unless the write is of events.
func (r *AlertRefresh) recordFacts(ctx context.Context, removed []string) error {
	now := r.now()
	switch {
	case r.changes == nil && r.events:
		return nil
	case r.changes == nil:
		return setBaseline(ctx, r.tx, r.key, domain.ResourceAlerts, now)
	}
	for _, id := range removed {
		r.changes.Drop(id)
	}
	seen := r.seen
	if seen.IsZero() {
		seen = now
	}
	var facts []store.Fact
	for before, a := range r.changes.All() {
		facts = append(facts, outbox.AlertFacts(r.account, before, a, seen)...)
	}
	return recordFacts(ctx, r.tx, r.key, facts)
}

// Rollback abandons the refresh; after Commit it does nothing.
func (r *AlertRefresh) Rollback() {
	rollback(r.tx)
}

// alertHashes adds the hashes of the given alerts that the cache holds to
// into, reading them in chunks.
func alertHashes(ctx context.Context, tx *txn, account int64, ids []string, into map[string]int64) error {
	for start := 0; start < len(ids); start += chunk {
		rows, err := tx.Query(ctx, `SELECT id, hash FROM alerts WHERE account_id = $1 AND id = ANY($2)`, account, ids[start:min(start+chunk, len(ids))])
		if err != nil {
			return err
		}
		var id string
		var h int64
		if _, err := pgx.ForEachRow(rows, []any{&id, &h}, func() error {
			into[id] = h
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// FindAlerts returns the alerts matching the filter: overdue first, then
// oldest first, then in the order the cache first listed them.
func (s *Store) FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	q := alertQuery(key, f, alertCols)
	sql := q.sql + " ORDER BY a.overdue DESC, a.created, a.seq"
	if f.Limit > 0 {
		sql += " LIMIT " + q.arg(f.Limit)
	}
	rows, err := s.pool.Query(ctx, sql, q.args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Alert, error) { return scanAlert(row.Scan) })
}

// alertCols are the columns scanAlert reads, of alerts as a.
const alertCols = `a.id, a.location_id, a.macs, a.status, a.type, a.created, a.resolved, a.resolution, a.overdue, a.refill_count, a.overdue_since`

func scanAlert(scan func(...any) error) (domain.Alert, error) {
	var a domain.Alert
	var status, typ, resolution string
	var resolved, overdueSince pgtype.Timestamptz
	var refills int32
	if err := scan(&a.ID, &a.LocationID, &a.MACs, &status, &typ, &a.Created, &resolved, &resolution, &a.Overdue, &refills, &overdueSince); err != nil {
		return a, err
	}
	if len(a.MACs) == 0 {
		a.MACs = nil
	}
	a.Status, a.Type, a.Resolution = domain.AlertStatus(status), domain.AlertType(typ), domain.Resolution(resolution)
	a.Created = a.Created.UTC()
	a.Resolved, a.OverdueSince = fromTS(resolved), fromTS(overdueSince)
	a.RefillCount = int(refills)
	return a, nil
}

// CountAlerts counts the alerts matching the filter.
func (s *Store) CountAlerts(ctx context.Context, f store.AlertFilter) (int, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return 0, err
	}
	q := alertQuery(key, f, "count(*)")
	var n int
	err = s.pool.QueryRow(ctx, q.sql, q.args...).Scan(&n)
	return n, err
}

// query is a statement being built with its arguments.
type query struct {
	sql  string
	args []any
}

// arg adds an argument and returns its placeholder.
func (q *query) arg(v any) string {
	q.args = append(q.args, v)
	return fmt.Sprintf("$%d", len(q.args))
}

func alertQuery(key int64, f store.AlertFilter, cols string) *query {
	q := &query{}
	where := []string{"a.account_id = " + q.arg(key)}
	from := "alerts a"
	if f.BuildingID != "" || f.FloorID != "" || f.RoomID != "" {
		from = "alerts a JOIN locations l ON l.account_id = a.account_id AND l.id = a.location_id"
	}
	if f.BuildingID != "" {
		where = append(where, "l.building_id = "+q.arg(f.BuildingID))
	}
	if f.FloorID != "" {
		where = append(where, "l.floor_id = "+q.arg(f.FloorID))
	}
	if f.RoomID != "" {
		where = append(where, "l.room_id = "+q.arg(f.RoomID))
	}
	if f.LocationID != "" {
		where = append(where, "a.location_id = "+q.arg(f.LocationID))
	}
	if f.AlertID != "" {
		where = append(where, "a.id = "+q.arg(f.AlertID))
	}
	switch f.Status {
	case domain.AlertOpen:
		where = append(where, "a.status = 'OPEN'") // a literal, so that the partial index of open alerts applies
	case domain.AlertClosed:
		where = append(where, "a.status = 'CLOSED'")
	}
	if f.Type != "" {
		where = append(where, "a.type = "+q.arg(string(f.Type)))
	}
	if f.Resolution != "" {
		where = append(where, "a.resolution = "+q.arg(string(f.Resolution)))
	}
	dateCol := "a.created"
	if f.Status == domain.AlertClosed {
		dateCol = "a.resolved"
	}
	if !f.From.IsZero() {
		where = append(where, dateCol+" >= "+q.arg(f.From))
	}
	if !f.To.IsZero() {
		where = append(where, dateCol+" < "+q.arg(f.To))
	}
	if !f.OpenFrom.IsZero() {
		where = append(where, "(a.status = 'OPEN' OR a.resolved >= "+q.arg(f.OpenFrom)+")")
	}
	if !f.OpenTo.IsZero() {
		where = append(where, "a.created < "+q.arg(f.OpenTo))
	}
	q.sql = "SELECT " + cols + " FROM " + from + " WHERE " + strings.Join(where, " AND ")
	return q
}

// RefillTotals adds up, per floor and kind, the refill counts of the open
// consumable_out and battery_out alerts that match the filter (whose
// Status is taken as open), by building and floor name. Alerts of
// locations the layout does not list are left out.
func (s *Store) RefillTotals(ctx context.Context, f store.AlertFilter) ([]store.RefillTotal, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	f.Status, f.Limit = domain.AlertOpen, 0
	q := alertQuery(key, f, "a.location_id, a.type, a.refill_count")
	sql := `SELECT b.name, fl.name, CASE WHEN x.type = 'battery_out' THEN 'battery' ELSE l.type END AS kind, sum(x.refill_count)
		FROM (` + q.sql + ` AND a.type IN ('consumable_out', 'battery_out') AND a.refill_count > 0) x
		JOIN locations l ON l.account_id = ` + q.arg(key) + ` AND l.id = x.location_id
		JOIN floors fl ON fl.account_id = l.account_id AND fl.id = l.floor_id
		JOIN buildings b ON b.account_id = l.account_id AND b.id = l.building_id
		GROUP BY b.id, fl.id, b.name, fl.name, kind
		ORDER BY b.name, fl.name, b.id, fl.id, kind`
	rows, err := s.pool.Query(ctx, sql, q.args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.RefillTotal, error) {
		var t store.RefillTotal
		var n int64
		err := row.Scan(&t.Building, &t.Floor, &t.Kind, &n)
		t.Count = int(n)
		return t, err
	})
}

// AlertSpans returns what trends count of the alerts matching the filter,
// oldest first, then in the order the cache first listed them. The
// strings of locations and types are read once each.
func (s *Store) AlertSpans(ctx context.Context, f store.AlertFilter) ([]store.AlertSpan, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	q := alertQuery(key, f, "a.location_id, a.type, a.created, a.resolved")
	sql := q.sql + " ORDER BY a.created, a.seq"
	if f.Limit > 0 {
		sql += " LIMIT " + q.arg(f.Limit)
	}
	rows, err := s.pool.Query(ctx, sql, q.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.AlertSpan
	strs := map[string]string{}
	intern := func(b []byte) string {
		if v, ok := strs[string(b)]; ok {
			return v
		}
		v := string(b)
		strs[v] = v
		return v
	}
	var created time.Time
	var resolved pgtype.Timestamptz
	for rows.Next() {
		// The two text columns are read as the server sent them, and kept
		// once each.
		if err := rows.Scan(nil, nil, &created, &resolved); err != nil {
			return nil, err
		}
		raw := rows.RawValues()
		out = append(out, store.AlertSpan{LocationID: intern(raw[0]), Type: domain.AlertType(intern(raw[1])),
			Created: created.UTC(), Resolved: fromTS(resolved)})
	}
	return out, rows.Err()
}
