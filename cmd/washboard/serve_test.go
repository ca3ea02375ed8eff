package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/sim"
)

// upstreamSim is a simulated service on loopback whose /alerts answers can
// be slowed down.
type upstreamSim struct {
	world    *sim.World
	cred     sim.Credentials
	srv      *httptest.Server
	delay    atomic.Int64  // added to each /alerts request, in nanoseconds
	delayAll atomic.Bool   // delay every request, not only /alerts
	requests atomic.Int64  // requests received
	done     chan struct{} // ends the delays when the test ends
}

func newUpstreamSim(t *testing.T) *upstreamSim {
	t.Helper()
	return newUpstreamSimOf(t, 60)
}

func newUpstreamSimOf(t *testing.T, locations int) *upstreamSim {
	t.Helper()
	u := &upstreamSim{cred: sim.NewCredentials(), done: make(chan struct{})}
	u.world = sim.New(sim.Config{Seed: 5, Locations: locations, Accounts: 1, History: 2 * 24 * time.Hour,
		Clock: sim.NewManualClock(time.Now()), Zone: time.UTC, Credentials: []sim.Credentials{u.cred}})
	h := u.world.Handler()
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.requests.Add(1)
		if r.URL.Path == "/alerts" || u.delayAll.Load() {
			select {
			case <-time.After(time.Duration(u.delay.Load())):
			case <-u.done:
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(u.srv.Close)
	t.Cleanup(func() { close(u.done) })
	return u
}

var csrfField = regexp.MustCompile(`name="csrf_token" value="([0-9a-f]+)"`)

// signIn signs a new client in and waits for the account's first sync.
func signIn(t *testing.T, base string, cred sim.Credentials) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	body := get(t, c, base+"/signin")
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no CSRF token on the sign-in page")
	}
	resp, err := c.PostForm(base+"/signin", url.Values{"api_key": {cred.APIKey}, "authorization": {cred.Authorization}, "csrf_token": {m[1]}})
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if strings.Contains(get(t, c, base+"/"), `id="buildings-heading"`) {
			return c
		}
	}
	t.Fatal("the first sync did not finish within 20 s")
	return nil
}

func get(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// startServe runs "washboard serve" in-process and returns its address and
// the channel its exit code arrives on.
func startServe(t *testing.T, ctx context.Context, args ...string) (string, <-chan int, *syncBuffer) {
	t.Helper()
	return startCommand(t, ctx, servesAt, append([]string{"serve", "--listen", "127.0.0.1:0", "--data", t.TempDir(), "--log-format", "json"}, args...))
}

var (
	servesAt  = regexp.MustCompile(`running on (http://\S+)`)
	demoOpens = regexp.MustCompile(`Open (http://\S+)`)
)

// startCommand runs a command in-process and returns the address the
// first line of its output that matches at gives, and the channel its
// exit code arrives on.
func startCommand(t *testing.T, ctx context.Context, at *regexp.Regexp, args []string) (string, <-chan int, *syncBuffer) {
	t.Helper()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, args, outW, &stderr)
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		if m := at.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, outR)
			return m[1], done, &stderr
		}
	}
	t.Fatalf("%s printed no address; stderr:\n%s", args[0], stderr.String())
	return "", nil, nil
}

// TestShutdownFinishesRequestsAndClosesStreams: on SIGTERM (the context
// ending) a request in flight is answered in full, an open event stream is
// closed at once, and the command exits cleanly within its grace period.
func TestShutdownFinishesRequestsAndClosesStreams(t *testing.T) {
	up := newUpstreamSim(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done, stderr := startServe(t, ctx, "--upstream", up.srv.URL, "--shutdown-grace", "10s")
	c := signIn(t, base, up.cred)

	stream, err := c.Get(base + "/events")
	if err != nil {
		t.Fatal(err)
	}
	streamEnded := make(chan struct{})
	go func() { io.Copy(io.Discard, stream.Body); close(streamEnded) }()

	// A report of a period long gone is read from the service, which now
	// takes a second to answer.
	up.delay.Store(int64(time.Second))
	type result struct {
		status int
		body   string
		err    error
	}
	answered := make(chan result, 1)
	go func() {
		resp, err := c.Get(base + "/reports/shift?date=2025-01-06&shift=Early")
		if err != nil {
			answered <- result{err: err}
			return
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		answered <- result{resp.StatusCode, string(b), err}
	}()
	time.Sleep(300 * time.Millisecond) // the report's request is in flight
	cancel()

	select {
	case <-streamEnded:
	case <-time.After(5 * time.Second):
		t.Error("the event stream stayed open after the shutdown began")
	}
	r := <-answered
	if r.err != nil || r.status != http.StatusOK || !strings.Contains(r.body, "</html>") {
		t.Errorf("the request in flight: status %d, error %v; want it answered in full", r.status, r.err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the dashboard did not exit within its grace period")
	}
	if !strings.Contains(stderr.String(), `"msg":"stopped"`) {
		t.Errorf("no clean stop logged; stderr:\n%s", stderr.String())
	}
}

// TestShutdownGraceCutsOffSlowRequests: a request that outlasts the grace
// period does not hold the exit up; the command says so and exits non-zero.
func TestShutdownGraceCutsOffSlowRequests(t *testing.T) {
	up := newUpstreamSim(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done, stderr := startServe(t, ctx, "--upstream", up.srv.URL, "--shutdown-grace", "500ms")
	c := signIn(t, base, up.cred)
	up.delay.Store(int64(20 * time.Second))
	go c.Get(base + "/reports/shift?date=2025-01-06&shift=Early")
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code == 0 || !strings.Contains(stderr.String(), "grace period") {
			t.Errorf("exit code %d; want non-zero with the grace period named; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(8 * time.Second):
		t.Fatal("a slow request held the exit up past the grace period")
	}
}
