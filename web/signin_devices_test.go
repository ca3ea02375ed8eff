package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/people"
)

// newDevices lists the account's entries of sign-ins from new devices,
// newest first, as "who: subject".
func (a *app) newDevices(account string) []string {
	a.t.Helper()
	page, err := a.people.AuditLog(context.Background(), account, people.AuditQuery{Action: domain.AuditSignInNewDevice})
	if err != nil {
		a.t.Fatal(err)
	}
	var out []string
	for _, e := range page.Entries {
		out = append(out, e.ActorName+": "+e.Subject)
	}
	return out
}

// deviceCookieOf is the device cookie the browser keeps for the app.
func (b *browser) deviceCookieOf() *http.Cookie {
	u, _ := url.Parse(b.a.srv.URL)
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == deviceCookie {
			return c
		}
	}
	return nil
}

func TestSignInFromANewDeviceIsAuditedOnce(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ms := a.withMail()
	account := a.accountOf(false)
	laptop := a.browser()
	laptop.signIn(credA)
	owner := a.ownerWithEmail("ana@example.com")
	if got := a.newDevices(account); len(got) != 1 || got[0] != owner.Name+": "+owner.Name+" signed in with the service's credentials from a device not seen before" {
		t.Fatalf("after the first sign-in, new devices in the log: %q; want one", got)
	}
	first := laptop.deviceCookieOf()
	if first == nil {
		t.Fatal("the browser was given no device cookie")
	}

	// The same browser signs in again: not a new device.
	if r := laptop.post("/signin", url.Values{"csrf_token": {laptop.formToken("/accounts")}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in again = %d", r.StatusCode)
	}
	if got := a.newDevices(account); len(got) != 1 {
		t.Errorf("after a second sign-in from the same browser, new devices in the log: %q; want still one", got)
	}
	if again := laptop.deviceCookieOf(); again == nil || again.Value != first.Value {
		t.Error("the browser's device cookie changed at its second sign-in")
	}

	// Another browser, with an e-mailed link: a new device.
	phone := a.browser()
	phone.askForLink("ana@example.com")
	token, _ := signInLinkOf(t, a.lettersSent(ms)[0])
	if r := phone.useLink(token); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in with the link = %d", r.StatusCode)
	}
	got := a.newDevices(account)
	if len(got) != 2 || got[0] != owner.Name+": "+owner.Name+" signed in with an e-mailed link from a device not seen before" {
		t.Errorf("after a sign-in from a second browser, new devices in the log: %q; want two, the newest by e-mailed link", got)
	}
	// A newcomer's first sign-in, by an invitation, is theirs.
	a.browserAs(domain.Staff, "Sid Staff")
	if got := a.newDevices(account); len(got) != 3 || got[0] != "Sid Staff: Sid Staff signed in with an invitation from a device not seen before" {
		t.Errorf("after an invitation accepted, new devices in the log: %q", got)
	}
	if strings.Contains(a.logs.String(), first.Value) {
		t.Error("a device's value appears in the log")
	}
}
