package views

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
)

// AccountsPage lists the accounts a person belongs to, to switch to one.
type AccountsPage struct {
	Page
	Accounts []AccountChoice
	// Portfolio: the person belongs to an organisation.
	Portfolio bool
}

// AccountChoice is one of a person's accounts.
type AccountChoice struct {
	ID, Name string
	Role     domain.Role
	Current  bool
	// ByOrganisation: the role is the person's organisation's.
	ByOrganisation bool
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

// PeoplePage lists an account's people and open invitations, with the
// invite form; after an invitation is made, its link, shown once.
type PeoplePage struct {
	Page
	Members     []PersonRow
	Invitations []InvitationRow
	// Grantable are the roles the admin may give; Buildings those they
	// may limit a role to.
	Grantable []domain.Role
	Buildings []BuildingChoice
	Invite    InviteForm
	// NewLink is the link of the invitation just made, shown once with
	// its QR code; "" otherwise.
	NewLink   string
	NewLinkQR QRCode
	// Mailed says to whom the new invitation was e-mailed; MailError why
	// it could not be.
	Mailed, MailError string
	Error             string // what went wrong with a change, in words
}

// PersonRow is a member of the account.
type PersonRow struct {
	ID, Name, Email string
	Role            domain.Role
	Buildings       []string // names; empty: every building
	LastSeen        time.Time
	Self            bool
}

// InvitationRow is an open invitation.
type InvitationRow struct {
	ID, To    string
	Role      domain.Role
	Buildings []string
	MadeBy    string
	Expires   time.Time
}

// BuildingChoice is a building a role may be limited to.
type BuildingChoice struct {
	ID, Name string
	Checked  bool
}

// InviteForm is the invite form as typed.
type InviteForm struct {
	Email string
	Role  domain.Role
	Error string
}

// QRCode is a QR code's dark modules, Size by Size, drawn as one SVG path.
type QRCode struct {
	Size int
	Path string
}

// PersonPage is a person's own page: who they are, their accounts and
// roles, and their claims.
type PersonPage struct {
	Page
	Name, Email string
	Accounts    []AccountChoice
	// Claims are the open alerts of the current account the person is
	// on.
	Claims   []AlertRow
	Passkeys Passkeys
	// Devices are the devices enrolled for the person, in every account.
	Devices []EnrolledDeviceRow
	// Notifications are the notifications meant for them.
	Notifications PersonNotifications
	// Push are their devices that receive pushes.
	Push  PushDevices
	Error string
	// Language is the language the person chose for Washboard's pages;
	// "": their browser's.
	Language string
}

// PushDevices are a person's devices that receive pushes, on their page.
type PushDevices struct {
	Off bool // the server sends no pushes
	// Key is the server's public VAPID key, that a browser subscribes
	// with.
	Key     string
	Devices []PushDeviceRow
	// Error is a subscription refused, in words; Said what a test push
	// did.
	Error, Said string
}

// PushDeviceRow is one device that receives pushes.
type PushDeviceRow struct {
	ID, Name string
	Service  string // the push service's host: "fcm.googleapis.com"
	Since    time.Time
}

// PersonNotifications are the current account's notification rules that
// send to a person's e-mail address, of their buildings. Rules send to
// channels, not people: a person is notified through an e-mail channel
// with their address among its recipients.
type PersonNotifications struct {
	Off   bool   // the server sends no notifications
	Email string // the person's address; "" when they gave none
	Rules []RuleRow
	// Others counts the rules that send to the address too, about the
	// whole account or buildings beyond the person's: not listed.
	Others int
	// MayChange says the person may change the rules (admins and up).
	MayChange bool
}

// AuditPage is a page of the account's audit log, with its filters.
type AuditPage struct {
	Page
	Entries           []AuditRow
	People            []PersonRow // to filter by
	Actions           []domain.AuditAction
	Filter            AuditFilter
	NextHref, CSVHref string
	Error             string
}

// AuditRow is an entry of the audit log.
type AuditRow struct {
	At      time.Time
	Who     string
	Action  domain.AuditAction
	Subject string
}

// AuditFilter is the audit log's filter as asked.
type AuditFilter struct {
	Person, Action, From, To string
}

// AccountSettingsPage is the owner's page of the account: its
// credentials replaced, or the account disconnected.
type AccountSettingsPage struct {
	Page
	Summary     string // how much disconnecting removes, in words
	Confirming  bool   // the page asks to confirm disconnecting
	ConfirmWith string // what the confirming form sends back: the account's id
	Error, Done string
}

// qrViewBox is the view box of a QR code with its quiet zone.
func qrViewBox(q QRCode) string {
	return fmt.Sprintf("-4 -4 %d %d", q.Size+8, q.Size+8)
}

// qrSide is the side of a QR code with its quiet zone.
func qrSide(q QRCode) string { return strconv.Itoa(q.Size + 8) }
