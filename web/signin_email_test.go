package web

import (
	"context"
	"crypto/tls"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/notify/mailtest"
	"washboard/internal/people"
)

// withMail gives the app's server mail settings, to a mail server of the
// test's, and a public address; it returns the mail server.
func (a *app) withMail() *mailtest.Server {
	a.t.Helper()
	ms := mailtest.Start(a.t, mailtest.Options{})
	server := notify.SMTPSettings{Host: ms.Host, Port: ms.Port, User: ms.User, Password: ms.Pass, From: "washboard@example.com",
		TLSConfig: &tls.Config{RootCAs: ms.Roots}}
	a.deps.Mail = func(ctx context.Context, to, subject, text string) error {
		return notify.SendLetter(ctx, server, to, subject, text, a.clock.Now())
	}
	a.cfg.PublicURL = "https://washboard.example.com"
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
	return ms
}

// lettersSent waits for the letters the server is sending, and returns
// what the mail server received.
func (a *app) lettersSent(ms *mailtest.Server) []mailtest.Mail {
	a.handler.Load().letters.Wait()
	return ms.Received()
}

// letterText is a letter's text, decoded.
func letterText(t *testing.T, m mailtest.Mail) string {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(string(m.Data)))
	if err != nil {
		t.Fatal(err)
	}
	var body io.Reader = msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var signInLinkInLetter = regexp.MustCompile(`(\S+)/signin/email/([A-Za-z0-9_-]+)`)

// signInLinkOf is the token of the link a letter carries, and the address
// it leads to.
func signInLinkOf(t *testing.T, m mailtest.Mail) (token, site string) {
	t.Helper()
	found := signInLinkInLetter.FindStringSubmatch(letterText(t, m))
	if found == nil {
		t.Fatalf("no sign-in link in the letter:\n%s", letterText(t, m))
	}
	return found[2], found[1]
}

// ownerWithEmail gives the account's owner an e-mail address, and returns the
// owner.
func (a *app) ownerWithEmail(email string) domain.Member {
	a.t.Helper()
	owner := a.owner(a.accountOf(false))
	if _, err := a.people.UpdatePerson(context.Background(), owner.PersonID, owner.Name, email); err != nil {
		a.t.Fatal(err)
	}
	return owner
}

// askForLink posts the e-mail form from the browser.
func (b *browser) askForLink(email string) response {
	return b.post("/signin/email", url.Values{"csrf_token": {b.formToken("/signin/email")}, "email": {email}})
}

// useLink opens a sign-in link's page, then presses its button.
func (b *browser) useLink(token string) response {
	b.a.t.Helper()
	return b.post("/signin/email/"+token, url.Values{"csrf_token": {b.formToken("/signin/email/" + token)}})
}

const linkOnItsWay = "If this address belongs to someone here, a link is on its way; it works once, for 15 minutes."

func TestSignInWithAnEmailedLink(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ms := a.withMail()
	a.browser().signIn(credA)
	owner := a.ownerWithEmail("ana@example.com")

	visitor := a.browser()
	if page := visitor.get("/signin"); !strings.Contains(page.body, `href="/signin/email"`) {
		t.Error("the sign-in page does not offer a link by e-mail")
	}
	// Known or not, an address gets the same answer.
	known, unknown := visitor.askForLink("Ana@Example.com"), visitor.askForLink("nobody@example.com")
	for _, r := range []response{known, unknown} {
		if r.StatusCode != http.StatusOK || !strings.Contains(r.body, linkOnItsWay) {
			t.Fatalf("asking for a link = %d; want 200 saying %q\n%s", r.StatusCode, linkOnItsWay, r.body)
		}
	}
	if known.doc(t).Find("main").Text() != unknown.doc(t).Find("main").Text() {
		t.Error("the answers for an address known and one unknown differ")
	}
	got := a.lettersSent(ms)
	if len(got) != 1 || got[0].To[0] != "ana@example.com" {
		t.Fatalf("letters sent: %d; want one, to ana@example.com", len(got))
	}
	token, site := signInLinkOf(t, got[0])
	if site != "https://washboard.example.com" {
		t.Errorf("the link leads to %s; want the public address", site)
	}

	// Following the link uses nothing: a mail scanner may open it.
	tablet := a.browser()
	for range 2 {
		if page := tablet.get("/signin/email/" + token); page.StatusCode != http.StatusOK || page.doc(t).Find(`main form button[type=submit]`).Text() != "Sign in" {
			t.Fatalf("the link's page = %d; want a Sign in button\n%s", page.StatusCode, page.body)
		}
	}
	if r := tablet.useLink(token); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("signing in with the link = %d (to %q); want 303 to /", r.StatusCode, r.Header.Get("Location"))
	}
	if me := tablet.get("/me"); me.StatusCode != http.StatusOK || !strings.Contains(me.body, owner.Name) {
		t.Errorf("after the link, /me = %d; want the owner's page", me.StatusCode)
	}

	// Used, altered, expired: each said in words, nothing leaks.
	if r := a.browser().useLink(token); r.StatusCode != http.StatusGone || !strings.Contains(r.body, "This sign-in link was used already") {
		t.Errorf("a link used twice = %d; want 410 saying it was used\n%s", r.StatusCode, r.body)
	}
	altered := token[:len(token)-1] + map[bool]string{true: "B", false: "A"}[strings.HasSuffix(token, "A")]
	for _, bad := range []string{altered, "short", strings.Repeat("x", 2000)} {
		if r := a.browser().useLink(bad); r.StatusCode != http.StatusNotFound || !strings.Contains(r.body, "This sign-in link is not known here") {
			t.Errorf("an altered link = %d; want 404 saying it is not known\n%s", r.StatusCode, r.body)
		}
	}
	a.browser().askForLink("ana@example.com")
	got = a.lettersSent(ms)
	if len(got) != 2 {
		t.Fatalf("letters sent: %d; want a second", len(got))
	}
	late, _ := signInLinkOf(t, got[1])
	a.clock.Advance(people.SignInLinkTTL + time.Second)
	if r := a.browser().useLink(late); r.StatusCode != http.StatusGone || !strings.Contains(r.body, "This sign-in link has expired") {
		t.Errorf("an expired link = %d; want 410 saying it expired\n%s", r.StatusCode, r.body)
	}
	for _, secret := range []string{token, late} {
		if strings.Contains(a.logs.String(), secret) {
			t.Error("a sign-in link's token appears in the log")
		}
	}
	if !strings.Contains(a.logs.String(), "/signin/email/REDACTED") {
		t.Error("the log does not show the link's path redacted")
	}
}

func TestAThousandSignInLinksForOneAddressAreBounded(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ms := a.withMail()
	a.browser().signIn(credA)
	a.ownerWithEmail("ana@example.com")
	b := a.browser()
	token := b.formToken("/signin/email")
	statuses := map[int]int{}
	var fourth, last response
	for i := range 1000 {
		r := b.post("/signin/email", url.Values{"csrf_token": {token}, "email": {"ana@example.com"}})
		statuses[r.StatusCode]++
		if r.StatusCode >= 500 {
			t.Fatalf("request %d = %d\n%s", i+1, r.StatusCode, r.body)
		}
		if i == people.SignInLinksPerAddress {
			fourth = r
		}
		last = r
	}
	if statuses[http.StatusOK] != people.SignInLinksPerAddress {
		t.Errorf("statuses %v; want %d answered 200, the rest 429", statuses, people.SignInLinksPerAddress)
	}
	if want := "A link was sent to this address a moment ago: use it, or ask again in 15 minutes."; fourth.StatusCode != http.StatusTooManyRequests ||
		!strings.Contains(fourth.body, want) {
		t.Errorf("request %d = %d; want 429 saying %q\n%s", people.SignInLinksPerAddress+1, fourth.StatusCode, want, fourth.body)
	}
	if last.StatusCode != http.StatusTooManyRequests || !strings.Contains(last.body, "Try again at") || last.Header.Get("Retry-After") == "" {
		t.Errorf("the last request = %d; want 429 saying when to try again\n%s", last.StatusCode, last.body)
	}
	if got := a.lettersSent(ms); len(got) != people.SignInLinksPerAddress {
		t.Errorf("%d letters sent for 1,000 requests; want %d", len(got), people.SignInLinksPerAddress)
	}
}

func TestWithoutMailNoLinkIsOffered(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	if page := b.get("/signin"); strings.Contains(page.body, `href="/signin/email"`) {
		t.Error("the sign-in page offers a link by e-mail on a server that sends no mail")
	}
	if page := b.get("/signin/email"); page.StatusCode != http.StatusOK || !strings.Contains(page.body, "This server sends no e-mail") ||
		page.doc(t).Find(`input[name=email]`).Length() != 0 {
		t.Errorf("/signin/email without mail = %d; want it said in words, with no form\n%s", page.StatusCode, page.body)
	}
	if r := b.post("/signin/email", url.Values{"csrf_token": {b.csrf()}, "email": {"ana@example.com"}}); r.StatusCode != http.StatusNotFound || !strings.Contains(r.body, "This server sends no e-mail") {
		t.Errorf("asking for a link without mail = %d; want 404 in words", r.StatusCode)
	}
}
