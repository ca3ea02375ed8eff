package upstream

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"washboard/internal/clock"
)

// DefaultMaxCredentials is the default of Config.MaxCredentials.
const DefaultMaxCredentials = 1000

const (
	// defaultTokenLifetime is taken for a token whose answer has no
	// expires_in.
	defaultTokenLifetime = time.Hour
	// maxTokenLifetime bounds what expires_in can ask for.
	maxTokenLifetime = 365 * 24 * time.Hour
	// minRenewal is the shortest time between a token and its renewal.
	minRenewal = time.Second
	// maxRenewalRetry is the longest wait before a failed renewal is tried
	// again.
	maxRenewalRetry = time.Minute
	// refusalHold is how long the token endpoint's refusal of a client is
	// answered without asking again.
	refusalHold = time.Minute
	// idleLifetimes is how many token lifetimes a credential may go unused
	// before its token is no longer renewed and is forgotten.
	idleLifetimes = 2
	// maxTokenBody is the largest answer of the token endpoint read.
	maxTokenBody = 64 << 10
)

// tokens obtains the access tokens of a Client's OAuth credentials, shares
// each among all the calls made with its credential, and renews it in the
// background before it expires.
//
// Each credential has an entry, keyed by a keyed hash of its API key,
// client id and secret. An entry has at most one token request under way;
// every call that needs a token meanwhile waits for that request. Once an
// entry has a token, a goroutine renews it at 80 % of its life, until the
// credential goes unused for two lifetimes, is released or evicted, or the
// Client is closed.
type tokens struct {
	url     string
	origin  string       // of url, for redirects
	http    *http.Client // the Client's, redirected only within origin
	clock   clock.Clock
	timeout time.Duration
	max     int
	salt    [32]byte // keys the hash of credentials, so that it tells nothing outside the process

	ctx    context.Context // ends at close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the goroutines of fetches and renewals

	mu      sync.Mutex
	closed  bool
	entries map[credKey]*tokenEntry

	// onDrop, if set, is called after drop has forgotten an entry, so that
	// a test knows a renewal goroutine has given up an unused credential.
	onDrop func()
}

type credKey [sha256.Size]byte

// tokenEntry is one credential's token. Lock order: tokens.mu before
// tokenEntry.mu.
type tokenEntry struct {
	key  credKey
	conf *clientcredentials.Config
	done chan struct{} // closed when the entry is dropped

	mu       sync.Mutex
	dropped  bool
	gen      uint64 // counts the tokens obtained
	auth     string // the Authorization value, "Bearer TOKEN"; "" when there is none
	token    string // the access token alone
	expires  time.Time
	lifetime time.Duration
	renewAt  time.Time // zero: no renewal is due
	renewing bool      // whether a renewal goroutine runs
	lastUsed time.Time
	fetch    *tokenFetch // the token request under way, if any
	refused  *Error      // the token endpoint's refusal of the client
	refusal  time.Time   // when refused stops being answered
}

// tokenFetch is one token request, awaited by every call that needs it.
type tokenFetch struct {
	done  chan struct{} // closed when grant or err is set
	grant grant
	err   *Error
}

// grant is the Authorization value a request is sent with, and the token
// it came from, if any.
type grant struct {
	authorization string
	entry         *tokenEntry // nil for a fixed value
	gen           uint64
	token         string
}

func newTokens(tokenURL, origin string, hc *http.Client, clk clock.Clock, timeout time.Duration, maxCreds int) *tokens {
	ctx, cancel := context.WithCancel(context.Background())
	t := &tokens{url: tokenURL, origin: origin, clock: clk, timeout: timeout, max: maxCreds,
		ctx: ctx, cancel: cancel, entries: map[credKey]*tokenEntry{}}
	rand.Read(t.salt[:])
	copied := *hc
	copied.CheckRedirect = t.checkRedirect
	t.http = &copied
	return t
}

// checkRedirect follows redirects within the token URL's scheme and host
// only: the client's id and secret would follow the request anywhere.
func (t *tokens) checkRedirect(req *http.Request, via []*http.Request) error {
	if originOf(req.URL) != t.origin || req.URL.User != nil {
		return fmt.Errorf("%w: %s", errForeignRedirect, req.URL.Host)
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// keyOf is the key of cred's entry.
func (t *tokens) keyOf(cred Credentials) credKey {
	m := hmac.New(sha256.New, t.salt[:])
	for _, v := range []string{cred.APIKey, cred.ClientID, cred.ClientSecret} {
		m.Write(binary.BigEndian.AppendUint64(nil, uint64(len(v))))
		io.WriteString(m, v)
	}
	var k credKey
	m.Sum(k[:0])
	return k
}

// entry returns cred's entry, making it if needed and evicting the least
// recently used one to stay within max. It returns nil once the tokens are
// closed.
func (t *tokens) entry(cred Credentials) *tokenEntry {
	k := t.keyOf(cred)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	if e := t.entries[k]; e != nil {
		return e
	}
	for len(t.entries) >= t.max {
		var oldest *tokenEntry
		var oldestUse time.Time
		for _, e := range t.entries {
			e.mu.Lock()
			used := e.lastUsed
			e.mu.Unlock()
			if oldest == nil || used.Before(oldestUse) {
				oldest, oldestUse = e, used
			}
		}
		delete(t.entries, oldest.key)
		oldest.markDropped()
	}
	e := &tokenEntry{key: k, done: make(chan struct{}), lastUsed: t.clock.Now(), conf: &clientcredentials.Config{
		ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, TokenURL: t.url,
		// Not auto-detected: detection sends a refused client's secret twice.
		AuthStyle: oauth2.AuthStyleInHeader,
	}}
	t.entries[k] = e
	return e
}

func (e *tokenEntry) markDropped() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.dropped {
		e.dropped = true
		close(e.done)
	}
}

// drop forgets e and stops its renewals.
func (t *tokens) drop(e *tokenEntry) {
	t.mu.Lock()
	if t.entries[e.key] == e {
		delete(t.entries, e.key)
	}
	t.mu.Unlock()
	e.markDropped()
	if t.onDrop != nil {
		t.onDrop()
	}
}

// release forgets cred's token and stops renewing it.
func (t *tokens) release(cred Credentials) {
	k := t.keyOf(cred)
	t.mu.Lock()
	e := t.entries[k]
	t.mu.Unlock()
	if e != nil {
		t.drop(e)
	}
}

// close stops every renewal and token request, forgets every token and
// waits for the goroutines to end.
func (t *tokens) close() {
	t.mu.Lock()
	t.closed = true
	entries := t.entries
	t.entries = map[credKey]*tokenEntry{}
	t.mu.Unlock()
	for _, e := range entries {
		e.markDropped()
	}
	t.cancel()
	t.wg.Wait()
}

// authorize returns a token for cred that has not expired, waiting for a
// token request when there is none, until actx ends. ctx is the call's
// context, actx the attempt's.
func (t *tokens) authorize(ctx, actx context.Context, cred Credentials) (grant, *Error) {
	for {
		e := t.entry(cred)
		if e == nil {
			return grant{}, &Error{Kind: KindCanceled, Message: "the client is closed", Err: context.Canceled}
		}
		e.mu.Lock()
		if e.dropped { // released or evicted since entry returned it
			e.mu.Unlock()
			continue
		}
		now := t.clock.Now()
		e.lastUsed = now
		if e.auth != "" && now.Before(e.expires) {
			g := grant{authorization: e.auth, entry: e, gen: e.gen, token: e.token}
			e.mu.Unlock()
			return g, nil
		}
		if e.refused != nil && now.Before(e.refusal) {
			err := *e.refused
			e.mu.Unlock()
			return grant{}, &err
		}
		f := t.fetchLocked(e)
		e.mu.Unlock()

		select {
		case <-f.done:
			if f.err != nil {
				err := *f.err
				return grant{}, &err
			}
			return f.grant, nil
		case <-actx.Done():
			err := transportError(ctx, actx, actx.Err())
			err.Message = "waiting for an access token"
			return grant{}, err
		}
	}
}

// invalidate forgets g's token, if it is still e's current one, so that the
// next call requests a new one: the service refused it before its time.
func (t *tokens) invalidate(g grant) {
	e := g.entry
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gen == g.gen && e.auth != "" {
		e.auth, e.token, e.expires = "", "", time.Time{}
	}
}

// fetchLocked returns e's token request under way, starting one if there
// is none. e.mu must be held and e not dropped.
func (t *tokens) fetchLocked(e *tokenEntry) *tokenFetch {
	if e.fetch != nil {
		return e.fetch
	}
	f := &tokenFetch{done: make(chan struct{})}
	e.fetch = f
	// Safe against close's Wait: close marks every entry dropped first,
	// under e.mu, and no fetch starts for a dropped entry.
	t.wg.Add(1)
	go t.runFetch(e, f)
	return f
}

// runFetch requests a token for e and records the outcome.
func (t *tokens) runFetch(e *tokenEntry, f *tokenFetch) {
	defer t.wg.Done()
	start := t.clock.Now()
	auth, token, lifetime, err := t.request(e.conf)

	e.mu.Lock()
	defer e.mu.Unlock()
	e.fetch = nil
	now := t.clock.Now()
	switch {
	case err == nil:
		e.gen++
		e.auth, e.token, e.lifetime = auth, token, lifetime
		e.expires = start.Add(lifetime)
		e.renewAt = start.Add(max(lifetime*8/10, minRenewal))
		e.refused = nil
		f.grant = grant{authorization: auth, entry: e, gen: e.gen, token: token}
		if !e.renewing && !e.dropped {
			e.renewing = true
			t.wg.Add(1) // this goroutine's count keeps it safe against close's Wait
			go t.renew(e)
		}
	case err.Kind == KindClientRevoked:
		e.refused, e.refusal = err, now.Add(refusalHold)
		e.renewAt = time.Time{}
	case err.Kind == KindCanceled:
	default:
		// Try again in the background before the token expires, and
		// now and then after that; calls that find no token meanwhile
		// request one themselves.
		wait := maxRenewalRetry
		if left := e.expires.Sub(now); left > 0 {
			wait = min(max(left/2, minRenewal), maxRenewalRetry)
		}
		e.renewAt = now.Add(wait)
	}
	f.err = err
	close(f.done)
}

// renew renews e's token when it is due, until e is dropped, its
// credential goes unused for idleLifetimes lifetimes, the client is
// refused, or the tokens are closed.
func (t *tokens) renew(e *tokenEntry) {
	defer t.wg.Done()
	for {
		e.mu.Lock()
		at := e.renewAt
		if at.IsZero() || e.dropped {
			e.renewing = false
			e.mu.Unlock()
			return
		}
		e.mu.Unlock()

		select {
		case <-t.clock.After(at.Sub(t.clock.Now())):
		case <-e.done:
			return
		case <-t.ctx.Done():
			return
		}

		e.mu.Lock()
		now := t.clock.Now()
		switch {
		case e.dropped || e.renewAt.IsZero():
			e.renewing = false
			e.mu.Unlock()
			return
		case now.Before(e.renewAt): // a newer token moved it
			e.mu.Unlock()
			continue
		case now.Sub(e.lastUsed) >= idleLifetimes*e.lifetime:
			e.renewing = false
			e.mu.Unlock()
			t.drop(e)
			return
		}
		f := t.fetchLocked(e)
		e.mu.Unlock()
		select {
		case <-f.done:
		case <-e.done:
			return
		case <-t.ctx.Done():
			return
		}
	}
}

// request asks the token endpoint for a token for conf's client.
func (t *tokens) request(conf *clientcredentials.Config) (auth, token string, lifetime time.Duration, _ *Error) {
	ctx, cancel := context.WithTimeout(t.ctx, t.timeout)
	defer cancel()
	// A client of its own for each request, so that the limit can tell
	// this request's answer was too large.
	limit := &limitTransport{base: t.http.Transport, max: maxTokenBody}
	hc := *t.http
	hc.Transport = limit
	tok, err := conf.Token(context.WithValue(ctx, oauth2.HTTPClient, &hc))
	if err != nil {
		e := t.tokenError(ctx, err, limit)
		e.Message = strings.TrimSuffix("getting an access token: "+e.Message, ": ")
		return "", "", 0, e
	}
	if !headerSafe(tok.AccessToken) {
		return "", "", 0, &Error{Kind: KindDecode, Status: http.StatusOK,
			Message: "getting an access token: the token has characters a header cannot carry"}
	}
	return tok.Type() + " " + tok.AccessToken, tok.AccessToken, lifetimeOf(tok), nil
}

// tokenError describes a failed token request. Its text holds the token
// endpoint's error code and description, never the body of the answer.
func (t *tokens) tokenError(ctx context.Context, err error, limit *limitTransport) *Error {
	var re *oauth2.RetrieveError
	switch {
	case limit.exceeded():
		return &Error{Kind: KindTooLarge, Message: fmt.Sprintf("the token endpoint's answer is more than the limit of %d bytes", maxTokenBody)}
	case errors.As(err, &re):
		return t.refusal(re)
	}
	if ue := (*url.Error)(nil); errors.As(err, &ue) || ctx.Err() != nil {
		// The request got no answer.
		e := transportError(t.ctx, ctx, err)
		if e.Kind == KindCanceled {
			e.Message = "the client is closed"
		}
		return e
	}
	if limit.broken() {
		return &Error{Kind: KindTruncated, Message: "the token endpoint's answer broke off"}
	}
	// A body that holds no token: the library says "cannot parse json",
	// "cannot parse response" or "server response missing access_token".
	return &Error{Kind: KindDecode, Message: "the token endpoint's answer holds no access token"}
}

// refusal describes an error answer of the token endpoint.
func (t *tokens) refusal(re *oauth2.RetrieveError) *Error {
	e := &Error{Kind: KindStatus}
	if re.Response != nil {
		e.Status = re.Response.StatusCode
	}
	code, description := re.ErrorCode, re.ErrorDescription
	if code == "" {
		// The library reads a body sent as text/plain as a form; some
		// services send JSON that way.
		var body struct {
			Code        string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(re.Body, &body) == nil {
			code, description = body.Code, body.Description
		}
	}
	said := code
	if description != "" {
		said = truncate(code+": "+description, 300)
	}
	switch s := e.Status; {
	case code == "invalid_client" || code == "unauthorized_client" ||
		(code == "" && (s == http.StatusUnauthorized || s == http.StatusForbidden)):
		e.Kind = KindClientRevoked
		e.Message = "the token endpoint refused the OAuth client: it was revoked, or its id or secret is wrong"
		if said != "" {
			e.Message += " (" + said + ")"
		}
		return e
	case s == http.StatusTooManyRequests:
		e.Kind = KindRateLimited
	case s >= 500:
		e.Kind = KindServer
	}
	if e.Kind != KindStatus && re.Response != nil {
		e.RetryAfter = parseRetryAfter(re.Response.Header.Get("Retry-After"), t.clock.Now())
	}
	e.Message = said
	if e.Message == "" {
		e.Message = "the token endpoint answered " + http.StatusText(e.Status)
	}
	return e
}

// lifetimeOf is how long tok lasts: its expires_in, or an hour when the
// answer has none.
func lifetimeOf(tok *oauth2.Token) time.Duration {
	var secs float64
	switch v := tok.Extra("expires_in").(type) {
	case float64:
		secs = v
	case int64:
		secs = float64(v)
	case string:
		secs, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
	}
	if !(secs > 0) {
		return defaultTokenLifetime
	}
	return min(time.Duration(min(secs, maxTokenLifetime.Seconds())*float64(time.Second)), maxTokenLifetime)
}

// headerSafe reports whether s can be sent in a header as it is.
func headerSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// limitTransport fails an answer whose body is larger than max, and tells
// whether that happened or the body broke off.
type limitTransport struct {
	base http.RoundTripper
	max  int64
	mu   sync.Mutex
	over bool
	cut  bool
}

var errTokenTooLarge = errors.New("the token endpoint's answer is too large")

func (l *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := l.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > l.max {
		resp.Body.Close()
		l.set(&l.over)
		return nil, errTokenTooLarge
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: l.max, l: l}
	return resp, nil
}

func (l *limitTransport) set(flag *bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	*flag = true
}

func (l *limitTransport) exceeded() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.over
}

func (l *limitTransport) broken() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cut
}

type limitedBody struct {
	io.ReadCloser
	left int64
	l    *limitTransport
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errTokenTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		b.l.set(&b.l.over)
		return 0, errTokenTooLarge
	}
	if err != nil && err != io.EOF {
		b.l.set(&b.l.cut)
	}
	return n, err
}
