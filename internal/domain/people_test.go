package domain

import (
	"errors"
	"testing"
	"time"
)

// Roles read and print as their words, in order, and a word that is no
// role is named in the error.
func TestRolesAreWords(t *testing.T) {
	for i, r := range Roles() {
		got, err := ParseRole(" " + r.String() + " ")
		if err != nil || got != r {
			t.Errorf("ParseRole(%q) = %v, %v", r.String(), got, err)
		}
		if i > 0 && r <= Roles()[i-1] {
			t.Errorf("%s is not above %s", r, Roles()[i-1])
		}
	}
	if r, err := ParseRole("ADMIN"); err != nil || r != Admin {
		t.Errorf("ParseRole(ADMIN) = %v, %v", r, err)
	}
	for _, s := range []string{"", "boss", "owners"} {
		if _, err := ParseRole(s); err == nil || err.Error() != `"`+s+`" is not a role: choose viewer, staff, supervisor, admin or owner` {
			t.Errorf("ParseRole(%q): %v", s, err)
		}
	}
}

// The confirmation of a disconnection says how much goes, in words.
func TestAccountSummarySaysHowMuchGoes(t *testing.T) {
	for _, c := range []struct {
		sum  AccountSummary
		want string
	}{
		{AccountSummary{People: 3, Screens: 12, Webhooks: 2, Alerts: 41000}, "3 people, 12 screens, 2 webhooks, 41,000 alert rows"},
		{AccountSummary{People: 1, Screens: 1, Notifications: true, Alerts: 1, AuditEntries: 1234567},
			"1 person, 1 screen, its notification channels and rules, 1 alert row, 1,234,567 audit log entries"},
		{AccountSummary{}, "nothing"},
	} {
		if got := c.sum.String(); got != c.want {
			t.Errorf("%+v says %q; want %q", c.sum, got, c.want)
		}
	}
}

// An invitation says why it can no longer be accepted, in its own words.
func TestInvitationProblems(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	open := Invitation{Expires: at.Add(time.Hour)}
	for _, c := range []struct {
		inv  Invitation
		want error
	}{
		{open, nil},
		{Invitation{Expires: at}, ErrInvitationExpired},
		{Invitation{Expires: at.Add(time.Hour), Used: at}, ErrInvitationUsed},
		{Invitation{Expires: at.Add(time.Hour), Withdrawn: at}, ErrInvitationWithdrawn},
	} {
		if err := c.inv.Problem(at); !errors.Is(err, c.want) || (err == nil) != c.inv.Open(at) {
			t.Errorf("%+v: %v; want %v", c.inv, err, c.want)
		}
	}
	if ErrInvitationUsed.Error() == ErrInvitationExpired.Error() || errors.Is(ErrInvitationUsed, ErrInvitationExpired) {
		t.Error("a used invitation and an expired one say the same")
	}
}

// A sign-in link asked for too soon says how long to wait, in whole
// minutes, and is a limit.
func TestTooSoonSaysWhenToAskAgain(t *testing.T) {
	for _, c := range []struct {
		err  *TooSoonError
		want string
	}{
		{&TooSoonError{Address: true, Wait: 9*time.Minute + time.Second}, "A link was sent to this address a moment ago: use it, or ask again in 10 minutes."},
		{&TooSoonError{Address: true, Wait: time.Second}, "A link was sent to this address a moment ago: use it, or ask again in 1 minute."},
		{&TooSoonError{Wait: 40 * time.Minute}, "Washboard has sent as many sign-in links as it may for now: ask again in 40 minutes."},
	} {
		if got := c.err.Error(); got != c.want || !errors.Is(c.err, ErrLimit) {
			t.Errorf("%+v says %q; want %q", c.err, got, c.want)
		}
	}
}
