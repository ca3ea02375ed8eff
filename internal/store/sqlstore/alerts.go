package sqlstore

import (
	"context"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/outbox"
	"washboard/internal/store/rollup"
)

var alertsTable = &Table{Name: "alerts", Key: "id", Cols: []string{
	"location_id", "macs", "status", "type", "created", "resolved", "resolution", "overdue", "refill_count",
}, InArrivalOrder: true, OnInsert: []string{"overdue_since"}}

// alertRow is the row of an alert read from the service at seen.
func (s *Store) alertRow(a domain.Alert, seen time.Time) Row {
	status := domain.AlertOpen
	if !a.Open() {
		status = domain.AlertClosed
	}
	return Row{Key: a.ID, Vals: []any{
		a.LocationID, s.d.List(a.MACs), string(status), string(a.Type), s.d.Time(a.Created), s.d.NullTime(a.Resolved),
		string(a.Resolution), s.d.Bool(a.Overdue), int64(a.RefillCount),
	}, OnInsert: []any{s.d.NullTime(overdueSince(a, seen))}}
}

// overdueSince is the overdue_since of an alert the cache does not hold
// yet, read from the service at seen: seen, or the alert's resolution if
// that was earlier, when the alert is overdue; the zero time (NULL) when
// it is not, or when seen is zero.
func overdueSince(a domain.Alert, seen time.Time) time.Time {
	if !a.Overdue || seen.IsZero() {
		return time.Time{}
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
	s       *Store
	tx      Tx
	w       *TableWriter
	account heldAccount
	empty   bool         // the account had no alerts: nothing to compare with
	seen    time.Time    // when the service was read; zero leaves overdue_since alone
	rollups rollupInputs // read once the refresh changes something
	// touched, when set, holds the states of the only locations the
	// refresh may change, as they were before it: Commit adjusts their
	// parts' rollups instead of counting the whole account again.
	touched map[string]rollup.State
	// changes are the alerts the refresh changes that may record facts;
	// nil when the account's alerts have no baseline yet: this refresh
	// makes it, unless it is of events, and records none.
	changes *outbox.Changes[domain.Alert]
	events  bool // the write is of the service's events (ApplyAlertEvents)
	// closed are the alerts the refresh leaves closed and changed, once
	// the alerts have a baseline: Commit measures them (store.ServiceLevels).
	closed map[string]domain.Alert
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
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM alerts WHERE account_id = ?)`, held.key).Scan(&has); err != nil {
		tx.Rollback()
		return nil, err
	}
	r := &AlertRefresh{s: s, tx: tx, w: newTableWriter(tx, alertsTable, held.key, nil), account: held, empty: !has}
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
	rows := make([]Row, len(alerts))
	var unknown []string
	for i, a := range alerts {
		rows[i] = r.s.alertRow(a, r.seen)
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
	if err := r.s.alertHashes(ctx, r.tx, r.account.key, unknown, r.w.existing); err != nil {
		return err
	}
	if err := r.readBefore(ctx, alerts, rows); err != nil {
		return err
	}
	if err := r.w.write(ctx, rows); err != nil {
		return err
	}
	r.noteChanges(alerts)
	r.noteClosed(alerts)
	return r.readRollupInputs(ctx)
}

// readBefore reads what the cache holds of the alerts listed, each the row
// of rows at its index, that may record facts and that the refresh is
// about to change, before it writes them.
func (r *AlertRefresh) readBefore(ctx context.Context, alerts []domain.Alert, rows []Row) error {
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
	held, err := r.s.alertsByID(ctx, r.tx, r.account.key, ids)
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

// noteClosed keeps the alerts listed that the refresh leaves closed and
// changed, for Commit to measure; none before the alerts' baseline.
func (r *AlertRefresh) noteClosed(alerts []domain.Alert) {
	if r.changes == nil {
		return
	}
	for _, a := range alerts {
		if a.Open() || !r.w.modified(a.ID) {
			continue
		}
		if r.closed == nil {
			r.closed = map[string]domain.Alert{}
		}
		r.closed[a.ID] = a
	}
}

// readRollupInputs reads where the locations are and the health of their
// devices once the refresh has changed something, for the rollups, while
// the next page is on its way: a refresh of alerts changes neither.
func (r *AlertRefresh) readRollupInputs(ctx context.Context) (err error) {
	if r.touched != nil || r.rollups.places != nil || r.w.change.Empty() {
		return nil
	}
	if r.rollups.healths, err = locationDeviceHealths(ctx, r.tx, r.account.key); err != nil {
		return err
	}
	r.rollups.places, err = locationPlaces(ctx, r.tx, r.account.key)
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
	gone := make([][]any, len(remove))
	for i, id := range remove {
		gone[i] = []any{id}
	}
	n, err := r.w.remove(ctx, gone)
	c.Removed += int(n)
	if err != nil {
		return *c, err
	}
	d, key := r.s.d, r.account.key
	if !pruneBefore.IsZero() {
		// Naming both values of overdue lets an index of alerts by status,
		// overdue and creation (SQLite's alerts_status) reach the old
		// closed alerts by creation date instead of reading every closed
		// one.
		n, err := r.tx.Exec(ctx, `DELETE FROM alerts WHERE account_id = ? AND status = 'CLOSED'
			AND overdue IN (`+d.BoolLiteral(false)+`, `+d.BoolLiteral(true)+`) AND created < ?`, key, d.Time(pruneBefore))
		c.Removed += int(n)
		if err != nil {
			return *c, err
		}
		// The claims ended before then whose alerts are gone go with them.
		if _, err := r.tx.Exec(ctx, `DELETE FROM claims WHERE account_id = ? AND ended < ?
			AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.account_id = claims.account_id AND a.id = claims.alert_id)`,
			key, d.Time(pruneBefore)); err != nil {
			return *c, err
		}
	}
	if !r.seen.IsZero() {
		// overdue as a literal, so that the partial index of the alerts
		// overdue without a time applies.
		seen := d.Time(r.seen)
		if _, err := r.tx.Exec(ctx, `UPDATE alerts SET overdue_since = CASE WHEN resolved < ? THEN resolved ELSE ? END
			WHERE account_id = ? AND overdue = `+d.BoolLiteral(true)+` AND overdue_since IS NULL`, seen, seen, key); err != nil {
			return *c, err
		}
	}
	if err := r.writeRollups(ctx); err != nil {
		return *c, err
	}
	if err := r.s.endClaimsOfClosedAlerts(ctx, r.tx, key, r.seen, r.s.Now()); err != nil {
		return *c, err
	}
	if err := r.recordFacts(ctx, remove); err != nil {
		return *c, err
	}
	if err := r.s.measureClosed(ctx, r.tx, r.account.key, r.closed, r.seen); err != nil {
		return *c, err
	}
	if err := r.s.closeVisitorReportsByRefill(ctx, r.tx, r.account.key, r.closed); err != nil {
		return *c, err
	}
	return *c, r.tx.Commit(ctx)
}

// writeRollups brings the rollups up to date, if the refresh changed
// anything: those of the locations it touched alone when it knows them.
func (r *AlertRefresh) writeRollups(ctx context.Context) error {
	switch {
	case r.w.change.Empty():
		return nil
	case r.touched != nil:
		ids := make([]string, 0, len(r.touched))
		for id := range r.touched {
			ids = append(ids, id)
		}
		after, err := r.s.readLocationStates(ctx, r.tx, r.account.key, ids)
		if err != nil {
			return err
		}
		return adjustRollups(ctx, r.tx, r.account, r.touched, after)
	}
	return recomputeRollups(ctx, r.tx, r.account, r.rollups)
}

// recordFacts records the facts of the alerts the refresh changed and did
// not remove; or, when the account's alerts have no baseline yet, makes
// it, unless the write is of events.
func (r *AlertRefresh) recordFacts(ctx context.Context, removed []string) error {
	now := r.s.Now()
	switch {
	case r.changes == nil && r.events:
		return nil
	case r.changes == nil:
		return r.s.setBaseline(ctx, r.tx, r.account.key, domain.ResourceAlerts, now)
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
		facts = append(facts, outbox.AlertFacts(r.account.id, before, a, seen)...)
	}
	return r.s.recordFacts(ctx, r.tx, r.account.key, facts)
}

// Rollback abandons the refresh; after Commit it does nothing.
func (r *AlertRefresh) Rollback() {
	r.w.close()
	r.tx.Rollback()
}

// alertHashes adds the hashes of the given alerts that the cache holds to
// into, reading them in chunks.
func (s *Store) alertHashes(ctx context.Context, tx Tx, account int64, ids []string, into map[string]int64) error {
	var id string
	var h int64
	return chunks(ids, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return each(ctx, tx, `SELECT id, hash FROM alerts WHERE account_id = ? AND id `+in, append([]any{account}, args...),
			[]any{&id, &h}, func() error {
				into[id] = h
				return nil
			})
	})
}

// alertsByID reads the given alerts of an account within a transaction.
func (s *Store) alertsByID(ctx context.Context, tx Tx, account int64, ids []string) (map[string]domain.Alert, error) {
	out := make(map[string]domain.Alert, len(ids))
	err := chunks(ids, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return s.alerts(ctx, tx, `SELECT `+alertCols+` FROM alerts a WHERE a.account_id = ? AND a.id `+in, append([]any{account}, args...),
			func(a domain.Alert) { out[a.ID] = a })
	})
	return out, err
}

// FindAlerts returns the alerts matching the filter: overdue first, then
// oldest first, then in the order the cache first listed them.
func (s *Store) FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	q, args := s.alertQuery(key, f, alertCols)
	q += " ORDER BY a.overdue DESC, a.created, " + s.d.Arrival("a")
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	var out []domain.Alert
	err = s.alerts(ctx, s.read, q, args, func(a domain.Alert) { out = append(out, a) })
	return out, err
}

// alertCols are the columns alerts reads, of alerts as a.
const alertCols = `a.id, a.location_id, a.macs, a.status, a.type, a.created, a.resolved, a.resolution, a.overdue, a.refill_count, a.overdue_since`

// alerts runs a query of alertCols and passes each alert to f.
func (s *Store) alerts(ctx context.Context, q Querier, query string, args []any, f func(domain.Alert)) error {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var a domain.Alert
		var status, typ, resolution string
		if err := rows.Scan(&a.ID, &a.LocationID, s.d.ScanList(&a.MACs), &status, &typ, s.d.ScanTime(&a.Created), s.d.ScanTime(&a.Resolved),
			&resolution, &a.Overdue, &a.RefillCount, s.d.ScanTime(&a.OverdueSince)); err != nil {
			return err
		}
		if len(a.MACs) == 0 {
			a.MACs = nil
		}
		a.Status, a.Type, a.Resolution = domain.AlertStatus(status), domain.AlertType(typ), domain.Resolution(resolution)
		f(a)
	}
	return rows.Err()
}

// CountAlerts counts the alerts matching the filter.
func (s *Store) CountAlerts(ctx context.Context, f store.AlertFilter) (int, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return 0, err
	}
	q, args := s.alertQuery(key, f, "count(*)")
	var n int
	err = s.read.QueryRow(ctx, q, args...).Scan(&n)
	return n, err
}

// alertQuery is the query of the columns cols of the account's alerts
// (as a) that match the filter, and its arguments.
func (s *Store) alertQuery(key int64, f store.AlertFilter, cols string) (string, []any) {
	where := []string{"a.account_id = ?"}
	args := []any{key}
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	from := "alerts a"
	if f.BuildingID != "" || f.FloorID != "" || f.RoomID != "" || f.Buildings != nil {
		add("l.account_id = ?", key)
		from = "alerts a JOIN locations l ON l.account_id = a.account_id AND l.id = a.location_id"
		if f.Status == domain.AlertOpen {
			// The place's locations first, then their open alerts through
			// the partial index: a floor reads its own alerts only.
			from = "locations l " + s.d.JoinInOrder() + " alerts a" + s.d.IndexedBy("alerts_open_location") +
				" ON a.account_id = l.account_id AND a.location_id = l.id"
		}
	}
	if f.BuildingID != "" {
		add("l.building_id = ?", f.BuildingID)
	}
	if in, inArgs := s.inBuildings("l.building_id", f.Buildings); in != "" {
		where = append(where, strings.TrimPrefix(in, " AND "))
		args = append(args, inArgs...)
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
		add(dateCol+" >= ?", s.d.Time(f.From))
	}
	if !f.To.IsZero() {
		add(dateCol+" < ?", s.d.Time(f.To))
	}
	if !f.OpenFrom.IsZero() {
		add("(a.status = 'OPEN' OR a.resolved >= ?)", s.d.Time(f.OpenFrom))
	}
	if !f.OpenTo.IsZero() {
		add("a.created < ?", s.d.Time(f.OpenTo))
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
	inner, args := s.alertQuery(key, f, "a.location_id, a.type, a.refill_count")
	var out []store.RefillTotal
	var t store.RefillTotal
	err = each(ctx, s.read, `SELECT b.name, fl.name, CASE WHEN x.type = 'battery_out' THEN 'battery' ELSE l.type END AS kind, sum(x.refill_count)
		FROM (`+inner+` AND a.type IN ('consumable_out', 'battery_out') AND a.refill_count > 0) x
		JOIN locations l ON l.account_id = ? AND l.id = x.location_id
		JOIN floors fl ON fl.account_id = l.account_id AND fl.id = l.floor_id
		JOIN buildings b ON b.account_id = l.account_id AND b.id = l.building_id
		GROUP BY b.id, fl.id, b.name, fl.name, kind
		ORDER BY b.name, fl.name, b.id, fl.id, kind`, append(args, key), []any{&t.Building, &t.Floor, &t.Kind, &t.Count}, func() error {
		out = append(out, t)
		return nil
	})
	return out, err
}

// AlertSpans returns what trends count of the alerts matching the filter,
// oldest first, then in the order the cache first listed them. The
// strings of locations and types are read once each.
func (s *Store) AlertSpans(ctx context.Context, f store.AlertFilter) ([]store.AlertSpan, error) {
	key, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	q, args := s.alertQuery(key, f, "a.location_id, a.type, a.created, a.resolved")
	q += " ORDER BY a.created, " + s.d.Arrival("a")
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
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
	var loc, typ []byte
	var created, resolved time.Time
	err = each(ctx, s.read, q, args, []any{s.d.ScanRaw(&loc), s.d.ScanRaw(&typ), s.d.ScanTime(&created), s.d.ScanTime(&resolved)}, func() error {
		out = append(out, store.AlertSpan{LocationID: intern(loc), Type: domain.AlertType(intern(typ)), Created: created, Resolved: resolved})
		return nil
	})
	return out, err
}

// AlertOfAnotherAccount reports whether the cache holds an alert of this
// id under another account than this one. Alert ids are unique across
// accounts; location ids need not be.
func (s *Store) AlertOfAnotherAccount(ctx context.Context, account, alertID string) (bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	// By the other accounts, each through its index of alerts by id.
	var found bool
	err = s.read.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM alerts WHERE account_id IN (SELECT key FROM accounts WHERE key != ?) AND id = ?)`,
		key, alertID).Scan(&found)
	return found, err
}

// ApplyAlertEvents writes what the service's events say of alerts, in one
// transaction with the rollups: each alert in its later state of what
// the cache holds and what the event brings (domain.Later), so that an
// event that comes late or twice changes nothing. seen is when the events
// arrived, for the time an alert first counted as overdue.
func (s *Store) ApplyAlertEvents(ctx context.Context, account string, alerts []domain.Alert, seen time.Time) (domain.Change, error) {
	r, err := s.beginAlerts(ctx, account)
	if err != nil {
		return domain.Change{}, err
	}
	defer r.Rollback()
	r.SeenAt(seen)
	r.events = true
	ids := make([]string, 0, len(alerts))
	for _, a := range alerts {
		ids = append(ids, a.ID)
	}
	cached, err := s.alertsByID(ctx, r.tx, r.account.key, ids)
	if err != nil {
		return domain.Change{}, err
	}
	var write []domain.Alert
	var locations []string
	seenLoc := map[string]bool{}
	for _, a := range alerts {
		if c, ok := cached[a.ID]; ok {
			later, changed := domain.Later(c, a)
			if !changed {
				continue
			}
			a = later
		}
		cached[a.ID] = a
		write = append(write, a)
		if !seenLoc[a.LocationID] {
			seenLoc[a.LocationID] = true
			locations = append(locations, a.LocationID)
		}
	}
	if len(write) == 0 {
		return domain.Change{}, nil
	}
	// Only these locations' counts can move: their parts' rollups are
	// adjusted, not counted again.
	if r.touched, err = s.readLocationStates(ctx, r.tx, r.account.key, locations); err != nil {
		return domain.Change{}, err
	}
	if err := r.Write(ctx, write); err != nil {
		return domain.Change{}, err
	}
	return r.Commit(ctx, nil, time.Time{})
}
