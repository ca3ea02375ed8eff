package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/outbox"
	"washboard/internal/store/rollup"
)

var alertsTable = &table{name: "alerts", key: "id", cols: []string{
	"location_id", "macs", "status", "type", "created", "resolved", "resolution", "overdue", "refill_count",
}, rowid: true, onInsert: []string{"overdue_since"}}

// alertRow is the row of an alert read from the service at seen.
func alertRow(a domain.Alert, seen time.Time) row {
	var resolved any
	if !a.Resolved.IsZero() {
		resolved = ms(a.Resolved)
	}
	status := domain.AlertOpen
	if !a.Open() {
		status = domain.AlertClosed
	}
	return row{key: a.ID, vals: []any{
		a.LocationID, strings.Join(a.MACs, ";"), string(status), string(a.Type), ms(a.Created), resolved,
		string(a.Resolution), boolInt(a.Overdue), int64(a.RefillCount),
	}, onInsert: []any{overdueSince(a, seen)}}
}

// overdueSince is the overdue_since of an alert the cache does not hold yet,
// read from the service at seen: seen, or the alert's resolution if that
// was earlier, when the alert is overdue; NULL when it is not, or when seen
// is zero.
func overdueSince(a domain.Alert, seen time.Time) any {
	if !a.Overdue || seen.IsZero() {
		return nil
	}
	at := ms(seen)
	if !a.Resolved.IsZero() {
		at = min(at, ms(a.Resolved))
	}
	return at
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
// page, in one transaction that holds the writer until Commit or Rollback.
// An alert written twice keeps the later version: an alert read as open and
// then as closed is stored closed.
type AlertRefresh struct {
	tx      *sql.Tx
	w       *tableWriter
	key     int64
	account string
	empty   bool             // the account had no alerts: nothing to compare with
	seen    time.Time        // when the service was read; zero leaves overdue_since alone
	now     func() time.Time // the store's clock, for claims a refresh without seen ends
	rollups rollupInputs     // read once the refresh changes something
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
	key, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM alerts WHERE account_id = ? LIMIT 1)`, key).Scan(&n); err != nil {
		tx.Rollback()
		return nil, err
	}
	r := &AlertRefresh{tx: tx, w: newTableWriter(tx, alertsTable, key, nil), key: key, account: account, empty: n == 0, now: s.Now}
	if base, err := hasBaseline(ctx, tx, key, domain.ResourceAlerts); err != nil {
		tx.Rollback()
		return nil, err
	} else if base {
		r.changes = outbox.NewChanges[domain.Alert]()
	}
	return r, nil
}

// SeenAt says when the service was read, before the first Write. The
// refresh records it as the time the alerts first seen overdue became
// overdue, or their resolution if that was earlier.
func (r *AlertRefresh) SeenAt(t time.Time) { r.seen = t }

// Write writes a page of alerts. The last few may wait for the next page
// or for Commit, to be written in a full batch.
func (r *AlertRefresh) Write(ctx context.Context, alerts []domain.Alert) error {
	rows := make([]row, len(alerts))
	var unknown []any
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
	known, err := alertHashes(ctx, r.tx, r.key, unknown)
	if err != nil {
		return err
	}
	for id, h := range known {
		r.w.existing[id] = h
	}
	if err := r.readBefore(ctx, alerts, rows); err != nil {
		return err
	}
	if err := r.w.write(ctx, rows); err != nil {
		return err
	}
	r.noteChanges(alerts)
	return r.readRollupInputs(ctx)
}

// readBefore reads what the cache holds of the alerts listed, each the row
// of rows at its index, that may record facts and that the refresh is
// about to change, before it writes them.
func (r *AlertRefresh) readBefore(ctx context.Context, alerts []domain.Alert, rows []row) error {
	if r.changes == nil {
		return nil
	}
	var ids []any
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

// readRollupInputs reads where the locations are and the health of their
// devices once the refresh has changed something, for the rollups, while
// the next page is on its way: a refresh of alerts changes neither.
func (r *AlertRefresh) readRollupInputs(ctx context.Context) (err error) {
	if r.touched != nil || r.rollups.places != nil || r.w.change.Empty() {
		return nil
	}
	if r.rollups.healths, err = locationDeviceHealths(ctx, r.tx, r.key); err != nil {
		return err
	}
	r.rollups.places, err = locationPlaces(ctx, r.tx, r.key)
	return err
}

// Commit writes the alerts still waiting, removes those the service no
// longer has and the closed ones created before pruneBefore (unless it is
// zero), brings the rollups up to date, ends the claims of the alerts no
// longer open, records the facts of what it changed (or the baseline) and
// commits.
func (r *AlertRefresh) Commit(ctx context.Context, remove []string, pruneBefore time.Time) (domain.Change, error) {
	defer r.w.close()
	c := &r.w.change
	if err := r.w.flush(ctx); err != nil {
		return *c, err
	}
	for _, id := range remove {
		res, err := r.tx.ExecContext(ctx, `DELETE FROM alerts WHERE account_id = ? AND id = ?`, r.key, id)
		if err != nil {
			return *c, err
		}
		n, _ := res.RowsAffected()
		c.Removed += int(n)
	}
	if !pruneBefore.IsZero() {
		// overdue is 0 or 1: naming both lets alerts_status reach the old
		// closed alerts by creation date instead of scanning every closed one.
		res, err := r.tx.ExecContext(ctx, `DELETE FROM alerts WHERE account_id = ? AND status = 'CLOSED' AND overdue IN (0, 1) AND created < ?`,
			r.key, ms(pruneBefore))
		if err != nil {
			return *c, err
		}
		n, _ := res.RowsAffected()
		c.Removed += int(n)
		// The claims ended before then whose alerts are gone go with them.
		if _, err := r.tx.ExecContext(ctx, `DELETE FROM claims WHERE account_id = ?1 AND ended < ?2
			AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.account_id = ?1 AND a.id = claims.alert_id)`, r.key, ms(pruneBefore)); err != nil {
			return *c, err
		}
	}
	if !r.seen.IsZero() {
		at := ms(r.seen)
		if _, err := r.tx.ExecContext(ctx, `UPDATE alerts SET overdue_since = min(?, coalesce(resolved, ?))
			WHERE account_id = ? AND overdue = 1 AND overdue_since IS NULL`, at, at, r.key); err != nil {
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
		if err := recomputeRollups(ctx, r.tx, r.key, r.account, r.rollups); err != nil {
			return *c, err
		}
	}
	if err := endClaimsOfClosedAlerts(ctx, r.tx, r.key, r.seen, r.now()); err != nil {
		return *c, err
	}
	if err := r.recordFacts(ctx, remove); err != nil {
		return *c, err
	}
	return *c, r.tx.Commit()
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
	r.w.close()
	r.tx.Rollback()
}

// alertHashes reads the hashes of the given alerts, in chunks that stay
// within SQLite's limit on parameters.
func alertHashes(ctx context.Context, tx *sql.Tx, account int64, ids []any) (map[string]int64, error) {
	out := make(map[string]int64, len(ids))
	const chunk = 500
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		q := `SELECT id, hash FROM alerts WHERE account_id = ? AND id IN (` +
			strings.TrimSuffix(strings.Repeat("?,", len(part)), ",") + `)`
		rows, err := tx.QueryContext(ctx, q, append([]any{account}, part...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			var h int64
			if err := rows.Scan(&id, &h); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = h
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FindAlerts returns the alerts matching the filter: overdue first, then
// oldest first.
func (s *Store) FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	q, args := alertQuery(key, f, alertCols)
	q += " ORDER BY a.overdue DESC, a.created, a.rowid"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Alert
	for rows.Next() {
		a, err := scanAlert(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// alertCols are the columns scanAlert reads, of alerts as a.
const alertCols = `a.id, a.location_id, a.macs, a.status, a.type, a.created, a.resolved, a.resolution, a.overdue, a.refill_count, a.overdue_since`

func scanAlert(scan func(...any) error) (domain.Alert, error) {
	var a domain.Alert
	var macs, status, typ, resolution string
	var created int64
	var resolved sql.NullInt64
	var overdue int64
	var overdueSince sql.NullInt64
	if err := scan(&a.ID, &a.LocationID, &macs, &status, &typ, &created, &resolved, &resolution, &overdue, &a.RefillCount, &overdueSince); err != nil {
		return a, err
	}
	if macs != "" {
		a.MACs = strings.Split(macs, ";")
	}
	a.Status, a.Type, a.Resolution = domain.AlertStatus(status), domain.AlertType(typ), domain.Resolution(resolution)
	a.Created = fromMS(created)
	if resolved.Valid {
		a.Resolved = fromMS(resolved.Int64)
	}
	a.Overdue = overdue != 0
	if overdueSince.Valid {
		a.OverdueSince = fromMS(overdueSince.Int64)
	}
	return a, nil
}

// CountAlerts counts the alerts matching the filter.
func (s *Store) CountAlerts(ctx context.Context, f store.AlertFilter) (int, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return 0, err
	}
	q, args := alertQuery(key, f, "count(*)")
	var n int
	err = s.read.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, err
}

func alertQuery(key int64, f store.AlertFilter, cols string) (string, []any) {
	where := []string{"a.account_id = ?"}
	args := []any{key}
	if f.BuildingID != "" || f.FloorID != "" || f.RoomID != "" {
		where = append(where, "l.account_id = ?")
		args = append(args, key)
	}
	from := "alerts a"
	if f.BuildingID != "" || f.FloorID != "" || f.RoomID != "" {
		from = "alerts a JOIN locations l ON l.account_id = a.account_id AND l.id = a.location_id"
		if f.Status == domain.AlertOpen {
			// The place's locations first, then their open alerts through
			// the partial index: a floor reads its own alerts only.
			from = "locations l CROSS JOIN alerts a INDEXED BY alerts_open_location ON a.account_id = l.account_id AND a.location_id = l.id"
		}
	}
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if f.BuildingID != "" {
		add("l.building_id = ?", f.BuildingID)
	}
	if f.FloorID != "" {
		add("l.floor_id = ?", f.FloorID)
	}
	if f.RoomID != "" {
		add("l.room_id = ?", f.RoomID)
	}
	if f.LocationID != "" {
		add("a.location_id = ?", f.LocationID)
	}
	if f.AlertID != "" {
		add("a.id = ?", f.AlertID)
	}
	switch f.Status {
	case domain.AlertOpen:
		where = append(where, "a.status = 'OPEN'") // a literal, so that the partial index of open alerts applies
	case domain.AlertClosed:
		where = append(where, "a.status = 'CLOSED'")
	}
	if f.Type != "" {
		add("a.type = ?", string(f.Type))
	}
	if f.Resolution != "" {
		add("a.resolution = ?", string(f.Resolution))
	}
	dateCol := "a.created"
	if f.Status == domain.AlertClosed {
		dateCol = "a.resolved"
	}
	if !f.From.IsZero() {
		add(dateCol+" >= ?", ms(f.From))
	}
	if !f.To.IsZero() {
		add(dateCol+" < ?", ms(f.To))
	}
	if !f.OpenFrom.IsZero() {
		add("(a.status = 'OPEN' OR a.resolved >= ?)", ms(f.OpenFrom))
	}
	if !f.OpenTo.IsZero() {
		add("a.created < ?", ms(f.OpenTo))
	}
	return "SELECT " + cols + " FROM " + from + " WHERE " + strings.Join(where, " AND "), args
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
	inner, args := alertQuery(key, f, "a.location_id, a.type, a.refill_count")
	q := `SELECT b.name, fl.name, CASE WHEN x.type = 'battery_out' THEN 'battery' ELSE l.type END AS kind, sum(x.refill_count)
		FROM (` + inner + ` AND a.type IN ('consumable_out', 'battery_out') AND a.refill_count > 0) x
		JOIN locations l ON l.account_id = ? AND l.id = x.location_id
		JOIN floors fl ON fl.account_id = l.account_id AND fl.id = l.floor_id
		JOIN buildings b ON b.account_id = l.account_id AND b.id = l.building_id
		GROUP BY b.id, fl.id, kind
		ORDER BY b.name, fl.name, b.id, fl.id`
	rows, err := s.read.QueryContext(ctx, q, append(args, key)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.RefillTotal
	for rows.Next() {
		var t store.RefillTotal
		if err := rows.Scan(&t.Building, &t.Floor, &t.Kind, &t.Count); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// AlertSpans returns what trends count of the alerts matching the filter,
// oldest first. The strings of locations and types are read once each.
func (s *Store) AlertSpans(ctx context.Context, f store.AlertFilter) ([]store.AlertSpan, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	q, args := alertQuery(key, f, "a.location_id, a.type, a.created, a.resolved")
	q += " ORDER BY a.created, a.rowid"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.read.QueryContext(ctx, q, args...)
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
	var loc, typ sql.RawBytes
	var created int64
	var resolved sql.NullInt64
	for rows.Next() {
		if err := rows.Scan(&loc, &typ, &created, &resolved); err != nil {
			return nil, err
		}
		sp := store.AlertSpan{LocationID: intern(loc), Type: domain.AlertType(intern(typ)), Created: fromMS(created)}
		if resolved.Valid {
			sp.Resolved = fromMS(resolved.Int64)
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}
