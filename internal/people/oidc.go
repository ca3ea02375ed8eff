package people

import (
	"context"
	"strings"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Claims are what an OpenID provider's ID token, checked by the caller
// (issuer, audience, expiry, signature, nonce), says of a person.
type Claims struct {
	Issuer, Subject string
	Name            string // "" takes the address, or the subject
	Email           string
	EmailVerified   bool
	Groups          []string // as the configured claim holds them
}

// OIDCSignIn is the outcome of a sign-in through single sign-on.
type OIDCSignIn struct {
	Person      domain.Person
	Memberships []domain.Membership // every membership of the person, by account; none: no account lets them in
	// Ended are the token hashes of the sessions that changes of
	// memberships ended, for the caller to drop and announce.
	Ended []string
}

// SignInOIDC creates or updates the person of an identity at an OpenID
// provider, with the memberships the mappings give their groups
// (MembershipsFromGroups): those replace the memberships single sign-on
// gave before; memberships from invitations stay; an account keeps an
// owner. A verified address that is a person's without an identity joins
// the identity to them; an address that is another's is not taken.
func (s *Service) SignInOIDC(ctx context.Context, c Claims, mappings []GroupMapping) (OIDCSignIn, error) {
	var out OIDCSignIn
	issuer, err := checkText(Issuer, c.Issuer, maxIdentityField, true)
	if err != nil {
		return out, err
	}
	subject, err := checkText(Subject, c.Subject, maxIdentityField, true)
	if err != nil {
		return out, err
	}
	email, err := CheckEmail(c.Email)
	if err != nil {
		email = ""
	}
	name := strings.TrimSpace(c.Name)
	if name == "" {
		name = email
	}
	if name == "" {
		name = subject
	}
	if name, err = CheckName(cut(strings.Map(dropControl, name), domain.MaxPersonName-1)); err != nil {
		return out, err
	}
	now := s.clock.Now()
	p, ended, err := s.store.SignInOIDC(ctx, store.OIDCSignIn{
		Person:      domain.Person{ID: newID(12), Name: name, Email: email, Issuer: issuer, Subject: subject, Created: now},
		LinkByEmail: c.EmailVerified && email != "",
		Memberships: MembershipsFromGroups(mappings, c.Groups),
		MaxPeople:   MaxPeople,
		At:          now,
		Audit:       store.Audit{At: now, ActorName: "Single sign-on"},
	})
	if err != nil {
		return out, err
	}
	ms, err := s.store.MembershipsOf(ctx, p.ID)
	return OIDCSignIn{Person: p, Memberships: ms, Ended: ended}, err
}

// dropControl leaves out control characters.
func dropControl(r rune) rune {
	if r < ' ' || r == 0x7f {
		return -1
	}
	return r
}
