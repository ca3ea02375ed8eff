package domain

import (
	"slices"
	"time"
)

// Organisation is a service company: it groups the accounts of its
// clients, and its people have a role in it that applies to all of its
// accounts or to some of them.
type Organisation struct {
	ID      string
	Name    string // at most MaxOrganisationName characters
	Created time.Time
}

// OrganisationAccount is one account of an organisation: a client.
type OrganisationAccount struct {
	Organisation string
	Account      string
	// Name is the account's name as the cache knows it (its id when none).
	Name string
	// Client is the client's name as the organisation shows it; "" shows
	// Name.
	Client string
	Region string // a tag to filter by; "" for none
	Added  time.Time
}

// ClientName is the name the organisation shows for the account.
func (a OrganisationAccount) ClientName() string {
	if a.Client != "" {
		return a.Client
	}
	if a.Name != "" {
		return a.Name
	}
	return a.Account
}

// OrganisationMember is a person's role in an organisation: it applies to
// every account of the organisation, or to the accounts listed. It never
// limits to buildings: a role limited to some buildings is a membership
// of the account.
type OrganisationMember struct {
	Organisation string
	PersonID     string
	Role         Role
	// Accounts are the ids of the accounts the role applies to; empty for
	// every account of the organisation.
	Accounts []string
	Created  time.Time
	// Name and Email are what others see of the person.
	Name, Email string
}

// Covers reports whether the role applies to the account (one of the
// organisation's).
func (m OrganisationMember) Covers(account string) bool {
	return m.Role > NoRole && (len(m.Accounts) == 0 || slices.Contains(m.Accounts, account))
}

// CoversAll reports whether the role applies to each of the accounts
// (none: every account of the organisation, which only a role over every
// account covers).
func (m OrganisationMember) CoversAll(accounts []string) bool {
	if len(m.Accounts) == 0 {
		return m.Role > NoRole
	}
	if len(accounts) == 0 {
		return false
	}
	for _, a := range accounts {
		if !m.Covers(a) {
			return false
		}
	}
	return true
}

// Limits of organisations, in characters and rows.
const (
	MaxOrganisationName = 80
	MaxClientName       = 80
	MaxRegion           = 40
)

// What goes wrong with organisations, in words a page can show.
var (
	// ErrAccountInOrganisation: an account belongs to one organisation at
	// most.
	ErrAccountInOrganisation = Problem("This account belongs to an organisation already: an account belongs to one at most.")
	// ErrPersonInOrganisation: a person belongs to one organisation at
	// most.
	ErrPersonInOrganisation = Problem("This person belongs to an organisation already: a person belongs to one at most.")
	// ErrLastOrganisationOwner: the change would leave an organisation
	// without an owner.
	ErrLastOrganisationOwner = Problem("An organisation keeps at least one owner: make someone else an owner first.")
)
