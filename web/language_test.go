package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"washboard/internal/domain"
)

// says is the text of the first element of a page a selector finds,
// white space collapsed.
func says(t *testing.T, r response, selector string) string {
	t.Helper()
	return strings.Join(strings.Fields(r.doc(t).Find(selector).First().Text()), " ")
}

// htmlLang is a page's <html lang>.
func htmlLang(t *testing.T, r response) string {
	t.Helper()
	lang, _ := r.doc(t).Find("html").Attr("lang")
	return lang
}

// TestPagesSpeakTheBrowsersLanguage: someone who has chosen no language
// gets the pages in the one their browser prefers among those Washboard
// speaks, the error pages too; English when it asks for none of them.
// The answers vary by Accept-Language.
func TestPagesSpeakTheBrowsersLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	for _, tc := range []struct {
		accept, path, selector, lang, want string
	}{
		{"de-DE,de;q=0.9,en;q=0.5", "/signin", "form[action='/signin'] .button-primary", "de", "Anmelden"},
		{"es-MX, en;q=0.5", "/signin", "#sign-in-heading", "es", "Iniciar sesión"},
		{"pt-BR, fr;q=0.7", "/signin", ".skip-link", "fr", "Aller au contenu"},
		{"ja", "/signin", "form[action='/signin'] .button-primary", "en", "Sign in"},
		{"fr-CA", "/no/such/page", "#error-heading", "fr", "Introuvable"},
		{"de", "/no/such/page", "main p:not(.error-status)", "de", "Unter dieser Adresse gibt es keine Seite."},
	} {
		r := b.get(tc.path, "Accept-Language", tc.accept)
		if got := htmlLang(t, r); got != tc.lang {
			t.Errorf("%s under %q: <html lang=%q>; want %q", tc.path, tc.accept, got, tc.lang)
		}
		if got := says(t, r, tc.selector); got != tc.want {
			t.Errorf("%s under %q: %s says %q; want %q", tc.path, tc.accept, tc.selector, got, tc.want)
		}
		if !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Accept-Language") {
			t.Errorf("%s: Vary %q does not name Accept-Language", tc.path, r.Header.Values("Vary"))
		}
	}
}

// TestAskedLanguageIsRememberedForAVisitor: ?lang= shows a page in that
// language and the visitor's next pages too, whatever their browser
// prefers; another browser is not concerned; a language Washboard does
// not speak is refused, by name.
func TestAskedLanguageIsRememberedForAVisitor(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	if r := b.get("/signin?lang=es", "Accept-Language", "de"); htmlLang(t, r) != "es" || says(t, r, "#sign-in-heading") != "Iniciar sesión" {
		t.Errorf("/signin?lang=es: <html lang=%q>, %q", htmlLang(t, r), says(t, r, "#sign-in-heading"))
	}
	if r := b.get("/signin", "Accept-Language", "de"); htmlLang(t, r) != "es" {
		t.Errorf("the next page under a German browser: <html lang=%q>; want the Spanish asked for", htmlLang(t, r))
	}
	if r := a.browser().get("/signin", "Accept-Language", "de"); htmlLang(t, r) != "de" {
		t.Errorf("another browser: <html lang=%q>; want its own German", htmlLang(t, r))
	}
	r := b.get("/signin?lang=pt")
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "Washboard no habla «pt»") || !strings.Contains(r.body, "de, en, es, fr") {
		t.Errorf("?lang=pt: %d; want 400 naming pt and the languages there are, in Spanish\n%s", r.StatusCode, says(t, r, "main"))
	}
	if r := b.get("/signin?lang=fr"); htmlLang(t, r) != "fr" {
		t.Errorf("asking again for French: <html lang=%q>", htmlLang(t, r))
	}
}

// TestPersonChoosesTheirLanguageOnMe: a person's choice on /me is kept
// with them (on either engine): their pages follow it whatever their
// browser prefers, a new sign-in of theirs finds it, and leaving it to the
// browser takes it back. A language chosen before signing in becomes
// the person's; ?lang= while signed in changes it.
func TestPersonChoosesTheirLanguageOnMe(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	account := a.world.Accounts()[0].ID
	b := a.browser()
	b.signIn(credA)
	ctx := context.Background()
	language := func(name string) string {
		t.Helper()
		p, err := a.people.Person(ctx, a.members(account)[name].PersonID)
		if err != nil {
			t.Fatal(err)
		}
		return p.Language
	}

	form := url.Values{"csrf_token": {b.pageCSRF("/me")}, "language": {"fr"}}
	if r := b.post("/me/language", form); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/me" {
		t.Fatalf("choosing French = %d to %q", r.StatusCode, r.Header.Get("Location"))
	}
	me := b.get("/me", "Accept-Language", "de")
	if htmlLang(t, me) != "fr" || says(t, me, ".flash") != "Votre langue est enregistrée." || says(t, me, "#me-language option[selected]") != "Français" {
		t.Errorf("/me after choosing French: <html lang=%q>, flash %q, chosen %q", htmlLang(t, me), says(t, me, ".flash"), says(t, me, "#me-language option[selected]"))
	}
	if got := language(defaultPersonName); got != "fr" {
		t.Errorf("the person's language in the store: %q; want fr", got)
	}

	form = url.Values{"csrf_token": {b.pageCSRF("/me")}, "language": {"pt"}}
	if r := b.post("/me/language", form); r.StatusCode != http.StatusUnprocessableEntity || says(t, r, ".message-error") != "Choisissez l'une des langues proposées." {
		t.Errorf("choosing Portuguese = %d, %q; want 422 in French", r.StatusCode, says(t, r, ".message-error"))
	}

	// Chosen on another device meanwhile: their next sign-in finds it.
	id := a.members(account)[defaultPersonName].PersonID
	if err := a.people.SetLanguage(ctx, id, "es"); err != nil {
		t.Fatal(err)
	}
	if r := b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in again = %d", r.StatusCode)
	}
	if me := b.get("/me"); htmlLang(t, me) != "es" || says(t, me, "#me-language-heading") != "Idioma" {
		t.Errorf("/me after signing in again: <html lang=%q>, %q; want Spanish", htmlLang(t, me), says(t, me, "#me-language-heading"))
	}

	form = url.Values{"csrf_token": {b.pageCSRF("/me")}, "language": {""}}
	if r := b.post("/me/language", form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("leaving it to the browser = %d", r.StatusCode)
	}
	if me := b.get("/me", "Accept-Language", "de"); htmlLang(t, me) != "de" || language(defaultPersonName) != "" {
		t.Errorf("left to a German browser: <html lang=%q>, stored %q", htmlLang(t, me), language(defaultPersonName))
	}
	if r := b.get("/me?lang=fr", "Accept-Language", "de"); htmlLang(t, r) != "fr" || language(defaultPersonName) != "fr" {
		t.Errorf("/me?lang=fr: <html lang=%q>, stored %q; want French, kept with the person", htmlLang(t, r), language(defaultPersonName))
	}

	lena := a.browser()
	lena.get("/signin?lang=de")
	if r := lena.post("/signin", url.Values{"csrf_token": {lena.csrf()}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}, "name": {"Lena"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("Lena signing in = %d", r.StatusCode)
	}
	if got := language("Lena"); got != "de" {
		t.Errorf("Lena chose German before signing in; her language: %q", got)
	}
	if me := lena.get("/me", "Accept-Language", "fr"); htmlLang(t, me) != "de" {
		t.Errorf("Lena's page under a French browser: <html lang=%q>; want her German", htmlLang(t, me))
	}
}

// TestKeptPagesAreFramedInEachReadersLanguage: a page the server keeps
// rendered for everyone who sees the same (the overview) is framed in
// each reader's language, whoever read it first.
func TestKeptPagesAreFramedInEachReadersLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	german, english := a.browserAs(domain.Staff, "Maria"), a.browserAs(domain.Staff, "Maria")
	german.get("/me?lang=de")
	if r := german.get("/", "Accept-Language", "en"); htmlLang(t, r) != "de" || says(t, r, ".skip-link") != "Zum Inhalt springen" {
		t.Fatalf("the German Maria's overview: <html lang=%q>, %q", htmlLang(t, r), says(t, r, ".skip-link"))
	}
	if r := english.get("/", "Accept-Language", "en"); htmlLang(t, r) != "en" || says(t, r, ".skip-link") != "Skip to content" {
		t.Errorf("the other Maria's overview, after the German one's: <html lang=%q>, %q; want English", htmlLang(t, r), says(t, r, ".skip-link"))
	}
}

// TestOnlyPagesVaryByLanguage: the pages, kept or not, vary by
// Accept-Language; the files they load do not, so that every cache keeps
// one copy of each.
func TestOnlyPagesVaryByLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	css := b.get("/me").doc(t).Find(`link[rel="stylesheet"]`).AttrOr("href", "")
	for path, want := range map[string]bool{"/": true, "/me": true, "/no/such/page": true, css: false} {
		r := b.get(path, "Accept-Language", "de")
		if got := strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Accept-Language"); got != want {
			t.Errorf("%s (%d): Vary %q; want Accept-Language named: %v", path, r.StatusCode, r.Header.Values("Vary"), want)
		}
	}
}

// TestSignInSpeaksTheVisitorsLanguage: why a sign-in failed is said in
// the visitor's language, and a person who signs out is told so in
// theirs, on a sign-in page in it.
func TestSignInSpeaksTheVisitorsLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	visitor := a.browser()
	visitor.get("/signin?lang=de")
	r := visitor.post("/signin", url.Values{"csrf_token": {visitor.csrf()}, "api_key": {"key-wrong-0123456789"}, "authorization": {"Bearer wrong-0123456789"}})
	if why := says(t, r, ".message-error p:not(.message-title)"); r.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(why, "Der Device Monitoring Service hat") {
		t.Errorf("a failed sign-in in German = %d, %q", r.StatusCode, why)
	}
	b := a.browser()
	b.signIn(credA)
	b.get("/me?lang=fr")
	out := b.post("/signout", url.Values{"csrf_token": {b.pageCSRF("/me")}})
	if out.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing out = %d", out.StatusCode)
	}
	page := b.get(out.Header.Get("Location"), "Accept-Language", "en")
	if htmlLang(t, page) != "fr" || says(t, page, ".flash") != "Déconnexion effectuée." {
		t.Errorf("after signing out: <html lang=%q>, %q; want French", htmlLang(t, page), says(t, page, ".flash"))
	}
}
