// Package oidc signs people in through an OpenID provider (single sign-on):
// the authorization code flow with PKCE, state and nonce, the ID token
// verified against the provider's published keys (github.com/coreos/go-oidc)
// and the code exchanged through golang.org/x/oauth2.
//
// A sign-in has two steps. Begin returns the provider's address to send the
// browser to, and a Pending (state, nonce, PKCE verifier) for the web to
// keep in the person's session, never in a URL or a page. The provider
// sends the browser back to the redirect URL with a code and the state;
// Finish checks them against the Pending, exchanges the code and returns
// the verified Identity, whose Claims people.Service.SignInOIDC turns into
// a person and their memberships. The web removes the Pending from the
// session when it calls Finish, whatever the outcome.
//
// Every connection to the provider goes through the outgoing guard of
// webhooks (notify.Guard): not to the dashboard itself, nor to a private
// address unless private targets are allowed or the provider is trusted.
// Each request is bounded in time (Config.Timeout) and each answer in size
// (MaxAnswer). Errors say what went wrong in words a page can show; the
// detail for the log is in Error.Detail, and never holds a code or a token.
package oidc

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"washboard/internal/clock"
	"washboard/internal/notify"
	"washboard/internal/people"
	"washboard/internal/replay"
)

// Defaults and bounds.
const (
	// DefaultTimeout bounds each request to the provider.
	DefaultTimeout = 10 * time.Second
	// PendingTTL is how long a person has, from Begin, to come back from
	// the provider.
	PendingTTL = 10 * time.Minute
	// MaxAnswer is the largest answer read from the provider: its
	// discovery document, its keys, a token answer.
	MaxAnswer = 1 << 20
	// DefaultGroupsClaim is the ID token's claim read for groups.
	DefaultGroupsClaim = "groups"
	// maxCallbackField bounds the code and the state a callback carries.
	maxCallbackField = 2048
	// maxGroupName is the longest group name read; longer ones are left out.
	maxGroupName = 256
	// retryAfter is how long a failed discovery is remembered before the
	// provider is asked again.
	retryAfter = 10 * time.Second
)

// Config is the single sign-on's settings.
type Config struct {
	// Issuer is the provider's issuer URL (--oidc-issuer), exactly as the
	// provider writes it in its discovery document and its tokens:
	// https://, or http:// for a provider on this machine.
	Issuer       string
	ClientID     string // --oidc-client-id
	ClientSecret string // --oidc-client-secret
	// RedirectURL is the dashboard's callback the provider sends people
	// back to, an absolute URL registered with the provider.
	RedirectURL string
	// Scopes are asked for besides "openid"; "profile" and "email" when
	// none (some providers want "groups" too for the groups claim).
	Scopes []string
	// GroupsClaim is the ID token's claim that lists the person's groups
	// (--oidc-groups-claim): DefaultGroupsClaim when empty.
	GroupsClaim string
	// Mappings give groups roles in accounts (--oidc-group, each read by
	// people.ParseGroupMapping).
	Mappings []people.GroupMapping
	// Guard says which addresses the provider may be at.
	Guard notify.Guard
	// Trusted lets the provider be at any address, and be reached through
	// the proxy of the environment: a provider the operator runs on their
	// own network.
	Trusted bool
	// Timeout bounds each request to the provider: DefaultTimeout when
	// zero.
	Timeout time.Duration
	Clock   clock.Clock // clock.Real when nil
}

// Pending is what the web keeps in the person's session between Begin and
// Finish. Nothing in it may appear in a page or a URL but the provider's.
type Pending struct {
	State    string
	Nonce    string
	Verifier string // PKCE's code verifier
	Expires  time.Time
}

// Callback is what the provider sent back to the redirect URL, as its
// query parameters name them.
type Callback struct {
	Code             string // code
	State            string // state
	Error            string // error: the provider refused
	ErrorDescription string // error_description
}

// CallbackFrom reads a callback's query.
func CallbackFrom(q url.Values) Callback {
	return Callback{Code: q.Get("code"), State: q.Get("state"), Error: q.Get("error"), ErrorDescription: q.Get("error_description")}
}

// Identity is a person as the provider vouched for them in a verified ID
// token.
type Identity struct {
	Issuer, Subject string
	Name            string // name, or preferred_username; may be ""
	Email           string
	EmailVerified   bool
	Groups          []string // of the groups claim, at most people.MaxGroups
}

// Claims are the identity as people.Service.SignInOIDC reads it.
func (id Identity) Claims() people.Claims {
	return people.Claims{Issuer: id.Issuer, Subject: id.Subject, Name: id.Name, Email: id.Email, EmailVerified: id.EmailVerified,
		Groups: id.Groups}
}

// Provider signs people in through one OpenID provider. It asks the
// provider for its discovery document when first needed, and keeps it.
type Provider struct {
	cfg    Config
	client *http.Client
	clock  clock.Clock
	used   replay.Set // states of sign-ins finished

	mu       sync.Mutex
	verifier *gooidc.IDTokenVerifier
	oauth    oauth2.Config
	failedAt time.Time // of the last failed discovery
	failed   error
}

// New checks the settings and returns the provider; it does not reach the
// provider yet (Begin does), so that a provider down does not stop the
// dashboard from starting. Its errors name the flag at fault.
func New(cfg Config) (*Provider, error) {
	u, err := url.Parse(cfg.Issuer)
	switch {
	case cfg.Issuer == "":
		return nil, errors.New("single sign-on needs the provider's issuer URL (--oidc-issuer)")
	case err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return nil, errors.New("the issuer (--oidc-issuer) must be a URL such as https://login.example.com, without a query or a #fragment")
	case u.Scheme != "https" && !(u.Scheme == "http" && onThisMachine(u.Hostname())):
		return nil, errors.New("the issuer (--oidc-issuer) must begin with https:// (http:// only for a provider on this machine)")
	case cfg.ClientID == "":
		return nil, errors.New("single sign-on needs the client ID the provider gave Washboard (--oidc-client-id)")
	case len(cfg.GroupsClaim) > 100:
		return nil, errors.New("the groups claim's name (--oidc-groups-claim) is longer than 100 characters")
	}
	r, err := url.Parse(cfg.RedirectURL)
	if err != nil || (r.Scheme != "https" && r.Scheme != "http") || r.Host == "" {
		return nil, errors.New("single sign-on needs the dashboard's public address (its callback is the redirect URL registered with the provider)")
	}
	if !cfg.Trusted {
		if err := cfg.Guard.Check(u); err != nil && cfg.Guard.AllowPrivate {
			return nil, fmt.Errorf("the issuer (--oidc-issuer) is not allowed: %w", err)
		} else if err != nil {
			return nil, fmt.Errorf("the issuer (--oidc-issuer) is not allowed: %w (--oidc-allow-private lets Washboard reach a provider on a private network)", err)
		}
	}
	cfg.GroupsClaim = cmp.Or(cfg.GroupsClaim, DefaultGroupsClaim)
	cfg.Timeout = cmp.Or(cfg.Timeout, DefaultTimeout)
	scopes := []string{gooidc.ScopeOpenID}
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = []string{"profile", "email"}
	}
	for _, s := range cfg.Scopes {
		if s != "" && !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	cfg.Scopes = scopes
	p := &Provider{cfg: cfg, client: newClient(cfg), clock: cmp.Or[clock.Clock](cfg.Clock, clock.Real{})}
	return p, nil
}

// Mappings are the group mappings of the settings, for
// people.Service.SignInOIDC.
func (p *Provider) Mappings() []people.GroupMapping { return p.cfg.Mappings }

// onThisMachine reports whether host names the loopback interface.
func onThisMachine(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}

// Begin starts a sign-in: the provider's authorization URL to send the
// browser to, with the state, the nonce and PKCE's challenge in it, and
// the Pending to keep in the session.
func (p *Provider) Begin(ctx context.Context) (string, Pending, error) {
	oc, _, err := p.discover(ctx)
	if err != nil {
		return "", Pending{}, err
	}
	pending := Pending{State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier(), Expires: p.clock.Now().Add(PendingTTL)}
	u := oc.AuthCodeURL(pending.State, gooidc.Nonce(pending.Nonce), oauth2.S256ChallengeOption(pending.Verifier))
	return u, pending, nil
}

// Finish completes a sign-in: it checks the callback against the pending
// sign-in (its state, once only, in time), exchanges the code with PKCE's
// verifier, verifies the ID token (signature, issuer, audience, expiry)
// and its nonce, and returns the identity it vouches for.
func (p *Provider) Finish(ctx context.Context, cb Callback, pending Pending) (Identity, error) {
	switch {
	case pending.State == "" || pending.Nonce == "" || pending.Verifier == "":
		return Identity{}, fail(ErrNoSignIn, nil)
	case cb.Error != "":
		return Identity{}, fail(ErrRefused, fmt.Errorf("the provider answered %q", cut(cb.Error, 64)))
	case len(cb.State) > maxCallbackField || len(cb.Code) > maxCallbackField:
		return Identity{}, fail(ErrStateMismatch, errors.New("the callback's state or code is too long"))
	case subtle.ConstantTimeCompare([]byte(cb.State), []byte(pending.State)) != 1:
		return Identity{}, fail(ErrStateMismatch, nil)
	case !p.clock.Now().Before(pending.Expires):
		return Identity{}, fail(ErrPendingExpired, nil)
	case !p.used.Use(pending.State, pending.Expires, p.clock.Now()):
		return Identity{}, fail(ErrStateReplayed, nil)
	case cb.Code == "":
		return Identity{}, fail(ErrGarbage, errors.New("the callback has no code"))
	}
	oc, verifier, err := p.discover(ctx)
	if err != nil {
		return Identity{}, err
	}
	tok, err := oc.Exchange(p.clientContext(ctx), cb.Code, oauth2.VerifierOption(pending.Verifier))
	if err != nil {
		return Identity{}, exchangeError(err)
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok || raw == "" {
		return Identity{}, fail(ErrGarbage, errors.New("the token answer has no ID token"))
	}
	idt, err := verifier.Verify(p.clientContext(ctx), raw)
	if err != nil {
		return Identity{}, verifyError(err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(pending.Nonce)) != 1 {
		return Identity{}, fail(ErrNonce, nil)
	}
	return p.identity(idt)
}

// discover returns the provider's endpoints and the ID token verifier,
// asking the provider for its discovery document the first time, and
// again after a failure once retryAfter passed.
func (p *Provider) discover(ctx context.Context) (oauth2.Config, *gooidc.IDTokenVerifier, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.verifier != nil {
		return p.oauth, p.verifier, nil
	}
	if p.failed != nil && p.clock.Now().Sub(p.failedAt) < retryAfter {
		return oauth2.Config{}, nil, p.failed
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	op, err := gooidc.NewProvider(p.clientContext(ctx), p.cfg.Issuer)
	if err != nil {
		p.failed, p.failedAt = discoveryError(err), p.clock.Now()
		return oauth2.Config{}, nil, p.failed
	}
	ep := op.Endpoint()
	if _, err := url.ParseRequestURI(ep.AuthURL); err != nil || ep.TokenURL == "" {
		p.failed, p.failedAt = fail(ErrGarbage, errors.New("the discovery document has no authorization or token endpoint")), p.clock.Now()
		return oauth2.Config{}, nil, p.failed
	}
	ep.AuthStyle = oauth2.AuthStyleInParams
	p.oauth = oauth2.Config{ClientID: p.cfg.ClientID, ClientSecret: p.cfg.ClientSecret, RedirectURL: p.cfg.RedirectURL,
		Endpoint: ep, Scopes: p.cfg.Scopes}
	p.verifier = op.VerifierContext(p.clientContext(context.WithoutCancel(ctx)),
		&gooidc.Config{ClientID: p.cfg.ClientID, Now: p.clock.Now})
	p.failed = nil
	return p.oauth, p.verifier, nil
}

// clientContext is ctx carrying the guarded client, as go-oidc and oauth2
// look for it.
func (p *Provider) clientContext(ctx context.Context) context.Context {
	ctx = gooidc.ClientContext(ctx, p.client)
	return context.WithValue(ctx, oauth2.HTTPClient, p.client)
}

// random is 32 random bytes, base64url.
func random() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// cut is s, at most n bytes of it, without control characters.
func cut(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) > n {
		s = s[:n]
	}
	return strings.ToValidUTF8(s, "")
}

// MaxMappings is the most group mappings the settings take.
const MaxMappings = 1000

// ParseMappings reads the values of --oidc-group, each
// GROUP=ACCOUNT:ROLE or GROUP=ACCOUNT:ROLE:BUILDING,BUILDING
// (people.ParseGroupMapping). Its error names the flag and the value at
// fault.
func ParseMappings(values []string) ([]people.GroupMapping, error) {
	if len(values) > MaxMappings {
		return nil, fmt.Errorf("--oidc-group is given %d times: at most %d mappings are read", len(values), MaxMappings)
	}
	out := make([]people.GroupMapping, 0, len(values))
	for _, v := range values {
		m, err := people.ParseGroupMapping(v)
		if err != nil {
			return nil, fmt.Errorf("--oidc-group: %w", err)
		}
		out = append(out, m)
	}
	return out, nil
}
