package store

import (
	"context"
	"fmt"
	"time"

	"washboard/internal/domain"
)

// Connections are the accounts connected to Washboard: the service's
// credentials kept sealed (by the caller, bound to the account), who
// connected each and when. Every write that changes an account's people
// records its entry of the audit log (an Audit) in its own transaction.
type Connections interface {
	// JoinAccount makes j.Person a member of j.Account in one transaction
	// (see Join): it connects the account with j.Sealed when it is not
	// connected, and gives the person the role j.Decide chooses from what
	// the transaction found. A person who belongs to the account already
	// keeps their membership as it is, and Decide is not asked.
	JoinAccount(ctx context.Context, j Join) (domain.Membership, error)
	// ConnectAccount connects an account without making anyone its member
	// (an upgrade: see internal/people): domain.ErrAlreadyConnected when
	// it is connected.
	ConnectAccount(ctx context.Context, c Connection, audit Audit) error
	// Connection returns an account's connection, as just written;
	// domain.ErrNotConnected when it is not connected.
	Connection(ctx context.Context, account string) (Connection, error)
	// Connections returns every connected account's connection, by
	// account id.
	Connections(ctx context.Context) ([]Connection, error)
	// ReplaceAccountCredentials replaces a connected account's sealed
	// credentials.
	ReplaceAccountCredentials(ctx context.Context, account string, sealed []byte, at time.Time, audit Audit) error
	// ResealAccountCredentials replaces accounts' sealed credentials, by
	// account, in one transaction, each only if it still holds Old; it
	// returns how many it replaced.
	ResealAccountCredentials(ctx context.Context, byAccount map[string]Reseal) (int, error)
	// AccountSummary counts what the cache keeps of an account: what
	// disconnecting it removes.
	AccountSummary(ctx context.Context, account string) (domain.AccountSummary, error)
	// DisconnectAccount removes, in one transaction, everything the cache
	// keeps of an account: its connection, its layout, devices, alerts
	// and their history, claims, screens, webhook receivers, settings,
	// notifications, memberships, invitations, enrolled devices, audit
	// log, and the sessions of its people in it. It returns the token
	// hashes of the sessions it ended (see EndSessions). The account's row
	// stays, emptied, so that its key never changes. People stay, with
	// their other memberships and their passkeys.
	DisconnectAccount(ctx context.Context, account string) ([]string, error)
	// UnconnectedAccounts lists the accounts the cache holds that are not
	// connected, at most limit of them.
	UnconnectedAccounts(ctx context.Context, limit int) ([]string, error)
}

// Connection is a connected account.
type Connection struct {
	Account string
	// Sealed are the service's credentials, sealed by the caller.
	Sealed    []byte
	By        string // the person who connected it; "" for an upgrade
	ByName    string
	Connected time.Time
	Replaced  time.Time // zero: the credentials are those it was connected with
}

// String leaves the sealed credentials out, as GoString does.
func (c Connection) String() string {
	return fmt.Sprintf("connection of account %q by %q at %s", c.Account, c.By, c.Connected.Format(time.RFC3339))
}

// GoString is String.
func (c Connection) GoString() string { return c.String() }

// Join is a person joining an account by signing in with the service's
// credentials.
type Join struct {
	Account string
	// Sealed are the credentials the account is connected with when it is
	// not connected yet; a connected account keeps its own.
	Sealed []byte
	// Person joins; NewPerson says that the transaction creates them (with
	// domain.ErrEmailTaken when their e-mail address is another's).
	Person    domain.Person
	NewPerson bool
	At        time.Time
	// Decide chooses the person's role from what the transaction found;
	// its error fails the join. It runs in the transaction, and must not
	// use the store.
	Decide func(JoinState) (domain.Role, error)
	// MaxPeople bounds the account's members, MaxAccounts the person's
	// memberships (<= 0: no bound): a *domain.LimitError past them.
	MaxPeople, MaxAccounts int
}

// String leaves the sealed credentials out, as GoString does.
func (j Join) String() string {
	return fmt.Sprintf("person %q joining account %q", j.Person.ID, j.Account)
}

// GoString is String.
func (j Join) GoString() string { return j.String() }

// JoinState is what a Join found of the account, in its transaction.
type JoinState struct {
	Connected bool // connected before this join
	// ByUpgrade says that an upgrade connected it, not a person.
	ByUpgrade bool
	Owners    int
	// Connections is how many accounts are connected, of every account.
	Connections int
}

// Audit is an entry of the audit log to record with a change, in its
// transaction: who did it, what, to what. Its account is the change's;
// Action "" records none.
type Audit struct {
	// At is when the change was made: the time the change records too
	// (a withdrawal, a revocation).
	At        time.Time
	ActorID   string
	ActorName string
	Action    domain.AuditAction
	Subject   string // cut to domain.MaxAuditSubject characters
}

// People are the people who sign in, their memberships of the accounts,
// and their ways in.
type People interface {
	// Person returns a person by id; domain.ErrNotFound when there is none.
	Person(ctx context.Context, id string) (domain.Person, error)
	// PersonByEmail returns the person whose e-mail address is email,
	// whatever its case; domain.ErrNotFound when there is none.
	PersonByEmail(ctx context.Context, email string) (domain.Person, error)
	// UpdatePerson changes a person's name and e-mail address;
	// domain.ErrEmailTaken when the address is another's.
	UpdatePerson(ctx context.Context, p domain.Person) error
	// SetPersonLanguage records the code of the language a person chose
	// for Washboard's pages ("" for none: their browser's decides); the
	// caller checks it.
	SetPersonLanguage(ctx context.Context, id, language string) error
	// TouchPerson records that a person signed in, or came back.
	TouchPerson(ctx context.Context, id string, at time.Time) error
	// SignInOIDC creates or updates, in one transaction, the person of an
	// identity at an OpenID provider (see OIDCSignIn), and returns them.
	// It also returns the token hashes of the sessions that changes of
	// memberships ended (see EndSessions).
	SignInOIDC(ctx context.Context, o OIDCSignIn) (domain.Person, []string, error)

	// Members lists an account's members, by name.
	Members(ctx context.Context, account string) ([]domain.Member, error)
	// Membership returns a person's membership of an account;
	// domain.ErrNotFound when they have none.
	Membership(ctx context.Context, account, person string) (domain.Membership, error)
	// MembershipsOf lists a person's memberships, by account id.
	MembershipsOf(ctx context.Context, person string) ([]domain.Membership, error)
	// ChangeMembership changes a member's role and buildings, and ends
	// their sessions in the account; it returns the sessions' token hashes
	// (see EndSessions). domain.ErrLastOwner when it would leave the
	// account without an owner, whatever other changes run at once.
	ChangeMembership(ctx context.Context, m domain.Membership, audit Audit) ([]string, error)
	// RemoveMember ends a person's membership of an account, their
	// sessions in it and their devices enrolled in it; it returns the
	// sessions' token hashes. domain.ErrLastOwner as for ChangeMembership.
	RemoveMember(ctx context.Context, account, person string, audit Audit) ([]string, error)

	// CreateInvitation stores a new invitation with the hash of its
	// token, unless its account has max open invitations already (<= 0:
	// no bound): then domain.ErrLimit. It removes the account's
	// invitations that closed (used, withdrawn, expired) 30 days before
	// inv.Created.
	CreateInvitation(ctx context.Context, inv domain.Invitation, tokenHash []byte, max int, audit Audit) error
	// Invitations lists an account's invitations open at at, newest first.
	Invitations(ctx context.Context, account string, at time.Time) ([]domain.Invitation, error)
	// InvitationByToken returns the invitation whose token has the hash,
	// as just written, if it is open at at; otherwise
	// domain.ErrInvitationUnknown, Used, Expired or Withdrawn.
	InvitationByToken(ctx context.Context, tokenHash []byte, at time.Time) (domain.Invitation, error)
	// WithdrawInvitation withdraws an open invitation of the account, at
	// audit.At;
	// domain.ErrNotFound when it has no open one of the id.
	WithdrawInvitation(ctx context.Context, account, id string, audit Audit) error
	// AcceptInvitation uses an invitation's token and makes its person a
	// member, in one transaction (see Acceptance): the token works once,
	// also when two accept it at once.
	AcceptInvitation(ctx context.Context, a Acceptance) (domain.Person, domain.Membership, error)

	// CreateSignInLink stores a one-time sign-in link, within limits (see
	// SignInLimits): a *domain.TooSoonError past them.
	CreateSignInLink(ctx context.Context, l SignInLink, lim SignInLimits) error
	// UseSignInLink uses the link whose token has the hash, once, at at,
	// and returns its person: domain.ErrSignInLinkUnknown, Used or
	// Expired when it cannot be used.
	UseSignInLink(ctx context.Context, tokenHash []byte, at time.Time) (domain.Person, error)

	// AddPasskey stores a person's new passkey, unless they have max
	// already (<= 0: no bound): a *domain.LimitError. The audit entry is
	// recorded in each account the person belongs to.
	AddPasskey(ctx context.Context, p domain.Passkey, max int, audit Audit) error
	// Passkeys lists a person's passkeys, oldest first.
	Passkeys(ctx context.Context, person string) ([]domain.Passkey, error)
	// PasskeyByCredentialID finds a passkey by its credential id, whoever
	// it is of, as just written; domain.ErrNotFound when there is none.
	PasskeyByCredentialID(ctx context.Context, id []byte) (domain.Passkey, error)
	RenamePasskey(ctx context.Context, person string, id []byte, name string) error
	// UsePasskey records a sign-in with a passkey: the library's record of
	// it after the sign-in, its sign count, and when.
	UsePasskey(ctx context.Context, id, credential []byte, signCount uint32, at time.Time) error
	// RemovePasskey removes one of a person's passkeys; the audit entry is
	// recorded in each account the person belongs to.
	RemovePasskey(ctx context.Context, person string, id []byte, audit Audit) error

	// EnrolDevice stores a device enrolled for a person in an account,
	// with the hash of its token, unless the account has max devices
	// already, revoked ones included until they are removed (<= 0: no
	// bound): then domain.ErrLimit.
	EnrolDevice(ctx context.Context, d domain.EnrolledDevice, tokenHash []byte, max int, audit Audit) error
	// EnrolledDevices lists an account's enrolled devices, newest first;
	// EnrolledDevicesOf a person's, in every account.
	EnrolledDevices(ctx context.Context, account string) ([]domain.EnrolledDevice, error)
	EnrolledDevicesOf(ctx context.Context, person string) ([]domain.EnrolledDevice, error)
	// EnrolledDeviceByToken finds the device whose token has the hash, as
	// just written, revoked or not; domain.ErrNotFound when there is none.
	EnrolledDeviceByToken(ctx context.Context, tokenHash []byte) (domain.EnrolledDevice, error)
	TouchEnrolledDevice(ctx context.Context, id string, at time.Time) error
	// OpenEnrolledDevice opens a device's enrolment link once, at at: the
	// device whose token has linkHash, never opened nor revoked, takes
	// keyHash as its token's hash (the key the device keeps), in one
	// transaction, so that the link opens nothing more.
	// domain.ErrNotFound when no device has linkHash;
	// domain.ErrEnrolmentUsed when it was opened already;
	// domain.ErrEnrolmentRevoked when it was revoked.
	OpenEnrolledDevice(ctx context.Context, linkHash, keyHash []byte, at time.Time) (domain.EnrolledDevice, error)
	// RevokeEnrolledDevice revokes one of the account's devices at
	// audit.At: its token opens nothing more, and the sessions it signed
	// in (RecordSessionDevice) end; it returns their token hashes (see
	// EndSessions). A device revoked already keeps its first time.
	RevokeEnrolledDevice(ctx context.Context, account, id string, audit Audit) ([]string, error)
	// RemoveEnrolledDevice removes a revoked device of the account from
	// the list: domain.ErrNotFound when it has no revoked one of the id.
	RemoveEnrolledDevice(ctx context.Context, account, id string) error

	// RecordSessionPerson records whose a session is (its token hash as
	// the sessions table keys it), once the session is written: a person
	// signed in to an account.
	// Written again, it replaces what was recorded; the record goes with
	// its session (DeleteSession, DeleteExpiredSessions).
	RecordSessionPerson(ctx context.Context, token, person, account string) error
	// RecordSessionDevice records that the session of a token, recorded
	// as a person's, is signed in by an enrolled device: revoking the
	// device ends it. domain.ErrNotFound when the session is not
	// recorded.
	RecordSessionDevice(ctx context.Context, token, device string) error
	// SeeSignInDevice records that a person signed in at at from a device
	// (a browser, by the hash of the random value it keeps), and reports
	// whether the device is new for the person; a new one records audit
	// in the account, in the same transaction. A person keeps at most max
	// devices (<= 0: no bound): past it, those seen longest ago go.
	SeeSignInDevice(ctx context.Context, person, account string, deviceHash []byte, at time.Time, max int, audit Audit) (bool, error)
	// EndSessions deletes every session of a person, or of a person in one
	// account when account is set, and returns their token hashes: the
	// web layer drops them from its memory and announces them to the
	// other replicas, as it does a session signed out.
	EndSessions(ctx context.Context, person, account string) ([]string, error)
	// ReadSessions passes the sealed data of every unexpired session to
	// f, one at a time.
	ReadSessions(ctx context.Context, f func(data []byte) error) error
}

// OIDCSignIn is a sign-in through an OpenID provider.
type OIDCSignIn struct {
	// Person has the identity (Issuer, Subject), the name and the e-mail
	// address the provider gave; its ID is used when the transaction
	// creates the person. An e-mail address that is another person's is
	// not taken: the person keeps the address they had, or none.
	Person domain.Person
	// LinkByEmail lets the identity join the person who has its e-mail
	// address and no identity yet (the provider verified the address).
	LinkByEmail bool
	// Memberships are those the provider's groups give (FromGroups): they
	// replace the person's memberships made by single sign-on. A change
	// that would leave an account without an owner is not made, and a
	// membership the account has no room for is not made either (see
	// MaxPeople); the others are. Memberships made otherwise (an
	// invitation) stay as they are, unless a group gives a role in the
	// same account.
	Memberships []domain.Membership
	MaxPeople   int
	At          time.Time
	// Audit is recorded in each account whose membership changes, with
	// Action role.changed or account.joined set by the store.
	Audit Audit
}

// Acceptance is the acceptance of an invitation.
type Acceptance struct {
	TokenHash []byte
	At        time.Time
	// Person accepts: an existing one, or one the transaction creates
	// (NewPerson), with domain.ErrEmailTaken when their e-mail address is
	// another's.
	Person    domain.Person
	NewPerson bool
	// MaxPeople bounds the account's members, MaxAccounts the person's
	// memberships (<= 0: no bound): a *domain.LimitError past them, and
	// the token is not used.
	MaxPeople, MaxAccounts int
}

// SignInLink is a one-time sign-in link, by the hash of its token.
type SignInLink struct {
	TokenHash []byte
	Email     string // the address it was sent to
	Person    string // whose it is; "" when the address is nobody's
	Created   time.Time
	Expires   time.Time
}

// SignInLimits bound the sign-in links: at most PerAddress links made for
// one address within Window, and at most Total within an hour, whatever
// the address.
type SignInLimits struct {
	PerAddress int
	Window     time.Duration
	Total      int
}

// AuditLog is every account's audit log.
type AuditLog interface {
	// RecordAudit appends an entry to an account's log, for a change made
	// elsewhere (a screen, a webhook, a channel).
	RecordAudit(ctx context.Context, account string, a Audit) error
	// AuditEntries returns the entries of an account's log matching the
	// filter, newest first, at most AuditPageMax of them.
	AuditEntries(ctx context.Context, f domain.AuditFilter) ([]domain.AuditEntry, error)
	// PruneAudit removes at most max entries (of every account) made
	// before before, oldest first, and returns how many.
	PruneAudit(ctx context.Context, before time.Time, max int) (int, error)
}

// AuditPageMax is the most entries AuditEntries returns, whatever its
// filter's Limit; a Limit <= 0 returns AuditPageMax.
const AuditPageMax = 200
