package people

import (
	"context"
	"fmt"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
)

// CredentialsSignIn is a person signing in with the service's credentials
// of an account, which the caller has verified with the service.
type CredentialsSignIn struct {
	Account string
	Cred    domain.Credentials
	// PersonID is the person signed in already, if any; otherwise a new
	// person is made with Name and Email.
	PersonID    string
	Name, Email string
	// Legacy says that the person was signed in with these credentials
	// before the account was connected (a session from before the
	// upgrade): see JoinRole.
	Legacy bool
}

// SignInWithCredentials connects the account with the credentials when
// it is not connected, and makes the person a member of it (see
// JoinRole); a person who belongs to it already keeps their role. It
// returns the person and their membership.
func (s *Service) SignInWithCredentials(ctx context.Context, c CredentialsSignIn) (domain.Person, domain.Membership, error) {
	var p domain.Person
	if err := c.Cred.Validate(); err != nil {
		return p, domain.Membership{}, err
	}
	j := store.Join{Account: c.Account, Sealed: s.sealCredentials(c.Account, c.Cred), At: s.clock.Now(),
		Decide: func(st store.JoinState) (domain.Role, error) {
			if !st.Connected && st.Connections >= MaxConnected {
				return domain.NoRole, &domain.LimitError{Holder: "This server", What: "connected accounts", Max: MaxConnected,
					Advice: "An owner can disconnect an account no longer used."}
			}
			return JoinRole(st, c.Legacy), nil
		},
		MaxPeople: MaxPeople, MaxAccounts: MaxAccounts}
	var err error
	if c.PersonID != "" {
		p, err = s.store.Person(ctx, c.PersonID)
	} else {
		p, err = s.newPerson(c.Name, c.Email)
		j.NewPerson = true
	}
	if err != nil {
		return p, domain.Membership{}, err
	}
	j.Person = p
	m, err := s.store.JoinAccount(ctx, j)
	return p, m, err
}

// newPerson is a person not stored yet, with a checked name and address.
func (s *Service) newPerson(name, email string) (domain.Person, error) {
	var p domain.Person
	var err error
	if p.Name, err = CheckName(name); err != nil {
		return p, err
	}
	if p.Email, err = CheckEmail(email); err != nil {
		return p, err
	}
	p.ID, p.Created = newID(12), s.clock.Now()
	return p, nil
}

func (s *Service) sealCredentials(account string, c domain.Credentials) []byte {
	return s.keys.SealCredentials(keyring.AccountCredentials, c, []byte(account))
}

// ReplaceCredentials replaces the credentials the actor's account is
// connected with (the service's key was rotated): owners only. The caller
// verifies them with the service first.
func (s *Service) ReplaceCredentials(ctx context.Context, actor domain.Member, cred domain.Credentials) error {
	if !AtLeast(actor.Membership, domain.Owner) {
		return forbidden("Only an owner can replace the account's credentials.")
	}
	if err := cred.Validate(); err != nil {
		return err
	}
	return s.store.ReplaceAccountCredentials(ctx, actor.Account, s.sealCredentials(actor.Account, cred), s.clock.Now(),
		s.auditBy(actor, domain.AuditCredentialsReplaced, "the service's credentials"))
}

// Summary says how much of the actor's account Washboard keeps: what
// disconnecting it removes. Owners only.
func (s *Service) Summary(ctx context.Context, actor domain.Member) (domain.AccountSummary, error) {
	if !AtLeast(actor.Membership, domain.Owner) {
		return domain.AccountSummary{}, forbidden("Only an owner can disconnect the account.")
	}
	return s.store.AccountSummary(ctx, actor.Account)
}

// Disconnect removes the actor's account and everything Washboard keeps
// of it (see store.Connections.DisconnectAccount): owners only. It
// returns the token hashes of the sessions it ended, for the caller to
// drop and announce. The caller first stops the account's sync, so that
// no refresh writes it again.
func (s *Service) Disconnect(ctx context.Context, actor domain.Member) ([]string, error) {
	if !AtLeast(actor.Membership, domain.Owner) {
		return nil, forbidden("Only an owner can disconnect the account.")
	}
	return s.store.DisconnectAccount(ctx, actor.Account)
}

// Connected is a connected account with the credentials it syncs with.
type Connected struct {
	Account string
	Cred    domain.Credentials // prints as REDACTED
	// NeedsCredentials says that this server's keys cannot open what is
	// kept (the key changed): an owner replaces them.
	NeedsCredentials bool
}

// ConnectedAccounts lists the connected accounts with their credentials,
// for the sync to hold them with nobody signed in.
func (s *Service) ConnectedAccounts(ctx context.Context) ([]Connected, error) {
	all, err := s.store.Connections(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Connected, 0, len(all))
	for _, c := range all {
		cred, _, err := s.keys.OpenCredentials(keyring.AccountCredentials, c.Sealed, []byte(c.Account))
		out = append(out, Connected{Account: c.Account, Cred: cred, NeedsCredentials: err != nil})
	}
	return out, nil
}

// ResealCredentials seals again with the current key the connected
// accounts' credentials an old key of the ring sealed (a key rotation),
// and returns how many.
func (s *Service) ResealCredentials(ctx context.Context) (int, error) {
	all, err := s.store.Connections(ctx)
	if err != nil {
		return 0, err
	}
	byAccount := map[string]store.Reseal{}
	for _, c := range all {
		if b, changed, err := s.keys.Reseal(keyring.AccountCredentials, c.Sealed, []byte(c.Account)); err == nil && changed {
			byAccount[c.Account] = store.Reseal{Old: c.Sealed, New: b}
		}
	}
	n, err := s.store.ResealAccountCredentials(ctx, byAccount)
	if err != nil {
		return 0, fmt.Errorf("sealing connected accounts' credentials with the new key: %w", err)
	}
	return n, nil
}

// Credentials returns the credentials a connected account syncs with, for
// a member who switches to it: domain.ErrNotConnected when it is not
// connected, and an error in words when this server's keys cannot open
// them (an owner replaces them).
func (s *Service) Credentials(ctx context.Context, account string) (domain.Credentials, error) {
	c, err := s.store.Connection(ctx, account)
	if err != nil {
		return domain.Credentials{}, err
	}
	cred, _, err := s.keys.OpenCredentials(keyring.AccountCredentials, c.Sealed, []byte(account))
	if err != nil {
		return domain.Credentials{}, ErrCredentialsSealed
	}
	return cred, nil
}

// SyncHolder is the name under which a connected account's sync is held
// with nobody signed in.
func SyncHolder(account string) string { return "account:" + account }
