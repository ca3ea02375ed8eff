package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/store"
	"washboard/internal/store/sqlite"
)

func sessionTestStore(t *testing.T) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "washboard.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestSessionCacheFollowsTheTable(t *testing.T) {
	st := sessionTestStore(t)
	now := time.Now()
	c := newSessionCache(st, 2)
	c.now = func() time.Time { return now }
	find := func(c *sessionCache, token string) string {
		t.Helper()
		b, found, err := c.Find(token)
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			return "(none)"
		}
		return string(b)
	}

	expiry := now.Add(time.Hour)
	if err := c.Commit("t1", []byte("one"), expiry); err != nil {
		t.Fatal(err)
	}
	if got := find(c, "t1"); got != "one" {
		t.Fatalf("after commit: %s", got)
	}
	if err := c.Commit("t1", []byte("one, touched"), expiry); err != nil {
		t.Fatal(err)
	}
	if got := find(c, "t1"); got != "one, touched" {
		t.Errorf("after a second commit: %s", got)
	}

	// A cache over the same table, as after a restart, reads the row and
	// when it expires.
	restarted := newSessionCache(st, 2)
	restarted.now = func() time.Time { return now }
	if got := find(restarted, "t1"); got != "one, touched" {
		t.Fatalf("after a restart: %s", got)
	}
	if e := restarted.byID["t1"].expiry; e.Sub(expiry).Abs() > time.Millisecond {
		t.Errorf("the expiry read back is %s, want %s", e, expiry)
	}
	for _, c := range []*sessionCache{c, restarted} {
		now = expiry
		if got := find(c, "t1"); got != "(none)" {
			t.Errorf("at its expiry the session is still found: %s", got)
		}
		now = expiry.Add(-time.Hour)
	}

	if err := c.Delete("t1"); err != nil {
		t.Fatal(err)
	}
	if got := find(c, "t1"); got != "(none)" {
		t.Errorf("after delete: %s", got)
	}
	if got := find(newSessionCache(st, 2), "t1"); got != "(none)" {
		t.Errorf("after delete, the table still has the session: %s", got)
	}

	for i := range 5 {
		if err := c.Commit(fmt.Sprint("k", i), []byte(fmt.Sprint("v", i)), expiry); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.byID) > 2 {
		t.Errorf("%d sessions in memory, want at most 2", len(c.byID))
	}
	for i := range 5 {
		if got := find(c, fmt.Sprint("k", i)); got != fmt.Sprint("v", i) {
			t.Errorf("k%d: %s beyond the memory's size", i, got)
		}
	}
}

// TestSessionCacheAgreesWithTheTableUnderLoad: reads, writes and deletes
// of the same sessions at once leave memory as the table is.
func TestSessionCacheAgreesWithTheTableUnderLoad(t *testing.T) {
	st := sessionTestStore(t)
	c := newSessionCache(st, 16)
	expiry := time.Now().Add(time.Hour)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				token := fmt.Sprint("t", i%6)
				var err error
				switch (i + w) % 3 {
				case 0:
					err = c.Commit(token, []byte(fmt.Sprint(w, "-", i)), expiry)
				case 1:
					err = c.Delete(token)
				default:
					_, _, err = c.Find(token)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	fresh := newSessionCache(st, 16)
	for i := range 6 {
		token := fmt.Sprint("t", i)
		inMemory, found1, _ := c.Find(token)
		inTable, found2, _ := fresh.Find(token)
		if found1 != found2 || !bytes.Equal(inMemory, inTable) {
			t.Errorf("%s: memory has %q (%v), the table %q (%v)", token, inMemory, found1, inTable, found2)
		}
	}
}

func TestSessionCodecHandsOutItsOwnValues(t *testing.T) {
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
