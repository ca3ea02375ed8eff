// Package push sends Washboard's notifications to people's phones and
// browsers by Web Push: RFC 8030, with each message encrypted for the
// device (RFC 8291, aes128gcm) and signed with the server's VAPID key
// (RFC 8292), through github.com/SherClockHolmes/webpush-go.
//
// A person subscribes each of their devices from their page; the
// subscription (the push service's address and the device's keys) is kept
// sealed with the server's key. A push channel (notify.PushSettings)
// names people by what a notification is about, the staff or supervisors
// of its building or whoever holds the claim on its alert, and Service.Push
// finds their devices when it is sent. A device its push service says is
// gone (404, 410) is removed; a push service that is busy, failing or slow
// (429, 5xx, a timeout) is a transient failure that the notifier tries
// again. Every connection goes through the guard of notify: a push service
// at a private address, or at the dashboard's own, is refused.
package push

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notify"
	"washboard/internal/store"
)

// MaxDevices bounds the devices a person subscribes.
const MaxDevices = 10

// DefaultTTL is how long a push service keeps a push for a device that is
// off: an hour, after which the news is old.
const DefaultTTL = time.Hour

// Store is what the service reads and writes.
type Store interface {
	SettingKeeper
	AddPushSubscription(ctx context.Context, sub store.PushSubscription, max int) error
	PushSubscriptions(ctx context.Context, people []string) ([]store.PushSubscription, error)
	RemovePushSubscription(ctx context.Context, person, id string) error
	Members(ctx context.Context, account string) ([]domain.Member, error)
	AccountOrganisationMembers(ctx context.Context, account string) ([]domain.OrganisationMember, error)
	ActiveClaims(ctx context.Context, account string) (map[string]domain.Claim, error)
	// Person is a person, for the language of their pushes' words.
	Person(ctx context.Context, id string) (domain.Person, error)
}

// Config is the service's configuration.
type Config struct {
	// Link is the dashboard's address, https://washboard.example.com:
	// the contact in the VAPID signature (its "sub"), and the start of
	// the links a push opens.
	Link string
	// Contact is the VAPID contact when Link is not https: an e-mail
	// address, alone or with a name (--mail-from). Push services write to
	// it about problems.
	Contact string
	// Guard says which addresses push services may be at.
	Guard notify.Guard
	// Timeout bounds each push; notify.DefaultTimeout when zero.
	Timeout time.Duration
	// TLS, when set, verifies push services with it instead of the
	// system's roots (a test's push service).
	TLS *tls.Config
	// TTL is how long a push service keeps a push for a device that is
	// off; DefaultTTL when zero.
	TTL time.Duration
}

// Deps are what the service works with.
type Deps struct {
	Store Store
	Keys  *keyring.Ring
	Clock clock.Clock
	Log   *slog.Logger
}

// Service subscribes people's devices and pushes to them.
type Service struct {
	cfg    Config
	st     Store
	ring   *keyring.Ring
	keys   Keys
	clk    clock.Clock
	log    *slog.Logger
	client *http.Client
}

// New loads the server's keys, made on the first start, and returns the
// service.
func New(ctx context.Context, cfg Config, deps Deps) (*Service, error) {
	if deps.Store == nil || deps.Keys == nil {
		return nil, errors.New("push: a store and keys are required")
	}
	keys, err := LoadKeys(ctx, deps.Store, deps.Keys)
	if err != nil {
		return nil, err
	}
	cfg.Timeout = cmp.Or(cfg.Timeout, notify.DefaultTimeout)
	cfg.TTL = cmp.Or(cfg.TTL, DefaultTTL)
	cfg.Link = strings.TrimRight(cfg.Link, "/")
	dialer := cfg.Guard.Dialer(cfg.Timeout)
	client := &http.Client{
		Timeout: cfg.Timeout,
		Transport: &http.Transport{
			Proxy:                  nil, // the guard must see the push service's address, not a proxy's
			DialContext:            dialer.DialContext,
			TLSClientConfig:        cfg.TLS,
			TLSHandshakeTimeout:    cfg.Timeout,
			ForceAttemptHTTP2:      true,
			MaxIdleConnsPerHost:    4,
			IdleConnTimeout:        90 * time.Second,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Service{
		cfg: cfg, st: deps.Store, ring: deps.Keys, keys: keys, client: client,
		clk: cmp.Or[clock.Clock](deps.Clock, clock.Real{}),
		log: cmp.Or(deps.Log, slog.New(slog.DiscardHandler)),
	}, nil
}

// PublicKey is the key a browser subscribes with.
func (s *Service) PublicKey() string { return s.keys.Public() }

// subscriber is the VAPID contact: the dashboard's https address, or a
// mailto: URL.
func (s *Service) subscriber() string {
	if strings.HasPrefix(s.cfg.Link, "https://") {
		return s.cfg.Link
	}
	c := strings.TrimPrefix(strings.TrimSpace(s.cfg.Contact), "mailto:")
	if a, err := mail.ParseAddress(c); err == nil {
		return a.Address // webpush-go writes "mailto:" before it
	}
	return "washboard@localhost"
}
