package domain

import (
	"fmt"
	"time"
)

// AuditAction is what an entry of an account's audit log records, from a
// fixed list.
type AuditAction string

// The actions the audit log records.
const (
	AuditPersonInvited        AuditAction = "person.invited"
	AuditInvitationWithdrawn  AuditAction = "invitation.withdrawn"
	AuditInvitationAccepted   AuditAction = "invitation.accepted"
	AuditRoleChanged          AuditAction = "role.changed"
	AuditPersonRemoved        AuditAction = "person.removed"
	AuditPasskeyAdded         AuditAction = "passkey.added"
	AuditPasskeyRemoved       AuditAction = "passkey.removed"
	AuditCredentialsReplaced  AuditAction = "credentials.replaced"
	AuditAccountConnected     AuditAction = "account.connected"
	AuditAccountJoined        AuditAction = "account.joined"
	AuditChannelAdded         AuditAction = "channel.added"
	AuditChannelRemoved       AuditAction = "channel.removed"
	AuditRuleAdded            AuditAction = "rule.added"
	AuditRuleRemoved          AuditAction = "rule.removed"
	AuditWebhookAdded         AuditAction = "webhook.added"
	AuditWebhookRemoved       AuditAction = "webhook.removed"
	AuditWebhookRotated       AuditAction = "webhook.rotated"
	AuditScreenAdded          AuditAction = "screen.added"
	AuditScreenChanged        AuditAction = "screen.changed"
	AuditScreenRevoked        AuditAction = "screen.revoked"
	AuditScreenRemoved        AuditAction = "screen.removed"
	AuditSignInNewDevice      AuditAction = "signin.new_device"
	AuditDeviceEnrolled       AuditAction = "device.enrolled"
	AuditDeviceRevoked        AuditAction = "device.revoked"
	AuditServiceLevelsChanged AuditAction = "servicelevels.changed"
	// A schedule of the client report by e-mail was made, changed or
	// removed.
	AuditReportScheduleAdded   AuditAction = "reportschedule.added"
	AuditReportScheduleChanged AuditAction = "reportschedule.changed"
	AuditReportScheduleRemoved AuditAction = "reportschedule.removed"
	// The account joined an organisation; a person's role in the
	// account's organisation was given, changed or ended.
	AuditOrganisationJoined AuditAction = "organisation.joined"
	AuditOrganisationRole   AuditAction = "organisation.role"
)

// AuditActions are the actions the log records, in the order a filter
// lists them.
func AuditActions() []AuditAction {
	return []AuditAction{
		AuditAccountConnected, AuditAccountJoined, AuditCredentialsReplaced,
		AuditPersonInvited, AuditInvitationWithdrawn, AuditInvitationAccepted, AuditRoleChanged, AuditPersonRemoved,
		AuditPasskeyAdded, AuditPasskeyRemoved, AuditSignInNewDevice, AuditDeviceEnrolled, AuditDeviceRevoked,
		AuditChannelAdded, AuditChannelRemoved, AuditRuleAdded, AuditRuleRemoved,
		AuditWebhookAdded, AuditWebhookRemoved, AuditWebhookRotated,
		AuditScreenAdded, AuditScreenChanged, AuditScreenRevoked, AuditScreenRemoved,
		AuditServiceLevelsChanged, AuditReportScheduleAdded, AuditReportScheduleChanged, AuditReportScheduleRemoved,
		AuditOrganisationJoined, AuditOrganisationRole,
	}
}

// ParseAuditAction reads an action's code; its error names the code.
func ParseAuditAction(s string) (AuditAction, error) {
	for _, a := range AuditActions() {
		if string(a) == s {
			return a, nil
		}
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "", fmt.Errorf("%q is not an action the audit log records", s)
}

// MaxAuditSubject is the most characters an audit entry's subject keeps;
// a longer one is cut.
const MaxAuditSubject = 200

// AuditEntry is one entry of an account's audit log: who did what, to
// what, and when. The actor's name is kept as it was then.
type AuditEntry struct {
	ID        int64
	Account   string
	At        time.Time
	ActorID   string // "" for Washboard itself (an upgrade, single sign-on)
	ActorName string
	Action    AuditAction
	Subject   string // what it was done to, in words
}

// AuditFilter selects entries of an account's audit log, newest first.
type AuditFilter struct {
	Account string
	ActorID string      // one person's, when set
	Action  AuditAction // one action's, when set
	// From and To bound when: [From, To). Zero times leave that side open.
	From, To time.Time
	// After continues a listing after the entry it names (the last one
	// of the previous page); the zero cursor starts from the newest.
	After AuditCursor
	Limit int
}

// AuditCursor names an entry of the log, for the page after it.
type AuditCursor struct {
	At time.Time
	ID int64
}

// IsZero reports whether the cursor names no entry: the first page.
func (c AuditCursor) IsZero() bool { return c.ID == 0 }
