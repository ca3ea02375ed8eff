// Package passkey registers people's passkeys and signs them in with them
// (WebAuthn, through github.com/go-webauthn/webauthn).
//
// Each ceremony has two steps. Begin returns the options for the browser's
// navigator.credentials.create or .get (JSON) and a Session for the web to
// keep in the person's session, server side; Finish checks the browser's
// answer against it: the challenge (once only, in time), the site (the
// relying party's id and the page's origin), the signature, and for a
// sign-in the passkey's owner and its counter. The web removes the Session
// when it calls Finish, whatever the outcome.
//
// The store keeps each passkey as people.NewPasskey and people.UsePasskey
// write it: the library's Credential as JSON, with its public key, flags
// and counter; the store's counter is the one checked.
package passkey

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/internal/replay"
)

// Bounds.
const (
	// Timeout is how long a person has to answer with their passkey.
	Timeout = 5 * time.Minute
	// MaxAnswer is the largest browser's answer read, in bytes.
	MaxAnswer = 64 << 10
)

// Config is the site the passkeys are for.
type Config struct {
	// RPID is the relying party's id: the site's host name, without a
	// scheme or a port ("washboard.example.com"). A passkey works on this
	// host and its subdomains only.
	RPID string
	// Origins are the addresses the pages are served at, scheme, host and
	// port ("https://washboard.example.com").
	Origins []string
	// DisplayName is the site's name a passkey manager shows: "Washboard"
	// when empty.
	DisplayName string
	Clock       clock.Clock // clock.Real when nil
}

// ConfigFor is the configuration for a dashboard reached at publicURL
// ("https://washboard.example.com").
func ConfigFor(publicURL string) (Config, error) {
	u, err := url.Parse(publicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return Config{}, errors.New("passkeys need the dashboard's public address, such as https://washboard.example.com")
	}
	return Config{RPID: u.Hostname(), Origins: []string{u.Scheme + "://" + u.Host}}, nil
}

// Passkeys runs WebAuthn ceremonies for one site.
type Passkeys struct {
	wa    *webauthn.WebAuthn
	clock clock.Clock
	used  replay.Set // challenges of ceremonies finished
}

// New checks the configuration and returns the ceremonies of its site.
func New(cfg Config) (*Passkeys, error) {
	if cfg.RPID == "" || len(cfg.Origins) == 0 {
		return nil, errors.New("passkeys need the site's host name and the address its pages are served at")
	}
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          cfg.RPID,
		RPDisplayName: cmp.Or(cfg.DisplayName, "Washboard"),
		RPOrigins:     cfg.Origins,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:      protocol.ResidentKeyRequirementRequired, // a passkey: found without typing a name
			UserVerification: protocol.VerificationPreferred,
		},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: Timeout, TimeoutUVD: Timeout},
			Registration: webauthn.TimeoutConfig{Timeout: Timeout, TimeoutUVD: Timeout},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("the passkeys' site %q, %v: %w", cfg.RPID, cfg.Origins, err)
	}
	return &Passkeys{wa: wa, clock: cmp.Or[clock.Clock](cfg.Clock, clock.Real{})}, nil
}

// Session is what the web keeps in the person's session between Begin and
// Finish: opaque, and never sent to the browser.
type Session []byte

// session is a Session's content.
type session struct {
	Kind     string               `json:"kind"`             // "register", "login"
	PersonID string               `json:"person,omitempty"` // whose passkey is registered, or who signs in; "" for any
	Expires  time.Time            `json:"expires"`
	Data     webauthn.SessionData `json:"data"`
}

const (
	registering = "register"
	signingIn   = "login"
)

func (k *Passkeys) seal(kind, personID string, data *webauthn.SessionData) (Session, error) {
	b, err := json.Marshal(session{Kind: kind, PersonID: personID, Expires: k.clock.Now().Add(Timeout), Data: *data})
	return Session(b), err
}

// open reads a Session of a kind, and uses its challenge: a second Finish
// with it is refused.
func (k *Passkeys) open(s Session, kind string) (session, error) {
	var out session
	if len(s) == 0 || json.Unmarshal(s, &out) != nil || out.Kind != kind || out.Data.Challenge == "" {
		return out, fail(ErrNoCeremony, nil)
	}
	now := k.clock.Now()
	if !now.Before(out.Expires) {
		return out, fail(ErrExpired, nil)
	}
	if !k.used.Use(kind+"\x00"+out.Data.Challenge, out.Expires, now) {
		return out, fail(ErrReplayed, nil)
	}
	return out, nil
}

// user is a person and their passkeys as the library reads them.
type user struct {
	person domain.Person
	creds  []webauthn.Credential
}

func (u user) WebAuthnID() []byte { return []byte(u.person.ID) }
func (u user) WebAuthnName() string {
	return cmp.Or(u.person.Email, u.person.Name)
}
func (u user) WebAuthnDisplayName() string                { return u.person.Name }
func (u user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// userOf is the person with their stored passkeys; a record that cannot be
// read is left out (it cannot sign in), with the store's counter, which
// is the one checked.
func userOf(p domain.Person, keys []domain.Passkey) user {
	u := user{person: p}
	for _, k := range keys {
		var c webauthn.Credential
		if json.Unmarshal(k.Credential, &c) != nil || !bytes.Equal(c.ID, k.CredentialID) {
			continue
		}
		c.Authenticator.SignCount = k.SignCount
		u.creds = append(u.creds, c)
	}
	return u
}

// options is the browser's options as JSON.
func options(v any) ([]byte, error) { return json.Marshal(v) }

// BeginRegistration starts adding a passkey for person, who has the
// passkeys have (which the browser is told not to register again). The
// options are for navigator.credentials.create.
func (k *Passkeys) BeginRegistration(person domain.Person, have []domain.Passkey) ([]byte, Session, error) {
	if len(have) >= people.MaxPasskeys {
		return nil, nil, &domain.LimitError{Holder: "A person", What: "passkeys", Max: people.MaxPasskeys, Advice: "Remove one you no longer use before adding another."}
	}
	u := userOf(person, have)
	exclude := make([]protocol.CredentialDescriptor, 0, len(u.creds))
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	creation, data, err := k.wa.BeginRegistration(u, webauthn.WithExclusions(exclude),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation))
	if err != nil {
		return nil, nil, fmt.Errorf("starting a passkey's registration: %w", err)
	}
	s, err := k.seal(registering, person.ID, data)
	if err != nil {
		return nil, nil, err
	}
	opts, err := options(creation)
	return opts, s, err
}

// FinishRegistration checks the browser's answer to BeginRegistration's
// options for person, and returns the passkey to store
// (people.Service.AddPasskey), named name ("" for "Passkey N").
func (k *Passkeys) FinishRegistration(person domain.Person, have []domain.Passkey, s Session, answer []byte, name string) (people.NewPasskey, error) {
	var out people.NewPasskey
	sess, err := k.open(s, registering)
	if err != nil {
		return out, err
	}
	if sess.PersonID != person.ID {
		return out, fail(ErrOtherPerson, errors.New("the registration was started for another person"))
	}
	if len(answer) > MaxAnswer {
		return out, fail(ErrGarbled, fmt.Errorf("the answer has %d bytes, more than %d", len(answer), MaxAnswer))
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(answer)
	if err != nil {
		return out, fail(ErrGarbled, err)
	}
	cred, err := k.wa.CreateCredential(userOf(person, have), sess.Data, parsed)
	if err != nil {
		return out, ceremonyError(err)
	}
	for _, h := range have {
		if bytes.Equal(h.CredentialID, cred.ID) {
			return out, domain.ErrPasskeyRegistered
		}
	}
	record, err := json.Marshal(cred)
	if err != nil {
		return out, err
	}
	return people.NewPasskey{CredentialID: cred.ID, Credential: record, SignCount: cred.Authenticator.SignCount, Name: name}, nil
}

// BeginLogin starts a sign-in with a passkey. With a person (who gave
// their address, or signs in again), only their passkeys are asked for;
// without one (a zero Person), the browser offers whichever passkey of
// this site it has. The options are for navigator.credentials.get.
func (k *Passkeys) BeginLogin(person domain.Person, have []domain.Passkey) ([]byte, Session, error) {
	var (
		assertion *protocol.CredentialAssertion
		data      *webauthn.SessionData
		err       error
	)
	if person.ID == "" {
		assertion, data, err = k.wa.BeginDiscoverableLogin()
	} else {
		assertion, data, err = k.wa.BeginLogin(userOf(person, have))
	}
	if err != nil {
		if person.ID != "" && len(have) == 0 {
			return nil, nil, fail(ErrUnknownPasskey, err)
		}
		return nil, nil, fmt.Errorf("starting a passkey sign-in: %w", err)
	}
	s, err := k.seal(signingIn, person.ID, data)
	if err != nil {
		return nil, nil, err
	}
	opts, err := options(assertion)
	return opts, s, err
}

// Keys finds passkeys and people; people.Service is one.
type Keys interface {
	Passkey(ctx context.Context, credentialID []byte) (domain.Passkey, error)
	Passkeys(ctx context.Context, personID string) ([]domain.Passkey, error)
	Person(ctx context.Context, id string) (domain.Person, error)
}

// Login is a sign-in with a passkey that Finish verified: the person, and
// the passkey's record and counter after it, for people.Service.UsePasskey.
type Login struct {
	Person       domain.Person
	CredentialID []byte
	Credential   []byte
	SignCount    uint32
}

// FinishLogin checks the browser's answer to BeginLogin's options: a
// passkey registered here, of the person the answer names (and the one
// the sign-in was for, if any), signed for this site over this sign-in's
// challenge, with a counter that did not go back.
func (k *Passkeys) FinishLogin(ctx context.Context, keys Keys, s Session, answer []byte) (Login, error) {
	var out Login
	sess, err := k.open(s, signingIn)
	if err != nil {
		return out, err
	}
	if len(answer) > MaxAnswer {
		return out, fail(ErrGarbled, fmt.Errorf("the answer has %d bytes, more than %d", len(answer), MaxAnswer))
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(answer)
	if err != nil {
		return out, fail(ErrGarbled, err)
	}
	key, err := keys.Passkey(ctx, parsed.RawID)
	if errors.Is(err, domain.ErrNotFound) {
		return out, fail(ErrUnknownPasskey, nil)
	} else if err != nil {
		return out, err
	}
	handle := parsed.Response.UserHandle
	switch {
	case sess.PersonID != "" && key.PersonID != sess.PersonID:
		return out, fail(ErrOtherPerson, errors.New("the passkey is not of the person signing in"))
	case len(handle) > 0 && string(handle) != key.PersonID:
		return out, fail(ErrOtherPerson, errors.New("the answer names another person than the passkey's"))
	}
	person, err := keys.Person(ctx, key.PersonID)
	if err != nil {
		return out, err
	}
	have, err := keys.Passkeys(ctx, person.ID)
	if err != nil {
		return out, err
	}
	u := userOf(person, have)
	var cred *webauthn.Credential
	if sess.PersonID == "" {
		cred, err = k.wa.ValidateDiscoverableLogin(func(_, _ []byte) (webauthn.User, error) { return u, nil }, sess.Data, parsed)
	} else {
		cred, err = k.wa.ValidateLogin(u, sess.Data, parsed)
	}
	if err != nil {
		return out, ceremonyError(err)
	}
	if cred.Authenticator.CloneWarning || !people.SignCountValid(key.SignCount, cred.Authenticator.SignCount) {
		return out, fail(people.ErrPasskeyCloned, fmt.Errorf("the counter went from %d to %d", key.SignCount,
			parsed.Response.AuthenticatorData.Counter))
	}
	record, err := json.Marshal(cred)
	if err != nil {
		return out, err
	}
	return Login{Person: person, CredentialID: cred.ID, Credential: record, SignCount: cred.Authenticator.SignCount}, nil
}
