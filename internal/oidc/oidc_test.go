package oidc

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/people"
	"washboard/internal/people/peopletest"
)

const redirect = "https://washboard.example/signin/oidc/callback"

// startProvider starts a real OpenID provider on 127.0.0.1 (discovery,
// keys, authorization and token endpoints, RS256-signed ID tokens, PKCE
// checked), with middleware around its endpoints.
func startProvider(t *testing.T, mw ...func(http.Handler) http.Handler) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range mw {
		if err := m.AddMiddleware(f); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown() })
	return m
}

var cleaners = people.GroupMapping{Group: "cleaners", Account: "a", Role: domain.Staff}

// config is the settings for provider m, on the guard's allowance for
// private addresses (the provider is on 127.0.0.1).
func config(m *mockoidc.MockOIDC, c clock.Clock) Config {
	return Config{Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, RedirectURL: redirect,
		Scopes: []string{"profile", "email", "groups"}, Mappings: []people.GroupMapping{cleaners},
		Guard: notify.Guard{AllowPrivate: true}, Clock: c, Timeout: 5 * time.Second}
}

func newProvider(t *testing.T, cfg Config) *Provider {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// authorize is the browser at the provider: it follows the authorization
// URL, the person signs in, and it returns where the provider sends the
// browser back.
func authorize(t *testing.T, authURL string) Callback {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(loc.String(), redirect+"?") {
		t.Fatalf("the provider answered %s, to %q", resp.Status, resp.Header.Get("Location"))
	}
	return CallbackFrom(loc.Query())
}

func ana(groups ...string) *mockoidc.MockUser {
	return &mockoidc.MockUser{Subject: "ana-123", Email: "ana@example.com", EmailVerified: true, PreferredUsername: "Ana", Groups: groups}
}

// signInAt runs a whole sign-in at provider m as ana in groups.
func signInAt(t *testing.T, p *Provider, m *mockoidc.MockOIDC, groups ...string) (Identity, error) {
	t.Helper()
	m.QueueUser(ana(groups...))
	u, pending, err := p.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return p.Finish(t.Context(), authorize(t, u), pending)
}

func wantReason(t *testing.T, err error, reason domain.Problem) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, reason) {
		t.Fatalf("error %v, want %q", err, reason)
	}
	if err.Error() != string(reason) {
		t.Errorf("the error says %q, want the words %q", err, reason)
	}
}

// peopleService is the people service over a real SQLite store.
func peopleService(t *testing.T, c clock.Clock) *people.Service {
	t.Helper()
	svc, _ := peopletest.New(t, c)
	return svc
}

// A whole sign-in: the authorization URL carries the state, the nonce and
// PKCE's challenge but not the verifier; the provider's code comes back
// with the state; the verified identity has the person's groups, which
// the mappings turn into a membership.
func TestSignInThroughProvider(t *testing.T) {
	m := startProvider(t)
	c := clock.NewFake(m.Now())
	p := newProvider(t, config(m, c))
	m.QueueUser(ana("cleaners", "visitors"))
	u, pending, err := p.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	q := mustQuery(t, u)
	if q.Get("state") != pending.State || q.Get("nonce") != pending.Nonce || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		t.Errorf("the authorization URL lacks the state, nonce or PKCE challenge: %v", q)
	}
	if strings.Contains(u, pending.Verifier) || strings.Contains(u, m.ClientSecret) {
		t.Error("the authorization URL holds the PKCE verifier or the client secret")
	}
	id, err := p.Finish(t.Context(), authorize(t, u), pending)
	if err != nil {
		t.Fatal(err)
	}
	want := Identity{Issuer: m.Issuer(), Subject: "ana-123", Name: "Ana", Email: "ana@example.com", EmailVerified: true,
		Groups: []string{"cleaners", "visitors"}}
	if !equalIdentity(id, want) {
		t.Fatalf("identity %+v, want %+v", id, want)
	}
	svc := peopleService(t, c)
	in, err := svc.SignInOIDC(t.Context(), id.Claims(), p.Mappings())
	if err != nil {
		t.Fatal(err)
	}
	if in.Person.Name != "Ana" || len(in.Memberships) != 1 || in.Memberships[0].Account != "a" || in.Memberships[0].Role != domain.Staff {
		t.Errorf("signed in as %+v with %+v; want Ana, staff in account a", in.Person, in.Memberships)
	}
}

func equalIdentity(a, b Identity) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func mustQuery(t *testing.T, u string) url.Values {
	t.Helper()
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return parsed.Query()
}

// A person whose groups map to nothing is who they are, but belongs to no
// account.
func TestGroupThatMapsToNothing(t *testing.T) {
	m := startProvider(t)
	c := clock.NewFake(m.Now())
	p := newProvider(t, config(m, c))
	id, err := signInAt(t, p, m, "visitors")
	if err != nil {
		t.Fatal(err)
	}
	in, err := peopleService(t, c).SignInOIDC(t.Context(), id.Claims(), p.Mappings())
	if err != nil {
		t.Fatal(err)
	}
	if in.Person.Issuer != m.Issuer() || in.Person.Subject != "ana-123" || len(in.Memberships) != 0 {
		t.Errorf("person %+v with memberships %+v; want Ana's identity and no membership", in.Person, in.Memberships)
	}
}

// A provider that names itself otherwise than the issuer set (here, the
// same provider behind another address) is refused before anyone is sent
// to it.
func TestWrongIssuer(t *testing.T) {
	m := startProvider(t)
	target, _ := url.Parse(m.Addr())
	proxy := httptest.NewServer(httputil.NewSingleHostReverseProxy(target))
	t.Cleanup(proxy.Close)
	cfg := config(m, clock.NewFake(m.Now()))
	cfg.Issuer = proxy.URL + "/oidc"
	_, _, err := newProvider(t, cfg).Begin(t.Context())
	wantReason(t, err, ErrIssuer)
	if e := err.(*Error); !strings.Contains(e.LogDetail(), m.Issuer()) {
		t.Errorf("the log's detail %q does not say which issuer the provider gave", e.LogDetail())
	}
}

// An ID token past its expiry is refused.
func TestExpiredToken(t *testing.T) {
	m := startProvider(t)
	m.AccessTTL = time.Minute
	c := clock.NewFake(m.Now())
	p := newProvider(t, config(m, c))
	m.QueueUser(ana("cleaners"))
	u, pending, err := p.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	cb := authorize(t, u)
	c.Advance(2 * time.Minute)
	_, err = p.Finish(t.Context(), cb, pending)
	wantReason(t, err, ErrTokenExpired)
}

// tamper changes the groups in the ID tokens the token endpoint answers,
// leaving their signature as it was.
func tamper(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != mockoidc.TokenEndpoint {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var body map[string]any
		json.Unmarshal(rec.Body.Bytes(), &body)
		if tok, ok := body["id_token"].(string); ok {
			parts := strings.Split(tok, ".")
			payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
			payload = bytes.Replace(payload, []byte(`"cleaners"`), []byte(`"owners"`), 1)
			parts[1] = base64.RawURLEncoding.EncodeToString(payload)
			body["id_token"] = strings.Join(parts, ".")
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body)
	})
}

// An ID token changed on its way (its groups) fails its signature.
func TestTamperedToken(t *testing.T) {
	m := startProvider(t, tamper)
	p := newProvider(t, config(m, clock.NewFake(m.Now())))
	_, err := signInAt(t, p, m, "cleaners")
	wantReason(t, err, ErrTokenInvalid)
}

// A callback used once is refused the second time, one with another
// sign-in's state at once, and one that comes back too late.
func TestReplayedState(t *testing.T) {
	m := startProvider(t)
	c := clock.NewFake(m.Now())
	p := newProvider(t, config(m, c))
	m.QueueUser(ana("cleaners"))
	u, pending, err := p.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	cb := authorize(t, u)
	if _, err := p.Finish(t.Context(), cb, pending); err != nil {
		t.Fatal(err)
	}
	_, err = p.Finish(t.Context(), cb, pending)
	wantReason(t, err, ErrStateReplayed)

	u, pending, _ = p.Begin(t.Context())
	cb = authorize(t, u)
	other := cb
	other.State = strings.Repeat("x", len(cb.State))
	_, err = p.Finish(t.Context(), other, pending)
	wantReason(t, err, ErrStateMismatch)

	c.Advance(PendingTTL)
	_, err = p.Finish(t.Context(), cb, pending)
	wantReason(t, err, ErrPendingExpired)

	_, err = p.Finish(t.Context(), cb, Pending{})
	wantReason(t, err, ErrNoSignIn)
}

// A code obtained for another sign-in, planted in this one's callback, is
// refused: by the provider when PKCE holds it (the verifier does not match
// its challenge), and by the nonce when the other sign-in went without
// PKCE.
func TestCodeOfAnotherSignIn(t *testing.T) {
	m := startProvider(t)
	p := newProvider(t, config(m, clock.NewFake(m.Now())))
	_, mine, _ := p.Begin(t.Context())

	m.QueueUser(ana("cleaners"))
	theirURL, _, _ := p.Begin(t.Context())
	theirs := authorize(t, theirURL)
	_, err := p.Finish(t.Context(), Callback{Code: theirs.Code, State: mine.State}, mine)
	wantReason(t, err, ErrRefused)

	_, mine, _ = p.Begin(t.Context())
	m.QueueUser(ana("cleaners"))
	theirURL, _, _ = p.Begin(t.Context())
	u, _ := url.Parse(theirURL)
	q := u.Query()
	q.Del("code_challenge")
	q.Del("code_challenge_method")
	u.RawQuery = q.Encode()
	theirs = authorize(t, u.String())
	_, err = p.Finish(t.Context(), Callback{Code: theirs.Code, State: mine.State}, mine)
	wantReason(t, err, ErrNonce)
}

// A code the provider does not know is refused, and nothing the provider
// said of it (it repeats the code) reaches the error or the log.
func TestRefusedCodeIsNotQuoted(t *testing.T) {
	m := startProvider(t)
	p := newProvider(t, config(m, clock.NewFake(m.Now())))
	_, pending, _ := p.Begin(t.Context())
	code := "a-code-nobody-issued-0123456789"
	_, err := p.Finish(t.Context(), Callback{Code: code, State: pending.State}, pending)
	wantReason(t, err, ErrRefused)
	if strings.Contains(err.(*Error).LogDetail(), code) {
		t.Errorf("the log's detail quotes the code: %s", err.(*Error).LogDetail())
	}
	_, err = p.Finish(t.Context(), Callback{Error: "access_denied", State: pending.State}, pending)
	wantReason(t, err, ErrRefused)
}

// A provider that is down, or does not answer in time, is said to be
// unreachable; the guard keeps a provider without the allowance from a
// private address.
func TestProviderDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	m := startProvider(t)
	cfg := config(m, clock.NewFake(m.Now()))
	cfg.Issuer = down
	_, _, err = newProvider(t, cfg).Begin(t.Context())
	wantReason(t, err, ErrUnreachable)

	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(slow.Close)
	cfg.Issuer, cfg.Timeout = slow.URL, 100*time.Millisecond
	_, _, err = newProvider(t, cfg).Begin(t.Context())
	wantReason(t, err, ErrUnreachable)

	cfg = config(m, clock.NewFake(m.Now()))
	cfg.Issuer = strings.Replace(m.Issuer(), "127.0.0.1", "localhost", 1)
	cfg.Guard = notify.Guard{}
	_, _, err = newProvider(t, cfg).Begin(t.Context())
	wantReason(t, err, ErrNotAllowed)
}

// A failed discovery is remembered for a while, then the provider is asked
// again.
func TestDiscoveryRetried(t *testing.T) {
	up := false
	m := startProvider(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !up {
				http.Error(w, "starting", http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	c := clock.NewFake(m.Now())
	p := newProvider(t, config(m, c))
	_, _, err := p.Begin(t.Context())
	wantReason(t, err, ErrGarbage)
	up = true
	_, _, err = p.Begin(t.Context())
	wantReason(t, err, ErrGarbage)
	c.Advance(retryAfter)
	if _, _, err = p.Begin(t.Context()); err != nil {
		t.Errorf("after %s the provider is not asked again: %v", retryAfter, err)
	}
}

// Answers that are not an OpenID provider's, or too long, are refused in
// words, and read no further than MaxAnswer.
func TestProviderAnswersGarbage(t *testing.T) {
	m := startProvider(t)
	for name, h := range map[string]http.HandlerFunc{
		"a web page": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html><body>Welcome</body></html>")) },
		"too long": func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"issuer":"`))
			w.Write(bytes.Repeat([]byte("x"), 2*MaxAnswer))
		},
	} {
		srv := httptest.NewServer(h)
		cfg := config(m, clock.NewFake(m.Now()))
		cfg.Issuer = srv.URL
		_, _, err := newProvider(t, cfg).Begin(t.Context())
		srv.Close()
		t.Run(name, func(t *testing.T) {
			wantReason(t, err, ErrGarbage)
			if name == "too long" && !strings.Contains(err.(*Error).LogDetail(), errTooLarge.Error()) {
				t.Errorf("a long answer failed otherwise than by its length: %s", err.(*Error).LogDetail())
			}
		})
	}

	bad := startProvider(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == mockoidc.TokenEndpoint {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`{"access_token": 12, "id_token": ["not", "a", "token"]}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	_, err := signInAt(t, newProvider(t, config(bad, clock.NewFake(bad.Now()))), bad, "cleaners")
	wantReason(t, err, ErrGarbage)
}

// Settings that cannot work are refused, naming the flag.
func TestConfigRefused(t *testing.T) {
	good := Config{Issuer: "https://login.example.com", ClientID: "washboard", RedirectURL: redirect}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Issuer = "" }, "--oidc-issuer"},
		{func(c *Config) { c.Issuer = "http://login.example.com" }, "must begin with https://"},
		{func(c *Config) { c.Issuer = "https://login.example.com/?tenant=1" }, "without a query"},
		{func(c *Config) { c.ClientID = "" }, "--oidc-client-id"},
		{func(c *Config) { c.RedirectURL = "/signin/oidc/callback" }, "public address"},
		{func(c *Config) { c.Issuer = "https://10.0.0.5" }, "is not allowed: 10.0.0.5 is a private address (--oidc-allow-private lets"},
	} {
		cfg := good
		tc.change(&cfg)
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one saying %q", cfg, err, tc.want)
		}
	}
	if _, err := New(good); err != nil {
		t.Errorf("good settings refused: %v", err)
	}
}

// The mappings of --oidc-group are read as people reads them, and a
// wrong one is named.
func TestParseMappings(t *testing.T) {
	got, err := ParseMappings([]string{"cleaners=a:staff", "cn=leads,dc=example=a:supervisor:b1,b2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Group != "cn=leads,dc=example" || got[1].Role != domain.Supervisor || len(got[1].Buildings) != 2 {
		t.Errorf("mappings %+v", got)
	}
	if _, err := ParseMappings([]string{"cleaners=a:chief"}); err == nil || !strings.HasPrefix(err.Error(), "--oidc-group: ") {
		t.Errorf("a wrong role: error %v, want one naming --oidc-group", err)
	}
}
