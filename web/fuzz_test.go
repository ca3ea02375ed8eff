package web

import (
	"cmp"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// fuzzMarker is in every fuzzed value: a page that shows it unescaped
// reflects input as markup.
const fuzzMarker = `<x-fz a="1">'`

// fuzzValue returns a hostile value: random bytes (invalid UTF-8 among
// them), huge strings, wrong types, path tricks, markup.
func fuzzValue(rng *rand.Rand) string {
	switch rng.IntN(10) {
	case 0:
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b) + fuzzMarker
	case 1:
		return strings.Repeat("A", 10_000+rng.IntN(50_000)) + fuzzMarker
	case 2:
		return []string{"-1", "0", "99999999999999999999", "1e308", "NaN", "true", "[]", "{}", "null"}[rng.IntN(9)]
	case 3:
		return "../../etc/passwd" + fuzzMarker
	case 4:
		return "2026-02-30" + []string{"", "T25:61", "T06:00Z", " 06:00"}[rng.IntN(4)]
	case 5:
		return "\x00\xff\xfe" + fuzzMarker
	case 6:
		return "%" + fuzzMarker + "%zz"
	case 7:
		return "javascript:alert(1)" + fuzzMarker
	case 8:
		return strings.Repeat("é", rng.IntN(300)) + "\u202e" + fuzzMarker
	}
	return fuzzMarker
}

// fuzzParams are the query parameters and form fields the routes read.
var fuzzParams = []string{
	"building", "floor", "room", "type", "health", "status", "resolution", "from", "to", "q", "date", "shift", "table",
	"scope", "next", "saved", "api_key", "authorization", "name", "healths", "page_seconds", "dim_from", "dim_to",
	"contact", "shifts", "zone",
}

// TestFuzzRoutes sends every route of the application a bounded run of
// hostile paths, queries and forms, signed in: each answer is 2xx, 3xx or
// 4xx, never 5xx, and no answer carries the input back unescaped. Under
// the race detector it sends each route a quarter of the inputs: what it
// looks for there is two requests racing, which a few inputs per route
// show as well as many, and the full run (the README's command, and the
// web tests on PostgreSQL in .ci/run) costs over half a minute of CPU
// watched.
func TestFuzzRoutes(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{SignInLimit: 1 << 20})
	b := a.browser()
	b.signIn(credA)
	token := csrfInput.FindStringSubmatch(b.get("/screens").body)[1]
	s, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	perRoute := 60
	if raceDetector {
		perRoute = 15
	}
	requests := 0
	// In a fixed order, so that a failure comes back with the same seed.
	routes := s.echo.Routes()
	slices.SortFunc(routes, func(a, b *echo.Route) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Method, b.Method))
	})
	for _, r := range routes {
		if r.Path == "/signout" || r.Path == "/account/disconnect" || strings.HasSuffix(r.Path, "/revoke") || strings.HasSuffix(r.Path, "/relink") ||
			r.Path == "/events" || r.Path == "/screen/events" || r.Path == "/static/*" || r.Method == echoAny {
			continue // would end the session, disconnect the account, unlink the screen, or stream forever; static files have their own test
		}
		for i := 0; i < perRoute; i++ {
			path := r.Path
			for strings.Contains(path, ":") {
				i := strings.Index(path, ":")
				j := strings.IndexByte(path[i:], '/')
				if j < 0 {
					j = len(path) - i
				}
				path = path[:i] + url.PathEscape(fuzzValue(rng)) + path[i+j:]
			}
			path = strings.ReplaceAll(path, "*", url.PathEscape(fuzzValue(rng)))
			q := url.Values{}
			for n := rng.IntN(4); n >= 0; n-- {
				q.Add(fuzzParams[rng.IntN(len(fuzzParams))], fuzzValue(rng))
			}
			var req *http.Request
			switch r.Method {
			case http.MethodGet:
				req, _ = http.NewRequest(r.Method, a.srv.URL+path+"?"+q.Encode(), nil)
			case http.MethodPost:
				q.Set("csrf_token", token)
				req, _ = http.NewRequest(r.Method, a.srv.URL+path, strings.NewReader(q.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			default:
				continue
			}
			if rng.IntN(4) == 0 {
				req.Header.Set("HX-Request", "true")
			}
			res := b.do(req)
			requests++
			if res.StatusCode >= 500 {
				t.Errorf("%s %s: %d", r.Method, r.Path, res.StatusCode)
			}
			if strings.Contains(res.body, fuzzMarker) || strings.Contains(res.body, "<x-fz") {
				t.Errorf("%s %s reflects input unescaped", r.Method, r.Path)
			}
		}
	}
	t.Logf("%d requests over %d routes", requests, len(s.echo.Routes()))
	if t.Failed() {
		for _, l := range strings.Split(a.logs.String(), "\n") {
			if strings.Contains(l, "level=ERROR") {
				t.Log(l)
			}
		}
	}
	if requests < 500 {
		t.Errorf("only %d requests were sent", requests)
	}
	// The session survived it all.
	if r := b.get("/"); r.StatusCode != http.StatusOK {
		t.Errorf("after the fuzzing the overview answers %d", r.StatusCode)
	}
}

const echoAny = "echo_route_any"
