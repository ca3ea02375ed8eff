package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/sim"
)

// The OAuth clients of the token tests' accounts. Every secret holds
// "5ecret", so that a test can look for it in any text.
var (
	client1 = sim.Client{ID: "client-1", Secret: "client-5ecret-1"}
	client2 = sim.Client{ID: "client-2", Secret: "client-5ecret-2"}
	client3 = sim.Client{ID: "client-3", Secret: "client-5ecret-3"}
)

func oauthCred(apiKey string, c sim.Client) Credentials {
	return Credentials{APIKey: apiKey, ClientID: c.ID, ClientSecret: c.Secret}
}

// tokenEnv is a simulated service with three small accounts, k1 to k3,
// whose OAuth clients are client1 to client3, and a Client of it whose
// tokens are timed by a fake clock that moves with the service's.
type tokenEnv struct {
	world  *sim.World
	simClk *sim.ManualClock
	clk    *clock.Fake
	gate   *gate
	rec    *recorder
	client *Client
	sleeps *sleeper
}

// newTokenEnv builds a tokenEnv whose tokens last lifetime in the
// service (0: an hour, with the fixed Authorization values a1 to a3
// accepted too). configure, if not nil, adjusts the Client's Config.
func newTokenEnv(t *testing.T, lifetime time.Duration, configure func(*Config)) *tokenEnv {
	t.Helper()
	simClk := sim.NewManualClock(testNow)
	w := newOAuthWorld(simClk, lifetime)
	g := &gate{next: w.Handler()}
	srv, rec := serve(t, g)
	t.Cleanup(g.open) // before the server closes, so that no handler is left waiting
	clk := clock.NewFake(testNow)
	c, s := newClient(t, srv.URL, func(cfg *Config) {
		cfg.Clock = clk
		if configure != nil {
			configure(cfg)
		}
	})
	t.Cleanup(func() { c.Close() })
	return &tokenEnv{world: w, simClk: simClk, clk: clk, gate: g, rec: rec, client: c, sleeps: s}
}

// newOAuthWorld is the simulated service of a tokenEnv.
func newOAuthWorld(clk sim.Clock, lifetime time.Duration) *sim.World {
	return sim.New(sim.Config{
		Seed: 3, Locations: 4, Accounts: 3, History: time.Hour, Clock: clk, Zone: time.UTC,
		Credentials: []sim.Credentials{{APIKey: "k1", Authorization: "a1"}, {APIKey: "k2", Authorization: "a2"}, {APIKey: "k3", Authorization: "a3"}},
		Clients:     []sim.Client{client1, client2, client3}, TokenLifetime: lifetime,
	})
}

// advance moves the service's clock and then the Client's.
func (e *tokenEnv) advance(d time.Duration) {
	e.simClk.Add(d)
	e.clk.Advance(d)
}

// call fetches a page of metadata with cred.
func (e *tokenEnv) call(cred Credentials) error {
	_, err := e.client.Metadata(context.Background(), cred, MetadataQuery{Limit: 1})
	return err
}

func (e *tokenEnv) mustCall(t *testing.T, cred Credentials) {
	t.Helper()
	if err := e.call(cred); err != nil {
		t.Fatalf("call failed: %v", err)
	}
}

// callAll makes n calls with each credential at once and returns their
// errors.
func (e *tokenEnv) callAll(n int, creds ...Credentials) []error {
	start := make(chan struct{})
	errs := make([]error, n*len(creds))
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			<-start
			errs[i] = e.call(creds[i%len(creds)])
		})
	}
	close(start)
	wg.Wait()
	return errs
}

func mustSucceed(t *testing.T, errs []error) {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("a call failed: %v", err)
		}
	}
}

// tokenRequests and dataRequests count the requests the service received
// at its token endpoint and at the others.
func (e *tokenEnv) tokenRequests() int { return len(e.requests(true)) }
func (e *tokenEnv) dataRequests() int  { return len(e.requests(false)) }

func (e *tokenEnv) requests(token bool) []*http.Request {
	var out []*http.Request
	for _, r := range e.rec.requests() {
		if (r.URL.Path == sim.TokenPath) == token {
			out = append(out, r)
		}
	}
	return out
}

// lastAuthorization is the Authorization header of the last data request.
func (e *tokenEnv) lastAuthorization(t *testing.T) string {
	t.Helper()
	reqs := e.requests(false)
	if len(reqs) == 0 {
		t.Fatal("no data request was sent")
	}
	return reqs[len(reqs)-1].Header.Get("Authorization")
}

// within runs fn and fails the test if it has not returned within d:
// what fn waits for did not happen, or took far longer than it should.
// It bounds a wait; it is not a way to wait.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: not done within %s", what, d)
	}
}

// scheduled waits until n renewals are scheduled on the fake clock.
func (e *tokenEnv) scheduled(t *testing.T, n int) {
	t.Helper()
	within(t, time.Minute, fmt.Sprintf("%d renewals scheduled", n), func() { e.clk.BlockUntil(n) })
}

// gate holds the requests to the token endpoint while it is shut, and
// tells of each as it arrives.
type gate struct {
	next    http.Handler
	mu      sync.Mutex
	shutCh  chan struct{} // nil while open
	arrived chan struct{}
}

func (g *gate) shut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.shutCh, g.arrived = make(chan struct{}), make(chan struct{}, 100)
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.shutCh != nil {
		close(g.shutCh)
		g.shutCh = nil
	}
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	shut, arrived := g.shutCh, g.arrived
	g.mu.Unlock()
	if shut != nil && r.URL.Path == sim.TokenPath {
		arrived <- struct{}{}
		select {
		case <-shut:
		case <-r.Context().Done():
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

func TestTokenIsRenewedInTheBackgroundAt80PercentOfItsLife(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t, time.Hour, nil)
	cred := oauthCred("k1", client1)
	e.mustCall(t, cred)
	if n := e.world.TokensIssued(0); n != 1 {
		t.Fatalf("%d tokens issued for the first call, want 1", n)
	}
	e.scheduled(t, 1)

	e.advance(47 * time.Minute)
	before := e.lastAuthorization(t)
	e.mustCall(t, cred)
	if n, auth := e.world.TokensIssued(0), e.lastAuthorization(t); n != 1 || auth != before {
		t.Fatalf("at 47 minutes of a 60-minute token: %d tokens issued, want 1, and the token was changed: %t", n, auth != before)
	}

	// Renewals fall at 48 minutes past each token. The third is past the
	// first token's end: only renewed tokens are accepted by then.
	for k := 1; k <= 3; k++ {
		e.gate.shut()
		e.advance(time.Duration(48*k)*time.Minute - e.clk.Now().Sub(testNow))
		within(t, time.Minute, "the renewal's token request", func() { <-e.gate.arrived })

		old := e.lastAuthorization(t)
		// A call that waited for the renewal would wait for the attempt's
		// timeout, 30 seconds: a local request takes milliseconds.
		var err error
		within(t, 10*time.Second, "a call while the renewal is held", func() { err = e.call(cred) })
		if err != nil {
			t.Fatalf("renewal %d: a call while the renewal was under way failed: %v", k, err)
		}
		if auth := e.lastAuthorization(t); auth != old {
			t.Fatalf("renewal %d: a request made while the renewal was under way did not use the token in hand", k)
		}
		if n := e.tokenRequests(); n != k+1 {
			t.Fatalf("renewal %d: %d token requests, want %d", k, n, k+1)
		}

		e.gate.open()
		e.scheduled(t, 1) // the renewal is done and the next one scheduled
		if n := e.world.TokensIssued(0); n != k+1 {
			t.Fatalf("renewal %d: %d tokens issued, want %d", k, n, k+1)
		}
		e.mustCall(t, cred)
		if auth := e.lastAuthorization(t); auth == old {
			t.Fatalf("renewal %d: the next request still used the old token", k)
		}
		if n := e.tokenRequests(); n != k+1 {
			t.Fatalf("renewal %d: %d token requests after a call with the renewed token, want %d", k, n, k+1)
		}
	}
}

func TestOneTokenRequestPerCredentialHoweverManyCallers(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t, time.Hour, nil)
	creds := []Credentials{oauthCred("k1", client1), oauthCred("k2", client2)}

	mustSucceed(t, e.callAll(50, creds...))
	if a, b, n := e.world.TokensIssued(0), e.world.TokensIssued(1), e.tokenRequests(); a != 1 || b != 1 || n != 2 {
		t.Fatalf("100 calls with two credentials: %d and %d tokens issued, %d token requests; want 1, 1 and 2", a, b, n)
	}

	for k := 1; k <= 2; k++ {
		e.scheduled(t, 2)
		e.advance(48 * time.Minute)
		mustSucceed(t, e.callAll(50, creds...)) // while the renewals run
		e.scheduled(t, 2)
		mustSucceed(t, e.callAll(50, creds...))
		if a, b, n := e.world.TokensIssued(0), e.world.TokensIssued(1), e.tokenRequests(); a != k+1 || b != k+1 || n != 2*(k+1) {
			t.Fatalf("renewal %d: %d and %d tokens issued, %d token requests; want %d, %d and %d", k, a, b, n, k+1, k+1, 2*(k+1))
		}
	}
}

func TestTokenRefusedBeforeItsTimeIsReplacedOnceAndTheCallRetried(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t, time.Hour, nil)
	cred := oauthCred("k1", client1)
	e.mustCall(t, cred)

	e.world.ExpireTokens(0)
	data := e.dataRequests()
	e.mustCall(t, cred)
	if n := e.dataRequests() - data; n != 2 {
		t.Errorf("a call whose token had expired sent %d requests, want 2: the refused one and its retry", n)
	}
	if n := e.world.TokensIssued(0); n != 2 {
		t.Errorf("%d tokens issued, want 2", n)
	}

	// Many calls refused together still get one new token.
	e.world.ExpireTokens(0)
	mustSucceed(t, e.callAll(50, cred))
	if n := e.world.TokensIssued(0); n != 3 {
		t.Errorf("after 50 calls refused at once, %d tokens issued, want 3", n)
	}
}

func TestCredentialWhoseFreshTokenIsRefusedIsRejectedAfterOneRetry(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t, time.Hour, nil)
	// The second account's client gets tokens, which the first account's
	// API key does not accept.
	cred := oauthCred("k1", client2)
	err := e.call(cred)
	if !errors.Is(err, ErrRejected) || !errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrClientRevoked) {
		t.Fatalf("error %v, want ErrUnauthorized", err)
	}
	if n := asError(t, err).Attempts; n != 2 {
		t.Errorf("Attempts %d, want 2", n)
	}
	reqs := e.requests(false)
	if len(reqs) != 2 || e.tokenRequests() != 2 {
		t.Fatalf("%d data and %d token requests, want 2 and 2", len(reqs), e.tokenRequests())
	}
	if reqs[0].Header.Get("Authorization") == reqs[1].Header.Get("Authorization") {
		t.Error("the retry was sent with the refused token")
	}
}

func TestRevokedClient(t *testing.T) {
	t.Parallel()
	wantRevoked := func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, ErrClientRevoked) || !errors.Is(err, ErrRejected) || errors.Is(err, ErrTransient) {
			t.Fatalf("error %v, want ErrClientRevoked", err)
		}
		if text := err.Error(); !strings.Contains(text, "token endpoint refused the OAuth client") || !strings.Contains(text, "revoked") {
			t.Errorf("error %q does not say the token endpoint refused the client", text)
		}
	}

	t.Run("while its token is in use", func(t *testing.T) {
		e := newTokenEnv(t, time.Hour, nil)
		cred := oauthCred("k1", client1)
		e.mustCall(t, cred)
		e.world.RevokeClient(0)

		data, tokens := e.dataRequests(), e.tokenRequests()
		for _, err := range e.callAll(50, cred) {
			wantRevoked(t, err)
		}
		if n := e.tokenRequests() - tokens; n != 1 {
			t.Errorf("50 calls sent %d token requests, want 1", n)
		}
		if n := e.dataRequests() - data; n > 50 {
			t.Errorf("50 calls sent %d data requests, want at most one each", n)
		}

		// The refusal is answered for a while without asking again, and
		// nothing is renewed in the background.
		data, tokens = e.dataRequests(), e.tokenRequests()
		for range 10 {
			wantRevoked(t, e.call(cred))
		}
		if e.dataRequests() != data || e.tokenRequests() != tokens {
			t.Errorf("10 more calls sent %d data and %d token requests, want none",
				e.dataRequests()-data, e.tokenRequests()-tokens)
		}
		e.advance(3 * time.Hour)
		if n := e.tokenRequests() - tokens; n != 0 {
			t.Errorf("%d token requests in three idle hours, want none", n)
		}
		wantRevoked(t, e.call(cred))
		if n := e.tokenRequests() - tokens; n != 1 {
			t.Errorf("a call after the refusal's hold sent %d token requests, want 1", n)
		}
	})

	t.Run("before its first token", func(t *testing.T) {
		e := newTokenEnv(t, time.Hour, nil)
		e.world.RevokeClient(1)
		err := e.call(oauthCred("k2", client2))
		wantRevoked(t, err)
		if e.tokenRequests() != 1 || e.dataRequests() != 0 {
			t.Errorf("%d token and %d data requests, want 1 and 0", e.tokenRequests(), e.dataRequests())
		}
	})

	t.Run("wrong secret", func(t *testing.T) {
		e := newTokenEnv(t, time.Hour, nil)
		cred := oauthCred("k1", client1)
		cred.ClientSecret = "wrong-5ecret"
		wantRevoked(t, e.call(cred))
		if e.tokenRequests() != 1 || e.dataRequests() != 0 {
			t.Errorf("%d token and %d data requests, want 1 and 0", e.tokenRequests(), e.dataRequests())
		}
	})
}

func TestFixedAndOAuthCredentialsInOneClient(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t, 0, nil) // fixed values are accepted beside tokens
	fixed, oauth := cred1, oauthCred("k2", client2)
	mustSucceed(t, e.callAll(20, fixed, oauth))
	e.advance(3 * time.Hour)
	mustSucceed(t, e.callAll(20, fixed, oauth))

	for _, r := range e.requests(false) {
		switch key, auth := r.Header.Get("x-api-key"), r.Header.Get("Authorization"); key {
		case "k1":
			if auth != "a1" {
				t.Errorf("the fixed credential was sent with Authorization %q, want it as given", auth)
			}
		case "k2":
			if !strings.HasPrefix(auth, "Bearer ") || auth == "Bearer a2" {
				t.Errorf("the OAuth credential was sent with Authorization %q, want a bearer token", auth)
			}
		}
	}
	for _, r := range e.requests(true) {
		if id, _, _ := r.BasicAuth(); id != client2.ID {
			t.Errorf("a token request for client %q, want only %q's", id, client2.ID)
		}
	}
	if n := e.world.TokensIssued(0); n != 0 {
		t.Errorf("%d tokens issued to the fixed credential's account", n)
	}

	// A fixed value the service refuses is not retried.
	data := e.dataRequests()
	err := e.call(Credentials{APIKey: "k1", Authorization: "wrong"})
	if !errors.Is(err, ErrUnauthorized) || e.dataRequests()-data != 1 {
		t.Errorf("a refused fixed value: error %v after %d requests, want ErrUnauthorized after 1", err, e.dataRequests()-data)
	}
}

// tokenAnswer answers a token request in place of the service, next.
type tokenAnswer func(w http.ResponseWriter, r *http.Request, next http.Handler)

// tokenAnswers serves the token endpoint with answer and passes every
// other request to next.
func tokenAnswers(next http.Handler, answer tokenAnswer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == sim.TokenPath {
			answer(w, r, next)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func TestTokenEndpointFailures(t *testing.T) {
	t.Parallel()
	elsewhere, elsewhereRec := serve(t, staticHandler(200, `{"access_token":"x","token_type":"Bearer","expires_in":3600}`))
	var fails int
	var mu sync.Mutex
	// echo is an error description that repeats what the request carried.
	echo := func(r *http.Request) string {
		id, secret, _ := r.BasicAuth()
		return fmt.Sprintf("client %s with secret %s, header %s", id, secret, r.Header.Get("Authorization"))
	}
	tests := []struct {
		name     string
		answer   tokenAnswer
		want     error // nil: the call succeeds
		requests int   // token requests sent
	}{
		{"503 twice, then a token", func(w http.ResponseWriter, r *http.Request, next http.Handler) {
			mu.Lock()
			fails++
			n := fails
			mu.Unlock()
			if n <= 2 {
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintf(w, `{"error":"temporarily_unavailable","error_description":%q}`, echo(r))
				return
			}
			next.ServeHTTP(w, r)
		}, nil, 3},
		{"an answer that is not JSON", func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<html>%s</html>", echo(r))
		}, ErrBadResponse, DefaultMaxAttempts},
		{"a server error without a body", func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
			w.WriteHeader(http.StatusBadGateway)
		}, ErrServer, DefaultMaxAttempts},
		{"an answer over the limit", func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"access_token":"%s","expires_in":3600}`, strings.Repeat("t", maxTokenBody))
		}, ErrTooLarge, 1},
		{"a redirect to another host", func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
			http.Redirect(w, r, elsewhere.URL+sim.TokenPath, http.StatusTemporaryRedirect)
		}, ErrForeignHost, 1},
		{"invalid_request", func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"invalid_request","error_description":%q}`, echo(r))
		}, ErrStatus, 1},
		{"unauthorized_client", func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"unauthorized_client","error_description":%q}`, echo(r))
		}, ErrClientRevoked, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newOAuthWorld(sim.NewManualClock(testNow), time.Hour)
			srv, rec := serve(t, tokenAnswers(w.Handler(), tt.answer))
			c, s := newClient(t, srv.URL, nil)
			t.Cleanup(func() { c.Close() })
			cred := oauthCred("k2", client2)
			_, err := c.Metadata(context.Background(), cred, MetadataQuery{Limit: 1})
			tokenReqs := 0
			for _, r := range rec.requests() {
				if r.URL.Path == sim.TokenPath {
					tokenReqs++
				}
			}
			if tokenReqs != tt.requests {
				t.Errorf("%d token requests, want %d", tokenReqs, tt.requests)
			}
			if tt.want == nil {
				if err != nil {
					t.Fatalf("call failed: %v", err)
				}
				if n := len(s.recorded()); n != 2 {
					t.Errorf("waited %d times before trying again, want 2", n)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), "access token") && !errors.Is(err, ErrClientRevoked) {
				t.Errorf("error %q does not say it was getting an access token", err)
			}
			for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), fmt.Sprint(errors.Unwrap(err))} {
				if strings.Contains(text, "5ecret") || strings.Contains(text, client2.ID) {
					t.Errorf("error text shows the client's id or secret: %s", text)
				}
			}
			if elsewhereRec.count() != 0 {
				t.Errorf("the other host got %d requests", elsewhereRec.count())
			}
		})
	}
}

func TestTokenEchoedByTheServiceIsNotShown(t *testing.T) {
	t.Parallel()
	const token = "tok-5ecret-0123456789"
	srv, _ := serve(t, tokenAnswers(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"message":"the token in %s is refused"}`, r.Header.Get("Authorization"))
	}), func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, token)
	}))
	c, _ := newClient(t, srv.URL, nil)
	t.Cleanup(func() { c.Close() })
	cred := oauthCred("key-5ecret", client1)
	_, err := c.Metadata(context.Background(), cred, MetadataQuery{})
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("error %v, want ErrUnauthorized", err)
	}
	texts := []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err),
		fmt.Sprintf("%v", cred), fmt.Sprintf("%+v", cred), fmt.Sprintf("%#v", cred)}
	for _, text := range texts {
		if strings.Contains(text, "5ecret") {
			t.Errorf("text shows a secret: %s", text)
		}
	}
	if !strings.Contains(err.Error(), redacted) {
		t.Errorf("error %q does not show where the echoed token was", err)
	}
}

func TestCredentialsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cred  Credentials
		oauth bool
		want  string // a word the problem must name; "" when valid
	}{
		{Credentials{APIKey: "k", Authorization: "a"}, false, ""},
		{Credentials{APIKey: "k", ClientID: "c", ClientSecret: "s"}, true, ""},
		{Credentials{}, false, "API key"},
		{Credentials{Authorization: "a"}, false, "API key"},
		{Credentials{ClientID: "c", ClientSecret: "s"}, true, "API key"},
		{Credentials{APIKey: "k"}, false, "Authorization value"},
		{Credentials{APIKey: "k", ClientID: "c"}, true, "client secret"},
		{Credentials{APIKey: "k", ClientSecret: "s"}, true, "client ID"},
		{Credentials{APIKey: "k", Authorization: "a", ClientID: "c", ClientSecret: "s"}, true, "not both"},
		{Credentials{APIKey: "k", Authorization: "a", ClientSecret: "s"}, true, "not both"},
	}
	for _, tt := range tests {
		if got := tt.cred.OAuth(); got != tt.oauth {
			t.Errorf("%s: OAuth() = %t, want %t", fieldsSet(tt.cred), got, tt.oauth)
		}
		err := tt.cred.Validate()
		var ce *CredentialsError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: Validate() = %v, want nil", fieldsSet(tt.cred), err)
		case tt.want != "" && (!errors.As(err, &ce) || !errors.Is(err, ErrIncomplete)):
			t.Errorf("%s: Validate() = %v, want a *CredentialsError", fieldsSet(tt.cred), err)
		case tt.want != "" && !strings.Contains(ce.Problem, tt.want):
			t.Errorf("%s: problem %q does not name %q", fieldsSet(tt.cred), ce.Problem, tt.want)
		}
	}
}

// fieldsSet names the fields of c that are not empty.
func fieldsSet(c Credentials) string {
	var set []string
	for _, f := range []struct{ name, value string }{
		{"APIKey", c.APIKey}, {"Authorization", c.Authorization}, {"ClientID", c.ClientID}, {"ClientSecret", c.ClientSecret},
	} {
		if f.value != "" {
			set = append(set, f.name)
		}
	}
	return "{" + strings.Join(set, ", ") + "}"
}

func TestIncompleteOAuthCredentialsSendNothing(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, newWorldOf(t, 4, 2, time.Hour).Handler())
	c, _ := newClient(t, srv.URL, nil)
	t.Cleanup(func() { c.Close() })
	for _, cred := range []Credentials{
		{APIKey: "k1", ClientID: client1.ID},
		{APIKey: "k1", Authorization: "a1", ClientID: client1.ID, ClientSecret: client1.Secret},
	} {
		_, err := c.Metadata(context.Background(), cred, MetadataQuery{})
		if !errors.Is(err, ErrIncomplete) || !errors.Is(err, ErrRejected) {
			t.Errorf("error %v, want ErrIncomplete", err)
		}
	}
	if rec.count() != 0 {
		t.Errorf("%d requests sent, want none", rec.count())
	}
}

func TestUnusedCredentialStopsBeingRenewed(t *testing.T) {
	t.Parallel()
	t.Run("after two lifetimes", func(t *testing.T) {
		e := newTokenEnv(t, time.Hour, nil)
		dropped := make(chan struct{}, 1)
		e.client.tokens.onDrop = func() { dropped <- struct{}{} }
		cred := oauthCred("k1", client1)
		e.mustCall(t, cred)

		// Renewed at 48 and 96 minutes; at 144, unused for more than two
		// hours, forgotten.
		for range 3 {
			e.scheduled(t, 1)
			e.advance(48 * time.Minute)
		}
		within(t, time.Minute, "the credential forgotten", func() { <-dropped })
		if n := e.tokenRequests(); n != 3 {
			t.Errorf("%d token requests, want 3: the first and two renewals", n)
		}
		e.advance(10 * time.Hour)
		if n := e.tokenRequests(); n != 3 {
			t.Errorf("%d token requests after ten idle hours, want still 3", n)
		}
		e.mustCall(t, cred) // a new token
		if n := e.tokenRequests(); n != 4 {
			t.Errorf("%d token requests after a new call, want 4", n)
		}
	})

	t.Run("released", func(t *testing.T) {
		e := newTokenEnv(t, time.Hour, nil)
		cred := oauthCred("k1", client1)
		e.mustCall(t, cred)
		e.client.Release(cred)
		e.advance(3 * time.Hour)
		if n := e.tokenRequests(); n != 1 {
			t.Errorf("%d token requests after the release, want still 1", n)
		}
	})

	t.Run("client closed", func(t *testing.T) {
		e := newTokenEnv(t, 0, nil)
		oauth := oauthCred("k1", client1)
		e.mustCall(t, oauth)
		e.client.Close()
		e.advance(3 * time.Hour)
		if n := e.tokenRequests(); n != 1 {
			t.Errorf("%d token requests after Close, want still 1", n)
		}
		if err := e.call(oauth); !errors.Is(err, context.Canceled) || asError(t, err).Kind != KindCanceled {
			t.Errorf("an OAuth call after Close: %v, want KindCanceled", err)
		}
		e.mustCall(t, cred2) // a fixed value still works
	})
}

func TestCredentialsBeyondTheLimitAreForgotten(t *testing.T) {
	t.Parallel()
	e := newTokenEnv(t, time.Hour, func(cfg *Config) { cfg.MaxCredentials = 2 })
	a, b, c := oauthCred("k1", client1), oauthCred("k2", client2), oauthCred("k3", client3)
	for _, cred := range []Credentials{a, b, c, c, b, a} { // c makes room by forgetting a, a again by forgetting c
		e.mustCall(t, cred)
		e.advance(time.Minute)
	}
	for k, want := range []int{2, 1, 1} {
		if n := e.world.TokensIssued(k); n != want {
			t.Errorf("account %d: %d tokens issued, want %d", k+1, n, want)
		}
	}
	e.client.tokens.mu.Lock()
	n := len(e.client.tokens.entries)
	e.client.tokens.mu.Unlock()
	if n != 2 {
		t.Errorf("%d credentials kept, want 2", n)
	}
}

func TestTokenURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		base, token, want string
	}{
		{"https://api.example.com/v1", "", "https://api.example.com/v1/oauth/token"},
		{"https://api.example.com", "", "https://api.example.com/oauth/token"},
		{"https://api.example.com/v1", "https://auth.example.com/token?tenant=7", "https://auth.example.com/token?tenant=7"},
	} {
		c, err := New(Config{BaseURL: tt.base, TokenURL: tt.token})
		if err != nil {
			t.Fatal(err)
		}
		if c.tokens.url != tt.want {
			t.Errorf("base %q, token URL %q: %q, want %q", tt.base, tt.token, c.tokens.url, tt.want)
		}
	}
	for _, bad := range []string{"ftp://auth.example.com/token", "https://user:pw@auth.example.com/token", "/token", "https://auth.example.com/token#x"} {
		if _, err := New(Config{BaseURL: "https://api.example.com", TokenURL: bad}); err == nil {
			t.Errorf("token URL %q accepted", bad)
		} else if strings.Contains(err.Error(), "pw") {
			t.Errorf("error %q shows the URL's password", err)
		}
	}
}
