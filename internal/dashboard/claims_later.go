package dashboard

import (
	"context"
	"errors"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// An "I'm on it" sent later — kept on a phone without signal, or from a
// push's action button — may no longer apply when it arrives: the alert
// closed meanwhile, or someone else said they were on it. Unlike a tap on
// a page just drawn, it must not take the alert over from whoever claimed
// it since; the person is told why it was not done instead.

// AlertClosedError refuses an "I'm on it" sent after the alert closed.
type AlertClosedError struct {
	At time.Time // when the service closed the alert
}

func (e AlertClosedError) Error() string {
	return "the alert was closed at " + e.At.UTC().Format(time.RFC3339)
}

// ClaimTakenError refuses an "I'm on it" sent after someone else said so.
type ClaimTakenError struct {
	Name string    // who is on it
	At   time.Time // since when
}

func (e ClaimTakenError) Error() string {
	return e.Name + " has been on it since " + e.At.UTC().Format(time.RFC3339)
}

// ClaimLater is ClaimOnce for an "I'm on it" sent later. seen is the
// claim the person saw when they acted, zero for none: an active claim of
// someone else made at another time is a ClaimTakenError; a closed alert
// an AlertClosedError, unless an action of the key was done already (an
// answer lost on the way: false, nothing done, no error).
func (s *Service) ClaimLater(ctx context.Context, account string, sc domain.BuildingScope, alertID string, in NewClaim, key string, seen time.Time) (bool, error) {
	if err := CheckActionKey(key); err != nil {
		return false, err
	}
	alerts, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), AlertID: alertID, Limit: 1})
	if err != nil {
		return false, err
	}
	if len(alerts) == 0 {
		return false, ErrNoOpenAlert
	}
	if a := alerts[0]; !a.Open() {
		done, err := s.ClaimOnce(ctx, account, sc, alertID, in, key)
		if errors.Is(err, ErrNoOpenAlert) {
			return false, AlertClosedError{At: a.Resolved}
		}
		return done, err
	}
	claims, err := s.store.ActiveClaims(ctx, account)
	if err != nil {
		return false, err
	}
	if c, ok := claims[alertID]; ok && (c.PersonID == "" || c.PersonID != in.PersonID) && !c.At.Equal(seen) {
		return false, ClaimTakenError{Name: c.Name, At: c.At}
	}
	return s.ClaimOnce(ctx, account, sc, alertID, in, key)
}
