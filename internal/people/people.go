// Package people holds the rules of people and their roles in the
// accounts (rules.go, groups.go), and the service that applies them over
// the store: connecting an account with the service's credentials and
// joining it, invitations, one-time sign-in links, passkeys, enrolled
// devices, single sign-on, the audit log, and the upgrade of a cache
// made before people existed. docs/people.md describes the model.
//
// Tokens handed out (invitation links, sign-in links, devices' tokens)
// are 32 random bytes, shown once; only their SHA-256 is stored. The
// service's credentials of a connected account are sealed with the
// keyring, bound to the account. Nothing here writes a token, a sealed
// value or credentials to an error or a log.
package people

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
)

// Store is what the service reads and writes: the store's people,
// connections and audit log, and what an upgrade reads of screens.
type Store interface {
	store.Connections
	store.People
	store.AuditLog
	store.Organisations
	Screens(ctx context.Context, account string) ([]domain.Screen, error)
	Account(ctx context.Context, id string) (domain.Account, error)
	ScreenCredentials(ctx context.Context, account string) (map[string][]byte, error)
}

// Config configures the service; zero values take the defaults.
type Config struct {
	// InvitationTTL is how long an invitation works: 7 days by default,
	// at most 30.
	InvitationTTL time.Duration
	// AuditRetention is how long the audit log keeps an entry: 400 days
	// by default.
	AuditRetention time.Duration
}

// The defaults and bounds of Config, and the fixed times of the ways in.
const (
	DefaultInvitationTTL  = 7 * 24 * time.Hour
	MaxInvitationTTL      = 30 * 24 * time.Hour
	DefaultAuditRetention = 400 * 24 * time.Hour
	// SignInLinkTTL is how long a sign-in link works.
	SignInLinkTTL = 15 * time.Minute
	// SignInLinksPerAddress links at most go to one address within
	// SignInLinkTTL, and SignInLinksPerHour to all addresses together
	// within an hour.
	SignInLinksPerAddress = 3
	SignInLinksPerHour    = 200
	// AuditPruneBatch is the most entries one PruneAudit removes.
	AuditPruneBatch = 10_000
)

// Service applies the rules of people over the store.
type Service struct {
	store Store
	keys  *keyring.Ring
	clock clock.Clock
	cfg   Config
}

// New returns the service; a nil clock is the system's.
func New(st Store, keys *keyring.Ring, c clock.Clock, cfg Config) *Service {
	if c == nil {
		c = clock.Real{}
	}
	if cfg.InvitationTTL <= 0 {
		cfg.InvitationTTL = DefaultInvitationTTL
	}
	cfg.InvitationTTL = min(cfg.InvitationTTL, MaxInvitationTTL)
	if cfg.AuditRetention <= 0 {
		cfg.AuditRetention = DefaultAuditRetention
	}
	return &Service{store: st, keys: keys, clock: c, cfg: cfg}
}

// The kinds of tokens: a token of one kind hashes to nothing another kind
// stores.
const (
	invitationToken = "invitation"
	signInToken     = "signin-link"
	deviceToken     = "enrolled-device"
)

// tokenLen is the length of a token as handed out: 32 bytes, base64url
// without padding.
var tokenLen = base64.RawURLEncoding.EncodedLen(32)

// newToken returns a random token of a kind and its hash.
func newToken(kind string) (string, []byte) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	h, _ := hashOf(kind, token)
	return token, h
}

// hashOf returns the hash of a token of a kind, as the store keeps it;
// false when token is not one as handed out (its length, its alphabet).
func hashOf(kind, token string) ([]byte, bool) {
	if len(token) != tokenLen {
		return nil, false
	}
	if _, err := base64.RawURLEncoding.DecodeString(token); err != nil {
		return nil, false
	}
	h := sha256.Sum256([]byte(kind + "\x00" + token))
	return h[:], true
}

// newID returns a random identifier of n bytes, in hex.
func newID(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b)
}

// limited is l when err is a limit the store met, err otherwise.
func limited(err error, l *domain.LimitError) error {
	if errors.Is(err, domain.ErrLimit) {
		return l
	}
	return err
}

// auditBy is an entry of the audit log made now by the actor.
func (s *Service) auditBy(actor domain.Member, action domain.AuditAction, subject string) store.Audit {
	return store.Audit{At: s.clock.Now(), ActorID: actor.PersonID, ActorName: actor.Name, Action: action, Subject: subject}
}
