package people

import (
	"context"
	"errors"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
)

// An upgrade in place. Before people existed, Washboard kept the service's
// credentials in two places only: in each signed-in session (sealed with
// the sessions' key, in the web layer's encoding) and in each wall screen
// (sealed for the screen). Neither names a person: a session holds an
// account, its name and credentials; a screen its maker's credentials
// and a contact typed as text. So an upgrade can connect the accounts in
// use, with credentials that worked, but can make no one their owner:
// it connects them with no owner, and the people who were signed in
// become owners as they come back (JoinRole: a legacy session, or an
// account without an owner, gives an owner). Nobody is locked out: the
// credentials still sign in as before.

// SessionOpener opens a session's sealed data, as the web layer keeps it,
// and says which account it is signed in to, with which credentials; ok is
// false for a session it cannot open or that names no account.
type SessionOpener func(data []byte) (account string, cred domain.Credentials, ok bool)

// Upgraded is an account an upgrade connected, and where it found the
// credentials it connected it with, in words.
type Upgraded struct {
	Account string
	From    string // "a signed-in session", "the wall screen Lobby"
}

// Upgrade connects the accounts the cache holds that are not connected,
// with the credentials of a session signed in to them now (opened by
// open, when given) or else of their newest linked wall screen whose
// credentials open. It is meant to run at every start: an account
// connected already is left as it is, and one without credentials to be
// found stays unconnected, for the next person who signs in with its
// credentials to connect and own. It returns the accounts it connected.
func (s *Service) Upgrade(ctx context.Context, open SessionOpener) ([]Upgraded, error) {
	accounts, err := s.store.UnconnectedAccounts(ctx, MaxConnected)
	if err != nil || len(accounts) == 0 {
		return nil, err
	}
	pending := map[string]bool{}
	for _, a := range accounts {
		pending[a] = true
	}
	found := map[string]domain.Credentials{}
	from := map[string]string{}
	if open != nil {
		if err := s.store.ReadSessions(ctx, func(data []byte) error {
			if account, cred, ok := open(data); ok && pending[account] && cred.Validate() == nil {
				if _, had := found[account]; !had {
					found[account], from[account] = cred, "a signed-in session"
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	var out []Upgraded
	for _, account := range accounts {
		if _, ok := found[account]; !ok {
			cred, screen, err := s.screenCredentials(ctx, account)
			if err != nil {
				return out, err
			}
			if screen == "" {
				continue
			}
			found[account], from[account] = cred, "the wall screen "+screen
		}
		now := s.clock.Now()
		err := s.store.ConnectAccount(ctx, store.Connection{Account: account, Sealed: s.sealCredentials(account, found[account]), Connected: now},
			store.Audit{At: now, ActorName: "Washboard", Action: domain.AuditAccountConnected, Subject: "on upgrade, with the credentials of " + from[account]})
		switch {
		case errors.Is(err, domain.ErrAlreadyConnected): // by another replica, or a person, meanwhile
		case err != nil:
			return out, err
		default:
			out = append(out, Upgraded{Account: account, From: from[account]})
		}
	}
	return out, nil
}

// screenCredentials returns the credentials of the account's newest
// linked screen that this server's keys open, and the screen's name; ""
// when there is none.
func (s *Service) screenCredentials(ctx context.Context, account string) (domain.Credentials, string, error) {
	screens, err := s.store.Screens(ctx, account)
	if err != nil {
		return domain.Credentials{}, "", err
	}
	sealed, err := s.store.ScreenCredentials(ctx, account)
	if err != nil {
		return domain.Credentials{}, "", err
	}
	for _, sc := range screens { // newest first
		if !sc.Revoked.IsZero() {
			continue
		}
		if cred, _, err := s.keys.OpenCredentials(keyring.ScreenCredentials, sealed[sc.ID], []byte(sc.ID)); err == nil && cred.Validate() == nil {
			return cred, sc.Name, nil
		}
	}
	return domain.Credentials{}, "", nil
}
