package views

import (
	"strings"
	"time"

	"washboard/internal/domain"
)

// AccountsPage lists the accounts a person belongs to, to switch to one.
type AccountsPage struct {
	Page
	Accounts []AccountChoice
}

// AccountChoice is one of a person's accounts.
type AccountChoice struct {
	ID, Name string
	Role     domain.Role
	Current  bool
}

// InvitationPage offers to accept an invitation, or says why it cannot be.
type InvitationPage struct {
	Page
	// Problem says why the invitation cannot be accepted; "" when it can.
	Problem   string
	Account   string // the account's name
	Role      domain.Role
	Buildings []string // names; empty: every building
	MadeBy    string
	Expires   time.Time
	Email     string
	// Token is the invitation's own token, for the form posting back to
	// the page's own address; never shown.
	Token string
	// SignedInAs is the person of the session, who accepts as themselves.
	SignedInAs string
	Name       string // as typed
	NameError  string
}

// commaList joins words: "A", "A and B", "A, B and C".
func commaList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// inBuildings says which buildings a role is limited to: ", in North
// Tower and Annex"; "" for every building.
func inBuildings(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return ", in " + commaList(names)
}
