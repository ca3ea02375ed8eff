package web

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/store/postgres"
	"washboard/internal/store/postgres/pgtest"

	_ "github.com/jackc/pgx/v5/stdlib" // the session table on PostgreSQL, for the tests to look at

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/clock"
	"washboard/internal/cluster"
	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	servicelevels "washboard/internal/levels"
	"washboard/internal/metrics"
	"washboard/internal/notifier"
	"washboard/internal/people"
	"washboard/internal/receiver"
	"washboard/internal/reportmail"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
)

var start = time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)

var (
	credA = sim.Credentials{APIKey: "key-a-0123456789", Authorization: "Bearer auth-a-0123456789"}
	credB = sim.Credentials{APIKey: "key-b-0123456789", Authorization: "Bearer auth-b-0123456789"}
	credC = sim.Credentials{APIKey: "key-c-0123456789", Authorization: "Bearer auth-c-0123456789"} // of a third account, when the world has one
)

// app is the dashboard over a simulator, with everything the tests see
// recorded so that a test can scan it for secrets.
type app struct {
	t         *testing.T
	world     *sim.World
	clock     *clock.Fake
	upstream  *httptest.Server
	srv       *httptest.Server
	store     store.Store
	shared    bool // the store is PostgreSQL's, as several replicas share it
	sessionDB *sql.DB
	engine    *syncer.Engine
	events    *receiver.Service
	notifier  *notifier.Notifier // not running: a test calls its Pass
	people    *people.Service
	logs      *syncBuffer
	seen      *syncBuffer // every response body and header the tests received
	cfg       Config
	deps      Deps
	client    *upstream.Client
	// beforeUpstream, when set, sees every request to the simulator before
	// it is served, and may hold it.
	beforeUpstream atomic.Pointer[func(*http.Request)]
	handler        atomic.Pointer[Server] // what a.srv serves
	dbURL          string                 // of the test's schema, on PostgreSQL
}

// restart replaces the dashboard with a new one over the same database
// and sync, with other keys: the server restarted with another secret key.
func (a *app) restart(keys *keyring.Ring) {
	a.t.Helper()
	a.deps.Keys = keys
	a.deps.Dashboard = dashboard.New(dashboard.Deps{Store: a.store, Sync: a.engine, Upstream: a.client, Clock: a.clock, Keys: keys})
	a.people = people.New(a.store, keys, a.clock, people.Config{})
	a.deps.People = a.people
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newApp(t *testing.T, cfg Config) *app {
	t.Helper()
	return newAppOf(t, cfg, 120)
}

// newAppOf is newApp over a simulator of the given number of locations per
// account.
func newAppOf(t *testing.T, cfg Config, locations int) *app {
	t.Helper()
	return newAppWith(t, cfg, appOptions{locations: locations})
}

// appOptions change the test application.
type appOptions struct {
	locations int              // per account
	accounts  int              // of the simulated world; 2 if zero
	metrics   *metrics.Metrics // nil records nothing
	attempts  int              // upstream attempts per call; 1 if zero
	seed      uint64           // of the simulated world; 3 if zero
	history   time.Duration    // simulated before the test; 5 days if zero
	receiver  receiver.Config  // of the service's events
	webhooks  sim.WebhookOptions
	// tokenLifetime, when set, makes the simulator accept access tokens
	// only, lasting this long in its time.
	tokenLifetime time.Duration
	// simClock is the simulator's clock; the test's, which the dashboard
	// runs on too, if nil.
	simClock sim.Clock
}

// newAppWith is newApp with options.
func newAppWith(t *testing.T, cfg Config, opts appOptions) *app {
	t.Helper()
	locations, m := opts.locations, opts.metrics
	a := &app{t: t, clock: clock.NewFake(start), logs: &syncBuffer{}, seen: &syncBuffer{}}
	var simClock sim.Clock = a.clock
	if opts.simClock != nil {
		simClock = opts.simClock
	}
	a.world = sim.New(sim.Config{Seed: cmp.Or(opts.seed, 3), Locations: locations, Accounts: cmp.Or(opts.accounts, 2), History: cmp.Or(opts.history, 5*24*time.Hour), Webhooks: opts.webhooks,
		Clock: simClock, Zone: time.UTC, Credentials: []sim.Credentials{credA, credB, credC}, TokenLifetime: opts.tokenLifetime})
	t.Cleanup(a.world.Close) // its webhook deliveries
	simulator := a.world.Handler()
	a.upstream = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := a.beforeUpstream.Load(); f != nil {
			(*f)(r)
		}
		simulator.ServeHTTP(w, r)
	}))
	t.Cleanup(a.upstream.Close)
	client, err := upstream.New(upstream.Config{BaseURL: a.upstream.URL, MaxAttempts: max(opts.attempts, 1)})
	if err != nil {
		t.Fatal(err)
	}
	a.openStore()
	a.store.MeasureWith(servicelevels.Measure)
	log := slog.New(slog.NewTextHandler(a.logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	a.engine = syncer.New(ctx, syncer.UpstreamSource{Client: client}, a.store, a.clock, syncer.Config{}, log)
	t.Cleanup(func() { cancel(); a.engine.Wait() })
	cfg.Zone = time.UTC
	cfg.Sessions.Shared = a.shared
	keys := testKeys(t, 7)
	a.events = receiver.New(a.store, keys, a.engine, opts.receiver, log)
	eventsDone := make(chan struct{})
	go func() { a.events.Run(ctx); close(eventsDone) }()
	t.Cleanup(func() { cancel(); <-eventsDone })
	a.client = client
	a.notifier = a.newNotifier(notifier.Config{}, keys)
	a.people = people.New(a.store, keys, a.clock, people.Config{})
	a.cfg, a.deps = cfg, Deps{People: a.people, Dashboard: dashboard.New(dashboard.Deps{Store: a.store, Sync: a.engine, Upstream: client, Clock: a.clock, Keys: keys}),
		Sessions: a.store, Sync: a.engine, Clock: a.clock, Log: log, Metrics: m, Keys: keys, Receiver: a.events, Notifications: a.notifier,
		Passkeys: testPasskeys(t, a.clock), ReportMail: reportmail.New(a.store, reportmail.Config{Zone: time.UTC}, a.clock, log)}
	s, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	a.handler.Store(s)
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.handler.Load().ServeHTTP(w, r) }))
	t.Cleanup(func() {
		a.srv.CloseClientConnections() // event streams stay open until their client goes
		a.srv.Close()
	})
	t.Cleanup(func() { a.checkNoSecrets() })
	return a
}

// newNotifier is a notifier over the app's store and clock that may reach
// webhooks on loopback, as --allow-private-webhooks lets it.
func (a *app) newNotifier(cfg notifier.Config, keys *keyring.Ring) *notifier.Notifier {
	a.t.Helper()
	cfg.Guard.AllowPrivate = true
	cfg.Link = cmp.Or(cfg.Link, "http://washboard.test")
	n, err := notifier.New(cfg, notifier.Deps{Store: a.store, Leases: cluster.NewLocal(cluster.DefaultBuffer), Keys: keys, Clock: a.clock,
		Log: slog.New(slog.NewTextHandler(a.logs, nil))})
	if err != nil {
		a.t.Fatal(err)
	}
	return n
}

// testEngine is the storage engine the handler and browser tests run on:
// SQLite, or PostgreSQL with WASHBOARD_TEST_ENGINE=postgres (and a server
// in WASHBOARD_TEST_POSTGRES; .ci/run runs this package on both).
func testEngine(t testing.TB) string {
	switch e := os.Getenv("WASHBOARD_TEST_ENGINE"); e {
	case "", "sqlite":
		return "sqlite"
	case "postgres":
		pgtest.ServerURL(t)
		return e
	default:
		t.Fatalf("WASHBOARD_TEST_ENGINE must be sqlite or postgres, not %q", e)
		return ""
	}
}

// openStore opens the test's cache on the engine under test, and the
// session table as it is, for the tests to look at.
func (a *app) openStore() {
	t := a.t
	var err error
	var sessions string
	switch testEngine(t) {
	case "postgres":
		_, sessions, _ = pgtest.NewSchema(t)
		a.dbURL = sessions
		if a.store, err = postgres.Open(context.Background(), sessions); err == nil {
			a.sessionDB, err = sql.Open("pgx", sessions)
		}
		a.shared = true
	default:
		path := filepath.Join(t.TempDir(), "washboard.db")
		sqlitetest.Copy(t, path)
		if a.store, err = sqlite.Open(context.Background(), path); err == nil {
			a.sessionDB, err = sql.Open("sqlite", path)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.sessionDB.Close() })
	t.Cleanup(func() { a.store.Close() })
}

// breakCache makes every read of the alerts fail, sessions aside.
func (a *app) breakCache() {
	if !a.shared {
		a.store.Close() // sessions are in memory too: they survive
		return
	}
	if _, err := a.sessionDB.Exec(`ALTER TABLE alerts RENAME TO alerts_broken`); err != nil {
		a.t.Fatal(err)
	}
}

// sessionsHolding counts the stored sessions whose data holds b as it is.
func (a *app) sessionsHolding(b []byte) (int, error) {
	q := `SELECT count(*) FROM sessions WHERE instr(data, ?) > 0`
	if a.shared {
		q = `SELECT count(*) FROM sessions WHERE position($1::bytea in data) > 0`
	}
	var n int
	err := a.sessionDB.QueryRow(q, b).Scan(&n)
	return n, err
}

// checkNoSecrets fails the test if a credential appears in anything the
// tests received or the server logged, or in clear in the session table.
func (a *app) checkNoSecrets() {
	t := a.t
	for k, c := range []sim.Credentials{credA, credB} {
		for _, secret := range []string{c.APIKey, c.Authorization, strings.TrimPrefix(c.Authorization, "Bearer "), a.world.Client(k).Secret} {
			if strings.Contains(a.seen.String(), secret) {
				t.Error("a credential appears in a response")
			}
			if strings.Contains(a.logs.String(), secret) {
				t.Error("a credential appears in the log")
			}
			if n, err := a.sessionsHolding([]byte(secret)); err != nil {
				t.Error(err)
			} else if n > 0 {
				t.Error("a credential is stored in clear in the session table")
			}
		}
	}
}

// browser is a client with its own cookies, like one browser.
type browser struct {
	a      *app
	client *http.Client
}

func (a *app) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{a: a, client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type response struct {
	*http.Response
	body string
}

func (r response) doc(t *testing.T) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(strings.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (b *browser) do(req *http.Request) response {
	b.a.t.Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		b.a.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	resp.Header.Write(b.a.seen)
	b.a.seen.Write(body)
	return response{resp, string(body)}
}

func (b *browser) get(path string, headers ...string) response {
	req, _ := http.NewRequest(http.MethodGet, b.a.srv.URL+path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

func (b *browser) post(path string, form url.Values) response {
	req, _ := http.NewRequest(http.MethodPost, b.a.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([0-9a-f]{128})"`)

// csrf reads the CSRF token from the sign-in page.
func (b *browser) csrf() string {
	b.a.t.Helper()
	r := b.get("/signin")
	if r.StatusCode == http.StatusSeeOther {
		r = b.get("/accounts") // signed in already: a page of the session
	}
	m := csrfInput.FindStringSubmatch(r.body)
	if m == nil {
		b.a.t.Fatalf("no CSRF token on the sign-in page:\n%s", r.body)
	}
	return m[1]
}

// signIn signs in and waits for the account's first sync.
func (b *browser) signIn(c sim.Credentials) response {
	b.a.t.Helper()
	account := b.a.world.Accounts()[0].ID
	switch c {
	case credB:
		account = b.a.world.Accounts()[1].ID
	case credC:
		account = b.a.world.Accounts()[2].ID
	}
	running := b.a.engine.Running(account)
	events, stop := b.a.engine.Subscribe(account)
	defer stop()
	r := b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {c.APIKey}, "authorization": {c.Authorization}})
	if r.StatusCode == http.StatusSeeOther && !running {
		// The first sync ends with its alerts refresh.
		timeout := time.After(20 * time.Second)
		for done := false; !done; {
			select {
			case ev := <-events:
				done = ev.Resource == domain.ResourceAlerts && (ev.Kind == syncer.EventChanged || ev.Kind == syncer.EventFailed)
			case <-timeout:
				b.a.t.Fatal("the first sync did not finish within 20 s")
			}
		}
		b.a.clock.BlockUntil(1)
	}
	return r
}

func TestSignInShowsTheOverview(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	r := b.signIn(credA)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("sign-in answered %d, Location %q", r.StatusCode, r.Header.Get("Location"))
	}
	var session *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == sessionCookie {
			session = c
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode || session.Secure {
		t.Fatalf("session cookie = %+v; want HttpOnly, SameSite=Lax, not Secure over plain HTTP", session)
	}
	if n := strings.Count(r.Header.Get("Set-Cookie")+strings.Join(r.Header.Values("Set-Cookie"), "\n"), sessionCookie+"="); n > 2 {
		t.Errorf("%d session cookies set", n)
	}
	home := b.get("/")
	if home.StatusCode != http.StatusOK {
		t.Fatalf("GET / = %d\n%s", home.StatusCode, home.body)
	}
	d := home.doc(t)
	name := a.world.Accounts()[0].Name
	if !strings.Contains(d.Find("main").Text(), name) {
		t.Errorf("the overview does not name the account %q", name)
	}
	for _, bld := range a.world.Accounts()[0].Buildings {
		if d.Find(`a[href="/buildings/`+bld.ID+`"]`).Length() == 0 {
			t.Errorf("no link to building %s", bld.Name)
		}
	}
	for _, bld := range a.world.Accounts()[1].Buildings {
		if strings.Contains(home.body, bld.ID) {
			t.Errorf("account A's overview mentions account B's building %s", bld.ID)
		}
	}
}

func TestSignInFailuresKeepNothingSecret(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	r := b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {credA.APIKey}, "authorization": {"Bearer wrong"}})
	if r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.body, "rejected") {
		t.Errorf("wrong Authorization: %d, want 401 saying the credentials were rejected\n%s", r.StatusCode, r.body)
	}
	d := r.doc(t)
	for _, name := range []string{"api_key", "authorization", "client_id", "client_secret"} {
		in := d.Find(`input[name="` + name + `"]`)
		if in.Length() == 0 {
			t.Fatalf("the form lost its %s field", name)
		}
		in.Each(func(_ int, in *goquery.Selection) {
			if v, ok := in.Attr("value"); ok && v != "" {
				t.Errorf("the %s field was filled back in with what was typed", name)
			}
		})
	}

	r = b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {""}, "authorization": {""}})
	if r.StatusCode != http.StatusBadRequest {
		t.Errorf("empty form: %d, want 400", r.StatusCode)
	}

	// Credentials that cannot be sent as headers are refused before any
	// call, saying which one is wrong.
	for _, tc := range []struct{ apiKey, auth, says string }{
		{"key\x00-with-a-nul", credA.Authorization, "The API key contains a character"},
		{credA.APIKey, "Bearer line\nbreak", "The Authorization value contains a character"},
		{credA.APIKey, "Bearer " + strings.Repeat("x", maxCredential), "The Authorization value is longer than"},
	} {
		r = b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {tc.apiKey}, "authorization": {tc.auth}})
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, tc.says) {
			t.Errorf("api_key %.20q, authorization %.20q: %d, want 400 saying %q", tc.apiKey, tc.auth, r.StatusCode, tc.says)
		}
	}

	a.upstream.Close() // the service is unreachable
	r = b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}})
	if r.StatusCode != http.StatusBadGateway || !strings.Contains(r.body, "could not be reached") {
		t.Errorf("unreachable service: %d, want 502 saying so\n%s", r.StatusCode, r.body)
	}
}

func TestStateChangesNeedTheCSRFToken(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.csrf() // gets the cookie
	r := b.post("/signin", url.Values{"api_key": {credA.APIKey}, "authorization": {credA.Authorization}})
	if r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-in without the CSRF token: %d, want 403", r.StatusCode)
	}
	b.signIn(credA)
	r = b.post("/signout", url.Values{"csrf_token": {strings.Repeat("0", 128)}})
	if r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out with a wrong token: %d, want 403", r.StatusCode)
	}
	// The cookie's own value is not what forms carry: a page holds it
	// masked, differently in every response.
	u, _ := url.Parse(a.srv.URL)
	var cookie string
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == csrfCookie {
			cookie = c.Value
		}
	}
	if r := b.get("/screens"); strings.Contains(r.body, cookie) {
		t.Error("a page carries the CSRF cookie's value as it is")
	}
	if r := b.post("/signout", url.Values{"csrf_token": {cookie}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out with the cookie's value: %d, want 403", r.StatusCode)
	}
}

func TestEveryResponseCarriesTheCSRFTokenMaskedAfresh(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	var tokens []string
	for range 3 {
		m := csrfInput.FindStringSubmatch(b.get("/screens").body)
		if m == nil {
			t.Fatal("no CSRF token on /screens")
		}
		tokens = append(tokens, m[1])
	}
	if tokens[0] == tokens[1] || tokens[1] == tokens[2] {
		t.Fatal("two responses carry the same token: a page that repeats its query beside it, gzipped, gives it away")
	}
	// Every one of them is good, the oldest included.
	if r := b.post("/reports/settings", url.Values{"csrf_token": {tokens[0]}, "shifts": {"Day 07:00-19:00, Night 19:00-07:00"}, "zone": {"UTC"}}); r.StatusCode == http.StatusForbidden {
		t.Errorf("a token from an earlier page was refused: %d", r.StatusCode)
	}
	if r := b.post("/signout", url.Values{"csrf_token": {tokens[2]}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-out with the latest token: %d, want 303", r.StatusCode)
	}
}

func TestSignOutEndsTheSession(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	if r := b.get("/"); r.StatusCode != http.StatusOK {
		t.Fatalf("GET / = %d", r.StatusCode)
	}
	token := csrfInput.FindStringSubmatch(b.get("/").body)
	if token == nil {
		t.Fatal("no sign-out form with a CSRF token")
	}
	r := b.post("/signout", url.Values{"csrf_token": {token[1]}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out = %d", r.StatusCode)
	}
	if r := b.get("/"); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
		t.Errorf("after sign-out GET / = %d to %q, want a redirect to sign in", r.StatusCode, r.Header.Get("Location"))
	}
	var n int
	a.sessionDB.QueryRow(`SELECT count(*) FROM sessions`).Scan(&n)
	if n != 0 {
		t.Errorf("%d sessions left in the store after sign-out", n)
	}
}

func TestSessionFixationIsDefeated(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	u, _ := url.Parse(a.srv.URL)
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: "attacker-chosen-token", Path: "/"}})
	b.signIn(credA)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == sessionCookie && c.Value == "attacker-chosen-token" {
			t.Error("the session token was not renewed at sign-in")
		}
	}
}

func TestOtherAccountsPlacesAreNotFound(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	other := a.world.Accounts()[1]
	floor := other.Buildings[0].Floors[0]
	for _, path := range []string{
		"/buildings/" + other.Buildings[0].ID,
		"/floors/" + floor.ID,
		"/rooms/" + floor.Rooms[0].ID,
		"/locations/" + itoa(other.Locations[0].ID),
	} {
		r := b.get(path)
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("account A asking for account B's %s: %d, want 404", path, r.StatusCode)
		}
		if strings.Contains(r.body, other.Buildings[0].Name) {
			t.Errorf("the 404 for %s shows account B's data", path)
		}
	}
	own := a.world.Accounts()[0]
	for _, path := range []string{"/buildings/" + own.Buildings[0].ID, "/floors/" + own.Buildings[0].Floors[0].ID,
		"/rooms/" + own.Rooms[0].ID, "/locations/" + itoa(own.Locations[0].ID)} {
		if r := b.get(path); r.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d, want 200", path, r.StatusCode)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestPagesAndFragments(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	for _, path := range []string{"/", "/floors/" + acc.Buildings[0].Floors[0].ID, "/alerts", "/alerts?status=closed"} {
		full := b.get(path)
		frag := b.get(path, "HX-Request", "true")
		if full.StatusCode != 200 || frag.StatusCode != 200 {
			t.Errorf("%s: page %d, fragment %d", path, full.StatusCode, frag.StatusCode)
			continue
		}
		if !strings.Contains(full.body, "<html") || strings.Contains(frag.body, "<html") {
			t.Errorf("%s: the page must be a whole document and the fragment must not", path)
		}
		if !strings.Contains(frag.body, `id="live"`) {
			t.Errorf("%s: the fragment is not the live region", path)
		}
		for _, r := range []response{full, frag} {
			if !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "HX-Request") {
				t.Errorf("%s: no Vary: HX-Request", path)
			}
		}
	}
}

func TestBadInputNamesTheParameter(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	floor := a.world.Accounts()[0].Buildings[0].Floors[0].ID
	for path, param := range map[string]string{
		"/alerts?from=yesterday":                "from",
		"/alerts?status=maybe":                  "status",
		"/alerts?resolution=fixed":              "resolution",
		"/alerts?type=DROP%20TABLE":             "type",
		"/alerts?from=2026-11-10&to=2026-11-01": "to",
		"/floors/" + floor + "?health=purple":   "health",
		"/floors/" + floor + "?type=teapot":     "type",
		"/alerts?building=nope":                 "building",
		"/devices.csv?room=nope":                "room",
	} {
		r := b.get(path)
		if r.StatusCode != http.StatusBadRequest {
			t.Errorf("GET %s = %d, want 400", path, r.StatusCode)
			continue
		}
		if !strings.Contains(r.body, "The "+param+" parameter") {
			t.Errorf("GET %s: the 400 page does not name %q:\n%s", path, param, r.body)
		}
	}
	if r := b.get("/no/such/page"); r.StatusCode != http.StatusNotFound {
		t.Errorf("unknown page: %d", r.StatusCode)
	}
}

func TestCSVExports(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	r := b.get("/alerts.csv?status=all")
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("alerts.csv Content-Type %q", ct)
	}
	lines := strings.Split(strings.TrimSpace(r.body), "\n")
	if lines[0] != "alert_id,status,type,overdue,created_at,resolved_at,resolution_type,refill_count,building,floor,room,location,device_macids,source,visitor_report,visitor_text" {
		t.Errorf("alerts.csv header = %q", lines[0])
	}
	if want := len(a.world.Accounts()[0].AlertRecords()); len(lines)-1 < want/2 {
		t.Errorf("alerts.csv has %d rows for %d alerts", len(lines)-1, want)
	}
	r = b.get("/devices.csv")
	lines = strings.Split(strings.TrimSpace(r.body), "\n")
	if lines[0] != "location_id,location,device_type,device_mac,device_position,building,floor,room,health,product_levels,battery_level,battery_state,faults,offline,last_seen,runs_out_at,runs_out_earliest,runs_out_latest" {
		t.Errorf("devices.csv header = %q", lines[0])
	}
	if len(lines)-1 < 120 {
		t.Errorf("devices.csv has %d rows for 120 locations", len(lines)-1)
	}
	if !regexp.MustCompile(`,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ(,[^,]*){3}\r?$`).MatchString(lines[1]) {
		t.Errorf("last_seen is not ISO 8601 UTC: %q", lines[1])
	}
}

// devices.csv has a row per device: the two dispensers of a location are
// told apart by their MAC and position, each row's MAC is one of its
// location's devices, and every device of the fleet has its row.
func TestDevicesCSVTellsTheDevicesOfALocationApart(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	rows, err := csv.NewReader(strings.NewReader(b.get("/devices.csv").body)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("devices.csv: %d rows, %v", len(rows), err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	macs, positions := map[string]map[string]string{}, 0 // by location, the MACs and positions of its devices
	for _, r := range a.world.Accounts()[0].Rooms {
		for _, l := range r.Locations {
			macs[fmt.Sprint(l.ID)] = map[string]string{}
			for _, d := range l.Devices {
				macs[fmt.Sprint(l.ID)][d.MAC] = d.Position
				positions++
			}
		}
	}
	twice := 0
	seen := map[string]bool{}
	for _, r := range rows[1:] {
		loc, mac, pos := r[col["location_id"]], r[col["device_mac"]], r[col["device_position"]]
		want, ok := macs[loc][mac]
		if !ok || pos != want {
			t.Errorf("location %s has a row of device %q at %q; its devices are %v", loc, mac, pos, macs[loc])
		}
		if seen[loc+" "+mac] {
			t.Errorf("location %s has two rows of device %s", loc, mac)
		}
		seen[loc+" "+mac] = true
		if len(macs[loc]) == 2 {
			twice++
		}
	}
	if len(rows)-1 != positions {
		t.Errorf("devices.csv has %d rows for the fleet's %d devices", len(rows)-1, positions)
	}
	if twice == 0 {
		t.Fatal("no location of the simulated fleet holds two devices; the test proves nothing")
	}
}

func TestRejectedCredentialsSendTheSessionToSignIn(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.world.SetCredentials(0, sim.Credentials{APIKey: credA.APIKey, Authorization: "Bearer reissued"})
	events, stop := a.engine.Subscribe(a.world.Accounts()[0].ID)
	defer stop()
	a.clock.Advance(time.Minute) // the next sync is rejected
	for ev := range events {
		if ev.Kind == syncer.EventRejected {
			break
		}
	}
	r := b.get("/alerts", "HX-Request", "true")
	if got := r.Header.Get("HX-Redirect"); got != "/signin?reason=expired" {
		t.Errorf("an htmx request after the rejection got HX-Redirect %q", got)
	}
	r = b.get("/signin?reason=expired")
	if !strings.Contains(r.body, "The Authorization value was refused") {
		t.Error("the sign-in page does not say the Authorization value was refused")
	}
	if r := b.get("/"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the rejected session still gets pages: %d", r.StatusCode)
	}
}

func TestFailedSignInsAreLimitedAndSuccessfulOnesAreNot(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{SignInLimit: 3})
	// An office behind one address: everyone signs in, more often than
	// the limit, and nobody is turned away.
	for i := range 5 {
		if r := a.browser().signIn(credA); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in %d from one address = %d, want 303", i+1, r.StatusCode)
		}
	}
	b := a.browser()
	token := b.csrf()
	var last response
	for range 4 {
		last = b.post("/signin", url.Values{"csrf_token": {token}, "api_key": {"guess"}, "authorization": {"guess"}})
	}
	if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
		t.Fatalf("4th failure in a minute with a limit of 3: %d, Retry-After %q", last.StatusCode, last.Header.Get("Retry-After"))
	}
	until := start.Add(time.Minute).Format("15:04:05")
	if !strings.Contains(last.body, "Try again at "+until) || !strings.Contains(last.body, "60 seconds") {
		t.Errorf("the 429 page does not say to try again at %s, in 60 seconds:\n%s", until, last.doc(t).Find("main").Text())
	}
	if r := b.signIn(credA); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("good credentials from a blocked address = %d, want 429", r.StatusCode)
	}
	a.clock.Advance(time.Minute)
	if r := b.signIn(credA); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a minute later sign-in = %d", r.StatusCode)
	}
}

func TestSignInLimitsBelieveForwardedAddressesOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	guess := func(b *browser, key, from string) int {
		req, _ := http.NewRequest(http.MethodPost, b.a.srv.URL+"/signin", strings.NewReader(url.Values{
			"csrf_token": {b.csrf()}, "api_key": {key}, "authorization": {"guess"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", from)
		return b.do(req).StatusCode
	}
	// Without trusted proxies, or with proxies elsewhere, a client cannot
	// name its own address: ten made-up addresses are one client.
	for _, proxies := range [][]netip.Prefix{nil, {netip.MustParsePrefix("10.0.0.0/8")}} {
		a := newApp(t, Config{SignInLimit: 3, TrustedProxies: proxies})
		b := a.browser()
		codes := ""
		for i := range 5 {
			codes += fmt.Sprint(guess(b, fmt.Sprintf("key-%d", i), fmt.Sprintf("203.0.113.%d", i+1)), " ")
		}
		if !strings.HasSuffix(codes, "429 ") {
			t.Errorf("proxies %v: five failures with five forwarded addresses: %s, want the last limited", proxies, codes)
		}
	}
	// Behind a trusted proxy, each client is counted apart...
	a := newApp(t, Config{SignInLimit: 3, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	b := a.browser()
	for i := range 5 {
		if code := guess(b, fmt.Sprintf("key-%d", i), fmt.Sprintf("203.0.113.%d", i+1)); code != http.StatusUnauthorized {
			t.Errorf("client %d behind the trusted proxy = %d, want 401", i+1, code)
		}
	}
	// ...and what a client puts before the proxy's own entry counts for
	// nothing: the proxy appends the address it saw.
	for i := range 3 {
		guess(b, fmt.Sprintf("other-%d", i), fmt.Sprintf("198.51.100.%d, 203.0.113.99", i+1))
	}
	if code := guess(b, "other-9", "198.51.100.77, 203.0.113.99"); code != http.StatusTooManyRequests {
		t.Errorf("a client naming new addresses before its own = %d, want 429", code)
	}
}

// TestOthersFailuresWithAnAPIKeyDoNotLockItsOwnerOut: failures with one
// API key from many addresses slow the guessing — each of those addresses
// then waits a minute after its failure before trying the key again,
// saying so in words — but the owner, at an address that has not failed
// with the key, signs in at once; and a guesser's wait ends.
func TestOthersFailuresWithAnAPIKeyDoNotLockItsOwnerOut(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	from := func(addr string, form url.Values) response {
		b := a.browser()
		form.Set("csrf_token", b.csrf())
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/signin", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", addr)
		return b.do(req)
	}
	guess := url.Values{"api_key": {credA.APIKey}, "authorization": {"Bearer guess"}}
	for i := range 10 {
		if r := from(fmt.Sprintf("203.0.113.%d", i+1), guess); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d, want 401", i+1, r.StatusCode)
		}
	}
	a.clock.Advance(20 * time.Second)
	again := from("203.0.113.1", guess)
	if again.StatusCode != http.StatusTooManyRequests || again.Header.Get("Retry-After") != "40" {
		t.Errorf("a guessing address trying the key again: %d, Retry-After %q; want 429 and 40", again.StatusCode, again.Header.Get("Retry-After"))
	}
	if msg := strings.Join(strings.Fields(again.doc(t).Find("main").Text()), " "); !strings.Contains(msg, "Sign-ins with this API key failed many times lately, from several addresses, yours among them") ||
		!strings.Contains(msg, "in 40 seconds") {
		t.Errorf("the 429 page says %q; want why, and when to try again", msg)
	}
	right := url.Values{"api_key": {credA.APIKey}, "authorization": {credA.Authorization}}
	if r := from("198.51.100.7", right); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the owner, from an address that has not failed: %d, want 303", r.StatusCode)
	}
	if r := from("203.0.113.2", url.Values{"api_key": {credB.APIKey}, "authorization": {"Bearer guess"}}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a guessing address trying another key: %d, want 401 (not held)", r.StatusCode)
	}
	a.clock.Advance(40 * time.Second)
	if r := from("203.0.113.1", right); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a minute after its failure, an address that failed: %d, want 303", r.StatusCode)
	}
}

// TestAnIPv6ClientIsCountedByItsSlash64: the addresses of one /64 are one
// client to the sign-in limit; another /64 is another.
func TestAnIPv6ClientIsCountedByItsSlash64(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{SignInLimit: 3, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	b := a.browser()
	from := func(addr, key string) int {
		form := url.Values{"csrf_token": {b.csrf()}, "api_key": {key}, "authorization": {"Bearer guess"}}
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/signin", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", addr)
		return b.do(req).StatusCode
	}
	for i := range 3 {
		from(fmt.Sprintf("2001:db8:1:2::%x", i+1), fmt.Sprintf("key-%d", i))
	}
	if code := from("2001:db8:1:2:ffff::9", "key-9"); code != http.StatusTooManyRequests {
		t.Errorf("a fourth address of the same /64: %d, want 429", code)
	}
	if code := from("2001:db8:1:3::1", "key-9"); code != http.StatusUnauthorized {
		t.Errorf("an address of another /64: %d, want 401", code)
	}
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	b := a.browser()
	r := b.get("/signin", "X-Forwarded-Proto", "https")
	csp := r.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP = %q", csp)
	}
	for _, h := range []string{"X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Strict-Transport-Security"} {
		if r.Header.Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	for _, c := range r.Cookies() {
		if c.Name == csrfCookie && !c.Secure {
			t.Error("the CSRF cookie is not Secure behind a proxy that says https")
		}
	}
	if strings.Contains(r.body, "<script>") {
		t.Error("an inline script on the sign-in page")
	}
	// A client that is not a trusted proxy cannot claim https for itself.
	a = newApp(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	r = a.browser().get("/signin", "X-Forwarded-Proto", "https")
	if r.Header.Get("Strict-Transport-Security") != "" {
		t.Error("HSTS sent on plain HTTP because the client said https")
	}
	for _, c := range r.Cookies() {
		if c.Secure {
			t.Errorf("cookie %s is Secure on plain HTTP because the client said https", c.Name)
		}
	}
}

func TestTheAppHasAnIconInEveryTab(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	page := b.get("/signin")
	icon, ok := page.doc(t).Find(`link[rel="icon"]`).Attr("href")
	if !ok || !strings.HasPrefix(icon, "/static/icons/favicon.svg?v=") {
		t.Fatalf("the sign-in page names the icon %q", icon)
	}
	if r := b.get(icon); r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(r.body, "<svg") {
		t.Errorf("%s: %d, %q, %d bytes", icon, r.StatusCode, r.Header.Get("Content-Type"), len(r.body))
	}
	// A document that names no icon, such as /healthz's JSON, gets it
	// from /favicon.ico rather than a 404 in the browser's console.
	r := b.get("/favicon.ico")
	if r.StatusCode != http.StatusFound || r.Header.Get("Location") != icon {
		t.Errorf("/favicon.ico: %d to %q, want %d to %q", r.StatusCode, r.Header.Get("Location"), http.StatusFound, icon)
	}
}

func TestDemoSignInInOneClick(t *testing.T) {
	t.Parallel()
	demo := upstream.Credentials{APIKey: credB.APIKey, Authorization: credB.Authorization}
	a := newApp(t, Config{Demo: &demo})
	b := a.browser()
	page := b.get("/signin")
	if !strings.Contains(page.body, `action="/signin/demo"`) {
		t.Fatal("no demo button")
	}
	r := b.post("/signin/demo", url.Values{"csrf_token": {b.csrf()}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("demo sign-in = %d\n%s", r.StatusCode, r.body)
	}
	a.clock.BlockUntil(1)
	if home := b.get("/"); !strings.Contains(home.body, a.world.Accounts()[1].Name) {
		t.Error("the demo sign-in did not open the demo account")
	}
}

func TestServerErrorShowsAnIDTheLogCarries(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.breakCache() // the cache fails under the next page
	r := b.get("/alerts")
	if r.StatusCode != http.StatusInternalServerError {
		t.Fatalf("GET /alerts with a broken cache = %d, want 500", r.StatusCode)
	}
	m := regexp.MustCompile(`[Ee]rror id:?\s*(?:<[^>]+>\s*)*([0-9a-f]{12})`).FindStringSubmatch(r.body)
	if m == nil {
		t.Fatalf("the 500 page shows no error id:\n%s", r.body)
	}
	if !strings.Contains(a.logs.String(), "error_id="+m[1]) {
		t.Errorf("no log line carries the error id %s", m[1])
	}
}

func TestUnreachableUpstreamShowsCachedDataWithAWarning(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.world.SetFaults(sim.Faults{ErrorRate: 1})
	a.clock.Advance(time.Minute) // a refresh fails
	a.clock.BlockUntil(1)
	a.clock.Advance(2 * time.Minute) // and the data grows old
	a.clock.BlockUntil(1)
	r := b.get("/")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET / while the service fails = %d, want the cached page", r.StatusCode)
	}
	banner := r.doc(t).Find("#freshness").Text()
	if !strings.Contains(banner, "server error") {
		t.Errorf("the banner does not say why the data is old: %q", strings.Join(strings.Fields(banner), " "))
	}
	if !strings.Contains(r.body, a.world.Accounts()[0].Buildings[0].Name) {
		t.Error("the cached buildings are not shown")
	}
	frag := b.get("/status", "HX-Request", "true")
	if !strings.Contains(frag.body, "server error") {
		t.Error("the banner fragment does not carry the warning")
	}
}

func TestFirstLoadShowsProgress(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	// The service is slow: the first sync is still running when the first
	// page is asked for.
	a.world.SetFaults(sim.Faults{Latency: 400 * time.Millisecond})
	r := b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in = %d", r.StatusCode)
	}
	page := b.get("/")
	if page.StatusCode != http.StatusOK || page.doc(t).Find("progress").Length() == 0 || !strings.Contains(page.body, `id="sync-progress"`) {
		t.Fatalf("the first page during the first sync shows no progress bar:\n%s", page.body)
	}
	frag := b.get("/sync/progress", "HX-Request", "true")
	if frag.StatusCode != http.StatusOK || !strings.Contains(frag.body, `id="sync-progress"`) {
		t.Errorf("the progress fragment = %d", frag.StatusCode)
	}
	a.clock.BlockUntil(1) // the first sync is done
	if r := b.get("/sync/progress", "HX-Request", "true"); r.Header.Get("HX-Refresh") != "true" {
		t.Errorf("after the first sync the progress fragment answers HX-Refresh %q", r.Header.Get("HX-Refresh"))
	}
	if r := b.get("/"); r.StatusCode != http.StatusOK || strings.Contains(r.body, `id="sync-progress"`) {
		t.Error("after the first sync the overview still shows the progress bar")
	}
}

func TestSearchByLocationRoomOrMAC(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	loc := acc.Locations[5]
	mac := loc.Devices[0].MAC
	for _, q := range []string{strings.ToLower(mac[4:]), loc.Room.Name, strings.ToUpper(loc.Room.Name)} {
		r := b.get("/search?q=" + url.QueryEscape(q))
		if r.StatusCode != http.StatusOK {
			t.Fatalf("search %q = %d", q, r.StatusCode)
		}
		if r.doc(t).Find("#card-"+itoa(loc.ID)).Length() != 1 {
			t.Errorf("searching %q does not find location %d", q, loc.ID)
		}
	}
	if r := b.get("/search?q=" + url.QueryEscape(a.world.Accounts()[1].Locations[0].Devices[0].MAC)); strings.Contains(r.body, `id="card-`) {
		t.Error("searching another account's MAC finds something")
	}
	if r := b.get("/search?q=" + strings.Repeat("x", 101)); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a 101-character search = %d, want 400", r.StatusCode)
	}
}

// testKeys is a key ring of the key made of b, and of the old keys made
// of old.
func testKeys(t testing.TB, b byte, old ...byte) *keyring.Ring {
	t.Helper()
	var olds [][]byte
	for _, o := range old {
		olds = append(olds, bytes.Repeat([]byte{o}, keyring.KeySize))
	}
	r, err := keyring.New(bytes.Repeat([]byte{b}, keyring.KeySize), olds...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSessionsAreSealedWithTheServersKey(t *testing.T) {
	t.Parallel()
	c := newEncryptedCodec(testKeys(t, 1))
	blob, _ := c.Encode(time.Now().Add(time.Hour), map[string]interface{}{"api_key": "very-secret"})
	if bytes.Contains(blob, []byte("very-secret")) {
		t.Error("the session codec leaves values in clear")
	}
	if _, _, err := newEncryptedCodec(testKeys(t, 2)).Decode(blob); err == nil {
		t.Error("a session decodes with another key")
	}
	if _, v, err := newEncryptedCodec(testKeys(t, 2, 1)).Decode(blob); err != nil || v["api_key"] != "very-secret" {
		t.Errorf("a session sealed with the old key does not open during a rotation: %v", err)
	}
}
