package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"washboard/internal/metrics"
)

// TestEveryRouteComesFromTheTable: the router holds the routes of the
// route table and nothing else, each behind an access; the routes of the
// service's events, the notifications and /metrics are there only when the
// server has a receiver, a notifier and metrics to serve.
func TestEveryRouteComesFromTheTable(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{ServeMetrics: true}, appOptions{locations: 10, metrics: metrics.New()})
	optional := []string{"POST /hooks/:id", "GET /webhooks", "POST /notifications/channels", "GET /metrics"}
	for _, tt := range []struct {
		name   string
		change func(*Config, *Deps)
	}{
		{"with a receiver, a notifier and metrics", func(*Config, *Deps) {}},
		{"without them", func(c *Config, d *Deps) { c.ServeMetrics, d.Receiver, d.Notifications = false, nil, nil }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, deps := a.cfg, a.deps
			tt.change(&cfg, &deps)
			s, err := New(cfg, deps)
			if err != nil {
				t.Fatal(err)
			}
			table := map[string]bool{}
			for _, r := range s.routeTable() {
				key := r.method + " " + r.path
				if table[key] {
					t.Errorf("%s is twice in the table", key)
				}
				if r.access == 0 {
					t.Errorf("%s has no access", key)
				}
				table[key] = true
			}
			routed := map[string]bool{}
			for _, r := range s.echo.Routes() {
				key := r.Method + " " + r.Path
				routed[key] = true
				if !table[key] {
					t.Errorf("%s is routed, and not in the table", key)
				}
			}
			for key := range table {
				if !routed[key] {
					t.Errorf("%s is in the table, and not routed", key)
				}
			}
			for _, key := range optional {
				if want := cfg.ServeMetrics; table[key] != want {
					t.Errorf("%s in the table: %v, want %v", key, table[key], want)
				}
			}
		})
	}
}

// TestEveryRouteAsksWhatItsAccessSays walks the route table with a browser
// that has neither a session nor a screen: a route of a signed-in
// account's sends it to sign in, or refuses a form without a form token; a
// screen's refuses it; a route of no session lets it in.
func TestEveryRouteAsksWhatItsAccessSays(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	for _, r := range a.handler.Load().routeTable() {
		if r.method == echo.RouteNotFound || r.path == "/events" || r.path == "/screen/events" {
			continue // no method to send; or a stream that would stay open
		}
		path := strings.ReplaceAll(r.path, "*", "x")
		for _, param := range []string{":id", ":name", ":token"} {
			path = strings.ReplaceAll(path, param, "x")
		}
		b := a.browser()
		var res response
		if r.method == http.MethodPost {
			res = b.post(path, url.Values{})
		} else {
			res = b.get(path)
		}
		key := r.method + " " + r.path
		toSignIn := res.StatusCode == http.StatusSeeOther && strings.HasPrefix(res.Header.Get("Location"), "/signin")
		switch r.access {
		case signedIn, firstSynced:
			if r.method == http.MethodGet && !toSignIn {
				t.Errorf("%s without a session = %d (%q), want a redirect to sign in", key, res.StatusCode, res.Header.Get("Location"))
			}
			if r.method == http.MethodPost && (res.StatusCode != http.StatusForbidden || !strings.Contains(res.body, "This form has expired")) {
				t.Errorf("%s without a form token = %d, want 403 for the form", key, res.StatusCode)
			}
		case wallScreen:
			if res.StatusCode != http.StatusForbidden || !strings.Contains(res.body, "not linked to a screen") {
				t.Errorf("%s without a screen = %d, want 403 saying so", key, res.StatusCode)
			}
		default:
			if toSignIn || strings.Contains(res.body, "not linked to a screen") {
				t.Errorf("%s, which asks for no account and no screen, = %d to %q", key, res.StatusCode, res.Header.Get("Location"))
			}
		}
	}
}
