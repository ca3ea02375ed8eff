package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
)

// routePath is an address the route answers: its parameters filled with
// ids of nothing.
func routePath(r route) string {
	var parts []string
	for _, p := range strings.Split(r.path, "/") {
		switch {
		case strings.HasPrefix(p, ":"):
			p = "nothing"
		case p == "*":
			p = "nothing-here"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "/")
}

// statusOf sends a request and returns its status without reading the
// body (an event stream does not end).
func (b *browser) statusOf(method, path string, form url.Values) (int, string) {
	b.a.t.Helper()
	if method == echo.RouteNotFound {
		method = http.MethodPut // an address of no page, or a page's address with a method it does not take
	}
	req, _ := http.NewRequestWithContext(context.Background(), method, b.a.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	resp, err := b.client.Do(req)
	if err != nil {
		b.a.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body string
	if resp.StatusCode == http.StatusForbidden {
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
	}
	return resp.StatusCode, body
}

// The server, not the buttons, keeps each role to what it may do: every
// route of the table, asked by a person of each role (with their own
// session's form token), is refused with 403 below its least role and
// answered otherwise; without a session, a signed-in route sends to sign
// in.
func TestEveryRouteRefusesRolesBelowItsLeast(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	owner := a.browser()
	owner.signIn(credA)
	browsers := map[domain.Role]*browser{domain.Owner: owner}
	for _, r := range []domain.Role{domain.Viewer, domain.Staff, domain.Supervisor, domain.Admin} {
		browsers[r] = a.browserAs(r, "Person "+r.String())
	}
	table := a.handler.Load().routeTable()
	// Signing out and disconnecting go last: they end the session.
	var signOut []route
	var walk []route
	for _, r := range table {
		if r.path == "/signout" || r.path == "/account/disconnect" && r.method == http.MethodPost {
			signOut = append(signOut, r)
		} else {
			walk = append(walk, r)
		}
	}
	slices.SortFunc(signOut, func(x, y route) int { return strings.Compare(x.path, y.path) }) // /account/disconnect, then /signout
	walk = append(walk, signOut...)

	anonymous := a.browser()
	anonymousToken := anonymous.csrf()
	for _, role := range domain.Roles() {
		b := browsers[role]
		token := b.csrf()
		for _, r := range walk {
			switch r.access {
			case anyone, operations, hookSignature, linkToken, wallScreen:
				if r.least != anyRole {
					t.Errorf("%s %s asks for a role without a session", r.method, r.path)
				}
				continue // no session: no role to check
			}
			status, body := b.statusOf(r.method, routePath(r), url.Values{"csrf_token": {token}})
			switch {
			case role < r.least && status != http.StatusForbidden:
				t.Errorf("%s %s as %s answered %d; want 403 (it needs %s)", r.method, r.path, role, status, r.least)
			case role < r.least && !strings.Contains(body, "This needs the role "+r.least.String()+" or above, and your role in this account is "+role.String()):
				t.Errorf("%s %s as %s: the 403 page does not say which role it needs:\n%s", r.method, r.path, role, body)
			case role >= r.least && status == http.StatusForbidden:
				t.Errorf("%s %s as %s answered 403; its least role is %s\n%s", r.method, r.path, role, r.least, body)
			}
			if r.path == "/account/disconnect" && r.method == http.MethodPost && role >= r.least {
				break // the account is gone, and the session with it
			}
		}
	}
	for _, r := range walk {
		if r.access != signedIn && r.access != firstSynced {
			continue
		}
		if r.least < viewer {
			t.Errorf("%s %s is signed in but asks for no role", r.method, r.path)
		}
		if r.method == echo.RouteNotFound {
			continue // echo answers another method of a page's address as no page (TestEveryRouteAsksWhatItsAccessSays)
		}
		if status, _ := anonymous.statusOf(r.method, routePath(r), url.Values{"csrf_token": {anonymousToken}}); status != http.StatusSeeOther {
			t.Errorf("%s %s without a session answered %d; want 303 to sign in", r.method, r.path, status)
		}
	}
}
