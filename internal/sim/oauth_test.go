package sim

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// The OAuth clients of the token test world's two accounts.
var (
	clientA = Client{ID: "client-a", Secret: "secret-a"}
	clientB = Client{ID: "client-b", Secret: "secret-b"}
	// clientOdd has every character that form-urlencoding changes.
	clientOdd = Client{ID: "north tower:ü/1+2", Secret: "p@ss:w+rd=%&/ ?#ü"}
)

// newTokenWorld builds a small two-account world with the accounts'
// credentials of newAPIWorld, clientA and clientB, and tokens of the
// lifetime (0 for the default, with the fixed Authorization accepted too).
func newTokenWorld(t *testing.T, lifetime time.Duration, clock Clock) *World {
	t.Helper()
	return New(Config{
		Seed:          7,
		Locations:     30,
		Accounts:      2,
		History:       24 * time.Hour,
		Clock:         clock,
		Zone:          time.UTC,
		Credentials:   []Credentials{{APIKey: apiKeyA, Authorization: apiAuthA}, {APIKey: apiKeyB, Authorization: apiAuthB}},
		Clients:       []Client{clientA, clientB},
		TokenLifetime: lifetime,
	})
}

// basic is an HTTP Basic Authorization value of the id and secret as RFC
// 6749 section 2.3.1 has them: each form-urlencoded first.
func basic(id, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))
}

// postToken sends POST /oauth/token with the body as a form and the
// Authorization value, if not empty.
func postToken(t *testing.T, h http.Handler, body, authorization string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, TokenPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	return serveRecorded(t, h, req)
}

func serveRecorded(t *testing.T, h http.Handler, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", req.Method, req.URL.Path, err)
	}
	return res, body
}

// clientForm is the body of a token request with the client's id and
// secret in it.
func clientForm(c Client) string {
	return url.Values{"grant_type": {"client_credentials"}, "client_id": {c.ID}, "client_secret": {c.Secret}}.Encode()
}

const grantBody = "grant_type=client_credentials"

// wantOAuthHeaders checks the headers every answer of the token endpoint
// carries: JSON that no cache keeps.
func wantOAuthHeaders(t *testing.T, res *http.Response) {
	t.Helper()
	for name, want := range map[string]string{
		"Content-Type": "application/json;charset=UTF-8", "Cache-Control": "no-store", "Pragma": "no-cache",
	} {
		if got := res.Header.Get(name); got != want {
			t.Errorf("%s %q, want %q", name, got, want)
		}
	}
}

// wantToken checks a successful answer of the token endpoint and returns
// the answer.
func wantToken(t *testing.T, res *http.Response, body []byte) tokenAnswer {
	t.Helper()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200; body %s", res.StatusCode, body)
	}
	wantOAuthHeaders(t, res)
	if keys := sortedKeys(decodeJSON[map[string]json.RawMessage](t, body)); !slices.Equal(keys, []string{"access_token", "expires_in", "token_type"}) {
		t.Errorf("answer keys %v, want access_token, expires_in and token_type", keys)
	}
	tok := decodeJSON[tokenAnswer](t, body)
	if tok.TokenType != "Bearer" {
		t.Errorf("token_type %q, want Bearer", tok.TokenType)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(tok.AccessToken); err != nil || len(raw) < 32 {
		t.Errorf("access_token %q is not 32 random bytes or more in URL-safe base64", tok.AccessToken)
	}
	return tok
}

// wantOAuthError checks an error answer of the token endpoint (RFC 6749
// section 5.2) and returns its description.
func wantOAuthError(t *testing.T, res *http.Response, body []byte, status int, code string) string {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d; body %s", res.StatusCode, status, body)
	}
	wantOAuthHeaders(t, res)
	if keys := sortedKeys(decodeJSON[map[string]json.RawMessage](t, body)); !slices.Equal(keys, []string{"error", "error_description"}) {
		t.Errorf("error keys %v, want error and error_description; body %s", keys, body)
	}
	e := decodeJSON[oauthError](t, body)
	if e.Code != code || e.Description == "" {
		t.Errorf("error %q (%q), want %q with a description", e.Code, e.Description, code)
	}
	return e.Description
}

// issueTokenOK obtains a token for the client by form and returns it.
func issueTokenOK(t *testing.T, h http.Handler, c Client) tokenAnswer {
	t.Helper()
	res, body := postToken(t, h, clientForm(c), "")
	return wantToken(t, res, body)
}

func TestTokenEndpointIssuesTokens(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		client        Client // account A's
		body, authz   string
		contentType   string // form-urlencoded if empty
		wantExpiresIn int64
	}{
		{name: "client in the body", client: clientA, body: clientForm(clientA)},
		{name: "client by HTTP Basic", client: clientA, body: grantBody, authz: basic(clientA.ID, clientA.Secret)},
		{name: "HTTP Basic scheme in lower case", client: clientA, body: grantBody, authz: strings.Replace(basic(clientA.ID, clientA.Secret), "Basic", "basic", 1)},
		{name: "form-urlencoded id and secret in HTTP Basic", client: clientOdd, body: grantBody, authz: basic(clientOdd.ID, clientOdd.Secret)},
		{name: "id and secret needing encoding in the body", client: clientOdd, body: clientForm(clientOdd)},
		{name: "scope is accepted", client: clientA, body: grantBody + "&scope=alerts+devices", authz: basic(clientA.ID, clientA.Secret)},
		{name: "empty client_id in the body beside HTTP Basic counts as absent", client: clientA, body: grantBody + "&client_id=", authz: basic(clientA.ID, clientA.Secret)},
		{name: "charset in the Content-Type", client: clientA, body: clientForm(clientA), contentType: "application/x-www-form-urlencoded; charset=UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newTokenWorld(t, 0, NewManualClock(apiNow))
			w.SetClient(0, c.client)
			h := w.Handler()
			req := httptest.NewRequest(http.MethodPost, TokenPath, strings.NewReader(c.body))
			req.Header.Set("Content-Type", cmp.Or(c.contentType, "application/x-www-form-urlencoded"))
			if c.authz != "" {
				req.Header.Set("Authorization", c.authz)
			}
			res, body := serveRecorded(t, h, req)
			tok := wantToken(t, res, body)
			if tok.ExpiresIn != int64(DefaultTokenLifetime/time.Second) {
				t.Errorf("expires_in %d, want %d: the default lifetime at speed 1", tok.ExpiresIn, int64(DefaultTokenLifetime/time.Second))
			}
			getOK(t, h, "/alerts", apiKeyA, "Bearer "+tok.AccessToken)
			if n := w.TokensIssued(0); n != 1 {
				t.Errorf("TokensIssued = %d, want 1", n)
			}
		})
	}
}

func TestTokenEndpointRejects(t *testing.T) {
	t.Parallel()
	basicA := basic(clientA.ID, clientA.Secret)
	cases := []struct {
		name        string
		method      string // POST if empty
		target      string // TokenPath if empty
		contentType string // form-urlencoded if empty; "-" for none
		body        string
		authz       string
		status      int
		code        string
	}{
		{name: "GET", method: http.MethodGet, status: http.StatusMethodNotAllowed, code: "invalid_request"},
		{name: "PUT", method: http.MethodPut, body: clientForm(clientA), status: http.StatusMethodNotAllowed, code: "invalid_request"},
		{name: "JSON body", contentType: "application/json", body: `{"grant_type":"client_credentials","client_id":"client-a","client_secret":"secret-a"}`,
			status: http.StatusBadRequest, code: "invalid_request"},
		{name: "no Content-Type", contentType: "-", body: clientForm(clientA), status: http.StatusBadRequest, code: "invalid_request"},
		{name: "body over 4 KiB", body: clientForm(clientA) + "&scope=" + strings.Repeat("a", maxTokenRequestBody), status: http.StatusBadRequest, code: "invalid_request"},
		{name: "body not form-urlencoded", body: clientForm(clientA) + "&scope=%zz", status: http.StatusBadRequest, code: "invalid_request"},
		{name: "grant_type missing", body: "client_id=client-a&client_secret=secret-a", status: http.StatusBadRequest, code: "invalid_request"},
		{name: "grant_type empty", body: "grant_type=&client_id=client-a&client_secret=secret-a", status: http.StatusBadRequest, code: "invalid_request"},
		{name: "grant_type repeated", body: clientForm(clientA) + "&" + grantBody, status: http.StatusBadRequest, code: "invalid_request"},
		{name: "client_id repeated", body: clientForm(clientA) + "&client_id=client-a", status: http.StatusBadRequest, code: "invalid_request"},
		{name: "grant_type password", body: "grant_type=password&username=u&password=p", authz: basicA, status: http.StatusBadRequest, code: "unsupported_grant_type"},
		{name: "grant_type authorization_code", body: "grant_type=authorization_code&code=x", authz: basicA, status: http.StatusBadRequest, code: "unsupported_grant_type"},
		{name: "grant_type in another case", body: "grant_type=Client_Credentials", authz: basicA, status: http.StatusBadRequest, code: "unsupported_grant_type"},
		{name: "HTTP Basic and client_secret in the body", body: clientForm(clientA), authz: basicA, status: http.StatusBadRequest, code: "invalid_request"},
		{name: "HTTP Basic and client_id in the body", body: grantBody + "&client_id=client-a", authz: basicA, status: http.StatusBadRequest, code: "invalid_request"},
		{name: "client_secret in the URL", target: TokenPath + "?client_secret=secret-a", body: grantBody + "&client_id=client-a",
			status: http.StatusBadRequest, code: "invalid_request"},
		{name: "HTTP Basic that is not base64", body: grantBody, authz: "Basic %%%", status: http.StatusBadRequest, code: "invalid_request"},
		{name: "HTTP Basic without a colon", body: grantBody, authz: "Basic " + base64.StdEncoding.EncodeToString([]byte("client-a")), status: http.StatusBadRequest, code: "invalid_request"},
		{name: "no client authentication", body: grantBody, status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "client_id without client_secret", body: grantBody + "&client_id=client-a", status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "unknown client in the body", body: clientForm(Client{"client-x", "secret-a"}), status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "wrong secret in the body", body: clientForm(Client{"client-a", "secret-x"}), status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "the other account's secret", body: clientForm(Client{"client-a", clientB.Secret}), status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "secret in another case", body: clientForm(Client{"client-a", "SECRET-A"}), status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "wrong secret by HTTP Basic", body: grantBody, authz: basic(clientA.ID, "secret-x"), status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "unknown client by HTTP Basic", body: grantBody, authz: basic("client-x", clientA.Secret), status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "HTTP Basic without form-urlencoding a + in the secret", body: grantBody,
			authz: "Basic " + base64.StdEncoding.EncodeToString([]byte("client-b:secret+b")), status: http.StatusUnauthorized, code: "invalid_client"},
		{name: "a Bearer token instead of client authentication", body: grantBody, authz: "Bearer " + apiAuthA, status: http.StatusUnauthorized, code: "invalid_client"},
	}
	w := newTokenWorld(t, 0, NewManualClock(apiNow))
	w.SetClient(1, Client{ID: clientB.ID, Secret: "secret+b"}) // sent unencoded, the + reads as a space
	h := w.Handler()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(cmp.Or(c.method, http.MethodPost), cmp.Or(c.target, TokenPath), strings.NewReader(c.body))
			if ct := cmp.Or(c.contentType, "application/x-www-form-urlencoded"); ct != "-" {
				req.Header.Set("Content-Type", ct)
			}
			if c.authz != "" {
				req.Header.Set("Authorization", c.authz)
			}
			res, body := serveRecorded(t, h, req)
			wantOAuthError(t, res, body, c.status, c.code)
			switch c.status {
			case http.StatusMethodNotAllowed:
				if allow := res.Header.Get("Allow"); allow != http.MethodPost {
					t.Errorf("Allow %q, want POST", allow)
				}
			case http.StatusUnauthorized:
				if wa := res.Header.Get("WWW-Authenticate"); !strings.HasPrefix(wa, `Basic realm="`) {
					t.Errorf("WWW-Authenticate %q, want a Basic challenge", wa)
				}
			}
		})
	}
	if n := w.TokensIssued(0) + w.TokensIssued(1); n != 0 {
		t.Errorf("%d tokens issued for rejected requests", n)
	}
}

func TestTokenAuthorizesDataRequests(t *testing.T) {
	t.Parallel()
	w := newTokenWorld(t, time.Hour, NewManualClock(apiNow))
	h := w.Handler()
	tokA, tokB := issueTokenOK(t, h, clientA).AccessToken, issueTokenOK(t, h, clientB).AccessToken
	cases := []struct {
		name      string
		key, auth string
		status    int
	}{
		{"account A's token", apiKeyA, "Bearer " + tokA, http.StatusOK},
		{"scheme in lower case", apiKeyA, "bearer " + tokA, http.StatusOK},
		{"account B's token", apiKeyB, "Bearer " + tokB, http.StatusOK},
		{"token without x-api-key", "", "Bearer " + tokA, http.StatusForbidden},
		{"token with an unknown x-api-key", "key-x", "Bearer " + tokA, http.StatusForbidden},
		{"the other account's token", apiKeyA, "Bearer " + tokB, http.StatusUnauthorized},
		{"token without its scheme", apiKeyA, tokA, http.StatusUnauthorized},
		{"token under another scheme", apiKeyA, "Token " + tokA, http.StatusUnauthorized},
		{"token cut short", apiKeyA, "Bearer " + tokA[:len(tokA)-1], http.StatusUnauthorized},
		{"made-up token", apiKeyA, "Bearer " + randomToken(32), http.StatusUnauthorized},
		{"fixed Authorization with a token lifetime", apiKeyA, apiAuthA, http.StatusUnauthorized},
	}
	for _, c := range cases {
		for _, path := range apiEndpoints {
			t.Run(c.name+" "+path, func(t *testing.T) {
				res, body := get(t, h, path, c.key, c.auth)
				if c.status == http.StatusOK {
					if res.StatusCode != http.StatusOK {
						t.Fatalf("status %d, want 200; body %s", res.StatusCode, body)
					}
					return
				}
				wantError(t, res, body, c.status, "")
			})
		}
	}
}

func TestFixedAuthorizationWithoutTokenLifetime(t *testing.T) {
	t.Parallel()
	w := newTokenWorld(t, 0, NewManualClock(apiNow))
	h := w.Handler()
	tok := issueTokenOK(t, h, clientA).AccessToken
	for _, path := range apiEndpoints {
		getOK(t, h, path, apiKeyA, apiAuthA)
		getOK(t, h, path, apiKeyA, "Bearer "+tok)
		res, body := get(t, h, path, apiKeyA, apiAuthB)
		wantError(t, res, body, http.StatusUnauthorized, "")
	}
}

func TestTokenExpiresInSimulatedTime(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(apiNow)
	w := newTokenWorld(t, 90*time.Minute, clock)
	h := w.Handler()
	tok := issueTokenOK(t, h, clientA)
	if tok.ExpiresIn != 5400 {
		t.Errorf("expires_in %d, want 5400 on a clock at real speed", tok.ExpiresIn)
	}
	auth := "Bearer " + tok.AccessToken

	clock.Add(90*time.Minute - time.Millisecond)
	for _, path := range apiEndpoints {
		getOK(t, h, path, apiKeyA, auth)
	}
	clock.Add(time.Millisecond)
	for _, path := range apiEndpoints {
		res, body := get(t, h, path, apiKeyA, auth)
		wantError(t, res, body, http.StatusUnauthorized, "")
		if msg := decodeJSON[errorBody](t, body).Message; !strings.Contains(msg, "expired") || !strings.Contains(msg, TokenPath) {
			t.Errorf("%s: message %q does not say the token expired and where to get another", path, msg)
		}
	}
	fresh := "Bearer " + issueTokenOK(t, h, clientA).AccessToken
	for _, path := range apiEndpoints {
		getOK(t, h, path, apiKeyA, fresh)
	}
}

func TestTokenLifetimeFollowsClockSpeed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lifetime      time.Duration
		speed         float64
		wantExpiresIn int64
	}{
		{time.Hour, 1, 3600},
		{time.Hour, 60, 60},
		{time.Hour, 7, 514}, // 514.28 s, rounded down
		{24 * time.Hour, 3600, 24},
		{10 * time.Second, 60, 1}, // a sixth of a second: at least 1
		{time.Hour, 1e6, 1},
	}
	for _, c := range cases {
		t.Run(c.lifetime.String()+" at "+strconv.FormatFloat(c.speed, 'g', -1, 64), func(t *testing.T) {
			wall := apiNow
			clock := &ScaledClock{wallStart: apiNow, simStart: apiNow, speed: c.speed, wall: func() time.Time { return wall }}
			w := newTokenWorld(t, c.lifetime, clock)
			h := w.Handler()
			tok := issueTokenOK(t, h, clientA)
			if tok.ExpiresIn != c.wantExpiresIn {
				t.Errorf("expires_in %d, want %d", tok.ExpiresIn, c.wantExpiresIn)
			}
			// The token lasts its lifetime in simulated time: lifetime/speed
			// on the wall clock.
			real := time.Duration(float64(c.lifetime) / c.speed)
			wall = apiNow.Add(real - real/100)
			getOK(t, h, "/devices?limit=1", apiKeyA, "Bearer "+tok.AccessToken)
			wall = apiNow.Add(real + real/100)
			res, body := get(t, h, "/devices?limit=1", apiKeyA, "Bearer "+tok.AccessToken)
			wantError(t, res, body, http.StatusUnauthorized, "")
		})
	}
}

func TestRevokedClient(t *testing.T) {
	t.Parallel()
	revokers := []struct {
		name   string
		revoke func(t *testing.T, w *World, h http.Handler)
	}{
		{"RevokeClient", func(t *testing.T, w *World, h http.Handler) { w.RevokeClient(0) }},
		{"POST " + RevokeClientPath, func(t *testing.T, w *World, h http.Handler) {
			res, body := doRequest(t, h, http.MethodPost, RevokeClientPath, apiKeyA, "")
			if res.StatusCode != http.StatusNoContent {
				t.Fatalf("status %d, want 204; body %s", res.StatusCode, body)
			}
		}},
	}
	for _, r := range revokers {
		t.Run(r.name, func(t *testing.T) {
			w := newTokenWorld(t, 0, NewManualClock(apiNow))
			h := w.Handler()
			tokA, tokB := issueTokenOK(t, h, clientA).AccessToken, issueTokenOK(t, h, clientB).AccessToken
			r.revoke(t, w, h)

			for _, authz := range []string{"", basic(clientA.ID, clientA.Secret)} {
				body := clientForm(clientA)
				if authz != "" {
					body = grantBody
				}
				res, resBody := postToken(t, h, body, authz)
				if msg := wantOAuthError(t, res, resBody, http.StatusUnauthorized, "invalid_client"); !strings.Contains(msg, "revoked") {
					t.Errorf("error_description %q does not say the client was revoked", msg)
				}
			}
			for _, path := range apiEndpoints {
				res, body := get(t, h, path, apiKeyA, "Bearer "+tokA)
				wantError(t, res, body, http.StatusUnauthorized, "")
				if msg := decodeJSON[errorBody](t, body).Message; !strings.Contains(msg, "revoked") {
					t.Errorf("%s: message %q does not say the client was revoked", path, msg)
				}
				getOK(t, h, path, apiKeyA, apiAuthA)       // the fixed value is not an OAuth credential
				getOK(t, h, path, apiKeyB, "Bearer "+tokB) // the other account's client is not revoked
			}
			if n := w.TokensIssued(0); n != 1 {
				t.Errorf("TokensIssued = %d after a refusal, want 1", n)
			}

			w.SetClient(0, Client{ID: "client-a2", Secret: "secret-a2"})
			fresh := issueTokenOK(t, h, Client{ID: "client-a2", Secret: "secret-a2"}).AccessToken
			getOK(t, h, "/alerts", apiKeyA, "Bearer "+fresh)
			res, body := get(t, h, "/alerts", apiKeyA, "Bearer "+tokA)
			wantError(t, res, body, http.StatusUnauthorized, "")
		})
	}
}

func TestRevokeClientRoute(t *testing.T) {
	t.Parallel()
	w := newTokenWorld(t, 0, NewManualClock(apiNow))
	h := w.Handler()
	cases := []struct {
		name, method, key string
		status            int
	}{
		{"GET", http.MethodGet, apiKeyA, http.StatusMethodNotAllowed},
		{"no x-api-key", http.MethodPost, "", http.StatusForbidden},
		{"unknown x-api-key", http.MethodPost, "key-x", http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, body := doRequest(t, h, c.method, RevokeClientPath, c.key, "")
			wantError(t, res, body, c.status, "")
		})
	}
	issueTokenOK(t, h, clientA) // nothing above revoked account A's client

	res, body := doRequest(t, h, http.MethodPost, RevokeClientPath, apiKeyB, "")
	if res.StatusCode != http.StatusNoContent || len(body) != 0 {
		t.Fatalf("status %d, body %q; want 204 and no body", res.StatusCode, body)
	}
	issueTokenOK(t, h, clientA)
	res, body = postToken(t, h, clientForm(clientB), "")
	wantOAuthError(t, res, body, http.StatusUnauthorized, "invalid_client")
}

func TestExpireTokens(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(apiNow)
	w := newTokenWorld(t, time.Hour, clock)
	h := w.Handler()
	tokA, tokB := issueTokenOK(t, h, clientA).AccessToken, issueTokenOK(t, h, clientB).AccessToken
	w.ExpireTokens(0)
	res, body := get(t, h, "/alerts", apiKeyA, "Bearer "+tokA)
	wantError(t, res, body, http.StatusUnauthorized, "")
	if msg := decodeJSON[errorBody](t, body).Message; !strings.Contains(msg, "expired") {
		t.Errorf("message %q does not say the token expired", msg)
	}
	getOK(t, h, "/alerts", apiKeyB, "Bearer "+tokB)
	getOK(t, h, "/alerts", apiKeyA, "Bearer "+issueTokenOK(t, h, clientA).AccessToken)
}

func TestTokensIssuedCountsTokens(t *testing.T) {
	t.Parallel()
	w := newTokenWorld(t, time.Hour, NewManualClock(apiNow))
	h := w.Handler()
	for range 3 {
		issueTokenOK(t, h, clientA)
	}
	postToken(t, h, clientForm(Client{clientA.ID, "wrong"}), "")
	postToken(t, h, "grant_type=password&client_id=client-a&client_secret=secret-a", "")
	res, body := postToken(t, h, grantBody, basic(clientB.ID, clientB.Secret))
	wantToken(t, res, body)
	if a, b := w.TokensIssued(0), w.TokensIssued(1); a != 3 || b != 1 {
		t.Errorf("TokensIssued = %d and %d, want 3 and 1: refused requests are not counted", a, b)
	}
}

func TestTokensKeptPerClientAreBounded(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(apiNow)
	w := newTokenWorld(t, time.Hour, clock)
	h := w.Handler()

	// Expired tokens make room first: they are forgotten before any valid one.
	var expired []string
	for range maxTokens / 2 {
		expired = append(expired, issueTokenOK(t, h, clientA).AccessToken)
	}
	clock.Add(time.Hour)
	var valid []string
	for range maxTokens {
		valid = append(valid, issueTokenOK(t, h, clientA).AccessToken)
	}
	for _, tok := range valid {
		getOK(t, h, "/devices?limit=1", apiKeyA, "Bearer "+tok)
	}
	res, body := get(t, h, "/devices?limit=1", apiKeyA, "Bearer "+expired[0])
	wantError(t, res, body, http.StatusUnauthorized, "")
	if msg := decodeJSON[errorBody](t, body).Message; strings.Contains(msg, "expired") {
		t.Errorf("message %q: a forgotten token is not known to have expired", msg)
	}

	// Then the oldest valid token.
	newest := issueTokenOK(t, h, clientA).AccessToken
	res, body = get(t, h, "/devices?limit=1", apiKeyA, "Bearer "+valid[0])
	wantError(t, res, body, http.StatusUnauthorized, "")
	for _, tok := range append(valid[1:], newest) {
		getOK(t, h, "/devices?limit=1", apiKeyA, "Bearer "+tok)
	}
	if n := len(w.clients[0].tokens); n != maxTokens {
		t.Errorf("the client holds %d tokens, want %d", n, maxTokens)
	}
}

func TestTokenRequestsLogNoSecrets(t *testing.T) {
	t.Parallel()
	w := newTokenWorld(t, 0, NewManualClock(apiNow))
	var buf bytes.Buffer
	h := LogRequests(slog.New(slog.NewTextHandler(&buf, nil)), w.Handler())
	tokForm := issueTokenOK(t, h, clientA).AccessToken
	res, body := postToken(t, h, grantBody, basic(clientB.ID, clientB.Secret))
	tokBasic := wantToken(t, res, body).AccessToken
	postToken(t, h, clientForm(Client{clientA.ID, "secret-wrong"}), "")
	getOK(t, h, "/alerts?page_size=1", apiKeyA, "Bearer "+tokForm)

	out := buf.String()
	if n := strings.Count(out, "path="+TokenPath+" "); n != 3 {
		t.Errorf("%d log lines for the 3 token requests:\n%s", n, out)
	}
	for _, secret := range []string{clientA.ID, clientA.Secret, clientB.ID, clientB.Secret, "secret-wrong", tokForm, tokBasic, "grant_type"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log reveals %q:\n%s", secret, out)
		}
	}
}

// keyTransport adds an account's x-api-key to every request.
type keyTransport struct{ key string }

func (k keyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("x-api-key", k.key)
	return http.DefaultTransport.RoundTrip(req)
}

func TestOAuth2ClientCredentials(t *testing.T) {
	t.Parallel()
	w := newTokenWorld(t, time.Hour, NewManualClock(apiNow))
	w.SetClient(0, clientOdd)
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	ctx := context.WithValue(t.Context(), oauth2.HTTPClient, srv.Client())

	for _, style := range []struct {
		name  string
		style oauth2.AuthStyle
	}{{"header", oauth2.AuthStyleInHeader}, {"params", oauth2.AuthStyleInParams}} {
		t.Run(style.name, func(t *testing.T) {
			cfg := clientcredentials.Config{ClientID: clientOdd.ID, ClientSecret: clientOdd.Secret, TokenURL: srv.URL + TokenPath,
				Scopes: []string{"read"}, AuthStyle: style.style}
			before := w.TokensIssued(0)
			tok, err := cfg.Token(ctx)
			if err != nil {
				t.Fatalf("obtaining a token: %v", err)
			}
			if tok.Type() != "Bearer" || !tok.Valid() {
				t.Errorf("token of type %q, valid %v; want a valid Bearer token", tok.Type(), tok.Valid())
			}
			if left := time.Until(tok.Expiry); left < 59*time.Minute || left > time.Hour {
				t.Errorf("token expires in %s, want an hour", left)
			}

			// The library's client sends the token; the x-api-key is added below it.
			c := oauth2.NewClient(context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Transport: keyTransport{apiKeyA}}), cfg.TokenSource(ctx))
			res, err := c.Get(srv.URL + "/devices?limit=1")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Errorf("GET /devices with the library's client: %s", res.Status)
			}
			if n := w.TokensIssued(0) - before; n != 2 {
				t.Errorf("%d tokens issued, want 2: one by Token, one by the client's token source", n)
			}

			cfg.ClientSecret = "wrong"
			_, err = cfg.Token(ctx)
			var rerr *oauth2.RetrieveError
			if !errors.As(err, &rerr) || rerr.ErrorCode != "invalid_client" || rerr.Response.StatusCode != http.StatusUnauthorized {
				t.Errorf("with a wrong secret: %v, want a 401 invalid_client RetrieveError", err)
			}
		})
	}
}
