package oidc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"

	"washboard/internal/people"
)

// errTooLarge is an answer longer than MaxAnswer.
var errTooLarge = fmt.Errorf("the answer is longer than %d bytes", MaxAnswer)

// newClient is the client of every request to the provider: through the
// guard's dialer unless the provider is trusted, each request within the
// timeout, no redirect followed, each answer read to MaxAnswer at most.
func newClient(cfg Config) *http.Client {
	dialer := &net.Dialer{Timeout: cfg.Timeout}
	proxy := http.ProxyFromEnvironment
	if !cfg.Trusted {
		dialer = cfg.Guard.Dialer(cfg.Timeout)
		proxy = nil // the guard must see the provider's address, not a proxy's
	}
	return &http.Client{
		Timeout: cfg.Timeout,
		Transport: bounded{&http.Transport{
			Proxy:                  proxy,
			DialContext:            dialer.DialContext,
			TLSHandshakeTimeout:    cfg.Timeout,
			ResponseHeaderTimeout:  cfg.Timeout,
			MaxResponseHeaderBytes: 64 << 10,
			ForceAttemptHTTP2:      true,
		}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// bounded is a transport whose answers' bodies end in an error past
// MaxAnswer bytes.
type bounded struct{ next http.RoundTripper }

func (b bounded) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := b.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > MaxAnswer {
		resp.Body.Close()
		return nil, errTooLarge
	}
	resp.Body = &limitedBody{r: io.LimitReader(resp.Body, MaxAnswer+1), c: resp.Body}
	return resp, nil
}

type limitedBody struct {
	r io.Reader
	c io.Closer
	n int64
}

func (l *limitedBody) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.n += int64(n)
	if l.n > MaxAnswer {
		return 0, errTooLarge
	}
	return n, err
}

func (l *limitedBody) Close() error { return l.c.Close() }

// identity reads the person out of a verified ID token.
func (p *Provider) identity(t *gooidc.IDToken) (Identity, error) {
	var c map[string]json.RawMessage
	if err := t.Claims(&c); err != nil {
		return Identity{}, fail(ErrGarbage, errors.New("the ID token's claims are not a JSON object"))
	}
	id := Identity{Issuer: t.Issuer, Subject: t.Subject}
	if id.Subject == "" {
		return Identity{}, fail(ErrGarbage, errors.New("the ID token has no subject"))
	}
	id.Name = text(c["name"])
	if id.Name == "" {
		id.Name = text(c["preferred_username"])
	}
	id.Email = text(c["email"])
	id.EmailVerified = flag(c["email_verified"])
	id.Groups = groups(c[p.cfg.GroupsClaim])
	return id, nil
}

// text is a claim that is a string, "" otherwise.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return cut(s, 320)
}

// flag is a claim that is true, or "true" as some providers write it.
func flag(raw json.RawMessage) bool {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b
	}
	return strings.EqualFold(text(raw), "true")
}

// groups is the groups claim: a list of names, or one name, or a string
// of names separated by commas or spaces (as some providers write it); at
// most people.MaxGroups, each name at most maxGroupName bytes.
func groups(raw json.RawMessage) []string {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		s := text(raw)
		if s == "" {
			return nil
		}
		var out []string
		for _, g := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
			if len(out) < people.MaxGroups {
				out = append(out, g)
			}
		}
		return out
	}
	var out []string
	for _, item := range list {
		if len(out) == people.MaxGroups {
			break
		}
		var g string
		if json.Unmarshal(item, &g) == nil && g != "" && len(g) <= maxGroupName {
			out = append(out, g)
		}
	}
	return out
}
