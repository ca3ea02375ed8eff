package web

import (
	"bytes"
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/web/httpkit"
)

func TestSessionCodecHandsOutItsOwnValues(t *testing.T) {
	t.Parallel()
	c := newEncryptedCodec(testKeys(t, 3))
	deadline := time.Now().Add(time.Hour).UTC().Round(time.Second)
	blob, err := c.Encode(deadline, map[string]interface{}{"account": "a1"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		d, v, err := c.Decode(blob)
		if err != nil || !d.Equal(deadline) || v["account"] != "a1" || len(v) != 1 {
			t.Fatalf("decode %d: %v %v %v", i, d, v, err)
		}
		v["account"], v["added"] = "changed", true // as scs does with a session's values
	}
	if _, _, err := c.Decode(append(bytes.Clone(blob[:len(blob)-1]), blob[len(blob)-1]^1)); err == nil {
		t.Error("a tampered session decodes")
	}
}

// sessionToken is the browser's session cookie.
func (b *browser) sessionToken() string {
	u, _ := url.Parse(b.a.srv.URL)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == sessionCookie {
			return c.Value
		}
	}
	return ""
}

// withToken is another browser holding only the given session token, as
// someone who copied the cookie would.
func (a *app) withToken(token string) *browser {
	b := a.browser()
	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(a.srv.URL)
	jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: token, Path: "/"}})
	b.client.Jar = jar
	return b
}

// TestEndedSessionTokensAreRefusedAtOnce: a token that sign-out or a new
// sign-in ended gets no page, even right after it was used.
func TestEndedSessionTokensAreRefusedAtOnce(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	first := b.sessionToken()
	if r := a.withToken(first).get("/"); r.StatusCode != http.StatusOK {
		t.Fatalf("the session's own token gets %d", r.StatusCode)
	}
	// Signing in again, from a page of the session, renews the token.
	csrf := csrfInput.FindStringSubmatch(b.get("/").body)
	if csrf == nil {
		t.Fatal("no CSRF token on the overview")
	}
	r := b.post("/signin", url.Values{"csrf_token": {csrf[1]}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in again = %d", r.StatusCode)
	}
	second := b.sessionToken()
	if second == first || second == "" {
		t.Fatal("signing in again kept the token")
	}
	// The new session has form tokens of its own.
	csrf = csrfInput.FindStringSubmatch(b.get("/").body)
	if r := b.post("/signout", url.Values{"csrf_token": {csrf[1]}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out = %d", r.StatusCode)
	}
	for name, tok := range map[string]string{"the token before the second sign-in": first, "the signed-out token": second} {
		r := a.withToken(tok).get("/")
		if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
			t.Errorf("%s gets %d (%q), want a redirect to sign in", name, r.StatusCode, r.Header.Get("Location"))
		}
	}
}

// countingSessions counts the reads of a session store.
type countingSessions struct {
	httpkit.SessionStore
	mu    sync.Mutex
	finds int
}

func (c *countingSessions) FindSession(ctx context.Context, token string) ([]byte, time.Time, bool, error) {
	c.mu.Lock()
	c.finds++
	c.mu.Unlock()
	return c.SessionStore.FindSession(ctx, token)
}

func (c *countingSessions) reads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.finds
}
