package views

import (
	"context"
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

// listIn joins words as the page's language does: "A", "A and B", "A,
// B and C".
func listIn(ctx context.Context, words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return tr(ctx, "people.list", "first", strings.Join(words[:len(words)-1], ", "), "last", words[len(words)-1])
}

// inBuildings says which buildings a role is limited to: ", in North
// Tower and Annex"; "" for every building.
func inBuildings(ctx context.Context, names []string) string {
	if len(names) == 0 {
		return ""
	}
	return tr(ctx, "people.in_buildings", "buildings", listIn(ctx, names))
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
	Summary     domain.AccountSummary // how much disconnecting removes
	Confirming  bool                  // the page asks to confirm disconnecting
	ConfirmWith string                // what the confirming form sends back: the account's id
	Error, Done string
}

// qrViewBox is the view box of a QR code with its quiet zone.
func qrViewBox(q QRCode) string {
	return fmt.Sprintf("-4 -4 %d %d", q.Size+8, q.Size+8)
}

// qrSide is the side of a QR code with its quiet zone.
func qrSide(q QRCode) string { return strconv.Itoa(q.Size + 8) }

// accountSummary says how much of an account Washboard keeps, for the
// confirmation of disconnecting it: "3 people, 12 screens, 41,000 alert
// rows"; what the account has none of is left out.
func accountSummary(ctx context.Context, s domain.AccountSummary) string {
	var parts []string
	add := func(n int, words string) {
		if n > 0 {
			parts = append(parts, words)
		}
	}
	add(s.People, trn(ctx, "account.sum_people", s.People))
	add(s.Invitations, trn(ctx, "account.sum_invitations", s.Invitations))
	add(s.Enrolled, trn(ctx, "account.sum_enrolled", s.Enrolled))
	add(s.Screens, trn(ctx, "account.sum_screens", s.Screens))
	add(s.Webhooks, trn(ctx, "account.sum_webhooks", s.Webhooks))
	if s.Notifications {
		parts = append(parts, tr(ctx, "account.sum_notifications"))
	}
	add(s.Locations, trn(ctx, "account.sum_locations", s.Locations))
	add(s.Devices, trn(ctx, "account.sum_dispensers", s.Devices))
	add(s.Alerts, trn(ctx, "account.sum_alerts", s.Alerts))
	add(s.Claims, trn(ctx, "account.sum_claims", s.Claims))
	add(s.AuditEntries, trn(ctx, "account.sum_audit", s.AuditEntries))
	if len(parts) == 0 {
		return tr(ctx, "account.sum_nothing")
	}
	return strings.Join(parts, ", ")
}

// auditActionName is an action of the audit log in the page's language.
func auditActionName(ctx context.Context, a domain.AuditAction) string {
	switch a {
	case domain.AuditPersonInvited:
		return tr(ctx, "people.audit_person_invited")
	case domain.AuditInvitationWithdrawn:
		return tr(ctx, "people.audit_invitation_withdrawn")
	case domain.AuditInvitationAccepted:
		return tr(ctx, "people.audit_invitation_accepted")
	case domain.AuditRoleChanged:
		return tr(ctx, "people.audit_role_changed")
	case domain.AuditPersonRemoved:
		return tr(ctx, "people.audit_person_removed")
	case domain.AuditPasskeyAdded:
		return tr(ctx, "people.audit_passkey_added")
	case domain.AuditPasskeyRemoved:
		return tr(ctx, "people.audit_passkey_removed")
	case domain.AuditCredentialsReplaced:
		return tr(ctx, "people.audit_credentials_replaced")
	case domain.AuditAccountConnected:
		return tr(ctx, "people.audit_account_connected")
	case domain.AuditAccountJoined:
		return tr(ctx, "people.audit_account_joined")
	case domain.AuditChannelAdded:
		return tr(ctx, "people.audit_channel_added")
	case domain.AuditChannelRemoved:
		return tr(ctx, "people.audit_channel_removed")
	case domain.AuditRuleAdded:
		return tr(ctx, "people.audit_rule_added")
	case domain.AuditRuleRemoved:
		return tr(ctx, "people.audit_rule_removed")
	case domain.AuditWebhookAdded:
		return tr(ctx, "people.audit_webhook_added")
	case domain.AuditWebhookRemoved:
		return tr(ctx, "people.audit_webhook_removed")
	case domain.AuditWebhookRotated:
		return tr(ctx, "people.audit_webhook_rotated")
	case domain.AuditScreenAdded:
		return tr(ctx, "people.audit_screen_added")
	case domain.AuditScreenChanged:
		return tr(ctx, "people.audit_screen_changed")
	case domain.AuditScreenRevoked:
		return tr(ctx, "people.audit_screen_revoked")
	case domain.AuditScreenRemoved:
		return tr(ctx, "people.audit_screen_removed")
	case domain.AuditSignInNewDevice:
		return tr(ctx, "people.audit_signin_new_device")
	case domain.AuditDeviceEnrolled:
		return tr(ctx, "people.audit_device_enrolled")
	case domain.AuditDeviceRevoked:
		return tr(ctx, "people.audit_device_revoked")
	case domain.AuditServiceLevelsChanged:
		return tr(ctx, "people.audit_servicelevels_changed")
	case domain.AuditReportScheduleAdded:
		return tr(ctx, "people.audit_reportschedule_added")
	case domain.AuditReportScheduleChanged:
		return tr(ctx, "people.audit_reportschedule_changed")
	case domain.AuditReportScheduleRemoved:
		return tr(ctx, "people.audit_reportschedule_removed")
	case domain.AuditOrganisationJoined:
		return tr(ctx, "people.audit_organisation_joined")
	case domain.AuditOrganisationRole:
		return tr(ctx, "people.audit_organisation_role")
	}
	return string(a)
}
