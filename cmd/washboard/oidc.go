package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"washboard/internal/clock"
	"washboard/internal/oidc"
	"washboard/web"
)

// oidcFlags are the settings of single sign-on through an OpenID
// provider (docs/single-sign-on.md); without --oidc-issuer there is none.
type oidcFlags struct {
	Issuer           string
	ClientID         string
	ClientSecret     string
	ClientSecretFile string
	GroupsClaim      string
	Groups           linesValue
	Scopes           string
	Name             string
	AllowPrivate     bool
	Timeout          time.Duration
}

// Bounds of the single sign-on flags.
const (
	maxSecretFile = 64 << 10
	maxOIDCWait   = time.Minute
)

func (o *oidcFlags) flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Issuer, "oidc-issuer", "", "single sign-on: the OpenID provider's issuer URL (https://login.example.com/realms/cleaning); none: no single sign-on")
	fs.StringVar(&o.ClientID, "oidc-client-id", "", "single sign-on: the client ID the provider gave Washboard")
	fs.StringVar(&o.ClientSecret, "oidc-client-secret", "", "single sign-on: its client secret (better from the environment or --oidc-client-secret-file, not on the command line)")
	fs.StringVar(&o.ClientSecretFile, "oidc-client-secret-file", "", "single sign-on: a file holding the client secret")
	fs.StringVar(&o.GroupsClaim, "oidc-groups-claim", oidc.DefaultGroupsClaim, "single sign-on: the ID token's claim that lists the person's groups")
	fs.Var(&o.Groups, "oidc-group", "single sign-on: a group's role in an account, GROUP=ACCOUNT:ROLE or GROUP=ACCOUNT:ROLE:BUILDING,BUILDING; repeat it for each group (in the environment, one a line)")
	fs.StringVar(&o.Scopes, "oidc-scopes", "profile,email", "single sign-on: the scopes asked for besides openid, comma-separated (add groups if the provider wants it for the groups claim)")
	fs.StringVar(&o.Name, "oidc-name", "", "single sign-on: the provider's name on the sign-in page's button (\"Sign in with …\"); \"single sign-on\" by default")
	fs.BoolVar(&o.AllowPrivate, "oidc-allow-private", false, "single sign-on: let the provider be at a loopback or private address (a provider on this machine or network); Washboard's own addresses stay refused")
	o.Timeout = oidc.DefaultTimeout
	fs.Var((*durationValue)(&o.Timeout), "oidc-timeout", "single sign-on: how long each request to the provider may take")
}

// config reads the flags into the single sign-on's settings, the
// provider's callback at publicURL; nil without --oidc-issuer. The guard's
// own addresses are the caller's to add. Its errors name the flag at
// fault, never the secret.
func (o oidcFlags) config(publicURL string) (*oidc.Config, error) {
	if o.Issuer == "" {
		switch given := o.given(); len(given) {
		case 0:
		case 1:
			return nil, usageError{given[0] + " needs --oidc-issuer: without it there is no single sign-on"}
		default:
			return nil, usageError{strings.Join(given, ", ") + " need --oidc-issuer: without it there is no single sign-on"}
		}
		return nil, nil
	}
	if publicURL == "" {
		return nil, usageError{"single sign-on needs --public-url, the dashboard's address as people reach it: the provider sends them back to it, at /signin/oidc/callback"}
	}
	if o.Timeout <= 0 || o.Timeout > maxOIDCWait {
		return nil, usageError{fmt.Sprintf("--oidc-timeout must be more than 0 and at most %s, got %s", maxOIDCWait, o.Timeout)}
	}
	secret, err := o.secret()
	if err != nil {
		return nil, err
	}
	mappings, err := oidc.ParseMappings(o.Groups)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	cfg := &oidc.Config{
		Issuer: o.Issuer, ClientID: o.ClientID, ClientSecret: secret,
		RedirectURL: strings.TrimSuffix(publicURL, "/") + "/signin/oidc/callback",
		Scopes:      strings.FieldsFunc(o.Scopes, func(r rune) bool { return r == ',' || r == ' ' }),
		GroupsClaim: o.GroupsClaim, Mappings: mappings, Timeout: o.Timeout,
		// The provider stamps its tokens by the real clock, whatever
		// clock the demo runs on.
		Clock: clock.Real{},
	}
	cfg.Guard.AllowPrivate = o.AllowPrivate
	// Checked now, before anything starts; made again once the
	// dashboard's own addresses are known.
	if _, err := oidc.New(*cfg); err != nil {
		return nil, usageError{err.Error()}
	}
	return cfg, nil
}

// given names the single sign-on flags set.
func (o oidcFlags) given() []string {
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"--oidc-client-id", o.ClientID != ""}, {"--oidc-client-secret", o.ClientSecret != ""},
		{"--oidc-client-secret-file", o.ClientSecretFile != ""}, {"--oidc-group", len(o.Groups) > 0},
		{"--oidc-name", o.Name != ""}, {"--oidc-allow-private", o.AllowPrivate},
	} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

// secret is the client secret of --oidc-client-secret or of the file of
// --oidc-client-secret-file, without the spaces and line ends around it.
func (o oidcFlags) secret() (string, error) {
	switch {
	case o.ClientSecretFile == "":
		return o.ClientSecret, nil
	case o.ClientSecret != "":
		return "", usageError{"give the client secret with --oidc-client-secret or with --oidc-client-secret-file, not both"}
	}
	f, err := os.Open(o.ClientSecretFile)
	if err != nil {
		return "", usageError{fmt.Sprintf("--oidc-client-secret-file: %v", err)}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	switch {
	case err != nil:
		return "", usageError{fmt.Sprintf("--oidc-client-secret-file %s: %v", o.ClientSecretFile, err)}
	case len(b) > maxSecretFile:
		return "", usageError{fmt.Sprintf("--oidc-client-secret-file %s is longer than %d bytes: it should hold the client secret only", o.ClientSecretFile, maxSecretFile)}
	case strings.TrimSpace(string(b)) == "":
		return "", usageError{fmt.Sprintf("--oidc-client-secret-file %s is empty", o.ClientSecretFile)}
	}
	return strings.TrimSpace(string(b)), nil
}

// singleSignOn is the provider of the settings, whose guard refuses the
// dashboard's own addresses; nil without settings. Reaching the provider
// waits for the first sign-in.
func singleSignOn(cfg *oidc.Config, own []string) (*oidc.Provider, error) {
	if cfg == nil {
		return nil, nil
	}
	cfg.Guard.Own = own
	p, err := oidc.New(*cfg)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return p, nil
}

// webSingleSignOn is the provider as the web takes it: a nil interface,
// not a nil pointer, when there is none.
func webSingleSignOn(p *oidc.Provider) web.SingleSignOn {
	if p == nil {
		return nil
	}
	return p
}

// linesValue is a flag given once per value; in the environment, its
// values are one a line.
type linesValue []string

func (l *linesValue) String() string { return strings.Join(*l, "\n") }

func (l *linesValue) Set(s string) error {
	added := false
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			*l = append(*l, line)
			added = true
		}
	}
	if !added {
		return errors.New("empty value")
	}
	return nil
}
