package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// RoomCodes returns the current codes of the account's rooms of these ids
// that have one, by room id.
func (s *Store) RoomCodes(ctx context.Context, account string, rooms []string) (map[string]store.RoomCode, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	out := map[string]store.RoomCode{}
	var c store.RoomCode
	err = chunks(rooms, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return each(ctx, s.write, `SELECT room_id, token_hash, sealed, created FROM room_codes
			WHERE account_id = ? AND `+s.d.IsNever("replaced")+` AND room_id `+in, append([]any{acc}, args...),
			[]any{&c.RoomID, &c.Hash, &c.Sealed, s.d.ScanTime(&c.Created)}, func() error {
				c.Account = account
				out[c.RoomID] = c
				c = store.RoomCode{}
				return nil
			})
	})
	return out, err
}

// AddRoomCodes keeps each code as its room's current one, unless the room
// has one already.
func (s *Store) AddRoomCodes(ctx context.Context, account string, codes []store.RoomCode) error {
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	never := s.d.TimeOrNever(time.Time{})
	return s.inTx(ctx, func(tx Tx) error {
		for _, c := range codes {
			// The room's one current code is a unique index: a code made
			// meanwhile for the same room wins, and this one is dropped.
			if _, err := tx.Exec(ctx, `INSERT INTO room_codes (token_hash, account_id, room_id, sealed, created, replaced)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, c.Hash, acc, c.RoomID, c.Sealed, s.d.Time(c.Created), never); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReplaceRoomCode makes c its room's current code, keeping the one it
// replaces as replaced, and the newest store.RoomCodesReplacedKept
// replaced codes of the room.
func (s *Store) ReplaceRoomCode(ctx context.Context, account string, c store.RoomCode) error {
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE room_codes SET replaced = ? WHERE account_id = ? AND room_id = ? AND `+s.d.IsNever("replaced"),
			s.d.TimeOrNever(c.Created), acc, c.RoomID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO room_codes (token_hash, account_id, room_id, sealed, created, replaced) VALUES (?, ?, ?, ?, ?, ?)`,
			c.Hash, acc, c.RoomID, c.Sealed, s.d.Time(c.Created), s.d.TimeOrNever(time.Time{})); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM room_codes WHERE account_id = ? AND room_id = ? AND NOT `+s.d.IsNever("replaced")+`
			AND token_hash NOT IN (SELECT token_hash FROM room_codes WHERE account_id = ? AND room_id = ? AND NOT `+s.d.IsNever("replaced")+`
				ORDER BY replaced DESC, created DESC LIMIT ?)`, acc, c.RoomID, acc, c.RoomID, store.RoomCodesReplacedKept)
		return err
	})
}

// RoomCodeByHash finds the code whose token has the hash, as just
// written.
func (s *Store) RoomCodeByHash(ctx context.Context, hash []byte) (store.RoomCode, error) {
	var c store.RoomCode
	err := s.write.QueryRow(ctx, `SELECT a.id, r.room_id, r.token_hash, r.sealed, r.created, r.replaced
		FROM room_codes r JOIN accounts a ON a.key = r.account_id WHERE r.token_hash = ?`, hash).
		Scan(&c.Account, &c.RoomID, &c.Hash, &c.Sealed, s.d.ScanTime(&c.Created), s.d.ScanTime(&c.Replaced))
	return c, notFound(err, "room code", "by token")
}

// AddPresenceScan keeps a scan once per person, room and minute, and lets
// go of those too old or too many.
func (s *Store) AddPresenceScan(ctx context.Context, account string, sc domain.PresenceScan, max int) (bool, error) {
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return false, err
	}
	var n int64
	err = s.inTx(ctx, func(tx Tx) error {
		n, err = tx.Exec(ctx, `INSERT INTO presence_scans (account_id, room_id, person_id, name, at, minute) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, room_id, person_id, minute) DO NOTHING`,
			acc, sc.RoomID, sc.PersonID, sc.Name, s.d.Time(sc.At), s.d.Time(sc.At.Truncate(time.Minute)))
		if err != nil || n == 0 {
			return err
		}
		return s.trimVisitorTable(ctx, tx, "presence_scans", "at", acc, sc.At, max)
	})
	return n == 1, err
}

// trimVisitorTable deletes the account's rows of a table of visitors'
// records (presence_scans, visitor_reports) older than
// store.VisitorRecordsKept before now, and all but the max newest.
func (s *Store) trimVisitorTable(ctx context.Context, tx Tx, table, at string, acc int64, now time.Time, max int) error {
	if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE account_id = ? AND `+at+` < ?`, acc, s.d.Time(now.Add(-store.VisitorRecordsKept))); err != nil {
		return err
	}
	if max <= 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE account_id = ? AND id <
		(SELECT id FROM `+table+` WHERE account_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`, acc, acc, max-1)
	return err
}

// PresenceScans returns the account's scans made in [from, to), of one
// room or every room, oldest first.
func (s *Store) PresenceScans(ctx context.Context, account, room string, from, to time.Time, limit int) ([]domain.PresenceScan, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	q, args := `SELECT room_id, person_id, name, at FROM presence_scans WHERE account_id = ? AND at >= ? AND at < ?`,
		[]any{acc, s.d.Time(from), s.d.Time(to)}
	if room != "" {
		q, args = q+` AND room_id = ?`, append(args, room)
	}
	var out []domain.PresenceScan
	var sc domain.PresenceScan
	err = each(ctx, s.read, q+` ORDER BY at, id LIMIT ?`, append(args, max(limit, 1)),
		[]any{&sc.RoomID, &sc.PersonID, &sc.Name, s.d.ScanTime(&sc.At)}, func() error {
			out = append(out, sc)
			return nil
		})
	return out, err
}

// AddVisitorReport keeps r and returns its id, letting go of the reports
// too old or too many.
func (s *Store) AddVisitorReport(ctx context.Context, account string, r domain.VisitorReport, max int) (int64, error) {
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.inTx(ctx, func(tx Tx) error {
		if id, err = s.insertVisitorReport(ctx, tx, acc, r); err != nil {
			return err
		}
		if err := s.trimVisitorTable(ctx, tx, "visitor_reports", "created", acc, r.Created, max); err != nil {
			return err
		}
		if r.Kind == domain.VisitorRatingOnly || !r.Open() {
			return nil // a rating alone is no alert: nothing to notify of
		}
		return s.recordVisitorFact(ctx, tx, acc, account, id, r.Created)
	})
	return id, err
}

func (s *Store) insertVisitorReport(ctx context.Context, tx Tx, acc int64, r domain.VisitorReport) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO visitor_reports (account_id, room_id, kind, text, rating, created, closed, closed_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, acc, r.RoomID, string(r.Kind), r.Text, r.Rating, s.d.Time(r.Created),
		s.d.TimeOrNever(r.Closed), string(r.ClosedBy)).Scan(&id)
	return id, err
}

// AddVisitorFlood keeps a flood marker of the room, unless it has one
// made at or after since.
func (s *Store) AddVisitorFlood(ctx context.Context, account, room string, at, since time.Time, max int) (bool, error) {
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return false, err
	}
	added := false
	err = s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, acc); err != nil { // two replicas at once make one marker
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM visitor_reports WHERE account_id = ? AND room_id = ? AND kind = ? AND created >= ?`,
			acc, room, string(domain.VisitorFlood), s.d.Time(since)).Scan(&n); err != nil || n > 0 {
			return err
		}
		id, err := s.insertVisitorReport(ctx, tx, acc, domain.VisitorReport{RoomID: room, Kind: domain.VisitorFlood, Created: at})
		if err != nil {
			return err
		}
		added = true
		if err := s.trimVisitorTable(ctx, tx, "visitor_reports", "created", acc, at, max); err != nil {
			return err
		}
		return s.recordVisitorFact(ctx, tx, acc, account, id, at)
	})
	return added, err
}

// VisitorReports returns the account's reports that match the filter,
// oldest first.
func (s *Store) VisitorReports(ctx context.Context, account string, f store.VisitorReportFilter) ([]domain.VisitorReport, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	q, args := `SELECT id, room_id, kind, text, rating, created, closed, closed_by FROM visitor_reports
		WHERE account_id = ? AND created >= ?`, []any{acc, s.d.Time(f.From)}
	if !f.To.IsZero() {
		q, args = q+` AND created < ?`, append(args, s.d.Time(f.To))
	}
	if f.Room != "" {
		q, args = q+` AND room_id = ?`, append(args, f.Room)
	}
	if f.ID != 0 {
		q, args = q+` AND id = ?`, append(args, f.ID)
	}
	if f.Problems {
		q, args = q+` AND kind <> ?`, append(args, string(domain.VisitorRatingOnly))
	}
	if f.OpenOnly {
		q += ` AND ` + s.d.IsNever("closed")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = store.VisitorReportsRead
	}
	var out []domain.VisitorReport
	var r domain.VisitorReport
	var kind, closedBy string
	err = each(ctx, s.read, q+` ORDER BY created, id LIMIT ?`, append(args, limit),
		[]any{&r.ID, &r.RoomID, &kind, &r.Text, &r.Rating, s.d.ScanTime(&r.Created), s.d.ScanTime(&r.Closed), &closedBy}, func() error {
			r.Kind, r.ClosedBy = domain.VisitorKind(kind), domain.VisitorClosing(closedBy)
			out = append(out, r)
			return nil
		})
	return out, err
}

// VisitorRatings returns a room's ratings made in [from, to), by day in
// zone. The rows read are bounded by what AddVisitorReport keeps.
func (s *Store) VisitorRatings(ctx context.Context, account, room string, from, to time.Time, zone *time.Location) ([]domain.DailyRating, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	if zone == nil {
		zone = time.UTC
	}
	var out []domain.DailyRating
	sums := map[time.Time]int{}
	var at time.Time
	var rating int
	err = each(ctx, s.read, `SELECT created, rating FROM visitor_reports
		WHERE account_id = ? AND room_id = ? AND created >= ? AND created < ? AND rating > 0 ORDER BY created, id`,
		[]any{acc, room, s.d.Time(from), s.d.Time(to)}, []any{s.d.ScanTime(&at), &rating}, func() error {
			l := at.In(zone)
			day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, zone)
			if n := len(out); n == 0 || !out[n-1].Day.Equal(day) {
				out = append(out, domain.DailyRating{Day: day})
			}
			out[len(out)-1].Count++
			sums[day] += rating
			return nil
		})
	for i, d := range out {
		out[i].Average = float64(sums[d.Day]) / float64(d.Count)
	}
	return out, err
}

// RoomCodeSeals returns the sealed tokens of every room's current code,
// by account id and room id joined with a NUL (what they are sealed for).
func (s *Store) RoomCodeSeals(ctx context.Context) (map[string][]byte, error) {
	out := map[string][]byte{}
	var account, room string
	var sealed []byte
	err := each(ctx, s.read, `SELECT a.id, r.room_id, r.sealed FROM room_codes r JOIN accounts a ON a.key = r.account_id
		WHERE `+s.d.IsNever("r.replaced"), nil, []any{&account, &room, &sealed}, func() error {
		out[account+"\x00"+room] = sealed
		return nil
	})
	return out, err
}

// ResealRoomCodes replaces the sealed tokens of current codes, by account
// and room as RoomCodeSeals names them, where they are still the old
// ones, and counts those it replaced.
func (s *Store) ResealRoomCodes(ctx context.Context, byRoom map[string]store.Reseal) (int, error) {
	n := 0
	stmts := make([]Statement, 0, len(byRoom))
	for key, r := range byRoom {
		account, room, _ := strings.Cut(key, "\x00")
		stmts = append(stmts, Statement{SQL: `UPDATE room_codes SET sealed = ?
			WHERE account_id = (SELECT key FROM accounts WHERE id = ?) AND room_id = ? AND sealed = ?`,
			Args: []any{r.New, account, room, r.Old}, Check: func(c int64) error {
				n += int(c)
				return nil
			}})
	}
	if err := s.inTx(ctx, func(tx Tx) error { return tx.Batch(ctx, stmts) }); err != nil {
		return 0, err
	}
	return n, nil
}

// CloseVisitorReports closes the account's open reports of these ids at
// at, ends the claims on their alerts, and counts those it closed.
func (s *Store) CloseVisitorReports(ctx context.Context, account string, ids []int64, at time.Time, by domain.VisitorClosing) (int, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	n := 0
	err = s.inTx(ctx, func(tx Tx) error {
		for _, id := range ids {
			c, err := tx.Exec(ctx, `UPDATE visitor_reports SET closed = ?, closed_by = ? WHERE account_id = ? AND id = ? AND `+s.d.IsNever("closed"),
				s.d.Time(at), string(by), acc, id)
			if err != nil {
				return err
			}
			if c == 0 {
				continue
			}
			n++
			if err := s.endClaim(ctx, tx, acc, domain.VisitorAlertID(id), at, domain.ClaimClosed); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// closeVisitorReportsByRefill closes, in a refresh's transaction, the
// open reports that the refills of the closed alerts put right (see
// store.Visitors): those of the alert location's room, made before the
// refill, of a kind the location's dispenser puts right.
func (s *Store) closeVisitorReportsByRefill(ctx context.Context, tx Tx, acc int64, closed map[string]domain.Alert) error {
	for _, a := range closed {
		if !a.TellsOfRefill() || a.Resolved.IsZero() {
			continue
		}
		var room, typ string
		err := tx.QueryRow(ctx, `SELECT room_id, type FROM locations WHERE account_id = ? AND id = ?`, acc, a.LocationID).Scan(&room, &typ)
		if err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				continue // a location no longer in the layout
			}
			return err
		}
		var kinds []any
		for _, k := range domain.VisitorKinds {
			if slices.Contains(k.Dispensers(), domain.DeviceType(typ)) {
				kinds = append(kinds, string(k))
			}
		}
		if len(kinds) == 0 {
			continue
		}
		in := strings.TrimSuffix(strings.Repeat("?, ", len(kinds)), ", ")
		var ids []int64
		var id int64
		err = each(ctx, tx, `SELECT id FROM visitor_reports WHERE account_id = ? AND room_id = ? AND created <= ? AND kind IN (`+in+`) AND `+s.d.IsNever("closed"),
			append([]any{acc, room, s.d.Time(a.Resolved)}, kinds...), []any{&id}, func() error {
				ids = append(ids, id)
				return nil
			})
		if err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.Exec(ctx, `UPDATE visitor_reports SET closed = ?, closed_by = ? WHERE account_id = ? AND id = ?`,
				s.d.Time(a.Resolved), string(domain.ClosedService), acc, id); err != nil {
				return err
			}
			if err := s.endClaim(ctx, tx, acc, domain.VisitorAlertID(id), a.Resolved, domain.ClaimClosed); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordVisitorFact records, in the transaction that kept it, the fact of
// a visitor's report or flood marker (store.FactVisitorReport), for the
// rules of visitor.report.
func (s *Store) recordVisitorFact(ctx context.Context, tx Tx, acc int64, account string, id int64, at time.Time) error {
	return s.recordFacts(ctx, tx, acc, []store.Fact{{Account: account, Kind: store.FactVisitorReport, AlertID: domain.VisitorAlertID(id),
		AlertType: domain.AlertVisitor, At: at}})
}

// RatingsDuring returns the account's ratings made in [from, to), oldest
// first. The rows read are bounded by what AddVisitorReport keeps.
func (s *Store) RatingsDuring(ctx context.Context, account string, from, to time.Time) ([]domain.Rating, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var out []domain.Rating
	var r domain.Rating
	err = each(ctx, s.read, `SELECT room_id, created, rating FROM visitor_reports
		WHERE account_id = ? AND created >= ? AND created < ? AND rating > 0 ORDER BY created, id`,
		[]any{acc, s.d.Time(from), s.d.Time(to)}, []any{&r.RoomID, s.d.ScanTime(&r.At), &r.Rating}, func() error {
			out = append(out, r)
			return nil
		})
	return out, err
}
