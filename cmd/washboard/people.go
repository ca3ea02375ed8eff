package main

import (
	"context"
	"log/slog"
	"time"

	"washboard/internal/clock"
	"washboard/internal/keyring"
	"washboard/internal/people"
	"washboard/internal/syncer"
	"washboard/web"
)

// upgradePeople connects the accounts a cache made before people existed
// holds, with the credentials of the sessions signed in to them or of
// their wall screens (see people.Upgrade); it changes nothing the second
// time.
func upgradePeople(ctx context.Context, team *people.Service, keys *keyring.Ring, log *slog.Logger) error {
	up, err := team.Upgrade(ctx, web.OpenSession(keys))
	for _, u := range up {
		log.Info("connected an account on upgrade: the next person to sign in with its credentials owns it", "account", u.Account, "from", u.From)
	}
	return err
}

// connectedHoldEvery is how often the holds on connected accounts' syncs
// are renewed; each lasts three times as long.
const connectedHoldEvery = 5 * time.Minute

// holdConnected keeps the sync of every connected account running with the
// credentials it is connected with, with nobody signed in, until ctx ends:
// it reads them now and every connectedHoldEvery, and lets go of the
// accounts disconnected meanwhile.
func holdConnected(ctx context.Context, team *people.Service, engine *syncer.Engine, clk clock.Clock, log *slog.Logger) {
	held := map[string]bool{}
	for {
		if accounts, err := team.ConnectedAccounts(ctx); err != nil {
			if ctx.Err() == nil {
				log.Warn("reading the connected accounts", "error", err.Error())
			}
		} else {
			now := map[string]bool{}
			for _, a := range accounts {
				if a.NeedsCredentials {
					log.Warn("a connected account's credentials do not open with this server's key: an owner signs in with the service's credentials to replace them", "account", a.Account)
					continue
				}
				engine.Hold(people.SyncHolder(a.Account), a.Account, a.Cred, clk.Now().Add(3*connectedHoldEvery))
				now[a.Account] = true
			}
			for account := range held {
				if !now[account] {
					engine.Release(people.SyncHolder(account))
				}
			}
			held = now
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(connectedHoldEvery):
		}
	}
}
