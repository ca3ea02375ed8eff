package people

import (
	"fmt"

	"washboard/internal/domain"
)

// What the rules of people refuse most often, as values a page can tell
// apart and say in its reader's language; their Error is English. The
// other refusals are in English words only (forbidden, problem).
var (
	// ErrOwnerMakesOwner: only an owner makes someone an owner.
	ErrOwnerMakesOwner = &domain.ForbiddenError{Why: "Only an owner can make someone an owner."}
	// ErrOwnerChangesOwner: only an owner changes or removes an owner.
	ErrOwnerChangesOwner = &domain.ForbiddenError{Why: "Only an owner can change or remove an owner."}
	// ErrRoleAbove: nobody changes or removes someone above them.
	ErrRoleAbove = &domain.ForbiddenError{Why: "You cannot change or remove someone whose role is above yours."}
	// ErrBuildingsBeyond: the person's role covers buildings the maker's
	// does not.
	ErrBuildingsBeyond = &domain.ForbiddenError{Why: "This person's role covers buildings yours does not."}
	// ErrGrantBuildingsBeyond: a role given over buildings the maker's
	// does not cover.
	ErrGrantBuildingsBeyond = &domain.ForbiddenError{Why: "You can only give a role in the buildings your own role covers."}
	// ErrEnrolBeyond: a device enrolled for someone who holds more than
	// the supervisor.
	ErrEnrolBeyond = &domain.ForbiddenError{Why: "You can enrol a device only for someone whose role and buildings are within yours."}
	// ErrOrgOwnerMakesOwner, ErrOrgOwnerChangesOwner, ErrOrgAccountsBeyond
	// are the organisation's: its owners make and change owners; nobody
	// changes someone whose role covers accounts theirs does not.
	ErrOrgOwnerMakesOwner   = &domain.ForbiddenError{Why: "Only an owner of the organisation can make someone an owner."}
	ErrOrgOwnerChangesOwner = &domain.ForbiddenError{Why: "Only an owner of the organisation can change or remove an owner."}
	ErrOrgAccountsBeyond    = &domain.ForbiddenError{Why: "This person's role covers accounts yours does not."}
	// ErrChooseBuildings: a role given by someone limited to some
	// buildings names none of them (every building).
	ErrChooseBuildings = &domain.ForbiddenError{Why: "Your role is limited to some buildings: choose among them."}
	// ErrOwnAccountOnly: only an owner of the account by their own role
	// in it brings it into an organisation.
	ErrOwnAccountOnly = &domain.ForbiddenError{Why: "Only an owner of this account (by their own role in it, not an organisation's) can bring it into an organisation."}
	// ErrOrgManagersOnly: only the organisation's admins and owners
	// change its accounts and people.
	ErrOrgManagersOnly = &domain.ForbiddenError{Why: "Only admins and owners of the organisation can change its accounts and people."}
	// ErrOrgAccountNotCovered: an account beyond the person's role in the
	// organisation.
	ErrOrgAccountNotCovered = &domain.ForbiddenError{Why: "Your role in the organisation does not cover this account."}
	// ErrOrgGrantAccountsBeyond: a role given over accounts beyond the
	// maker's.
	ErrOrgGrantAccountsBeyond = &domain.ForbiddenError{Why: "You can only give a role over the accounts your own role covers."}
	// ErrChooseRole: a role that is none of the five, asked for by hand.
	ErrChooseRole = &domain.ForbiddenError{Why: "Choose a role: viewer, staff, supervisor, admin or owner."}
	// ErrChooseClaimant: nobody chosen to put on an alert.
	ErrChooseClaimant = domain.Problem("Choose who is on it, from the list of the account's people.")
	// ErrNotAMember: the person chosen to put on an alert is none of the
	// account's people.
	ErrNotAMember = domain.Problem("The person chosen is not one of this account's people: choose someone from the list.")
	// ErrInOrganisation: a person belongs to one organisation at most.
	ErrInOrganisation = domain.Problem("You belong to an organisation already: a person belongs to one at most.")
	// ErrAccountInOrganisation: an account belongs to one organisation
	// at most.
	ErrAccountInOrganisation = domain.Problem("This account belongs to an organisation already (this one, or another): an account belongs to one at most.")
	// ErrCredentialsSealed: this server's keys cannot open the
	// credentials an account is connected with.
	ErrCredentialsSealed = domain.Problem("Washboard cannot open the credentials this account is connected with (its secret key changed): an owner signs in with the service's credentials to replace them.")

	// ErrInvitationsFull: the account keeps MaxInvitations open
	// invitations.
	ErrInvitationsFull = &domain.LimitError{What: "open invitations", Max: MaxInvitations,
		Advice: "Withdraw those no longer needed, or wait until some are accepted or expire."}
	// ErrDevicesFull: the account keeps MaxDevices enrolled devices.
	ErrDevicesFull = &domain.LimitError{What: "enrolled devices", Max: MaxDevices,
		Advice: "Revoked devices can be removed to make room; or revoke one no longer used."}
	// ErrOrganisationFull: the organisation has MaxOrganisationPeople
	// people.
	ErrOrganisationFull = &domain.LimitError{Holder: "An organisation", What: "people", Max: MaxOrganisationPeople,
		Advice: "Remove someone who no longer needs it before adding another."}
)

// EmailError is a value that is not one e-mail address. It is a
// domain.Problem (errors.As finds it), in English.
type EmailError struct {
	Value string // as typed, cut short
}

func (e *EmailError) Error() string { return string(e.problem()) }

// Unwrap makes it a domain.Problem.
func (e *EmailError) Unwrap() error { return e.problem() }

func (e *EmailError) problem() domain.Problem {
	return domain.Problem(fmt.Sprintf("%q is not an e-mail address: write it as name@example.com, without a name or brackets.", e.Value))
}

// NobodyError is an address that nobody who signs in here has, given to
// an organisation. It is a domain.Problem, in English.
type NobodyError struct {
	Email string // cut short
}

func (e *NobodyError) Error() string { return string(e.problem()) }

// Unwrap makes it a domain.Problem.
func (e *NobodyError) Unwrap() error { return e.problem() }

func (e *NobodyError) problem() domain.Problem {
	return domain.Problem(fmt.Sprintf("Nobody who signs in here has the address %s: invite them to one of the accounts first (People), then add them here.", e.Email))
}

// RoleAboveError is a role above the maker's own (Own), asked for by
// hand: the forms offer none. It is a *domain.ForbiddenError (errors.As
// finds it), in English.
type RoleAboveError struct {
	Own domain.Role
}

func (e *RoleAboveError) Error() string { return e.forbidden().Error() }

// Unwrap makes it a *domain.ForbiddenError.
func (e *RoleAboveError) Unwrap() error { return e.forbidden() }

func (e *RoleAboveError) forbidden() *domain.ForbiddenError {
	return &domain.ForbiddenError{Why: fmt.Sprintf("You cannot give a role above your own (%s).", e.Own)}
}

// Text names a text typed for a person, a device, a passkey or an
// organisation, in the English of the rules' errors.
type Text string

// The texts the rules of people check.
const (
	PersonName       Text = "name"
	DeviceName       Text = "device's name"
	PasskeyName      Text = "passkey's name"
	OrganisationName Text = "name for the organisation"
	ClientName       Text = "client's name"
	Region           Text = "region"
	Issuer           Text = "issuer"  // of a single sign-on's identity
	Subject          Text = "subject" // of a single sign-on's identity
)

// What is wrong with a text.
const (
	TextMissing = iota + 1 // empty, and needed
	TextTooLong            // more than Max characters (Len)
	TextControl            // a line break or another control character
)

// TextError is a text the rules of people refuse. It is a domain.Problem
// (errors.As finds it), in English.
type TextError struct {
	What     Text
	Problem  int // TextMissing, TextTooLong or TextControl
	Len, Max int // in characters, for TextTooLong
}

func (e *TextError) Error() string { return string(e.problem()) }

// Unwrap makes it a domain.Problem.
func (e *TextError) Unwrap() error { return e.problem() }

func (e *TextError) problem() domain.Problem {
	switch e.Problem {
	case TextMissing:
		return domain.Problem(fmt.Sprintf("Enter a %s.", e.What))
	case TextTooLong:
		return domain.Problem(fmt.Sprintf("The %s is %d characters long: it can be at most %d.", e.What, e.Len, e.Max))
	}
	return domain.Problem(fmt.Sprintf("The %s contains a character it cannot have (a line break or a control character).", e.What))
}

// EmailTooLongError is an e-mail address longer than domain.MaxEmail
// bytes (Len). It is a domain.Problem, in English.
type EmailTooLongError struct {
	Len int
}

func (e *EmailTooLongError) Error() string { return string(e.problem()) }

// Unwrap makes it a domain.Problem.
func (e *EmailTooLongError) Unwrap() error { return e.problem() }

func (e *EmailTooLongError) problem() domain.Problem {
	return domain.Problem(fmt.Sprintf("The e-mail address is %d characters long: it can be at most %d.", e.Len, domain.MaxEmail))
}

// ClaimantError is a person who may not be put on an alert: a viewer, or
// someone whose role is limited to other buildings than the alert's
// (Building, its name). It is a domain.Problem, in English.
type ClaimantError struct {
	Name     string
	Viewer   bool
	Building string
}

func (e *ClaimantError) Error() string { return string(e.problem()) }

// Unwrap makes it a domain.Problem.
func (e *ClaimantError) Unwrap() error { return e.problem() }

func (e *ClaimantError) problem() domain.Problem {
	if e.Viewer {
		return domain.Problem(fmt.Sprintf("%s is a viewer, and viewers are not put on alerts: choose someone who is staff or above.", e.Name))
	}
	return domain.Problem(fmt.Sprintf("%s's role is limited to other buildings than %s, where this alert is: choose someone who sees it.", e.Name, e.Building))
}
