package web

import (
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"washboard/static"
)

var maskedToken = regexp.MustCompile(`[0-9a-f]{128}`)

// gunzip decompresses a whole gzip body, failing the test if it is not
// one valid gzip member.
func gunzip(t *testing.T, body string) string {
	t.Helper()
	sr := strings.NewReader(body)
	zr, err := gzip.NewReader(sr)
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	zr.Multistream(false)
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("broken gzip: %v", err)
	}
	if sr.Len() != 0 {
		t.Fatalf("%d bytes after the gzip member", sr.Len())
	}
	return string(b)
}

// getEncoded fetches path asking for the given content coding itself, so
// that the client hands over the body as it came.
func (b *browser) getEncoded(path, coding string, headers ...string) response {
	return b.get(path, append([]string{"Accept-Encoding", coding}, headers...)...)
}

func TestPagesAreSentGzippedToBrowsersThatAcceptIt(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	paths := []string{"/", "/buildings/" + acc.Buildings[0].ID, "/floors/" + acc.Buildings[0].Floors[0].ID,
		"/alerts", "/alerts.csv?status=all", "/devices.csv", "/reports/shift", "/screens"}
	for _, path := range paths {
		for _, htmx := range []string{"", "true"} {
			if htmx != "" && strings.HasSuffix(path, ".csv") {
				continue
			}
			plain := b.getEncoded(path, "identity", "HX-Request", htmx)
			zipped := b.getEncoded(path, "gzip, deflate, br", "HX-Request", htmx)
			if plain.StatusCode != http.StatusOK || zipped.StatusCode != http.StatusOK {
				t.Errorf("%s (htmx %q): %d plain, %d gzipped", path, htmx, plain.StatusCode, zipped.StatusCode)
				continue
			}
			if enc := plain.Header.Get("Content-Encoding"); enc != "" {
				t.Errorf("%s: sent as %q to a browser that asked for it as it is", path, enc)
			}
			if enc := zipped.Header.Get("Content-Encoding"); enc != "gzip" {
				t.Errorf("%s (htmx %q): Content-Encoding %q, want gzip", path, htmx, enc)
				continue
			}
			if !strings.Contains(strings.Join(zipped.Header.Values("Vary"), ","), "Accept-Encoding") {
				t.Errorf("%s: no Vary: Accept-Encoding", path)
			}
			if n := zipped.Header.Get("Content-Length"); n != "" && n != itoa(int64(len(zipped.body))) {
				t.Errorf("%s: Content-Length %s for %d bytes", path, n, len(zipped.body))
			}
			// The clock stands still: both are the same page, byte for byte,
			// but for the CSRF token, masked afresh for every response.
			if got := maskedToken.ReplaceAllString(gunzip(t, zipped.body), "TOKEN"); got != maskedToken.ReplaceAllString(plain.body, "TOKEN") {
				t.Errorf("%s (htmx %q): gunzipped, the page differs from the page sent as it is (%d bytes, %d)", path, htmx, len(got), len(plain.body))
			}
			if len(zipped.body)*2 > len(plain.body) {
				t.Errorf("%s (htmx %q): %d bytes gzipped for %d", path, htmx, len(zipped.body), len(plain.body))
			}
		}
	}
}

func TestGzipIsOnlyUsedWhereItHelps(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	for _, tc := range []struct {
		name, path, coding string
		gzipped            bool
	}{
		{"refused with q=0", "/", "gzip;q=0, identity", false},
		{"asked for in capitals", "/", "GZIP", true},
		{"a small answer", "/healthz", "gzip", false},
		{"an error page", "/no/such/page", "gzip", true},
	} {
		r := b.getEncoded(tc.path, tc.coding)
		if got := r.Header.Get("Content-Encoding") == "gzip"; got != tc.gzipped {
			t.Errorf("%s: gzipped %v, want %v", tc.name, got, tc.gzipped)
		}
		if tc.gzipped && !strings.Contains(gunzip(t, r.body), "</html>") {
			t.Errorf("%s: the gzipped page is not whole", tc.name)
		}
	}

	// An event stream goes out as it is written, event by event.
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/events", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct, enc := resp.Header.Get("Content-Type"), resp.Header.Get("Content-Encoding"); !strings.HasPrefix(ct, "text/event-stream") || enc != "" {
		t.Errorf("the event stream is %q with Content-Encoding %q", ct, enc)
	}
}

func TestAssetsAreKeptByVersionAndSentGzipped(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	css, err := static.FS.ReadFile("css/app.css")
	if err != nil {
		t.Fatal(err)
	}
	url := static.URL("css/app.css")
	if !strings.Contains(url, "?v=") {
		t.Fatalf("the stylesheet's address %q carries no version", url)
	}

	r := b.getEncoded(url, "gzip")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("GET %s: %d, Content-Encoding %q", url, r.StatusCode, r.Header.Get("Content-Encoding"))
	}
	if gunzip(t, r.body) != string(css) {
		t.Error("the gzipped stylesheet is not the stylesheet")
	}
	if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("a versioned address is sent with Cache-Control %q", cc)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/css") {
		t.Errorf("Content-Type %q", ct)
	}

	plain := b.getEncoded(url, "identity")
	if plain.body != string(css) || plain.Header.Get("ETag") == r.Header.Get("ETag") {
		t.Errorf("as it is: %d bytes of %d, ETag %q (gzipped %q)", len(plain.body), len(css), plain.Header.Get("ETag"), r.Header.Get("ETag"))
	}

	// Without the version, or with an old one, the browser asks again
	// each time and is told when nothing changed.
	for _, u := range []string{"/static/css/app.css", "/static/css/app.css?v=0123456789ab"} {
		r := b.getEncoded(u, "gzip")
		if cc := r.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", u, cc)
		}
		again := b.getEncoded(u, "gzip", "If-None-Match", r.Header.Get("ETag"))
		if again.StatusCode != http.StatusNotModified || again.body != "" {
			t.Errorf("%s with its ETag: %d and %d bytes, want 304 and none", u, again.StatusCode, len(again.body))
		}
	}

	if r := b.get("/static/css/nope.css"); r.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown asset: %d", r.StatusCode)
	}
}

// BREACH guesses a secret on a page from the size of the page compressed:
// a guess that matches the secret compresses better. Every page masks its
// CSRF token afresh for each response (TestEveryResponseCarriesTheCSRFTokenMaskedAfresh);
// on the kept pages, whose frame is compressed once for all requests, the
// token is also stored in the gzipped page as it is, between the
// compressed parts, and so never compressed with anything else.
func TestKeptPagesStoreTheCSRFTokenApartFromTheCompressedFrame(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	for _, path := range []string{"/", "/floors/" + acc.Buildings[0].Floors[0].ID, "/alerts"} {
		for range 2 { // the frame compressed afresh, then kept
			r := b.getEncoded(path, "gzip")
			page := gunzip(t, r.body)
			tokens := maskedToken.FindAllString(page, -1)
			if len(tokens) != 2 || tokens[0] != tokens[1] {
				t.Fatalf("%s: CSRF tokens %q, want the page's and the sign-out form's, the same", path, tokens)
			}
			if n := strings.Count(r.body, tokens[0]); n != 2 {
				t.Errorf("%s: the token is on the page twice, and as it is in the gzipped body %d times", path, n)
			}
		}
	}
}
