package sim

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The spec does not say how the Authorization value is obtained. Services of
// this kind issue it with the OAuth 2.0 client credentials grant (RFC 6749
// section 4.4): each account has a client, whose id and secret buy an
// access token at POST /oauth/token, sent as "Authorization: Bearer TOKEN"
// until it expires.

// Client is an account's OAuth 2.0 client: the id and secret that obtain
// access tokens from POST /oauth/token.
type Client struct {
	ID     string
	Secret string
}

// NewClient draws a fresh random client.
func NewClient() Client {
	return Client{ID: "sim-client-" + randomToken(12), Secret: randomToken(32)}
}

// DefaultTokenLifetime is how long an access token lasts, in simulated time,
// when Config.TokenLifetime is zero.
const DefaultTokenLifetime = time.Hour

const (
	// TokenPath is the path of the token endpoint.
	TokenPath = "/oauth/token"
	// RevokeClientPath is the path of the admin route that revokes the
	// OAuth client of the account whose x-api-key it is sent with.
	RevokeClientPath = "/admin/clients/revoke"

	maxTokens           = 100     // tokens a client holds; the oldest make room for new ones
	maxTokenRequestBody = 4 << 10 // bytes of a token request's body
	tokenRealm          = `Basic realm="Device Monitoring Service", charset="UTF-8"`
	authFailed          = "client authentication failed: unknown client id or wrong secret"
)

// oauthClient is an account's client and the tokens issued to it.
type oauthClient struct {
	mu      sync.Mutex
	client  Client
	revoked bool
	tokens  []issuedToken // in order of issue, at most maxTokens
	issued  int
}

// issuedToken is an access token as the simulator keeps it: only its hash.
type issuedToken struct {
	hash    [sha256.Size]byte
	expires time.Time // in simulated time
}

// tokenState is what an access token presented to the interface turns out to be.
type tokenState int

const (
	tokenUnknown tokenState = iota
	tokenValid
	tokenExpired
	tokenRevoked
)

// grant issues a token that expires at expires if id and secret are the
// client's, comparing the secret in constant time; found reports whether
// id is the client's. A revoked client gets no token.
func (c *oauthClient) grant(id, secret string, expires, now time.Time) (token string, _ *oauthError, found bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client.ID != id {
		return "", nil, false
	}
	want, got := sha256.Sum256([]byte(c.client.Secret)), sha256.Sum256([]byte(secret))
	switch {
	case subtle.ConstantTimeCompare(want[:], got[:]) != 1:
		return "", errInvalidClient(authFailed), true
	case c.revoked:
		return "", errInvalidClient("the client was revoked"), true
	}
	return c.issue(expires, now), nil, true
}

// issue makes a token that expires at expires and counts it. When the
// client holds maxTokens tokens, the expired ones are forgotten, or failing
// that the oldest. c.mu must be held.
func (c *oauthClient) issue(expires, now time.Time) string {
	token := randomToken(32)
	if len(c.tokens) >= maxTokens {
		c.tokens = slices.DeleteFunc(c.tokens, func(t issuedToken) bool { return !now.Before(t.expires) })
	}
	if len(c.tokens) >= maxTokens {
		c.tokens = slices.Delete(c.tokens, 0, len(c.tokens)-maxTokens+1)
	}
	c.tokens = append(c.tokens, issuedToken{hash: sha256.Sum256([]byte(token)), expires: expires})
	c.issued++
	return token
}

// check finds token among the client's, comparing every hash in constant
// time, and tells what it is at now.
func (c *oauthClient) check(token string, now time.Time) (tokenState, time.Time) {
	h := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	found := -1
	for i := range c.tokens {
		if subtle.ConstantTimeCompare(h[:], c.tokens[i].hash[:]) == 1 {
			found = i
		}
	}
	switch {
	case found < 0:
		return tokenUnknown, time.Time{}
	case c.revoked:
		return tokenRevoked, time.Time{}
	case !now.Before(c.tokens[found].expires):
		return tokenExpired, c.tokens[found].expires
	}
	return tokenValid, c.tokens[found].expires
}

// tokenPolicy is how the world's accounts are authorized.
type tokenPolicy struct {
	lifetime   time.Duration // of an access token, in simulated time
	tokensOnly bool          // whether the fixed Authorization value is refused
	speed      float64       // of the world's clock, for expires_in
}

func newTokenPolicy(lifetime time.Duration, clock Clock) tokenPolicy {
	p := tokenPolicy{lifetime: lifetime, tokensOnly: lifetime > 0, speed: 1}
	if lifetime <= 0 {
		p.lifetime = DefaultTokenLifetime
	}
	if s, ok := clock.(interface{ Speed() float64 }); ok && s.Speed() > 1 {
		p.speed = s.Speed()
	}
	return p
}

// expiresIn is the expires_in of a new token: the real seconds its lifetime
// in simulated time takes at the clock's speed, rounded down, at least 1.
func (p tokenPolicy) expiresIn() int64 {
	real := time.Duration(float64(p.lifetime) / p.speed)
	return max(int64(real/time.Second), 1)
}

func newOAuthClients(n int, given []Client) []*oauthClient {
	out := make([]*oauthClient, n)
	for k := range out {
		c := NewClient()
		if k < len(given) {
			c = given[k]
		}
		out[k] = &oauthClient{client: c}
	}
	return out
}

// Client returns the OAuth client of account k (0-based).
func (w *World) Client(k int) Client {
	c := w.clients[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.client
}

// SetClient gives account k (0-based) a new OAuth client, as when a customer
// has its client reissued: the old id and secret and every token issued to
// them stop working, and the new client is not revoked.
func (w *World) SetClient(k int, client Client) {
	c := w.clients[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	c.client, c.revoked, c.tokens = client, false, nil
}

// RevokeClient revokes the OAuth client of account k (0-based): the token
// endpoint answers it invalid_client and its tokens get 401, until SetClient
// gives the account a new one. The fixed Authorization value, where it is
// accepted, keeps working.
func (w *World) RevokeClient(k int) {
	c := w.clients[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	c.revoked = true
}

// ExpireTokens makes every token issued to account k's client (0-based)
// expire now, as if its lifetime had run out.
func (w *World) ExpireTokens(k int) {
	now := w.clock.Now()
	c := w.clients[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.tokens {
		if c.tokens[i].expires.After(now) {
			c.tokens[i].expires = now
		}
	}
}

// TokensIssued returns how many access tokens account k's client (0-based)
// has been issued, over the world's life.
func (w *World) TokensIssued(k int) int {
	c := w.clients[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.issued
}

// authorize checks the Authorization value of a request whose x-api-key is
// account k's: the fixed value, unless only tokens are accepted, or a
// bearer token issued to the account's client and not expired.
func (w *World) authorize(k int, authorization string) *apiError {
	if !w.tokens.tokensOnly {
		a := w.accounts[k]
		a.mu.Lock()
		want := a.Authorization
		a.mu.Unlock()
		if subtle.ConstantTimeCompare([]byte(authorization), []byte(want)) == 1 {
			return nil
		}
	}
	scheme, token, _ := strings.Cut(authorization, " ")
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return errUnauthorized("the Authorization value is not valid for this x-api-key")
	}
	now := w.clock.Now()
	switch state, expires := w.clients[k].check(token, now); state {
	case tokenValid:
		return nil
	case tokenExpired:
		return errUnauthorized(fmt.Sprintf("the access token expired at %s (simulated time): request a new one from %s",
			expires.UTC().Format(time.RFC3339), TokenPath))
	case tokenRevoked:
		return errUnauthorized("the access token is no longer valid: the account's OAuth client was revoked")
	}
	return errUnauthorized("the Authorization value is not valid for this x-api-key")
}

// tokenAnswer is the successful answer of the token endpoint (RFC 6749
// section 5.1).
type tokenAnswer struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

// oauthError is an error answer of the token endpoint (RFC 6749 section 5.2).
type oauthError struct {
	status      int
	Code        string `json:"error"`
	Description string `json:"error_description"`
}

func errInvalidRequest(format string, args ...any) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_request", fmt.Sprintf(format, args...)}
}

func errInvalidClient(msg string) *oauthError {
	return &oauthError{http.StatusUnauthorized, "invalid_client", msg}
}

// issueToken serves POST /oauth/token: the client credentials grant, with
// the client authenticated by HTTP Basic or by client_id and client_secret
// in the body. A malformed request is answered 400 before the client is
// authenticated. Faults are not injected into it.
func (w *World) issueToken(rw http.ResponseWriter, r *http.Request) {
	id, secret, oerr := readTokenRequest(rw, r)
	if oerr != nil {
		writeOAuthError(rw, oerr)
		return
	}
	token, oerr := w.grant(id, secret)
	if oerr != nil {
		writeOAuthError(rw, oerr)
		return
	}
	writeOAuth(rw, http.StatusOK, tokenAnswer{AccessToken: token, TokenType: "Bearer", ExpiresIn: w.tokens.expiresIn()})
}

// tokenMethodNotAllowed answers a method the token endpoint does not take,
// with an error body of the token endpoint's kind.
func tokenMethodNotAllowed(rw http.ResponseWriter, r *http.Request, allow string) {
	writeOAuthError(rw, &oauthError{http.StatusMethodNotAllowed, "invalid_request",
		fmt.Sprintf("the token endpoint takes %s, not %s", allow, r.Method)})
}

// grant issues an access token to the client with the id and secret.
func (w *World) grant(id, secret string) (string, *oauthError) {
	now := w.clock.Now()
	for _, c := range w.clients {
		if token, oerr, found := c.grant(id, secret, now.Add(w.tokens.lifetime), now); found {
			return token, oerr
		}
	}
	return "", errInvalidClient(authFailed)
}

// readTokenRequest checks a token request and returns the client id and
// secret it carries.
func readTokenRequest(rw http.ResponseWriter, r *http.Request) (id, secret string, _ *oauthError) {
	if q := r.URL.Query(); q.Has("client_secret") {
		return "", "", errInvalidRequest("client_secret must not be sent in the URL")
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		return "", "", errInvalidRequest("the body must be application/x-www-form-urlencoded")
	}
	body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, maxTokenRequestBody))
	if err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			return "", "", errInvalidRequest("the body is larger than %d bytes", maxTokenRequestBody)
		}
		return "", "", errInvalidRequest("the body could not be read")
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return "", "", errInvalidRequest("the body is not valid application/x-www-form-urlencoded")
	}
	for _, name := range slices.Sorted(maps.Keys(form)) {
		if len(form[name]) > 1 {
			return "", "", errInvalidRequest("the parameter %s is repeated", strconv.Quote(name))
		}
	}

	// Client authentication: HTTP Basic with the id and secret each
	// form-urlencoded (RFC 6749 section 2.3.1), or both in the body.
	// A parameter without a value counts as absent (section 3.1).
	inBody := form.Get("client_id") != "" || form.Get("client_secret") != ""
	otherScheme := false
	switch auths := r.Header.Values("Authorization"); {
	case len(auths) > 1:
		return "", "", errInvalidRequest("the Authorization header is repeated")
	case len(auths) == 1:
		scheme, _, _ := strings.Cut(auths[0], " ")
		if !strings.EqualFold(scheme, "Basic") {
			otherScheme = true
			break
		}
		user, pass, ok := r.BasicAuth()
		if !ok {
			return "", "", errInvalidRequest("the Authorization header is not valid HTTP Basic credentials")
		}
		if inBody {
			return "", "", errInvalidRequest("the client authenticated both with HTTP Basic and in the body: use one method")
		}
		var err1, err2 error
		id, err1 = url.QueryUnescape(user)
		secret, err2 = url.QueryUnescape(pass)
		if err1 != nil || err2 != nil {
			return "", "", errInvalidRequest("the client id and secret in HTTP Basic must be form-urlencoded")
		}
	default:
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}

	switch grant := form.Get("grant_type"); grant {
	case "":
		return "", "", errInvalidRequest("grant_type is missing")
	case "client_credentials":
	default:
		return "", "", &oauthError{http.StatusBadRequest, "unsupported_grant_type",
			fmt.Sprintf("the grant type %s is not supported: use client_credentials", strconv.Quote(grant))}
	}
	// scope is accepted and ignored: a token grants the whole account.
	switch {
	case otherScheme:
		return "", "", errInvalidClient("the client must authenticate with HTTP Basic or with client_id and client_secret in the body")
	case id == "":
		return "", "", errInvalidClient("no client authentication: send the client id and secret by HTTP Basic or as client_id and client_secret")
	case secret == "":
		return "", "", errInvalidClient("the client secret is missing")
	}
	return id, secret, nil
}

// writeOAuthError writes an error answer of the token endpoint, with the
// challenge HTTP requires of a 401.
func writeOAuthError(rw http.ResponseWriter, e *oauthError) {
	if e.status == http.StatusUnauthorized {
		rw.Header().Set("WWW-Authenticate", tokenRealm)
	}
	writeOAuth(rw, e.status, e)
}

// writeOAuth writes an answer of the token endpoint: JSON that no cache
// keeps (RFC 6749 section 5.1).
func writeOAuth(rw http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encoding a token answer: %v", err))
	}
	h := rw.Header()
	h.Set("Content-Type", "application/json;charset=UTF-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	rw.WriteHeader(status)
	rw.Write(body)
}

// revokeClient serves POST /admin/clients/revoke: it revokes the OAuth
// client of the account whose x-api-key the request carries, and answers
// 204.
func (w *World) revokeClient(rw http.ResponseWriter, r *http.Request) {
	k, aerr := w.accountByKey(r.Header.Get("x-api-key"))
	if aerr != nil {
		writeError(rw, aerr)
		return
	}
	w.RevokeClient(k)
	rw.WriteHeader(http.StatusNoContent)
}
