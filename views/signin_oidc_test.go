package views_test

import (
	"strings"
	"testing"

	. "washboard/views"
)

// The sign-in page offers single sign-on only when there is a provider,
// by its name, and comes back to the page asked for.
func TestSignInOffersSingleSignOnOnlyWhenSetUp(t *testing.T) {
	m := SignIn{Page: Page{CSRFToken: "tok"}, Next: "/alerts?status=open&b=1"}
	doc, _ := render(t, SignInPage(m))
	if doc.Find(`a[href^="/signin/oidc"]`).Length() != 0 || strings.Contains(text(doc.Find("main")), "Sign in with") {
		t.Error("single sign-on is offered without a provider")
	}
	m.SingleSignOn = "Keycloak"
	doc, _ = render(t, SignInPage(m))
	link := doc.Find(`a[href^="/signin/oidc"]`)
	if link.Length() != 1 || text(link) != "Sign in with Keycloak" {
		t.Fatalf("%d links to single sign-on, reading %q; want one reading \"Sign in with Keycloak\"", link.Length(), text(link))
	}
	if got := link.AttrOr("href", ""); got != "/signin/oidc?next=%2Falerts%3Fstatus%3Dopen%26b%3D1" {
		t.Errorf("the link goes to %q; want the page asked for in its next parameter", got)
	}
	if id := link.Closest("section").AttrOr("aria-labelledby", ""); id == "" || doc.Find("#"+id).Length() != 1 {
		t.Error("the single sign-on section has no heading naming it")
	}
}
