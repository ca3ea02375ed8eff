package sim

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"time"
)

// Credentials are the two values a client sends with every request: the
// x-api-key header and the Authorization header.
type Credentials struct {
	APIKey        string
	Authorization string
}

// NewCredentials draws fresh random credentials.
func NewCredentials() Credentials {
	return Credentials{
		APIKey:        "sim_" + randomToken(24),
		Authorization: "Bearer " + randomToken(32),
	}
}

func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("sim: reading random bytes: %v", err)) // crypto/rand does not fail on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// Config describes a simulated world.
type Config struct {
	Seed      uint64        // the same seed and size give the same world
	Locations int           // device locations per account
	Accounts  int           // number of accounts; at least 1
	History   time.Duration // how much history to simulate before now
	Clock     Clock         // simulated time; a ScaledClock at speed 1 if nil
	Zone      *time.Location
	// Credentials of the accounts, in order. Accounts without an entry get
	// random ones.
	Credentials []Credentials
	// OAuth clients of the accounts, in order, for POST /oauth/token.
	// Accounts without an entry get random ones.
	Clients []Client
	// TokenLifetime is how long an access token lasts in simulated time.
	// When it is zero, tokens last DefaultTokenLifetime and the fixed
	// Authorization value of Credentials is accepted too; when it is set,
	// only access tokens are.
	TokenLifetime time.Duration
	// Webhooks tune how webhooks are sent, once an account defines one.
	// Defining one starts goroutines that Close stops.
	Webhooks WebhookOptions
	// Record, when set, is given each account's readings of every device
	// (a gateway's without levels) every RecordEvery (an hour when not
	// positive) of the history New simulates from RecordFrom on, as a
	// service polled that often would have reported them: the readings of
	// account k at at. The slice is reused: Record copies what it keeps.
	Record      func(k int, at time.Time, readings []ProductReading)
	RecordEvery time.Duration
	RecordFrom  time.Time
}

// World is a simulated Device Monitoring Service: accounts with their
// fleets and alerts, moving forward as the clock does.
type World struct {
	clock    Clock
	seed     uint64
	accounts []*Account
	chaos    *chaos
	clients  []*oauthClient // by account
	tokens   tokenPolicy
	hooks    *hooks
}

// New builds a world and simulates its history up to the clock's now.
func New(cfg Config) *World {
	if cfg.Clock == nil {
		cfg.Clock = NewScaledClock(1)
	}
	if cfg.Zone == nil {
		cfg.Zone = time.Local
	}
	if cfg.Accounts < 1 {
		cfg.Accounts = 1
	}
	now := cfg.Clock.Now()
	start := now.Add(-cfg.History).Truncate(time.Millisecond)
	w := &World{clock: cfg.Clock, seed: cfg.Seed, chaos: newChaos(cfg.Seed), clients: newOAuthClients(cfg.Accounts, cfg.Clients),
		tokens: newTokenPolicy(cfg.TokenLifetime, cfg.Clock)}
	w.hooks = newHooks(w, cfg.Webhooks)
	for k := 0; k < cfg.Accounts; k++ {
		creds := NewCredentials()
		if k < len(cfg.Credentials) {
			creds = cfg.Credentials[k]
		}
		a := generateAccount(cfg.Seed, k, cfg.Locations, creds, start, cfg.Zone)
		if cfg.Record != nil {
			every := cfg.RecordEvery
			if every <= 0 {
				every = time.Hour
			}
			var readings []ProductReading
			for at := start.Add(every); at.Before(now); at = at.Add(every) {
				if at.Before(cfg.RecordFrom) {
					continue
				}
				a.advance(at)
				readings = a.productReadings(at, readings, true)
				cfg.Record(k, at, readings)
			}
		}
		a.advance(now)
		w.accounts = append(w.accounts, a)
	}
	return w
}

// Accounts returns the world's accounts.
func (w *World) Accounts() []*Account { return w.accounts }

// Now returns the world's simulated time.
func (w *World) Now() time.Time { return w.clock.Now() }

// authenticate finds the account of a request's credentials. It answers 403
// when the x-api-key is missing or matches no account, and 401 when the key
// is valid but the Authorization value is missing or does not authorize
// that account (see authorize).
func (w *World) authenticate(apiKey, authorization string) (*Account, *apiError) {
	k, aerr := w.accountByKey(apiKey)
	if aerr != nil {
		return nil, aerr
	}
	if authorization == "" {
		return nil, errUnauthorized("the Authorization header is missing")
	}
	if aerr := w.authorize(k, authorization); aerr != nil {
		return nil, aerr
	}
	return w.accounts[k], nil
}

// accountByKey finds the index of the account whose x-api-key apiKey is,
// comparing with every account's in constant time. It answers 403 when the
// key is missing or matches no account.
func (w *World) accountByKey(apiKey string) (int, *apiError) {
	if apiKey == "" {
		return 0, errForbidden("the x-api-key header is missing")
	}
	found := -1
	for k, a := range w.accounts {
		a.mu.Lock()
		key := a.APIKey
		a.mu.Unlock()
		if subtle.ConstantTimeCompare([]byte(apiKey), []byte(key)) == 1 {
			found = k
		}
	}
	if found < 0 {
		return 0, errForbidden("the x-api-key is not valid")
	}
	return found, nil
}
