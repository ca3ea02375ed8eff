package sqlstore

import (
	"context"
	"time"

	"washboard/internal/domain"
)

// claimsLimit is the most claims ClaimsDuring returns when its caller
// sets no limit (limit <= 0): a report of one span of time reads a
// bounded number, never the whole history.
const claimsLimit = 1000

// ClaimAlert records c as the active claim of the account's alert, in one
// transaction, in the name of c.PersonID (c.Name kept as the name it had,
// shown should the person be gone) or, without one, of c.Name: the alert must be open in the cache (domain.ErrNotFound
// otherwise), and the claim active before, if any, ends as handed over at
// c.At. No claim ends before it was made. Lengths are the caller's to
// check; the table holds what it is given.
//
// The alert's row stays locked until the claim commits (where the engine
// locks rows; elsewhere the one writer waits for a refresh under way): a
// refresh that closes or removes the alert meanwhile waits, then ends the
// claim; one that did first leaves no open alert to claim; and two claims
// of one alert, from any replicas, follow one another.
func (s *Store) ClaimAlert(ctx context.Context, account string, c domain.Claim) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error { return s.claimAlert(ctx, tx, key, c) })
}

// claimAlert is ClaimAlert within a transaction.
func (s *Store) claimAlert(ctx context.Context, tx Tx, key int64, c domain.Claim) error {
	var one int
	var err error
	if report, ok := domain.VisitorReportID(c.AlertID); ok {
		err = tx.QueryRow(ctx, `SELECT 1 FROM visitor_reports WHERE account_id = ? AND id = ? AND kind <> ? AND `+s.d.IsNever("closed")+s.d.ForUpdate(),
			key, report, string(domain.VisitorRatingOnly)).Scan(&one)
	} else {
		err = tx.QueryRow(ctx, `SELECT 1 FROM alerts WHERE account_id = ? AND id = ? AND status = 'OPEN'`+s.d.ForUpdate(),
			key, c.AlertID).Scan(&one)
	}
	if err != nil {
		return notFound(err, "open alert", c.AlertID)
	}
	if err := s.endClaim(ctx, tx, key, c.AlertID, c.At, domain.ClaimHanded); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO claims (account_id, alert_id, person_id, name, note, claimed) VALUES (?, ?, ?, ?, ?, ?)`,
		key, c.AlertID, c.PersonID, c.Name, c.Note, s.d.Time(c.At))
	return err
}

// endClaim ends the active claim of the account's alert, if there is one,
// at at, or when it was made if that was later.
func (s *Store) endClaim(ctx context.Context, q Querier, account int64, alertID string, at time.Time, by domain.ClaimEnd) error {
	t := s.d.Time(at)
	_, err := q.Exec(ctx, `UPDATE claims SET ended = CASE WHEN claimed > ? THEN claimed ELSE ? END, ended_by = ?
		WHERE account_id = ? AND alert_id = ? AND ended IS NULL`, t, t, string(by), account, alertID)
	return err
}

// ReleaseClaim ends the active claim of the account's alert, if there is
// one, as released at at (or when it was made, if that was later).
func (s *Store) ReleaseClaim(ctx context.Context, account, alertID string, at time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.endClaim(ctx, s.write, key, alertID, at, domain.ClaimReleased)
}

// ActiveClaims returns the account's active claims by alert id: one per
// open alert at most.
func (s *Store) ActiveClaims(ctx context.Context, account string) (map[string]domain.Claim, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	out := map[string]domain.Claim{}
	err = s.claims(ctx, `SELECT `+claimCols+` FROM `+claimsOfPeople+` WHERE c.account_id = ? AND c.ended IS NULL`, []any{key}, func(c domain.Claim) {
		out[c.AlertID] = c
	})
	return out, err
}

// ClaimsDuring returns the account's claims active at any moment of
// [from, to): made before to, and active or ended after from. They come
// in the order they were made, then by alert id, at most limit of them,
// or claimsLimit when limit <= 0. A claim that ended the moment it was
// made was never active. Buildings, when not nil, keeps the claims of
// alerts at locations in these buildings only.
func (s *Store) ClaimsDuring(ctx context.Context, account string, from, to time.Time, buildings []string, limit int) ([]domain.Claim, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = claimsLimit
	}
	// The active claims, and those ended after from, each read from an
	// index: a recent span reads recent claims, not the whole history.
	var out []domain.Claim
	add := func(c domain.Claim) { out = append(out, c) }
	args := []any{key, s.d.Time(to), key, s.d.Time(from), s.d.Time(to)}
	if buildings == nil {
		err = s.claims(ctx, `SELECT `+claimCols+` FROM `+claimsOfPeople+` WHERE c.account_id = ? AND c.ended IS NULL AND c.claimed < ?
			UNION ALL
			SELECT `+claimCols+` FROM `+claimsOfPeople+` WHERE c.account_id = ? AND c.ended > ? AND c.claimed < ?
			ORDER BY claimed, alert_id, id LIMIT ?`, append(args, limit), add)
		return out, err
	}
	// Those of the alerts of locations in the buildings, and of the
	// visitors' reports of their rooms (whose alert ids are "v-" and the
	// report's id).
	in, inArgs := s.inBuildings("l.building_id", buildings)
	inRooms, _ := s.inBuildings("r.building_id", buildings)
	args = append(append(append(args, key), inArgs...), key)
	args = append(append(args, inArgs...), limit)
	err = s.claims(ctx, `SELECT `+claimCols+` FROM (
			SELECT * FROM claims WHERE account_id = ? AND ended IS NULL AND claimed < ?
			UNION ALL
			SELECT * FROM claims WHERE account_id = ? AND ended > ? AND claimed < ?) c
		LEFT JOIN people p ON p.id = c.person_id
		WHERE c.alert_id IN (SELECT a.id FROM alerts a JOIN locations l ON l.account_id = a.account_id AND l.id = a.location_id
			WHERE a.account_id = ?`+in+`)
		OR c.alert_id IN (SELECT '`+domain.VisitorAlertPrefix+`' || CAST(v.id AS TEXT) FROM visitor_reports v
			JOIN rooms r ON r.account_id = v.account_id AND r.id = v.room_id
			WHERE v.account_id = ?`+inRooms+`)
		ORDER BY c.claimed, c.alert_id, c.id LIMIT ?`, args, add)
	return out, err
}

// claimCols are the columns claims reads, of claimsOfPeople: a claim's
// name is its person's as it is now, or the one it keeps when it has no
// person or the person is gone. The claim's id orders claims made at the
// same time on the same alert.
const claimCols = `c.alert_id AS alert_id, c.person_id, coalesce(p.name, c.name) AS name, c.note, c.claimed AS claimed, c.ended,
	coalesce(c.ended_by, '') AS ended_by, c.id AS id`

// claimsOfPeople are the claims (c) with their people (p), if any.
const claimsOfPeople = `claims c LEFT JOIN people p ON p.id = c.person_id`

// claims runs a query of claimCols and passes each claim to f.
func (s *Store) claims(ctx context.Context, q string, args []any, f func(domain.Claim)) error {
	var c domain.Claim
	var endedBy string
	var id int64
	return each(ctx, s.read, q, args, []any{&c.AlertID, &c.PersonID, &c.Name, &c.Note, s.d.ScanTime(&c.At), s.d.ScanTime(&c.Ended), &endedBy, &id},
		func() error {
			c.EndedBy = domain.ClaimEnd(endedBy)
			f(c)
			return nil
		})
}

// endClaimsOfClosedAlerts ends, as closed, the account's active claims
// whose alert the cache no longer holds open, within the transaction of
// the refresh that closed or removed it, in one statement that reads the
// active claims only. They end at seen, when the refresh saw the service;
// a refresh that does not say (an AlertWrite without SeenAt) ends them
// when the alert was resolved, if the cache still holds it, or else at
// now. No claim ends before it was made.
func (s *Store) endClaimsOfClosedAlerts(ctx context.Context, tx Tx, account int64, seen, now time.Time) error {
	// The claims on visitors' reports (domain.VisitorAlert) end when
	// their reports close (CloseVisitorReports), not here.
	const notOpen = `WHERE account_id = ? AND ended IS NULL AND alert_id NOT LIKE 'v-%'
		AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.account_id = claims.account_id AND a.id = claims.alert_id AND a.status = 'OPEN')`
	if !seen.IsZero() {
		at := s.d.Time(seen)
		_, err := tx.Exec(ctx, `UPDATE claims SET ended_by = ?, ended = CASE WHEN claimed > ? THEN claimed ELSE ? END `+notOpen,
			string(domain.ClaimClosed), at, at, account)
		return err
	}
	// When the alert was resolved, if the cache still holds it; or now.
	const end = `coalesce((SELECT a.resolved FROM alerts a WHERE a.account_id = claims.account_id AND a.id = claims.alert_id), ?)`
	t := s.d.Time(now)
	_, err := tx.Exec(ctx, `UPDATE claims SET ended_by = ?, ended = CASE WHEN claimed > `+end+` THEN claimed ELSE `+end+` END `+notOpen,
		string(domain.ClaimClosed), t, t, account)
	return err
}
