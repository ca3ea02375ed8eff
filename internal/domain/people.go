package domain

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Role is what a person may do in an account. Each role includes the ones
// below it: viewer < staff < supervisor < admin < owner.
type Role int8

// The roles, lowest first. NoRole is no membership at all.
const (
	NoRole     Role = iota
	Viewer          // sees everything of the account, changes nothing
	Staff           // says "I'm on it", marks work done
	Supervisor      // claims for others, shift reports and their settings, screens, enrols devices
	Admin           // people, notifications, webhooks
	Owner           // the account's credentials, disconnecting it, owners
)

var roleNames = [...]string{"", "viewer", "staff", "supervisor", "admin", "owner"}

// String is the role's word: "viewer", ..., "owner"; "" for NoRole.
func (r Role) String() string {
	if r < NoRole || int(r) >= len(roleNames) {
		return fmt.Sprintf("role(%d)", int(r))
	}
	return roleNames[r]
}

// Roles are the roles a membership may have, lowest first.
func Roles() []Role { return []Role{Viewer, Staff, Supervisor, Admin, Owner} }

// ParseRole reads a role's word, in any case; its error names the word
// and the roles there are.
func ParseRole(s string) (Role, error) {
	w := strings.ToLower(strings.TrimSpace(s))
	for _, r := range Roles() {
		if r.String() == w {
			return r, nil
		}
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return NoRole, fmt.Errorf("%q is not a role: choose viewer, staff, supervisor, admin or owner", s)
}

// Person is someone who signs in to Washboard. A person keeps no password:
// they sign in with a passkey, a one-time link sent by e-mail, single
// sign-on, an enrolled device, or the service's credentials.
type Person struct {
	ID    string
	Name  string // shown to others; required, at most MaxPersonName characters
	Email string // "" when none; unique, whatever its case
	// Issuer and Subject are the person's identity at the OpenID provider
	// they sign in with; "" when none. The pair is unique.
	Issuer, Subject string
	Created         time.Time
	LastSeen        time.Time // zero: never signed in
	// Language is the code of the language the person chose for
	// Washboard's pages ("de"); "" when they chose none.
	Language string
}

// Limits of what a person, and the records about them, hold, in
// characters.
const (
	MaxPersonName  = 80
	MaxEmail       = 254
	MaxPasskeyName = 60
	MaxDeviceName  = 60
)

// Membership is a person's role in one account, limited to some of its
// buildings or not.
type Membership struct {
	PersonID string
	Account  string
	Role     Role
	// Buildings are the ids of the buildings the role is limited to;
	// empty for every building of the account.
	Buildings []string
	Created   time.Time
	// FromGroups says that single sign-on made it, from the groups the
	// provider names: the next sign-in through it changes or removes it.
	FromGroups bool
}

// Member is a membership with what others see of its person.
type Member struct {
	Membership
	Name     string
	Email    string
	LastSeen time.Time
}

// Invitation is an offer of a membership of an account, opened with a link
// whose token is shown once; only the token's hash is kept.
type Invitation struct {
	ID         string
	Account    string
	Role       Role
	Buildings  []string // empty: every building
	Email      string   // who it was sent to; "" for a link handed over
	MadeBy     string   // the person who made it
	MadeByName string
	Created    time.Time
	Expires    time.Time
	Used       time.Time // zero until accepted
	UsedBy     string    // the person who accepted it
	Withdrawn  time.Time // zero unless withdrawn
}

// Open reports whether the invitation can still be accepted at t.
func (i Invitation) Open(t time.Time) bool { return i.Problem(t) == nil }

// Problem says why the invitation cannot be accepted at t: it was used
// (ErrInvitationUsed), withdrawn (ErrInvitationWithdrawn) or expired
// (ErrInvitationExpired); nil when it can be.
func (i Invitation) Problem(t time.Time) error {
	switch {
	case !i.Used.IsZero():
		return ErrInvitationUsed
	case !i.Withdrawn.IsZero():
		return ErrInvitationWithdrawn
	case !t.Before(i.Expires):
		return ErrInvitationExpired
	}
	return nil
}

// Passkey is a WebAuthn credential of a person.
type Passkey struct {
	CredentialID []byte
	PersonID     string
	Name         string // the person's name for it; renamable
	// Credential is what the WebAuthn library keeps of it (go-webauthn's
	// webauthn.Credential, as JSON): its public key, flags and
	// authenticator. It holds nothing secret.
	Credential []byte
	SignCount  uint32
	Created    time.Time
	LastUsed   time.Time // zero: never used to sign in
}

// EnrolledDevice is a shared device (a tablet in a cleaners' room) that a
// supervisor signed in for a person, in one account, for a long time: it
// signs in with a token it keeps, of which only the hash is stored.
type EnrolledDevice struct {
	ID         string
	Account    string
	PersonID   string
	PersonName string
	Name       string
	MadeBy     string
	MadeByName string
	Created    time.Time
	LastSeen   time.Time // zero: never used
	Revoked    time.Time // zero: active
}

// AccountSummary is how much of an account Washboard keeps: what
// disconnecting it removes.
type AccountSummary struct {
	People        int
	Invitations   int // open
	Screens       int
	Webhooks      int
	Devices       int // dispensers
	Locations     int
	Alerts        int // rows kept, open and closed
	Claims        int
	Enrolled      int // enrolled devices
	AuditEntries  int
	Notifications bool // notification channels and rules are set
}

// String says the summary in words, for a confirmation: "3 people, 12
// screens, 2 webhooks, 41,000 alert rows". What the account has none of
// is left out; "nothing" when it has none of anything.
func (s AccountSummary) String() string {
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, Count(n, one, many))
		}
	}
	add(s.People, "person", "people")
	add(s.Invitations, "open invitation", "open invitations")
	add(s.Enrolled, "enrolled device", "enrolled devices")
	add(s.Screens, "screen", "screens")
	add(s.Webhooks, "webhook", "webhooks")
	if s.Notifications {
		parts = append(parts, "its notification channels and rules")
	}
	add(s.Locations, "location", "locations")
	add(s.Devices, "dispenser", "dispensers")
	add(s.Alerts, "alert row", "alert rows")
	add(s.Claims, "claim", "claims")
	add(s.AuditEntries, "audit log entry", "audit log entries")
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// Count says n of something in words, with thousands separated:
// "1 person", "41,000 alert rows".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

// thousands writes n with thousands separators: 41,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Problem is an error in words a page can show as they are: a sentence
// for the person who met it.
type Problem string

func (p Problem) Error() string { return string(p) }

// What goes wrong with people and their ways in, in words a page can show.
var (
	// ErrLastOwner: the change would leave an account without an owner.
	ErrLastOwner = Problem("An account keeps at least one owner: make someone else an owner first.")
	// ErrAlreadyMember: the person belongs to the account already.
	ErrAlreadyMember = Problem("You belong to this account already: an invitation does not change a role. Ask an admin to change yours.")
	// ErrEmailTaken: another person has the e-mail address.
	ErrEmailTaken = Problem("Another person here has this e-mail address.")
	// ErrAlreadyConnected: the account is connected already.
	ErrAlreadyConnected = Problem("This account is connected already.")
	// ErrPasskeyRegistered: the passkey is registered here already.
	ErrPasskeyRegistered = Problem("This passkey is registered here already.")
	// ErrNotConnected: the account is not connected.
	ErrNotConnected = Problem("This account is not connected to Washboard.")

	ErrInvitationUnknown   = Problem("This invitation link is not known here: check that the whole link was copied, or ask for a new invitation.")
	ErrInvitationUsed      = Problem("This invitation was used already: each invitation works once. Sign in, or ask for a new invitation.")
	ErrInvitationExpired   = Problem("This invitation has expired: ask the person who invited you for a new one.")
	ErrInvitationWithdrawn = Problem("This invitation was withdrawn: ask the person who invited you for a new one.")

	ErrEnrolmentUsed    = Problem("This enrolment link was opened on a device already: each link works once. Ask a supervisor to enrol this device again.")
	ErrEnrolmentRevoked = Problem("This device was signed out by a supervisor: ask one to enrol it again.")

	ErrSignInLinkUnknown = Problem("This sign-in link is not known here: check that the whole link was copied, or ask for a new one.")
	ErrSignInLinkUsed    = Problem("This sign-in link was used already: each link works once. Ask for a new one.")
	ErrSignInLinkExpired = Problem("This sign-in link has expired: links work for 15 minutes. Ask for a new one.")
)

// TooSoonError is a request refused until some time has passed: a
// sign-in link asked for again too soon. It is an ErrLimit.
type TooSoonError struct {
	// Address says the limit is the address's; otherwise the server's.
	Address bool
	Wait    time.Duration
}

func (e *TooSoonError) Error() string {
	if e.Address {
		return fmt.Sprintf("A link was sent to this address a moment ago: use it, or ask again in %s.", e.minutes())
	}
	return fmt.Sprintf("Washboard has sent as many sign-in links as it may for now: ask again in %s.", e.minutes())
}

func (e *TooSoonError) minutes() string {
	return Count(max(1, int(math.Ceil(e.Wait.Minutes()))), "minute", "minutes")
}

// Is makes a TooSoonError an ErrLimit.
func (e *TooSoonError) Is(target error) bool { return target == ErrLimit }
