package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/internal/store/sqlite"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
)

// A connected account keeps syncing with nobody signed in: serve holds
// the sync of each with the credentials it is connected with.
func TestConnectedAccountsSyncWithNobodySignedIn(t *testing.T) {
	t.Parallel()
	u := newUpstreamSimOf(t, 10)
	ctx, cancel := context.WithCancel(context.Background())
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "washboard.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	client, err := upstream.New(upstream.Config{BaseURL: u.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	engine := syncer.New(ctx, syncer.UpstreamSource{Client: client}, st, clock.Real{}, syncer.Config{}, log)
	t.Cleanup(func() { cancel(); engine.Wait() })
	team := people.New(st, ring(t, 1), nil, people.Config{})
	account := u.world.Accounts()[0].ID
	if _, _, err := team.SignInWithCredentials(ctx, people.CredentialsSignIn{Account: account, Name: "Ann",
		Cred: domain.Credentials{APIKey: u.cred.APIKey, Authorization: u.cred.Authorization}}); err != nil {
		t.Fatal(err)
	}
	events, stop := engine.Subscribe(account)
	defer stop()
	go holdConnected(ctx, team, engine, clock.Real{}, log)
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Resource == domain.ResourceAlerts && ev.Kind == syncer.EventChanged {
				return
			}
		case <-timeout:
			t.Fatal("the connected account did not sync within 20 s with nobody signed in")
		}
	}
}
