package web

import (
	"net/http"
	"net/url"
	"testing"
)

// TestReturnAddressesStayOnThisSite: every address a request says to go
// back to — the claim page's back, sign-in's next — leads to a page of
// this site or to the page's default, never to another host, however it
// is written: browsers drop tabs and line breaks from an address and read
// a backslash as a slash.
func TestReturnAddressesStayOnThisSite(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	alert := a.anOpenAlert()
	claimPath := "/alerts/" + alert.ID + "/claim"
	token := b.pageCSRF(claimPath)
	me := a.owner(a.accountOf(false)).PersonID
	elsewhere := []string{
		"/\t/evil.example/phish", "/\n/evil.example/", "/\r\n/evil.example/", "/\\evil.example/", "/x\\..\\..\\/evil.example/",
		"//evil.example/", "https://evil.example/", "javascript:alert(1)", " /evil.example/",
	}
	for _, back := range elsewhere {
		page := b.get(claimPath + "?" + url.Values{"back": {back}}.Encode())
		doc := page.doc(t)
		if href, _ := doc.Find(`form.claim-form a`).Attr("href"); href != "/alerts" {
			t.Errorf("the claim page with back=%q links Back to %q, want /alerts", back, href)
		}
		if v, _ := doc.Find(`form.claim-form input[name="back"]`).Attr("value"); v != "/alerts" {
			t.Errorf("the claim form with back=%q carries back=%q, want /alerts", back, v)
		}
		r := b.post(claimPath, url.Values{"csrf_token": {token}, "person": {me}, "back": {back}})
		if loc := r.Header.Get("Location"); r.StatusCode != http.StatusSeeOther || loc != "/alerts" {
			t.Errorf("I'm on it with back=%q: %d to %q, want 303 to /alerts", back, r.StatusCode, loc)
		}
		r = b.post("/alerts/"+alert.ID+"/release", url.Values{"csrf_token": {token}, "back": {back}})
		if loc := r.Header.Get("Location"); r.StatusCode != http.StatusSeeOther || loc != "/alerts" {
			t.Errorf("releasing with back=%q: %d to %q, want 303 to /alerts", back, r.StatusCode, loc)
		}
		if loc := b.get("/signin?" + url.Values{"next": {back}}.Encode()).Header.Get("Location"); loc != "/" {
			t.Errorf("the sign-in page, signed in, with next=%q goes to %q, want /", back, loc)
		}
		other := a.browser()
		signin := other.get("/signin?" + url.Values{"next": {back}}.Encode())
		if v, _ := signin.doc(t).Find(`input[name="next"]`).Attr("value"); v != "/" {
			t.Errorf("the sign-in form with next=%q carries next=%q, want /", back, v)
		}
		r = other.post("/signin", url.Values{"csrf_token": {other.csrf()}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}, "next": {back}})
		if loc := r.Header.Get("Location"); r.StatusCode != http.StatusSeeOther || loc != "/" {
			t.Errorf("signing in with next=%q: %d to %q, want 303 to /", back, r.StatusCode, loc)
		}
	}
	// A path of this site is kept, its query with it.
	here := "/locations/" + alert.LocationID + "?from=alerts"
	if r := b.post(claimPath, url.Values{"csrf_token": {token}, "person": {me}, "back": {here}}); r.Header.Get("Location") != here {
		t.Errorf("I'm on it with back=%q goes to %q", here, r.Header.Get("Location"))
	}
	other := a.browser()
	if r := other.post("/signin", url.Values{"csrf_token": {other.csrf()}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}, "next": {here}}); r.Header.Get("Location") != here {
		t.Errorf("signing in with next=%q goes to %q", here, r.Header.Get("Location"))
	}
}
