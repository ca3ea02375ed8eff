package passkey

import (
	"errors"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/passkey/passkeytest"
	"washboard/internal/people"
	"washboard/internal/people/peopletest"
)

const (
	rpID   = "washboard.example.com"
	origin = "https://washboard.example.com"
)

type fixture struct {
	keys  *Passkeys
	svc   *people.Service
	clock *clock.Fake
}

// newFixture is the ceremonies of the site, over the people service on a
// real SQLite store, on a fake clock.
func newFixture(t *testing.T) fixture {
	t.Helper()
	c := clock.NewFake(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	svc, _ := peopletest.New(t, c)
	cfg, err := ConfigFor(origin)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Clock = c
	k, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{keys: k, svc: svc, clock: c}
}

// person signs a new person in with an account's credentials.
func (f fixture) person(t *testing.T, name string) domain.Person {
	t.Helper()
	p, _, err := f.svc.SignInWithCredentials(t.Context(), people.CredentialsSignIn{Account: "a", Name: name,
		Cred: domain.Credentials{APIKey: "key-of-a-1234567890", Authorization: "Bearer secret-token-a"}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// register registers a new software passkey for p and stores it.
func (f fixture) register(t *testing.T, p domain.Person) *passkeytest.Authenticator {
	t.Helper()
	a := passkeytest.New(t, rpID, origin)
	have, _ := f.svc.Passkeys(t.Context(), p.ID)
	opts, s, err := f.keys.BeginRegistration(p, have)
	if err != nil {
		t.Fatal(err)
	}
	k, err := f.keys.FinishRegistration(p, have, s, a.Register(t, opts), "")
	if err != nil {
		t.Fatalf("registering: %v", err)
	}
	if _, err := f.svc.AddPasskey(t.Context(), p, k); err != nil {
		t.Fatal(err)
	}
	return a
}

// signIn runs a sign-in with a, for p (or anyone, when p is zero), and
// records it as the web does.
func (f fixture) signIn(t *testing.T, p domain.Person, a *passkeytest.Authenticator) (Login, error) {
	t.Helper()
	have, _ := f.svc.Passkeys(t.Context(), p.ID)
	opts, s, err := f.keys.BeginLogin(p, have)
	if err != nil {
		t.Fatal(err)
	}
	l, err := f.keys.FinishLogin(t.Context(), f.svc, s, a.Assert(t, opts))
	if err != nil {
		return l, err
	}
	return l, f.svc.UsePasskey(t.Context(), l.CredentialID, l.Credential, l.SignCount)
}

func wantReason(t *testing.T, err, reason error) {
	t.Helper()
	if !errors.Is(err, reason) {
		t.Fatalf("error %v, want %q", err, reason)
	}
	if err.Error() != reason.Error() {
		t.Errorf("the error says %q, want %q", err, reason)
	}
}

// A passkey registered by a person signs them in, whether the browser
// picks it or the sign-in asks for their passkeys; its counter is kept.
func TestRegisterThenSignIn(t *testing.T) {
	f := newFixture(t)
	ana := f.person(t, "Ana")
	a := f.register(t, ana)
	for _, who := range []domain.Person{{}, ana} {
		l, err := f.signIn(t, who, a)
		if err != nil {
			t.Fatalf("signing in (for %q): %v", who.Name, err)
		}
		if l.Person.ID != ana.ID || l.Person.Name != "Ana" {
			t.Errorf("signed in as %+v, want Ana", l.Person)
		}
	}
	keys, _ := f.svc.Passkeys(t.Context(), ana.ID)
	if len(keys) != 1 || keys[0].SignCount != 2 || keys[0].Name != "Passkey 1" {
		t.Errorf("stored passkeys %+v; want one, named Passkey 1, used twice", keys)
	}
}

// A passkey that keeps no counter (a synced one sends 0 every time) signs
// in again and again.
func TestPasskeyWithoutCounter(t *testing.T) {
	f := newFixture(t)
	ana := f.person(t, "Ana")
	a := f.register(t, ana)
	a.NoCounter = true
	for i := range 3 {
		if _, err := f.signIn(t, domain.Person{}, a); err != nil {
			t.Fatalf("sign-in %d: %v", i+1, err)
		}
	}
}

// A person's passkey does not sign in someone else, nor does an answer
// that names another person than the passkey's.
func TestPasskeyOfAnotherPerson(t *testing.T) {
	f := newFixture(t)
	ana, ben := f.person(t, "Ana"), f.person(t, "Ben")
	f.register(t, ana)
	b := f.register(t, ben)
	_, err := f.signIn(t, ana, b)
	wantReason(t, err, ErrOtherPerson)

	b.UserHandle = []byte(ana.ID)
	_, err = f.signIn(t, domain.Person{}, b)
	wantReason(t, err, ErrOtherPerson)
}

// An answer made for another site, by its address (the origin) or by the
// relying party it was signed for, is refused.
func TestAnotherSite(t *testing.T) {
	f := newFixture(t)
	ana := f.person(t, "Ana")
	a := f.register(t, ana)

	a.Origin = "https://washboard.example.net"
	_, err := f.signIn(t, domain.Person{}, a)
	wantReason(t, err, ErrOtherSite)

	a.Origin, a.RPID = origin, "washboard.example.net"
	_, err = f.signIn(t, domain.Person{}, a)
	wantReason(t, err, ErrOtherSite)

	other := passkeytest.New(t, rpID, origin)
	other.Origin = "https://evil.example"
	opts, s, _ := f.keys.BeginRegistration(ana, nil)
	_, err = f.keys.FinishRegistration(ana, nil, s, other.Register(t, opts), "")
	wantReason(t, err, ErrOtherSite)
}

// A ceremony's answer is taken once, within its time.
func TestReplayedChallenge(t *testing.T) {
	f := newFixture(t)
	ana := f.person(t, "Ana")
	a := f.register(t, ana)
	opts, s, _ := f.keys.BeginLogin(domain.Person{}, nil)
	answer := a.Assert(t, opts)
	if _, err := f.keys.FinishLogin(t.Context(), f.svc, s, answer); err != nil {
		t.Fatal(err)
	}
	_, err := f.keys.FinishLogin(t.Context(), f.svc, s, answer)
	wantReason(t, err, ErrReplayed)

	opts, s, _ = f.keys.BeginLogin(domain.Person{}, nil)
	answer = a.Assert(t, opts)
	f.clock.Advance(Timeout)
	_, err = f.keys.FinishLogin(t.Context(), f.svc, s, answer)
	wantReason(t, err, ErrExpired)

	_, reg, _ := f.keys.BeginRegistration(ana, nil)
	_, err = f.keys.FinishLogin(t.Context(), f.svc, reg, answer)
	wantReason(t, err, ErrNoCeremony)
}

// A passkey whose counter goes back (a copy of it signs in after the
// original went on) is refused.
func TestSignCountGoesBack(t *testing.T) {
	f := newFixture(t)
	ana := f.person(t, "Ana")
	a := f.register(t, ana)
	clone := *a
	for range 3 {
		if _, err := f.signIn(t, domain.Person{}, a); err != nil {
			t.Fatal(err)
		}
	}
	_, err := f.signIn(t, domain.Person{}, &clone)
	wantReason(t, err, people.ErrPasskeyCloned)
}

// A passkey registered nowhere here is refused in words, as is an answer
// that is not one, and the same passkey registered twice.
func TestUnknownAndGarbledAnswers(t *testing.T) {
	f := newFixture(t)
	ana := f.person(t, "Ana")
	a := f.register(t, ana)
	_, err := f.signIn(t, domain.Person{}, passkeytest.New(t, rpID, origin))
	wantReason(t, err, ErrUnknownPasskey)

	_, s, _ := f.keys.BeginLogin(domain.Person{}, nil)
	_, err = f.keys.FinishLogin(t.Context(), f.svc, s, []byte(`{"id": "not a passkey"}`))
	wantReason(t, err, ErrGarbled)

	have, _ := f.svc.Passkeys(t.Context(), ana.ID)
	opts, s, _ := f.keys.BeginRegistration(ana, have)
	_, err = f.keys.FinishRegistration(ana, have, s, a.Register(t, opts), "")
	if !errors.Is(err, domain.ErrPasskeyRegistered) {
		t.Errorf("registering a passkey twice: %v", err)
	}
}
