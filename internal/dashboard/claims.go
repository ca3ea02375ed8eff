package dashboard

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// ErrNoOpenAlert says that the account has no open alert of the id given:
// it closed meanwhile, or never was.
var ErrNoOpenAlert = errors.New("this alert is not open")

// ClaimError is a claim's name or note that cannot be kept, in words.
type ClaimError struct {
	Field, Reason string
}

func (e ClaimError) Error() string { return e.Field + " " + e.Reason }

// The fields of a claim, and why one cannot be kept, as ClaimError says
// them: a page may say them in its reader's language.
const (
	ClaimName         = "The name"
	ClaimNote         = "The note"
	ClaimNeeded       = "is needed: say who is on it"
	ClaimNotText      = "is not valid text"
	ClaimTooLong      = "is longer than %d characters"
	ClaimControlChars = "holds control characters"
	// The fields of "My work"'s actions, and their own reasons.
	ActionKey        = "The action's key"
	DoneOutcome      = "What was done"
	DoneReason       = "The reason"
	ActionKeyBad     = "must be 16 to 64 letters, digits, '-' or '_': reload the page and try again"
	DoneOutcomeOther = "is not one of the choices: choose refilled, batteries changed, fault cleared or could not fix"
	DoneReasonNeeded = "is needed when it could not be fixed: say why, in a few words"
)

// cleanClaimText trims s and checks it against the field's limit.
func cleanClaimText(field, s string, required bool, limit int) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case required && s == "":
		return "", ClaimError{field, ClaimNeeded}
	case !utf8.ValidString(s):
		return "", ClaimError{field, ClaimNotText}
	case utf8.RuneCountInString(s) > limit:
		return "", ClaimError{field, fmt.Sprintf(ClaimTooLong, limit)}
	case strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }) >= 0:
		return "", ClaimError{field, ClaimControlChars}
	}
	return s, nil
}

// NewClaim is who is on an alert, and their note.
type NewClaim struct {
	// PersonID is the person the claim is in the name of, Name their
	// name; PersonID is "" for a name typed by a session of no person.
	PersonID, Name string
	Note           string
}

// Claim records that someone is on the account's open alert, with an
// optional note, handing it over from whoever was on it. It announces
// the change, so that pages and screens show it at once. Whether the
// person may be on it is the caller's to check (people.Claimant).
func (s *Service) Claim(ctx context.Context, account string, sc domain.BuildingScope, alertID string, in NewClaim) (domain.Claim, error) {
	c, err := s.newClaim(ctx, account, sc, alertID, in)
	if err != nil {
		return c, err
	}
	if err := s.store.ClaimAlert(ctx, account, c); err != nil {
		return c, claimFailed(err)
	}
	s.sync.Changed(account, domain.ResourceAlerts)
	return c, nil
}

// ClaimOnce is Claim under an action's idempotency key (see CheckActionKey):
// false, and nothing done, when an action of the key was done already,
// whether or not the alert is still open.
func (s *Service) ClaimOnce(ctx context.Context, account string, sc domain.BuildingScope, alertID string, in NewClaim, key string) (bool, error) {
	if err := CheckActionKey(key); err != nil {
		return false, err
	}
	c, err := s.newClaim(ctx, account, sc, alertID, in)
	if errors.Is(err, ErrNoOpenAlert) {
		// Sent again after the alert closed, the key says whether it was
		// done: the store answers a key it has, and fails a claim of a
		// closed alert, keeping no key. An alert the scope does not see
		// stays unknown.
		if err := s.seesAlert(ctx, account, sc, alertID); err != nil {
			return false, err
		}
		c, err = domain.Claim{AlertID: alertID, PersonID: in.PersonID, Name: in.Name, At: s.clock.Now()}, nil
	}
	if err != nil {
		return false, err
	}
	done, err := s.store.ClaimAlertOnce(ctx, account, c, key)
	if err != nil {
		return false, claimFailed(err)
	}
	if done {
		s.sync.Changed(account, domain.ResourceAlerts)
	}
	return done, nil
}

// newClaim checks a claim of the account's alert as the scope sees it.
func (s *Service) newClaim(ctx context.Context, account string, sc domain.BuildingScope, alertID string, in NewClaim) (domain.Claim, error) {
	var c domain.Claim
	var err error
	if sc.Limited() {
		if err := s.seesOpenAlert(ctx, account, sc, alertID); err != nil {
			return c, err
		}
	}
	if c.Name, err = cleanClaimText(ClaimName, in.Name, true, domain.MaxClaimName); err != nil {
		return c, err
	}
	if c.Note, err = cleanClaimText(ClaimNote, in.Note, false, domain.MaxClaimNote); err != nil {
		return c, err
	}
	c.AlertID, c.PersonID, c.At = alertID, in.PersonID, s.clock.Now()
	return c, nil
}

// claimFailed is the error of a claim the store refused.
func claimFailed(err error) error {
	if errors.Is(err, domain.ErrNotFound) {
		return ErrNoOpenAlert
	}
	return err
}

// Release ends the claim on the account's open alert, if there is one.
// ErrNoOpenAlert when the account has no open alert of the id: another
// account's alert is not found, as it is not on the claim page.
func (s *Service) Release(ctx context.Context, account string, sc domain.BuildingScope, alertID string) error {
	if err := s.seesOpenAlert(ctx, account, sc, alertID); err != nil {
		return err
	}
	if err := s.store.ReleaseClaim(ctx, account, alertID, s.clock.Now()); err != nil {
		return err
	}
	s.sync.Changed(account, domain.ResourceAlerts)
	return nil
}

// ClaimView is what the claim page shows of an open alert: the alert,
// where it is, and who is on it.
type ClaimView struct {
	Alert    domain.Alert
	Location domain.Location
	Places   Places
	Claim    domain.Claim // zero when nobody is on it
	// Done is the newest "done" report of the alert, zero when none;
	// Contradicted says that the alert is still open long after it
	// (Service.Contradicted).
	Done         domain.DoneReport
	Contradicted bool
	// Level is the alert measured against its targets; ok false when it
	// has none.
	Level   AlertLevel
	LevelOK bool
}

// Building is the building the alert is in; zero when the layout does
// not place its location.
func (v ClaimView) Building() domain.Building {
	b, _, _, _ := v.Places.Path(v.Location.RoomID)
	if v.Alert.Visitor != nil {
		b, _, _, _ = v.Places.Path(v.Alert.Visitor.RoomID)
	}
	return b
}

// ClaimOf reads an open alert of the account for the claim page.
// ErrNoOpenAlert when it is not open.
func (s *Service) ClaimOf(ctx context.Context, account string, sc domain.BuildingScope, alertID string) (ClaimView, error) {
	var v ClaimView
	f := store.AlertFilter{Account: account, Buildings: sc.IDs(), AlertID: alertID, Status: domain.AlertOpen, Limit: 1}
	var alerts []domain.Alert
	var located Located
	var err error
	if _, ok := domain.VisitorReportID(alertID); ok {
		var places Places
		if alerts, places, err = s.visitorAlerts(ctx, sc, f); err != nil {
			return v, err
		}
		located = withVisitorAlerts(Located{}, alerts, places, 1)
	} else if alerts, err = s.store.FindAlerts(ctx, f); err != nil {
		return v, err
	}
	if len(alerts) == 0 {
		return v, ErrNoOpenAlert
	}
	if alerts[0].Visitor == nil {
		if located, err = s.locate(ctx, account, alerts); err != nil {
			return v, err
		}
	}
	v.Alert, v.Places = alerts[0], located.Places
	v.Location = located.Locations[v.Alert.LocationID]
	claims, err := s.store.ActiveClaims(ctx, account)
	if err != nil {
		return v, err
	}
	v.Claim = claims[alertID]
	done, err := s.store.LastDoneReports(ctx, account, []string{alertID})
	if err != nil {
		return v, err
	}
	v.Done = done[alertID]
	v.Contradicted = s.Contradicted(v.Done, v.Alert)
	levels, err := s.alertLevels(ctx, account, located, s.clock.Now())
	v.Level, v.LevelOK = levels[alertID]
	return v, err
}
