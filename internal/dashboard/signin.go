package dashboard

import (
	"context"
	"errors"
	"fmt"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// Why the service refuses credentials at sign-in.
var (
	// ErrRevoked: the token endpoint refused the client ID and secret.
	ErrRevoked = errors.New("the token endpoint refused the client")
	// ErrRejected: the service rejected the credentials.
	ErrRejected = errors.New("the service rejected the credentials")
	// ErrAPIKey: the service rejected the API key (it wraps ErrRejected).
	ErrAPIKey = fmt.Errorf("%w: the API key", ErrRejected)
	// ErrUnreachable: the service could not be asked, or did not say whose
	// the credentials are.
	ErrUnreachable = errors.New("the service could not check the credentials")
	// ErrNoAccount: the service answered without saying whose the
	// credentials are (it wraps ErrUnreachable).
	ErrNoAccount = fmt.Errorf("%w: the answer names no account", ErrUnreachable)
)

// Account is whose data credentials open.
type Account struct {
	ID, Name string
}

// VerifyCredentials asks the service, with one small call, whose account
// the credentials open. It fails with ErrRevoked, ErrRejected (ErrAPIKey)
// or ErrUnreachable, wrapping the service's error.
func (s *Service) VerifyCredentials(ctx context.Context, cred domain.Credentials) (Account, error) {
	page, err := s.upstream.Metadata(ctx, cred, upstream.MetadataQuery{Limit: 1})
	switch {
	case errors.Is(err, upstream.ErrClientRevoked):
		return Account{}, fmt.Errorf("%w: %w", ErrRevoked, err)
	case errors.Is(err, upstream.ErrForbidden):
		return Account{}, fmt.Errorf("%w: %w", ErrAPIKey, err)
	case errors.Is(err, upstream.ErrRejected):
		return Account{}, fmt.Errorf("%w: %w", ErrRejected, err)
	case err != nil:
		return Account{}, fmt.Errorf("%w: %w", ErrUnreachable, err)
	case page.AccountID == "":
		return Account{}, ErrNoAccount
	}
	return Account{ID: page.AccountID, Name: page.AccountName}, nil
}
