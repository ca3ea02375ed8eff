// Package upstream is the client of the vendor's Device Monitoring Service:
// its alerts, devices and metadata as typed records, the three ways it
// pages them, retries of transient failures, and decoding that tolerates
// the ways the service's answers drift from its spec.
//
// Every call takes the Credentials of the account it is made for: an API
// key with either a fixed Authorization value, sent as given, or an OAuth
// 2.0 client id and secret.
//
// # Access tokens
//
// For OAuth credentials the Client obtains access tokens by the client
// credentials grant (golang.org/x/oauth2/clientcredentials) from
// Config.TokenURL, {BaseURL}/oauth/token by default, and sends
// "Authorization: Bearer TOKEN":
//
//   - One token per credential, shared by every call made with it: however
//     many calls need one at once, one token request is sent.
//   - A token is renewed in the background at 80 % of its life (expires_in,
//     an hour if the answer has none), so that a call waits for a token only
//     when there is none yet or renewal failed until it expired. Renewal
//     stops when the credential has gone unused for two lifetimes, on
//     Release, and on Close; at most Config.MaxCredentials credentials are
//     kept, the least recently used forgotten first.
//   - A 401 for a request sent with a token forgets the token and tries the
//     request once more with a new one; a second 401 fails the call with
//     ErrUnauthorized.
//   - The token endpoint answering invalid_client or unauthorized_client
//     (the client was revoked, or its id or secret is wrong) fails the call
//     with ErrClientRevoked at once, and later calls with the same client
//     for a minute without asking again. Its other failures are retried
//     like the service's, within the same attempts and budget.
//   - Token requests keep to the token URL's host on redirects, read at
//     most 64 KiB and time out like other requests. Neither the secret
//     nor a token appears in an error's text.
//
// # Reading answers
//
// The spec disagrees with its own samples, and a real service drifts, so
// each member is read in every shape seen or likely:
//
//   - timestamps as ISO 8601 strings, with or without fractional seconds,
//     with Z, an offset or no zone (taken as UTC), or as Unix milliseconds
//     in a number or a string (a magnitude below 1e11 is taken as seconds);
//     null, "" and 0 read as the zero time;
//   - numbers as JSON numbers or strings holding them, a fraction rounded;
//     a battery_level of null or "" reads as unknown, a nil BatteryLevel;
//   - booleans as true and false, "true" and "false", 1 and 0, or arrays of
//     them; device_off and overdue are true when any element is;
//   - any single value wrapped in a one-element array;
//   - identifiers sent as numbers, as their digits;
//   - alert_status, resolution_type, battery_state and MACs in any case,
//     upper-cased.
//
// Members the client does not know are kept in each record's Extra, and
// unknown alert types, device types and fault keys are kept as sent. A
// record that cannot be read (not an object, without its identifier, with
// a known member that no shape fits, such as a created_date of
// "yesterday", or beyond the bounds below, here or in a nested device
// state or location) is left out of its page and counted in Skipped, with
// the reasons of the first few in SkipReasons. A body that is not JSON, or
// not the shape of the endpoint's answer, fails the call with
// ErrBadResponse and is retried like other transient failures.
//
// What an answer may hold is bounded, and counted before anything is
// decoded, so that memory follows what a page can sensibly hold and not
// what the service sends:
//
//   - a body of Config.MaxBodySize bytes (32 MB);
//   - a page of Config.MaxPageRecords records (10,000), and of 50 JSON
//     values (numbers, strings, arrays and so on, at any depth) for each
//     of them (500,000);
//   - 256 elements in a list within a record, and 256 members in an object.
//
// A page beyond its bounds fails the call with ErrTooLarge, and a page of
// two records or more none of which could be read with ErrUnreadable:
// neither is tried again, since the same answer would come back. A walk
// names the page in the error's message.
package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"washboard/internal/clock"
	"washboard/internal/version"
)

// Defaults of Config.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxBodySize = 32 << 20
	DefaultMaxAttempts = 4
	DefaultRetryBudget = 45 * time.Second
	DefaultBaseDelay   = 500 * time.Millisecond
	DefaultMaxDelay    = 10 * time.Second
	DefaultMaxPages    = 10_000
	// DefaultMaxPageRecords is ten times the largest page the sync asks
	// for (1,000 devices or rooms).
	DefaultMaxPageRecords = 10_000
)

// Config configures a Client. Only BaseURL is required; a zero value
// elsewhere takes the default.
type Config struct {
	// BaseURL is the URL the endpoint paths are relative to, such as
	// https://api.example.com/v1. It must not hold user information, a
	// query or a fragment.
	BaseURL string
	// HTTPClient sends the requests; a plain http.Client if nil. The Client
	// uses a copy whose CheckRedirect follows redirects only to the base
	// URL's scheme and host, so that credentials never reach another host.
	HTTPClient *http.Client

	Timeout     time.Duration // limit of one attempt, from sending to the end of the body
	MaxBodySize int64         // limit of a response body in bytes; a larger one is an error

	// Retries. A call is tried at most MaxAttempts times (1: never
	// retried), and neither waits nor runs an attempt past RetryBudget from
	// its start. Before attempt n+1 it waits a random time in [0,
	// min(MaxDelay, BaseDelay·2^(n-1))], or what Retry-After asks for; a
	// failure whose wait would end past the budget is returned at once.
	// Only transient failures are retried (see Kind.Transient).
	MaxAttempts int
	RetryBudget time.Duration
	BaseDelay   time.Duration
	MaxDelay    time.Duration

	// MaxPages bounds the pages one walk fetches.
	MaxPages int
	// MaxPageRecords bounds the records of one page. A page of more, or
	// of more JSON values than 50 for each record it may hold (500,000 by
	// default), is refused whole (KindTooLarge) before anything in it is
	// decoded.
	MaxPageRecords int

	// Sleep waits d or until ctx ends, returning ctx's error in that case.
	// Tests replace it; a timer by default.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand draws the backoff delays; the runtime's random numbers if nil.
	Rand rand.Source
	// Now tells the time, for the retry budget and Retry-After dates;
	// time.Now if nil.
	Now func() time.Time

	// TokenURL is the token endpoint of OAuth credentials;
	// {BaseURL}/oauth/token if empty. Like BaseURL, it must not hold user
	// information or a fragment. Token requests follow redirects only
	// within its scheme and host.
	TokenURL string
	// Clock times access tokens and their renewals; the system clock if
	// nil. The token endpoint's expires_in is in real seconds, so the clock
	// must run at real speed.
	Clock clock.Clock
	// MaxCredentials bounds the OAuth credentials whose tokens are kept;
	// beyond it, the least recently used one is forgotten.
	MaxCredentials int
}

// Client calls the Device Monitoring Service. It is safe for concurrent
// use.
type Client struct {
	base   *url.URL
	origin string
	http   *http.Client
	agent  string

	timeout     time.Duration
	maxBody     int64
	maxAttempts int
	budget      time.Duration
	baseDelay   time.Duration
	maxDelay    time.Duration
	maxPages    int
	maxRecords  int
	sleep       func(context.Context, time.Duration) error
	now         func() time.Time

	mu  sync.Mutex
	rng *rand.Rand // nil: the runtime's random numbers

	tokens *tokens
}

// URLError is a URL of a Config that New refuses: which one, and why.
type URLError struct {
	Field  string // "BaseURL" or "TokenURL"
	Reason string // `"ftp://dms.example.com": want an http or https URL`; never a password
}

func (e *URLError) Error() string {
	name := "base URL"
	if e.Field == "TokenURL" {
		name = "token URL"
	}
	return "upstream: " + name + " " + e.Reason
}

// parseURL parses the URL of a Config's field: an absolute http or https
// URL without user information or a fragment.
func parseURL(field, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	var perr *url.Error
	switch {
	case errors.As(err, &perr): // its text would repeat the URL, password and all
		return nil, &URLError{field, "does not parse: " + perr.Err.Error()}
	case err != nil:
		return nil, &URLError{field, "does not parse: " + err.Error()}
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, &URLError{field, fmt.Sprintf("%q: want an http or https URL", u.Redacted())}
	case u.Host == "":
		return nil, &URLError{field, fmt.Sprintf("%q has no host", u.Redacted())}
	case u.User != nil:
		return nil, &URLError{field, "must not hold a user name or password; credentials go with each call"}
	case u.Fragment != "":
		return nil, &URLError{field, fmt.Sprintf("%q must not have a fragment", u.Redacted())}
	}
	return u, nil
}

// New returns a Client for cfg.
func New(cfg Config) (*Client, error) {
	base, err := parseURL("BaseURL", cfg.BaseURL)
	switch {
	case err != nil:
		return nil, err
	case base.RawQuery != "":
		return nil, &URLError{"BaseURL", fmt.Sprintf("%q must not have a query", base.Redacted())}
	}
	c := &Client{
		base:        base,
		origin:      originOf(base),
		agent:       "Washboard/" + version.String(),
		timeout:     orDefault(cfg.Timeout, DefaultTimeout),
		maxBody:     orDefault(cfg.MaxBodySize, DefaultMaxBodySize),
		maxAttempts: orDefault(cfg.MaxAttempts, DefaultMaxAttempts),
		budget:      orDefault(cfg.RetryBudget, DefaultRetryBudget),
		baseDelay:   orDefault(cfg.BaseDelay, DefaultBaseDelay),
		maxDelay:    orDefault(cfg.MaxDelay, DefaultMaxDelay),
		maxPages:    orDefault(cfg.MaxPages, DefaultMaxPages),
		maxRecords:  orDefault(cfg.MaxPageRecords, DefaultMaxPageRecords),
		sleep:       cfg.Sleep,
		now:         cfg.Now,
	}
	if c.sleep == nil {
		c.sleep = sleep
	}
	if c.now == nil {
		c.now = time.Now
	}
	if cfg.Rand != nil {
		c.rng = rand.New(cfg.Rand)
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	hc.CheckRedirect = c.checkRedirect
	c.http = hc

	tokenURL := base.JoinPath("oauth", "token")
	if raw := strings.TrimSpace(cfg.TokenURL); raw != "" {
		u, err := parseURL("TokenURL", raw)
		if err != nil {
			return nil, err
		}
		tokenURL = u
	}
	clk := cfg.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	c.tokens = newTokens(tokenURL.String(), originOf(tokenURL), hc, clk, c.timeout,
		orDefault(cfg.MaxCredentials, DefaultMaxCredentials))
	return c, nil
}

// Release forgets the access token of OAuth credentials and stops renewing
// it, as when the last session or screen using them ends. A later call
// with them requests a new token. It does nothing for a fixed
// Authorization value.
func (c *Client) Release(cred Credentials) {
	if cred.OAuth() {
		c.tokens.release(cred)
	}
}

// Close stops renewing access tokens, forgets them and waits for the token
// requests under way to end. Calls made with OAuth credentials after it
// fail with KindCanceled; calls with a fixed Authorization value still
// work.
func (c *Client) Close() error {
	c.tokens.close()
	return nil
}

func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// originOf is the scheme, host and port of u, with default ports spelled
// out, for comparing hosts.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

var errForeignRedirect = errors.New("redirect to another host refused")

// checkRedirect follows redirects within the base URL's scheme and host
// only: the x-api-key header would follow the request anywhere.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if originOf(req.URL) != c.origin || req.URL.User != nil {
		return fmt.Errorf("%w: %s", errForeignRedirect, req.URL.Host)
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// sameHost resolves a link the service sent against the base URL and
// checks that it points at the base URL's scheme and host.
func (c *Client) sameHost(link string) (*url.URL, *Error) {
	ref, err := url.Parse(strings.TrimSpace(link))
	if err != nil {
		return nil, &Error{Kind: KindDecode, Message: "the link is not a URL", Err: err}
	}
	u := c.base.ResolveReference(ref)
	if originOf(u) != c.origin || u.User != nil {
		return nil, &Error{Kind: KindForeignHost,
			Message: fmt.Sprintf("the link points at %s://%s, not at the base URL's host", u.Scheme, u.Host)}
	}
	return u, nil
}

// endpoint is the URL of an endpoint with a query.
func (c *Client) endpoint(name string, q url.Values) *url.URL {
	u := c.base.JoinPath(name)
	u.RawQuery = q.Encode()
	return u
}

// get sends a GET request for u, retrying transient failures, and hands the
// body of a successful answer to decode. A decode error counts as an
// unreadable answer and is retried too. With OAuth credentials, each
// attempt first takes the credential's access token, and a 401 gets one
// more attempt with a new token.
func (c *Client) get(ctx context.Context, cred Credentials, u *url.URL, decode func([]byte) error) error {
	op := "GET " + u.Path
	if cred.OAuth() {
		var ce *CredentialsError
		if errors.As(cred.Validate(), &ce) {
			return &Error{Kind: KindIncomplete, Op: op, Message: ce.Problem}
		}
	}
	start := c.now()
	var sent []string // the access tokens sent, for redaction
	renewed := false
	for attempt := 1; ; attempt++ {
		g, e := c.authorize(ctx, cred, min(c.timeout, c.budget-c.now().Sub(start)))
		if e == nil {
			if g.token != "" {
				sent = append(sent, g.token)
			}
			e = c.attempt(ctx, cred.APIKey, g.authorization, u, min(c.timeout, c.budget-c.now().Sub(start)), decode)
		}
		if e == nil {
			return nil
		}
		e.Op, e.Attempts = op, attempt
		e.redact(cred, sent...)
		// The service refused a token before its time (revoked, or its
		// clock is ahead of ours): one more attempt with a new one.
		if e.Kind == KindUnauthorized && g.entry != nil && !renewed && c.now().Sub(start) < c.budget {
			renewed = true
			c.tokens.invalidate(g)
			continue
		}
		if !e.Transient() || attempt >= c.maxAttempts {
			return e
		}
		wait := e.RetryAfter
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		// Leave at least a moment for the next attempt within the budget.
		if left := c.budget - c.now().Sub(start); wait >= left {
			return e
		}
		if err := c.sleep(ctx, wait); err != nil {
			return &Error{Kind: KindCanceled, Op: op, Attempts: attempt,
				Message: "while waiting to retry after " + e.Kind.String(), Err: err}
		}
	}
}

// authorize returns the Authorization value of one attempt: a fixed one as
// given, or the credential's access token, waiting at most timeout for one.
func (c *Client) authorize(ctx context.Context, cred Credentials, timeout time.Duration) (grant, *Error) {
	if !cred.OAuth() {
		return grant{authorization: cred.Authorization}, nil
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return c.tokens.authorize(ctx, actx, cred)
}

// backoff draws the wait before attempt n+1: full jitter over an
// exponentially growing ceiling.
func (c *Client) backoff(n int) time.Duration {
	ceiling := c.baseDelay
	for i := 1; i < n && ceiling < c.maxDelay; i++ {
		ceiling *= 2
	}
	ceiling = min(ceiling, c.maxDelay)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rng == nil {
		return time.Duration(rand.Int64N(int64(ceiling) + 1))
	}
	return time.Duration(c.rng.Int64N(int64(ceiling) + 1))
}

// maxErrorBody is how much of an error answer's body is read.
const maxErrorBody = 64 << 10

// attempt sends one request with the x-api-key and Authorization values.
func (c *Client) attempt(ctx context.Context, apiKey, authorization string, u *url.URL, timeout time.Duration, decode func([]byte) error) *Error {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodGet, u.String(), nil)
	if err != nil {
		return &Error{Kind: KindStatus, Message: "building the request", Err: err}
	}
	if apiKey != "" {
		req.Header.Set("x-api-key", apiKey)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	req.Header.Set("User-Agent", c.agent)
	req.Header.Set("Accept", "application/json")

	resp, err := c.http.Do(req)
	if err != nil {
		return transportError(ctx, actx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return c.statusError(resp)
	}
	if resp.ContentLength > c.maxBody {
		return &Error{Kind: KindTooLarge, Status: resp.StatusCode,
			Message: fmt.Sprintf("the body is %d bytes, more than the limit of %d", resp.ContentLength, c.maxBody)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err != nil {
		e := transportError(ctx, actx, err)
		if e.Kind == KindNetwork {
			e.Kind, e.Status, e.Message = KindTruncated, resp.StatusCode, "the body broke off"
		}
		return e
	}
	if int64(len(body)) > c.maxBody {
		return &Error{Kind: KindTooLarge, Status: resp.StatusCode,
			Message: fmt.Sprintf("the body is more than the limit of %d bytes", c.maxBody)}
	}
	if err := decode(body); err != nil {
		if e, ok := err.(*Error); ok { // a page refused for what it holds
			e.Status = resp.StatusCode
			return e
		}
		return &Error{Kind: KindDecode, Status: resp.StatusCode, Message: err.Error()}
	}
	return nil
}

// transportError describes a request that got no complete answer: the
// caller's context ended, the attempt timed out, a redirect was refused or
// the network failed.
func transportError(ctx, actx context.Context, err error) *Error {
	switch {
	case ctx.Err() != nil:
		return &Error{Kind: KindCanceled, Err: ctx.Err()}
	case errors.Is(err, errForeignRedirect):
		return &Error{Kind: KindForeignHost, Message: "the service redirected to another host", Err: err}
	case actx.Err() != nil:
		return &Error{Kind: KindTimeout, Err: actx.Err()}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &Error{Kind: KindTimeout, Err: err}
	}
	return &Error{Kind: KindNetwork, Err: err}
}

// statusError describes an answer with a status other than 2xx.
func (c *Client) statusError(resp *http.Response) *Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &Error{Status: resp.StatusCode}
	e.Message, e.Param = parseErrorBody(body)
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	switch s := resp.StatusCode; {
	case s == http.StatusUnauthorized:
		e.Kind = KindUnauthorized
	case s == http.StatusForbidden:
		e.Kind = KindForbidden
	case s == http.StatusNotFound:
		e.Kind = KindNotFound
	case s == http.StatusBadRequest:
		e.Kind = KindBadRequest
	case s == http.StatusTooManyRequests:
		e.Kind = KindRateLimited
	case s >= 500:
		e.Kind = KindServer
	default:
		e.Kind = KindStatus
	}
	if s := resp.StatusCode; s == http.StatusTooManyRequests || s >= 500 {
		e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), c.now())
	}
	return e
}

// maxRetryAfter bounds what Retry-After can ask for.
const maxRetryAfter = 24 * time.Hour

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
// It returns 0 when the header is absent or cannot be read.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return min(time.Duration(min(secs, int64(maxRetryAfter/time.Second)))*time.Second, maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter)
	}
	return 0
}

// parseErrorBody reads the message and the parameter at fault from an
// error answer. The simulator answers
//
//	{"status": 400, "error": "Bad Request", "parameter": "page_size", "message": "..."}
//
// other JSON bodies are searched for a message in the usual members, and
// a body that is not JSON gives its first line of text.
func parseErrorBody(body []byte) (msg, param string) {
	if o, err := readObject(body); err == nil {
		return errorObject(o, 0)
	}
	text := strings.TrimSpace(strings.ToValidUTF8(string(body), ""))
	if strings.HasPrefix(text, "<") { // an HTML page from a proxy says nothing useful
		return "", ""
	}
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i]
	}
	return truncate(text, 200), ""
}

func errorObject(o object, depth int) (msg, param string) {
	for _, name := range []string{"parameter", "param", "field"} {
		if s, err := readString(o[name]); err == nil && s != "" {
			param = s
			break
		}
	}
	for _, name := range []string{"message", "error_description", "detail", "error", "title"} {
		v, ok := o[name]
		if !ok {
			continue
		}
		if inner, err := readObject(v); err == nil && depth == 0 {
			m, p := errorObject(inner, 1)
			if param == "" {
				param = p
			}
			if m != "" {
				return truncate(m, 500), param
			}
			continue
		}
		if s, err := readString(v); err == nil && s != "" {
			return truncate(s, 500), param
		}
	}
	return "", param
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}
