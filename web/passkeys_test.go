package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/passkey"
	"washboard/internal/passkey/passkeytest"
	"washboard/internal/people"
)

// The site the test server's passkeys are made for, as a browser would
// reach it.
const (
	testRPID   = "washboard.test"
	testOrigin = "https://washboard.test"
)

// testPasskeys are the passkeys of the test server, on the test's clock.
func testPasskeys(t testing.TB, c clock.Clock) *passkey.Passkeys {
	t.Helper()
	cfg, err := passkey.ConfigFor(testOrigin)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Clock = c
	k, err := passkey.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// postJSON posts a body as static/js/passkeys.js does: JSON, with the
// form token in a header, asking for JSON back.
func (b *browser) postJSON(path, token string, body []byte) response {
	req, _ := http.NewRequest(http.MethodPost, b.a.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-CSRF-Token", token)
	return b.do(req)
}

// answerOf is the body the page posts: the browser's answer, and the
// fields beside it.
func answerOf(t *testing.T, credential []byte, fields map[string]string) []byte {
	t.Helper()
	m := map[string]any{"credential": json.RawMessage(credential)}
	for k, v := range fields {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replyOf reads the server's JSON reply: where to go, or why not.
func replyOf(t *testing.T, r response) (location, problem string) {
	t.Helper()
	var reply struct{ Location, Error string }
	if err := json.Unmarshal([]byte(r.body), &reply); err != nil {
		t.Fatalf("the reply (%d) is not JSON: %v\n%s", r.StatusCode, err, r.body)
	}
	return reply.Location, reply.Error
}

// options asks for a ceremony's options, which must come.
func (b *browser) options(path, token string) []byte {
	b.a.t.Helper()
	r := b.postJSON(path, token, nil)
	if r.StatusCode != http.StatusOK {
		b.a.t.Fatalf("POST %s = %d\n%s", path, r.StatusCode, r.body)
	}
	return []byte(r.body)
}

// addPasskey registers a new software passkey through /me, under a name.
func (b *browser) addPasskey(name string) *passkeytest.Authenticator {
	b.a.t.Helper()
	k := passkeytest.New(b.a.t, testRPID, testOrigin)
	token := b.pageCSRF("/me")
	answer := k.Register(b.a.t, b.options("/me/passkeys/options", token))
	r := b.postJSON("/me/passkeys", token, answerOf(b.a.t, answer, map[string]string{"name": name}))
	if loc, _ := replyOf(b.a.t, r); r.StatusCode != http.StatusOK || loc != "/me#passkeys" {
		b.a.t.Fatalf("adding a passkey = %d\n%s", r.StatusCode, r.body)
	}
	return k
}

// passkeySignIn signs in with a passkey from the sign-in page, going to
// next.
func (b *browser) passkeySignIn(k *passkeytest.Authenticator, next string) response {
	b.a.t.Helper()
	token := b.csrf()
	answer := k.Assert(b.a.t, b.options("/signin/passkey/options", token))
	return b.postJSON("/signin/passkey", token, answerOf(b.a.t, answer, map[string]string{"next": next}))
}

// signOut signs the browser out.
func (b *browser) signOut() {
	b.a.t.Helper()
	if r := b.post("/signout", url.Values{"csrf_token": {b.pageCSRF("/me")}}); r.StatusCode != http.StatusSeeOther {
		b.a.t.Fatalf("signing out = %d", r.StatusCode)
	}
}

// passkeyRows are the names of the passkeys /me lists, by their ids.
func (b *browser) passkeyRows() map[string]string {
	b.a.t.Helper()
	out := map[string]string{}
	b.get("/me").doc(b.a.t).Find(".passkey-table tbody tr").Each(func(_ int, tr *goquery.Selection) {
		action, _ := tr.Find(`form[action$="/rename"]`).Attr("action")
		id := strings.TrimSuffix(strings.TrimPrefix(action, "/me/passkeys/"), "/rename")
		out[id] = strings.TrimSpace(tr.Find(`td[data-label="Name"]`).Text())
	})
	return out
}

// audited lists the actions of the account's audit log, oldest first,
// with their subjects.
func (a *app) audited(account string) []string {
	a.t.Helper()
	page, err := a.people.AuditLog(context.Background(), account, people.AuditQuery{})
	if err != nil {
		a.t.Fatal(err)
	}
	var out []string
	for i := len(page.Entries) - 1; i >= 0; i-- {
		e := page.Entries[i]
		out = append(out, string(e.Action)+" "+e.Subject)
	}
	return out
}

// A person adds a passkey on their page, names it, signs out and signs in
// with it; they rename it, and once removed it signs no one in. The
// audit log records it added and removed.
func TestPasskeyAddedOnMeSignsIn(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	vera := a.browserAs(domain.Viewer, "Vera Vik")
	if d := vera.get("/me").doc(t); d.Find(`form[data-passkey="register"]`).Length() != 1 || d.Find("[data-passkey-offer][hidden]").Length() == 0 {
		t.Fatal("/me does not offer to add a passkey (hidden until the script finds the browser can)")
	}
	k := vera.addPasskey("Work phone")
	rows := vera.passkeyRows()
	id := base64.RawURLEncoding.EncodeToString(k.ID())
	if rows[id] != "Work phone" || len(rows) != 1 {
		t.Fatalf("/me lists %v; want the passkey named Work phone", rows)
	}
	second := vera.addPasskey("")
	if rows := vera.passkeyRows(); len(rows) != 2 || rows[base64.RawURLEncoding.EncodeToString(second.ID())] != "Passkey 2" {
		t.Fatalf("/me lists %v; want a second passkey, named Passkey 2", rows)
	}

	if vera.get("/signin?add=1").doc(t).Find(`form[data-passkey="sign-in"]`).Length() != 0 {
		t.Error("adding an account, a person signed in is offered to sign in with a passkey, which would not add one")
	}
	vera.signOut()
	signIn := vera.get("/signin").doc(t)
	if signIn.Find(`form[data-passkey="sign-in"] button`).Text() != "Sign in with a passkey" {
		t.Fatal("the sign-in page has no button to sign in with a passkey")
	}
	r := vera.passkeySignIn(k, "/alerts")
	if loc, _ := replyOf(t, r); r.StatusCode != http.StatusOK || loc != "/alerts" {
		t.Fatalf("signing in with the passkey = %d\n%s", r.StatusCode, r.body)
	}
	if me := vera.get("/me"); me.StatusCode != http.StatusOK || me.doc(t).Find("h1").Text() != "Vera Vik" {
		t.Fatalf("after signing in with a passkey, /me = %d, of %q", me.StatusCode, me.doc(t).Find("h1").Text())
	}
	// The same passkey on another browser: a device not seen before.
	if r := a.browser().passkeySignIn(k, ""); r.StatusCode != http.StatusOK {
		t.Fatalf("signing in with the passkey on another browser = %d\n%s", r.StatusCode, r.body)
	}

	rename := "/me/passkeys/" + id + "/rename"
	if r := vera.post(rename, url.Values{"csrf_token": {vera.pageCSRF("/me")}, "name": {"  "}}); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Name of the passkey: fill it in.") {
		t.Errorf("renaming to nothing = %d; want 422 naming the field\n%s", r.StatusCode, r.body)
	}
	if r := vera.post(rename, url.Values{"csrf_token": {vera.pageCSRF("/me")}, "name": {"Old phone"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("renaming = %d\n%s", r.StatusCode, r.body)
	}
	if rows := vera.passkeyRows(); rows[id] != "Old phone" {
		t.Errorf("after renaming, /me lists %v", rows)
	}
	if r := vera.post("/me/passkeys/"+id+"/remove", url.Values{"csrf_token": {vera.pageCSRF("/me")}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing = %d\n%s", r.StatusCode, r.body)
	}
	if rows := vera.passkeyRows(); len(rows) != 1 || rows[id] != "" {
		t.Errorf("after removing, /me lists %v", rows)
	}
	vera.signOut()
	r = vera.passkeySignIn(k, "")
	if _, why := replyOf(t, r); r.StatusCode != http.StatusBadRequest || why != passkey.ErrUnknownPasskey.Error() {
		t.Errorf("signing in with a removed passkey = %d %q; want 400 saying %q", r.StatusCode, why, passkey.ErrUnknownPasskey)
	}
	if r := vera.get("/me"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a refused passkey signed the browser in: /me = %d", r.StatusCode)
	}
	log := a.audited(a.accountOf(false))
	for _, want := range []string{"passkey.added Work phone", "passkey.added Passkey 2", "passkey.removed Old phone",
		"signin.new_device Vera Vik signed in with a passkey from a device not seen before"} {
		if !slices.Contains(log, want) {
			t.Errorf("the audit log has no %q: %v", want, log)
		}
	}
}

// The passkeys of another person cannot be renamed or removed from my
// page: their ids answer 404, as do ids of no passkey, and theirs stay.
func TestAnotherPersonsPasskeyIsNotFound(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	vera, ben := a.browserAs(domain.Viewer, "Vera Vik"), a.browserAs(domain.Admin, "Ben Berg")
	veras := base64.RawURLEncoding.EncodeToString(vera.addPasskey("Vera's key").ID())
	ben.addPasskey("Ben's key")
	for _, id := range []string{veras, "not-base64!", base64.RawURLEncoding.EncodeToString([]byte("no such passkey"))} {
		if r := ben.post("/me/passkeys/"+url.PathEscape(id)+"/rename", url.Values{"csrf_token": {ben.pageCSRF("/me")}, "name": {"Mine now"}}); r.StatusCode != http.StatusNotFound {
			t.Errorf("renaming passkey %q of someone else = %d; want 404", id, r.StatusCode)
		}
		if r := ben.post("/me/passkeys/"+url.PathEscape(id)+"/remove", url.Values{"csrf_token": {ben.pageCSRF("/me")}}); r.StatusCode != http.StatusNotFound || !strings.Contains(r.body, "There is no such passkey of yours.") {
			t.Errorf("removing passkey %q of someone else = %d; want 404 saying so", id, r.StatusCode)
		}
	}
	if rows := vera.passkeyRows(); rows[veras] != "Vera's key" {
		t.Errorf("Vera's passkeys after Ben's attempts: %v", rows)
	}
}

// A passkey's answer made for another site, replayed, tampered with, too
// large, or sent with no sign-in started is refused in words, and none
// is a server error.
func TestBadPasskeyAnswersAreRefusedInWords(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	vera := a.browserAs(domain.Viewer, "Vera Vik")
	k := vera.addPasskey("")
	vera.signOut()
	b := a.browser()
	token := b.csrf()

	send := func(body []byte) (int, string) {
		t.Helper()
		r := b.postJSON("/signin/passkey", token, body)
		_, why := replyOf(t, r)
		return r.StatusCode, why
	}
	signIn := func(k *passkeytest.Authenticator) (int, string) {
		t.Helper()
		return send(answerOf(t, k.Assert(t, b.options("/signin/passkey/options", token)), nil))
	}

	otherOrigin := *k
	otherOrigin.Origin = "https://washboard.example.net"
	otherRP := *k
	otherRP.RPID = "washboard.example.net"
	for name, k := range map[string]*passkeytest.Authenticator{"another origin": &otherOrigin, "another relying party": &otherRP} {
		if status, why := signIn(k); status != http.StatusBadRequest || why != passkey.ErrOtherSite.Error() {
			t.Errorf("an answer for %s = %d %q; want 400 saying %q", name, status, why, passkey.ErrOtherSite)
		}
	}

	answer := answerOf(t, k.Assert(t, b.options("/signin/passkey/options", token)), nil)
	b.options("/signin/passkey/options", token) // a second sign-in, begun before the first's answer is sent
	if status, why := send(answer); status != http.StatusBadRequest || why != passkey.ErrNotVerified.Error() {
		t.Errorf("an answer to an earlier sign-in's challenge = %d %q; want 400 saying %q", status, why, passkey.ErrNotVerified)
	}
	answer = answerOf(t, k.Assert(t, b.options("/signin/passkey/options", token)), nil)
	if status, _ := send(answer); status != http.StatusOK {
		t.Fatalf("signing in = %d", status)
	}
	b.signOut()
	token = b.csrf()
	if status, why := send(answer); status != http.StatusBadRequest || why != passkey.ErrNoCeremony.Error() {
		t.Errorf("the same answer again = %d %q; want 400 saying %q", status, why, passkey.ErrNoCeremony)
	}

	b.options("/signin/passkey/options", token)
	tampered := bytes.Replace(answer, []byte(`"signature":"`), []byte(`"signature":"AAAA`), 1)
	for name, body := range map[string][]byte{
		"not JSON":          []byte(`{"credential": `),
		"no credential":     []byte(`{"next": "/"}`),
		"an unknown field":  []byte(`{"credential": {}, "password": "x"}`),
		"a garbled answer":  []byte(`{"credential": {"id": "not a passkey"}}`),
		"a tampered answer": tampered,
		"two objects":       append(append([]byte{}, answer...), answer...),
		"a body of 100 KB":  answerOf(t, k.Assert(t, b.options("/signin/passkey/options", token)), map[string]string{"next": strings.Repeat("x", 100<<10)}),
	} {
		b.options("/signin/passkey/options", token)
		status, why := send(body)
		switch {
		case status >= 500:
			t.Errorf("%s = %d %q", name, status, why)
		case name == "a body of 100 KB" && (status != http.StatusRequestEntityTooLarge || !strings.Contains(why, "larger than any form")):
			t.Errorf("%s = %d %q; want 413 in words", name, status, why)
		case name != "a body of 100 KB" && (status != http.StatusBadRequest || why == ""):
			t.Errorf("%s = %d %q; want 400 in words", name, status, why)
		}
	}
	fresh := a.browser()
	r := fresh.postJSON("/signin/passkey", fresh.csrf(), answerOf(t, k.Assert(t, b.options("/signin/passkey/options", token)), nil))
	if _, why := replyOf(t, r); r.StatusCode != http.StatusBadRequest || why != passkey.ErrNoCeremony.Error() {
		t.Errorf("an answer from a browser that started no sign-in = %d %q; want 400 saying %q", r.StatusCode, why, passkey.ErrNoCeremony)
	}
	if r := b.postJSON("/signin/passkey/options", "", nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("options without the form token = %d; want 403", r.StatusCode)
	} else if _, why := replyOf(t, r); !strings.Contains(why, "This form has expired") {
		t.Errorf("options without the form token say %q", why)
	}
	if r := b.get("/me"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a refused answer signed the browser in: /me = %d", r.StatusCode)
	}
}

// Accepting an invitation leads to the person's page, which welcomes
// them and offers a passkey; added there, it signs them in afterwards.
func TestInvitationLeadsToAddingAPasskey(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	b := a.browser()
	r := b.accept(a.invite(a.accountOf(false), domain.Staff, ""), "Nina Nord")
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/me?welcome=1#passkeys" {
		t.Fatalf("accepting = %d to %q; want 303 to the person's page, at its passkeys", r.StatusCode, r.Header.Get("Location"))
	}
	me := b.get("/me?welcome=1").doc(t)
	if got := me.Find("#passkeys .message-title").Text(); got != "Welcome to "+a.world.Accounts()[0].Name+"." {
		t.Errorf("the page greets with %q", got)
	}
	k := b.addPasskey("Phone")
	b.signOut()
	if r := b.passkeySignIn(k, ""); r.StatusCode != http.StatusOK {
		t.Fatalf("signing in with the passkey = %d\n%s", r.StatusCode, r.body)
	}
	if got := b.get("/me").doc(t).Find("h1").Text(); got != "Nina Nord" {
		t.Errorf("signed in as %q; want Nina Nord", got)
	}
}

// Failed passkey sign-ins count against the client's address: past the
// limit, the next is refused in words until the minute is over. A
// browser not signed in keeps a sign-in's state only as long as the
// passkey may take to answer.
func TestFailedPasskeySignInsAreLimited(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{SignInLimit: 3})
	b := a.browser()
	token := b.csrf()
	b.options("/signin/passkey/options", token)
	if n, long := a.sessionsLasting(passkey.Timeout + time.Minute); n != 1 || long != 0 {
		t.Errorf("a sign-in begun and not finished: %d sessions, %d of them lasting over %s; want 1 lasting no longer", n, long, passkey.Timeout+time.Minute)
	}

	stranger := passkeytest.New(t, testRPID, testOrigin) // registered nowhere here
	for i := range 3 {
		r := b.postJSON("/signin/passkey", token, answerOf(t, stranger.Assert(t, b.options("/signin/passkey/options", token)), nil))
		if r.StatusCode != http.StatusBadRequest {
			t.Fatalf("failure %d = %d\n%s", i+1, r.StatusCode, r.body)
		}
	}
	r := b.postJSON("/signin/passkey/options", token, nil)
	_, why := replyOf(t, r)
	want := "Too many failed sign-ins from your address. Try again at " + start.Add(time.Minute).Format("15:04:05") + " (in 60 seconds)."
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "60" || why != want {
		t.Errorf("after 3 failures = %d %q, Retry-After %q; want 429 saying %q", r.StatusCode, why, r.Header.Get("Retry-After"), want)
	}
	a.clock.Advance(time.Minute)
	b.options("/signin/passkey/options", token)
}

// sessionsLasting counts the stored sessions, and those of them that
// expire more than d from now.
func (a *app) sessionsLasting(d time.Duration) (all, longer int) {
	a.t.Helper()
	q := `SELECT count(*), count(*) FILTER (WHERE expiry > julianday('now', ?)) FROM sessions`
	arg := any(fmt.Sprintf("+%d seconds", int(d.Seconds())))
	if a.shared {
		q = `SELECT count(*), count(*) FILTER (WHERE expiry > current_timestamp + $1::interval) FROM sessions`
		arg = fmt.Sprintf("%d seconds", int(d.Seconds()))
	}
	if err := a.sessionDB.QueryRow(q, arg).Scan(&all, &longer); err != nil {
		a.t.Fatal(err)
	}
	return all, longer
}

// A session signed in before people existed, not yet given its person,
// that begins a passkey sign-in keeps its own lifetime: only a browser
// not signed in keeps the sign-in's state for 5 minutes.
func TestPasskeySignInKeepsASessionFromBeforePeople(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	srv := a.handler.Load()
	ctx, err := srv.sessions.Load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	const holder = "0123456789abcdef"
	for k, v := range map[string]string{keyAccount: a.accountOf(false), keyAccountName: a.world.Accounts()[0].Name,
		keyAPIKey: credA.APIKey, keyAuth: credA.Authorization, keyHolder: holder} {
		srv.sessions.Put(ctx, k, v)
	}
	token, _, err := srv.sessions.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := a.browser()
	u, _ := url.Parse(a.srv.URL)
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: token, Path: "/"}})
	b.options("/signin/passkey/options", maskToken(a.deps.Keys.MAC(keyring.FormTokens, "session", holder)))
	if n, long := a.sessionsLasting(passkey.Timeout + time.Minute); n != 1 || long != 1 {
		t.Errorf("%d sessions, %d of them lasting over %s; want the session from before people, lasting as long as it did", n, long, passkey.Timeout+time.Minute)
	}
}
