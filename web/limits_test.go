package web

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"washboard/web/httpkit"
)

// varyOf is the set of header names a response varies by, however many
// Vary lines carry them.
func varyOf(h http.Header) map[string]bool {
	names := map[string]bool{}
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			names[http.CanonicalHeaderKey(strings.TrimSpace(f))] = true
		}
	}
	return names
}

func TestSignedInResponsesAreNeverCachedAndVaryByHTMX(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	bld := acc.Buildings[0]
	paths := []string{
		"/", "/alerts", "/alerts?status=closed", "/buildings/" + bld.ID, "/floors/" + bld.Floors[0].ID,
		"/search?q=stall", "/alerts.csv", "/devices.csv", "/screens", "/reports/shift",
		"/reports/shift.csv?table=opened", "/reports/settings", "/service-levels", "/reports/client/schedules", "/trends", "/trends.csv?table=heatmap", "/status", "/no-such-page",
		"/floors/" + bld.Floors[0].ID + "/plan",
		"/floors/" + bld.Floors[0].ID + "/codes",
		"/rooms/" + bld.Floors[0].Rooms[0].ID + "/service", "/reports/service.csv",
		"/rounds",
	}
	for _, path := range paths {
		for _, htmx := range []bool{false, true} {
			var headers []string
			if htmx {
				headers = []string{"HX-Request", "true"}
			}
			r := b.get(path, append(headers, "Accept-Encoding", "gzip")...)
			if r.StatusCode >= 500 {
				t.Errorf("GET %s (htmx %v) = %d", path, htmx, r.StatusCode)
				continue
			}
			if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
				t.Errorf("GET %s (htmx %v): Cache-Control %q, want no-store: a shared machine's cache would keep it", path, htmx, cc)
			}
			vary := varyOf(r.Header)
			if !vary["Hx-Request"] || !vary["Accept-Encoding"] {
				t.Errorf("GET %s (htmx %v): Vary %q, want HX-Request and Accept-Encoding", path, htmx, r.Header.Values("Vary"))
			}
			if n := len(r.Header.Values("Vary")); n != 1 {
				t.Errorf("GET %s (htmx %v): %d Vary lines, want one", path, htmx, n)
			}
		}
	}
	// Signed out, the sign-in page holds a form token: not kept either.
	if r := a.browser().get("/signin"); !strings.Contains(r.Header.Get("Cache-Control"), "no-store") {
		t.Errorf("the sign-in page: Cache-Control %q, want no-store", r.Header.Get("Cache-Control"))
	}
	// Assets are another matter: kept for good.
	if r := b.get("/favicon.ico"); strings.Contains(r.Header.Get("Cache-Control"), "no-store") {
		t.Errorf("the icon is not to be cached: %q", r.Header.Get("Cache-Control"))
	}
}

// endless is an io.Reader of n bytes that never holds them all.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), r.n)
	clear(p[:n])
	r.n -= n
	return int(n), nil
}

// multipartUpload is a multipart form with a csrf_token field and a file
// of size bytes, as a stream.
func multipartUpload(size int64) (io.Reader, string) {
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	mw.WriteField("csrf_token", strings.Repeat("0", 128))
	mw.CreateFormFile("upload", "big.bin")
	tail := "\r\n--" + mw.Boundary() + "--\r\n"
	return io.MultiReader(&head, &endless{size}, strings.NewReader(tail)), mw.FormDataContentType()
}

func TestLargeBodiesAreRefusedAndNoUploadOutlivesItsRequest(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where multipart files would go
	a := newApp(t, Config{})
	b := a.browser()
	b.csrf()

	for _, path := range []string{"/signin", "/signout", "/signin/demo"} {
		for _, known := range []bool{true, false} {
			body, ctype := multipartUpload(200 << 20)
			req, _ := http.NewRequest(http.MethodPost, a.srv.URL+path, body)
			req.Header.Set("Content-Type", ctype)
			if known {
				req.ContentLength = 200<<20 + 512
			}
			resp, err := b.client.Do(req)
			if err != nil {
				// The server may close the connection before the client
				// has written the rest; what matters is that nothing stays.
				t.Logf("POST %s (length known %v): %v", path, known, err)
			} else {
				resp.Body.Close()
				if resp.StatusCode != http.StatusRequestEntityTooLarge {
					t.Errorf("POST %s of 200 MB (length known %v) = %d, want 413", path, known, resp.StatusCode)
				}
			}
		}
	}
	// A small upload is read from memory and refused for its bad token.
	body, ctype := multipartUpload(40 << 10)
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/signin", body)
	req.Header.Set("Content-Type", ctype)
	if r := b.do(req); r.StatusCode != http.StatusForbidden {
		t.Errorf("a 40 KB upload with a bad token = %d, want 403", r.StatusCode)
	}
	// A form within the limit still works.
	if r := b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {credA.APIKey}, "authorization": {strings.Repeat("x", 60<<10)}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "longer than") {
		t.Errorf("a 60 KB form = %d, want 400 naming the long field", r.StatusCode)
	}
	a.srv.CloseClientConnections()
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range left {
		t.Errorf("%s was left in the temporary directory", f.Name())
	}
}

func TestEventStreamsOutliveTheServersReadTimeout(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{ScreenHeartbeat: 100 * time.Millisecond})
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Lobby", "account"))

	srv := httpkit.NewServer(a.srv.Config.Handler, nil)
	srv.ReadTimeout = 300 * time.Millisecond
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	defer ts.Close()

	tv := a.browser()
	a.srv.URL, ts.URL = ts.URL, a.srv.URL // the browser talks to the server with the short timeout
	defer func() { a.srv.URL = ts.URL }()
	tv.get("/s/" + token)
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/screen/events", nil)
	resp, err := tv.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	began := time.Now()
	lines := bufio.NewScanner(resp.Body)
	beats := 0
	for lines.Scan() && time.Since(began) < 1500*time.Millisecond {
		if strings.HasPrefix(lines.Text(), "event: heartbeat") {
			beats++
		}
	}
	if elapsed := time.Since(began); elapsed < 1500*time.Millisecond {
		t.Fatalf("the stream ended after %s (%d heartbeats), within five read timeouts", elapsed.Round(time.Millisecond), beats)
	}
	if beats < 5 {
		t.Errorf("%d heartbeats in 1.5 s at one every 100 ms", beats)
	}

	// A request whose body does not come within the read timeout is cut off.
	conn, err := (&net.Dialer{}).Dial("tcp", strings.TrimPrefix(a.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\napi_key=")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadAll(conn); err != nil {
		t.Errorf("a request that stalls mid-body was not closed by the server: %v", err)
	}
}

func TestLogLinesCutLongPathsShort(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	long := "/" + strings.Repeat("ä", 5000)
	if r := b.get(long); r.StatusCode != http.StatusNotFound {
		t.Fatalf("GET a 10 KB path = %d", r.StatusCode)
	}
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, "ää") && len(line) > 1024 {
			t.Errorf("a log line of %d bytes carries the path", len(line))
		}
	}
	if !strings.Contains(a.logs.String(), "…") {
		t.Error("the log does not show that the path was cut")
	}
}

func TestAFirstSyncWhosePagingDoesNotEndSaysSoAndTriesAgain(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	var ignoreOffsets atomic.Bool
	ignoreOffsets.Store(true)
	hook := func(r *http.Request) {
		if r.URL.Path == "/devices" && ignoreOffsets.Load() { // a proxy that drops the offset
			q := r.URL.Query()
			q.Del("offset")
			r.URL.RawQuery = q.Encode()
		}
	}
	a.beforeUpstream.Store(&hook)
	b := a.browser()
	b.signIn(credA)
	page := b.get("/")
	text := page.doc(t).Find("#sync-progress").Text()
	if page.StatusCode != http.StatusOK || !strings.Contains(page.body, "Loading your account") {
		t.Fatalf("GET / during the failing first sync = %d, not the progress page", page.StatusCode)
	}
	for _, want := range []string{"The last attempt did not succeed", "did not come to an end", "/devices", "tries again within 1 min"} {
		if !strings.Contains(text, want) {
			t.Errorf("the progress page does not say %q:\n%s", want, text)
		}
	}
	ignoreOffsets.Store(false)
	a.clock.Advance(time.Minute)
	a.clock.BlockUntil(1)
	if r := b.get("/"); strings.Contains(r.body, "Loading your account") {
		t.Error("the next refresh did not finish the first sync")
	}
}

// TestNULBytesAndBrokenTextAreRefusedByName: a NUL byte or text that is
// not UTF-8 in an id, a query or a form is answered 400 naming the
// parameter, on either engine (PostgreSQL refuses such text outright).
func TestNULBytesAndBrokenTextAreRefusedByName(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	for _, c := range []struct {
		name, param string
		do          func() response
	}{
		{"an id with a NUL byte", "id", func() response { return b.get("/buildings/b%00x") }},
		{"an id that is not UTF-8", "id", func() response { return b.get("/locations/%FF%FE") }},
		{"a search with a NUL byte", "q", func() response { return b.get("/search?q=soap%00") }},
		{"a filter that is not UTF-8", "building", func() response { return b.get("/alerts.csv?building=%c3%28") }},
		{"a form value with a NUL byte", "name", func() response {
			token := csrfInput.FindStringSubmatch(b.get("/screens").body)[1]
			return b.post("/screens", url.Values{"csrf_token": {token}, "name": {"Lobby\x00"}, "scope": {"account"}})
		}},
	} {
		r := c.do()
		if r.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", c.name, r.StatusCode)
			continue
		}
		if !strings.Contains(r.body, "The "+c.param+" parameter holds a character no name or id has") {
			t.Errorf("%s: the answer does not name the parameter %q:\n%s", c.name, c.param, r.body)
		}
	}
	if r := b.get("/"); r.StatusCode != http.StatusOK {
		t.Errorf("the session did not survive: GET / = %d", r.StatusCode)
	}
}
