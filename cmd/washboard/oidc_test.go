package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"
)

// startOIDCProvider starts a real OpenID provider on 127.0.0.1.
func startOIDCProvider(t *testing.T) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
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

// Single sign-on's flags that cannot work stop the start with one line
// naming the flag at fault, and never the client secret.
func TestSingleSignOnFlagsAreCheckedAtStart(t *testing.T) {
	t.Parallel()
	secret := "the-client-secret-0123456789"
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := []string{"--oidc-issuer", "https://login.example.com/realms/cleaning", "--oidc-client-id", "washboard",
		"--oidc-client-secret", secret, "--public-url", "https://washboard.example.com"}
	tests := []struct {
		args []string
		want string // the whole line
	}{
		{append(good, "--oidc-group", "cleaners=acme:chief"),
			`washboard: --oidc-group: group "cleaners": "chief" is not a role: choose viewer, staff, supervisor, admin or owner`},
		{append(good, "--oidc-group", "cleaners=acme:staff", "--oidc-group", "cleaners"),
			`washboard: --oidc-group: "cleaners" maps no group: write GROUP=ACCOUNT:ROLE, or GROUP=ACCOUNT:ROLE:BUILDING,BUILDING`},
		{[]string{"--oidc-client-id", "washboard", "--oidc-group", "cleaners=acme:staff"},
			"washboard: --oidc-client-id, --oidc-group need --oidc-issuer: without it there is no single sign-on"},
		{good[:6],
			"washboard: single sign-on needs --public-url, the dashboard's address as people reach it: the provider sends them back to it, at /signin/oidc/callback"},
		{append(good, "--oidc-client-secret-file", secretFile),
			"washboard: give the client secret with --oidc-client-secret or with --oidc-client-secret-file, not both"},
		{[]string{"--oidc-issuer", "https://login.example.com", "--oidc-client-id", "washboard", "--oidc-client-secret-file", empty, "--public-url", "https://w.example"},
			"washboard: --oidc-client-secret-file " + empty + " is empty"},
		{[]string{"--oidc-issuer", "https://login.example.com", "--public-url", "https://w.example"},
			"washboard: single sign-on needs the client ID the provider gave Washboard (--oidc-client-id)"},
		{[]string{"--oidc-issuer", "https://10.1.2.3/realms/cleaning", "--oidc-client-id", "washboard", "--public-url", "https://w.example"},
			"washboard: the issuer (--oidc-issuer) is not allowed: 10.1.2.3 is a private address (--oidc-allow-private lets Washboard reach a provider on a private network)"},
		{append(good, "--oidc-timeout", "2m"),
			"washboard: --oidc-timeout must be more than 0 and at most 1m0s, got 2m0s"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		args := append([]string{"serve", "--upstream", "http://127.0.0.1:9", "--data", t.TempDir(), "--listen", "127.0.0.1:0"}, tt.args...)
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 || stderr.String() != tt.want+"\n" {
			t.Errorf("%v: exit code %d, stderr\n%s\nwant 2 and the one line\n%s", tt.args, code, stderr.String(), tt.want)
		}
		if strings.Contains(stderr.String(), secret) {
			t.Errorf("%v: the error shows the client secret", tt.args)
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: the dashboard started: %s", tt.args, stdout.String())
		}
	}

	// In the environment, the mappings are one a line.
	fs := newFlagSet("serve", &bytes.Buffer{})
	var cfg serveConfig
	cfg.flags(fs)
	env := map[string]string{"WASHBOARD_OIDC_GROUP": "cleaners=acme:staff\nleads=acme:supervisor:b1,b2\n"}
	if err := parseFlags(fs, good, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	sso, err := cfg.OIDC.config(cfg.PublicURL)
	if err != nil || len(sso.Mappings) != 2 || sso.Mappings[1].String() != "leads=acme:supervisor:b1,b2" {
		t.Errorf("WASHBOARD_OIDC_GROUP of two lines read as %+v, %v; want its two mappings", sso, err)
	}
	env["WASHBOARD_OIDC_GROUP"] = "cleaners=acme:staff\nleads=acme"
	fs = newFlagSet("serve", &bytes.Buffer{})
	cfg = serveConfig{}
	cfg.flags(fs)
	if err := parseFlags(fs, good, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.OIDC.config(cfg.PublicURL); err == nil || err.Error() != `--oidc-group: "leads=acme": after the group, write ACCOUNT:ROLE, or ACCOUNT:ROLE:BUILDING,BUILDING` {
		t.Errorf("a wrong mapping in WASHBOARD_OIDC_GROUP: error %v, want one naming --oidc-group and the mapping", err)
	}
}

// A person signs in through single sign-on to "washboard serve" set up by
// its flags (the client secret from a file, the provider on loopback as
// --oidc-allow-private lets it be) and lands in the account their group
// maps to, with its role; neither the secret nor the provider's code
// reaches the log.
func TestServeSignsInThroughSingleSignOn(t *testing.T) {
	t.Parallel()
	up := newUpstreamSim(t)
	m := startOIDCProvider(t)
	secretFile := filepath.Join(t.TempDir(), "oidc-secret")
	if err := os.WriteFile(secretFile, []byte(m.ClientSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	account := up.world.Accounts()[0].ID
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, _, stderr := startServe(t, ctx, "--upstream", up.srv.URL, "--listen", addr, "--public-url", "http://"+addr,
		"--oidc-issuer", m.Issuer(), "--oidc-client-id", m.ClientID, "--oidc-client-secret-file", secretFile, "--oidc-allow-private",
		"--oidc-name", "Keycloak", "--oidc-scopes", "profile,email,groups", "--oidc-group", "leads="+account+":supervisor")
	signIn(t, base, up.cred) // the owner connects the account

	m.QueueUser(&mockoidc.MockUser{Subject: "ana-1", Email: "ana@example.com", EmailVerified: true, PreferredUsername: "Ana", Groups: []string{"leads"}})
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if page := get(t, c, base+"/signin"); !strings.Contains(page, "Sign in with Keycloak") {
		t.Fatalf("the sign-in page does not offer single sign-on:\n%s", page)
	}
	to := base + "/signin/oidc"
	var code string
	for range 3 { // to the provider, back to the callback, to the overview
		resp, err := c.Get(to)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
		if resp.StatusCode/100 != 3 || err != nil {
			t.Fatalf("GET %s answered %s to %q", to, resp.Status, resp.Header.Get("Location"))
		}
		to = loc.String()
		if c := loc.Query().Get("code"); c != "" {
			code = c
		}
	}
	if to != base+"/" {
		t.Errorf("signed in, the browser is sent to %s; want the overview", to)
	}
	if body := get(t, c, base+"/"); !strings.Contains(body, "Ana (supervisor)") {
		t.Errorf("the overview does not show Ana signed in as supervisor:\n%s", body)
	}
	if log := stderr.String(); code == "" || strings.Contains(log, code) || strings.Contains(log, m.ClientSecret) {
		t.Errorf("the provider's code (%q) or the client secret appears in the log, or no code came back", code)
	}
}
