package people

import (
	"context"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// SignInLink is a one-time sign-in link made for an address. When the
// address is a person's, the caller mails the link /signin/email/{Token}
// to it; when it is nobody's, Person is empty and nothing is sent, and
// the page says the same as when it is someone's.
type SignInLink struct {
	Token   string // shown once, in the mail; "" when nothing is to be sent
	Person  domain.Person
	Expires time.Time
}

// String leaves the token out, as GoString does.
func (l SignInLink) String() string {
	return fmt.Sprintf("sign-in link for person %q until %s", l.Person.ID, l.Expires.Format(time.RFC3339))
}

// GoString is String.
func (l SignInLink) GoString() string { return l.String() }

// RequestSignInLink makes a one-time sign-in link for an address, working
// SignInLinkTTL, once. An address gets at most SignInLinksPerAddress links
// within SignInLinkTTL, and all addresses together SignInLinksPerHour an
// hour: past them, a *domain.TooSoonError says in words how long to wait.
// An address that is nobody's counts alike.
func (s *Service) RequestSignInLink(ctx context.Context, email string) (SignInLink, error) {
	email, err := CheckEmail(email)
	if err != nil {
		return SignInLink{}, err
	}
	if email == "" {
		return SignInLink{}, domain.Problem("Enter your e-mail address.")
	}
	p, err := s.store.PersonByEmail(ctx, email)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return SignInLink{}, err
	}
	token, hash := newToken(signInToken)
	now := s.clock.Now()
	if err := s.store.CreateSignInLink(ctx, store.SignInLink{TokenHash: hash, Email: email, Person: p.ID, Created: now, Expires: now.Add(SignInLinkTTL)},
		store.SignInLimits{PerAddress: SignInLinksPerAddress, Window: SignInLinkTTL, Total: SignInLinksPerHour}); err != nil {
		return SignInLink{}, err
	}
	if p.ID == "" {
		return SignInLink{Expires: now.Add(SignInLinkTTL)}, nil
	}
	return SignInLink{Token: token, Person: p, Expires: now.Add(SignInLinkTTL)}, nil
}

// UseSignInLink signs a person in with a link's token, once:
// domain.ErrSignInLinkUnknown, Used or Expired when it cannot.
func (s *Service) UseSignInLink(ctx context.Context, token string) (domain.Person, error) {
	hash, ok := hashOf(signInToken, token)
	if !ok {
		return domain.Person{}, domain.ErrSignInLinkUnknown
	}
	return s.store.UseSignInLink(ctx, hash, s.clock.Now())
}
