package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/oidc"
)

// ssoRedirect is the callback registered with the provider; the tests'
// browser takes the provider's answer to it to the test server.
const ssoRedirect = "https://washboard.test/signin/oidc/callback"

// provider is a real OpenID provider (mockoidc) on loopback, with what it
// handed out recorded: no code or token of it may reach a page or a log.
type provider struct {
	*mockoidc.MockOIDC
	mu      sync.Mutex
	secrets []string // codes and tokens it gave
}

// startOIDCProvider starts a provider with middleware around its
// endpoints.
func startOIDCProvider(t *testing.T, mw ...func(http.Handler) http.Handler) *provider {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &provider{MockOIDC: m}
	for _, f := range append([]func(http.Handler) http.Handler{p.record}, mw...) {
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
	return p
}

// record keeps the codes and tokens the provider answers with.
func (p *provider) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		p.mu.Lock()
		if loc, err := url.Parse(rec.Header().Get("Location")); err == nil && loc.Query().Get("code") != "" {
			p.secrets = append(p.secrets, loc.Query().Get("code"))
		}
		var tokens map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &tokens) == nil {
			for _, k := range []string{"access_token", "id_token", "refresh_token"} {
				if s, ok := tokens[k].(string); ok && s != "" {
					p.secrets = append(p.secrets, s)
				}
			}
		}
		p.mu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	})
}

// checkNoSecrets fails the test if the client secret, or a code or token
// the provider gave, appears in a response of Washboard or its log.
func (p *provider) checkNoSecrets(t *testing.T, a *app) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range append([]string{p.ClientSecret}, p.secrets...) {
		if strings.Contains(a.seen.String(), s) {
			t.Error("the client secret, or a code or token of the provider, appears in a response")
		}
		if strings.Contains(a.logs.String(), s) {
			t.Error("the client secret, or a code or token of the provider, appears in the log")
		}
	}
}

// oidcConfig is the settings of single sign-on through provider p, which
// may be on loopback (as --oidc-allow-private allows), with the mappings
// of --oidc-group.
func oidcConfig(t *testing.T, p *provider, c clock.Clock, mappings ...string) oidc.Config {
	t.Helper()
	ms, err := oidc.ParseMappings(mappings)
	if err != nil {
		t.Fatal(err)
	}
	return oidc.Config{Issuer: p.Issuer(), ClientID: p.ClientID, ClientSecret: p.ClientSecret, RedirectURL: ssoRedirect,
		Scopes: []string{"profile", "email", "groups"}, Mappings: ms, Guard: notify.Guard{AllowPrivate: true}, Clock: c, Timeout: 5 * time.Second}
}

// useSingleSignOn restarts the dashboard with single sign-on set up.
func (a *app) useSingleSignOn(cfg oidc.Config) {
	a.t.Helper()
	p, err := oidc.New(cfg)
	if err != nil {
		a.t.Fatal(err)
	}
	a.cfg.SingleSignOnName = "Keycloak"
	a.deps.SingleSignOn = p
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
}

func person(name string, groups ...string) *mockoidc.MockUser {
	return &mockoidc.MockUser{Subject: "sub-" + name, Email: strings.ToLower(name) + "@example.com", EmailVerified: true,
		PreferredUsername: name, Groups: groups}
}

// beginSignOn asks Washboard to begin a sign-in through the provider, and
// returns where it sends the browser.
func (b *browser) beginSignOn() string {
	b.a.t.Helper()
	r := b.get("/signin/oidc?next=/alerts")
	if r.StatusCode != http.StatusSeeOther {
		b.a.t.Fatalf("beginning single sign-on: %d\n%s", r.StatusCode, r.body)
	}
	return r.Header.Get("Location")
}

// atProvider is the person at the provider's page, who signs in there: it
// returns the address of Washboard the provider sends them back to.
func (b *browser) atProvider(authURL string) string {
	b.a.t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		b.a.t.Fatal(err)
	}
	resp.Body.Close()
	back, ok := strings.CutPrefix(resp.Header.Get("Location"), strings.TrimSuffix(ssoRedirect, "/signin/oidc/callback"))
	if resp.StatusCode != http.StatusFound || !ok {
		b.a.t.Fatalf("the provider answered %s, to %q", resp.Status, resp.Header.Get("Location"))
	}
	return back
}

// signOn signs the browser in through provider p as user, and returns
// Washboard's answer to the provider's callback.
func (b *browser) signOn(p *provider, user *mockoidc.MockUser) response {
	b.a.t.Helper()
	p.QueueUser(user)
	return b.get(b.atProvider(b.beginSignOn()))
}

// signedIn reports whether the browser is signed in: the overview shows,
// rather than sending to sign in.
func (b *browser) signedIn() bool {
	r := b.get("/")
	return r.StatusCode == http.StatusOK
}

// A person arrives through single sign-on and lands, on the page they
// asked for, in the account their group maps to, with its role; arriving
// again with other groups, they get the role those give (limited to a
// building), and their earlier session ends at once. The audit log says
// so, and nothing secret reaches a page, a URL of Washboard's or the log.
func TestSingleSignOnGivesTheMappedRole(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	owner := a.browser()
	owner.signIn(credA)
	account := a.accountOf(false)
	buildings, err := a.deps.Dashboard.Buildings(context.Background(), account, domain.EveryBuilding())
	if err != nil || len(buildings) == 0 {
		t.Fatalf("the account's buildings: %v, %v", buildings, err)
	}
	none := a.browser()
	if r := none.get("/signin/oidc"); r.StatusCode != http.StatusNotFound || strings.Contains(none.get("/signin").body, `href="/signin/oidc`) {
		t.Errorf("without a provider, /signin/oidc answers %d and the sign-in page offers single sign-on; want 404 and no offer", r.StatusCode)
	}
	p := startOIDCProvider(t)
	a.useSingleSignOn(oidcConfig(t, p, clock.NewFake(p.Now()), "cleaners="+account+":staff", "leads="+account+":supervisor:"+buildings[0].ID))
	defer p.checkNoSecrets(t, a)

	first := a.browser()
	if r := first.get("/signin"); !strings.Contains(r.body, "Sign in with Keycloak") {
		t.Errorf("the sign-in page does not offer single sign-on:\n%s", r.body)
	}
	p.QueueUser(person("Ana", "cleaners", "visitors"))
	to := first.beginSignOn()
	q := mustParse(t, to).Query()
	if !strings.HasPrefix(to, p.Issuer()) || q.Get("state") == "" || q.Get("nonce") == "" || q.Get("code_challenge_method") != "S256" ||
		q.Has("code_verifier") || strings.Contains(to, p.ClientSecret) {
		t.Errorf("the browser is sent to %q; want the provider, with a state, a nonce and PKCE's challenge, and no secret", to)
	}
	r := first.get(first.atProvider(to))
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/alerts" {
		t.Fatalf("the callback answered %d to %q; want 303 to the page asked for\n%s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	if r := first.get("/"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Ana (staff)") {
		t.Errorf("after single sign-on, the overview (%d) does not show Ana signed in as staff", r.StatusCode)
	}
	ana := a.members(account)["Ana"]
	if ana.Role != domain.Staff || len(ana.Buildings) != 0 || !ana.FromGroups {
		t.Errorf("Ana is %+v; want staff in every building, from her groups", ana.Membership)
	}

	second := a.browser()
	if r := second.signOn(p, person("Ana", "leads")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in again: %d\n%s", r.StatusCode, r.body)
	}
	ana = a.members(account)["Ana"]
	if ana.Role != domain.Supervisor || !slices.Equal(ana.Buildings, []string{buildings[0].ID}) {
		t.Errorf("with other groups, Ana is %+v; want supervisor of building %s only", ana.Membership, buildings[0].ID)
	}
	if r := second.get("/"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Ana (supervisor)") {
		t.Errorf("the overview (%d) does not show Ana signed in as supervisor", r.StatusCode)
	}
	if r := second.get("/buildings/" + buildings[len(buildings)-1].ID); len(buildings) < 2 || r.StatusCode != http.StatusNotFound {
		t.Errorf("another building of the account (of %d) answers Ana %d; want 404", len(buildings), r.StatusCode)
	}
	if first.signedIn() {
		t.Error("Ana's session of her earlier role goes on")
	}
	audit := owner.get("/audit").body
	for _, want := range []string{"as staff, from single sign-on", "Ana from staff to supervisor, from single sign-on",
		"Ana signed in through single sign-on from a device not seen before"} {
		if !strings.Contains(audit, want) {
			t.Errorf("the audit log does not say %q", want)
		}
	}
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// tamperIDTokens changes the groups in the ID tokens the provider's token
// endpoint answers, leaving their signature as it was.
func tamperIDTokens(next http.Handler) http.Handler {
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

// garbageTokens answers the token endpoint with JSON that is no token
// answer.
func garbageTokens(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == mockoidc.TokenEndpoint {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"access_token": 12, "id_token": ["not", "a", "token"]}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Every way a sign-in through the provider fails gets the sign-in page
// saying what went wrong in words, with a status that is not a server
// error, and signs nobody in; nothing secret reaches a page or the log.
func TestSingleSignOnFailuresAreSaidInWords(t *testing.T) {
	t.Parallel()
	down := func(t *testing.T) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
		return "http://" + ln.Addr().String()
	}
	serve := func(t *testing.T, h http.HandlerFunc) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	for _, tc := range []struct {
		name string
		// middleware of the provider
		mw []func(http.Handler) http.Handler
		// change changes the settings: another issuer, a shorter timeout
		change func(t *testing.T, p *provider, cfg *oidc.Config)
		// run signs in, as the case has it, and returns the last answer
		run    func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response
		status int
		says   string
	}{
		{name: "provider down", change: func(t *testing.T, p *provider, cfg *oidc.Config) { cfg.Issuer = down(t) },
			status: http.StatusFailedDependency, says: string(oidc.ErrUnreachable)},
		{name: "provider slow", change: func(t *testing.T, p *provider, cfg *oidc.Config) {
			cfg.Issuer, cfg.Timeout = serve(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }), 50*time.Millisecond
		}, status: http.StatusFailedDependency, says: string(oidc.ErrUnreachable)},
		{name: "discovery not JSON", change: func(t *testing.T, p *provider, cfg *oidc.Config) {
			cfg.Issuer = serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html><body>Welcome</body></html>")) })
		}, status: http.StatusFailedDependency, says: string(oidc.ErrGarbage)},
		{name: "token endpoint garbage", mw: []func(http.Handler) http.Handler{garbageTokens},
			status: http.StatusFailedDependency, says: string(oidc.ErrGarbage)},
		{name: "wrong issuer", change: func(t *testing.T, p *provider, cfg *oidc.Config) {
			target, _ := url.Parse(p.Addr())
			cfg.Issuer = serve(t, httputil.NewSingleHostReverseProxy(target).ServeHTTP) + "/oidc"
		}, status: http.StatusFailedDependency, says: string(oidc.ErrIssuer)},
		{name: "provider at a private address", change: func(t *testing.T, p *provider, cfg *oidc.Config) {
			cfg.Issuer, cfg.Guard = strings.Replace(p.Issuer(), "127.0.0.1", "localhost", 1), notify.Guard{} // without --oidc-allow-private
		}, status: http.StatusFailedDependency, says: string(oidc.ErrNotAllowed)},
		{name: "tampered token", mw: []func(http.Handler) http.Handler{tamperIDTokens},
			status: http.StatusBadRequest, says: string(oidc.ErrTokenInvalid)},
		{name: "expired token", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			p.AccessTTL = time.Minute
			p.QueueUser(person("Ana", "cleaners"))
			back := b.atProvider(b.beginSignOn())
			c.Advance(2 * time.Minute)
			return b.get(back)
		}, status: http.StatusBadRequest, says: string(oidc.ErrTokenExpired)},
		{name: "callback used twice", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			p.QueueUser(person("Ana", "cleaners"))
			back := b.atProvider(b.beginSignOn())
			if r := b.get(back); r.StatusCode != http.StatusSeeOther {
				t.Fatalf("the first use of the callback: %d\n%s", r.StatusCode, r.body)
			}
			b.post("/signout", url.Values{"csrf_token": {b.csrf()}})
			return b.get(back)
		}, status: http.StatusBadRequest, says: string(oidc.ErrNoSignIn)},
		{name: "callback of another browser's sign-in", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			p.QueueUser(person("Eve", "cleaners"))
			theirs := a.browser()
			back := theirs.atProvider(theirs.beginSignOn())
			b.beginSignOn()
			return b.get(back)
		}, status: http.StatusBadRequest, says: string(oidc.ErrStateMismatch)},
		{name: "state missing", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			p.QueueUser(person("Ana", "cleaners"))
			back := mustParse(t, b.atProvider(b.beginSignOn()))
			q := back.Query()
			q.Del("state")
			back.RawQuery = q.Encode()
			return b.get(back.String())
		}, status: http.StatusBadRequest, says: string(oidc.ErrStateMismatch)},
		{name: "no sign-in begun", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			return b.get("/signin/oidc/callback?code=a-code&state=a-state")
		}, status: http.StatusBadRequest, says: string(oidc.ErrNoSignIn)},
		{name: "provider refused", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			state := mustParse(t, b.beginSignOn()).Query().Get("state")
			return b.get("/signin/oidc/callback?error=access_denied&state=" + url.QueryEscape(state))
		}, status: http.StatusForbidden, says: string(oidc.ErrRefused)},
		{name: "group that maps to nothing", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			return b.signOn(p, person("Ana", "visitors"))
		}, status: http.StatusForbidden, says: `You signed in as Ana, but none of your groups ("visitors") gives you a role in an account here. Ask an admin to map one of them to an account (--oidc-group), or to invite you.`},
		{name: "no groups", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			return b.signOn(p, person("Ana"))
		}, status: http.StatusForbidden, says: "the sign-in provider named none of your groups"},
		{name: "account not connected", run: func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
			return b.signOn(p, person("Ana", "cleaners"))
		}, status: http.StatusForbidden, says: `your groups give you a role in the account "` + "%ACCOUNT%" + `", but it is not connected to Washboard yet`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAppOf(t, Config{}, 10)
			account := a.accountOf(false)
			if tc.name != "account not connected" {
				a.browser().signIn(credA) // connects the account
			}
			p := startOIDCProvider(t, tc.mw...)
			c := clock.NewFake(p.Now())
			cfg := oidcConfig(t, p, c, "cleaners="+account+":staff")
			if tc.change != nil {
				tc.change(t, p, &cfg)
			}
			a.useSingleSignOn(cfg)
			b := a.browser()
			run := tc.run
			if run == nil {
				run = func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
					return b.signOn(p, person("Ana", "cleaners"))
				}
				if tc.change != nil { // the provider fails before anyone is sent to it
					run = func(t *testing.T, a *app, p *provider, c *clock.Fake, b *browser) response {
						return b.get("/signin/oidc")
					}
				}
			}
			r := run(t, a, p, c, b)
			says := strings.ReplaceAll(tc.says, "%ACCOUNT%", account)
			page := r.doc(t)
			if r.StatusCode != tc.status || !strings.Contains(page.Find(`[role="alert"]`).Text(), says) {
				t.Errorf("answered %d; want %d and the sign-in page saying %q\n%s", r.StatusCode, tc.status, says, page.Find("main").Text())
			}
			if page.Find(`a[href^="/signin/oidc"]`).Length() != 1 {
				t.Error("the page does not offer to start again")
			}
			if b.signedIn() {
				t.Error("the browser is signed in")
			}
			p.checkNoSecrets(t, a)
		})
	}
}

// What a sign-in begun keeps is bounded: a browser not signed in gets a
// session that lasts only as long as the sign-in may take, and one address
// may begin only so many sign-ins a minute; it is told so in words.
func TestSingleSignOnBeginsAreBounded(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	p := startOIDCProvider(t)
	a.useSingleSignOn(oidcConfig(t, p, clock.NewFake(p.Now())))
	b := a.browser()
	b.beginSignOn()
	u, _ := url.Parse(a.srv.URL)
	var kept *http.Cookie
	for _, ck := range b.client.Jar.Cookies(u) {
		if ck.Name == sessionCookie {
			kept = ck
		}
	}
	if kept == nil {
		t.Fatal("a sign-in begun keeps no session")
	}
	_, expires, found, err := a.store.FindSession(context.Background(), storedToken(kept.Value))
	if err != nil || !found || expires.After(time.Now().Add(oidc.PendingTTL+time.Minute)) {
		t.Errorf("a sign-in begun keeps a session until %s (%v, %v); want one of at most %s", expires, found, err, oidc.PendingTTL)
	}
	for range singleSignOnBegins - 1 {
		b.beginSignOn()
	}
	r := b.get("/signin/oidc")
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" ||
		!strings.Contains(r.body, "Too many sign-ins through single sign-on were begun from your address. Try again at") {
		t.Errorf("sign-in %d begun within a minute from one address: %d; want 429 saying when to try again\n%s", singleSignOnBegins+1, r.StatusCode, r.body)
	}
	a.clock.Advance(time.Minute)
	b.beginSignOn()
}
