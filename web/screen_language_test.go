package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// A wall screen speaks the language chosen with it, whatever its browser
// asks for (a TV's browser is often English); the list of screens says
// which; a change of language reaches the screen with its next refresh.
func TestScreenSpeaksTheLanguageChosenWithIt(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	form := screenForm("Staff room", "account")
	form.Set("language", "de")
	token := user.createScreen(form)

	tv := a.browser()
	tv.get("/s/"+token, "Accept-Language", "en-US,en;q=0.9")
	page := tv.get("/screen", "Accept-Language", "en-US,en;q=0.9")
	doc := page.doc(t)
	if got := doc.Find("html").AttrOr("lang", ""); got != "de" {
		t.Errorf("the screen of a German screen says <html lang=%q> to an English browser", got)
	}
	if got := strings.TrimSpace(doc.Find(".screen-count-alerts .screen-count-label").First().Text()); got != "Offene Alarme" {
		t.Errorf("its open alerts are labelled %q; want Offene Alarme", got)
	}
	if words := doc.Find("#screen-words").Text(); !strings.Contains(words, "Verbindung weg seit {since}") {
		t.Errorf("the words for its script are not German: %s", words)
	}
	list := user.get("/screens")
	if got := strings.TrimSpace(list.doc(t).Find(".screens-table td[data-label='Language']").First().Text()); got != "Deutsch" {
		t.Errorf("the list says the screen's language is %q; want Deutsch", got)
	}

	id := regexp.MustCompile(`/screens/([0-9a-f]{16})/edit`).FindStringSubmatch(list.body)
	edit := user.get("/screens/" + id[1] + "/edit")
	if got := edit.doc(t).Find("#screen-language option[selected]").AttrOr("value", ""); got != "de" {
		t.Errorf("the edit form chooses %q; want the screen's de", got)
	}
	form.Set("language", "fr")
	form.Set("csrf_token", csrfInput.FindStringSubmatch(edit.body)[1])
	if r := user.post("/screens/"+id[1], form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the screen in French = %d\n%s", r.StatusCode, r.body)
	}
	content := tv.get("/screen/content", "Accept-Language", "de")
	if got := strings.TrimSpace(content.doc(t).Find(".screen-count-alerts .screen-count-label").First().Text()); got != "Alertes ouvertes" {
		t.Errorf("after it was changed to French, the screen's open alerts are labelled %q", got)
	}

	form.Set("language", "tlh")
	if r := user.post("/screens/"+id[1], form); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "Choose one of the languages listed.") {
		t.Errorf("a language Washboard does not speak = %d; want 400 saying so", r.StatusCode)
	}
}

// A new screen's form chooses the language of whoever makes it.
func TestNewScreenSpeaksItsMakersLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	page := user.get("/screens", "Accept-Language", "es-ES,es;q=0.9")
	doc := page.doc(t)
	if got := doc.Find("#screen-language option[selected]").AttrOr("value", ""); got != "es" {
		t.Errorf("the form of a new screen chooses %q for a Spanish speaker; want es", got)
	}
	if got := strings.TrimSpace(doc.Find("h1").Text()); got != "Pantallas" {
		t.Errorf("the Screens page in Spanish is headed %q", got)
	}
}

// A portfolio screen speaks its language too.
func TestPortfolioScreenSpeaksTheLanguageChosenWithIt(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	token := owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"12"}, "language": {"es"}})
	tv := a.browser()
	tv.get("/s/" + token)
	doc := tv.get("/screen", "Accept-Language", "fr").doc(t)
	if got := doc.Find("html").AttrOr("lang", ""); got != "es" {
		t.Errorf("a Spanish portfolio screen says <html lang=%q>", got)
	}
	if got := strings.TrimSpace(doc.Find(".screen-count-alerts .screen-count-label").First().Text()); got != "Alertas abiertas" {
		t.Errorf("its open alerts are labelled %q; want Alertas abiertas", got)
	}
	if got := strings.TrimSpace(owner.get("/portfolio/screens").doc(t).Find(".screens-table td[data-label='Language']").First().Text()); got != "Español" {
		t.Errorf("the portfolio's list says the screen's language is %q", got)
	}
}

// The portfolio's pages and their refusals speak the person's language:
// a bad filter, a screen still linked that is not removed.
func TestPortfolioSpeaksThePersonsLanguage(t *testing.T) {
	t.Parallel()
	_, owner, _ := portfolioApp(t)
	if r := owner.get("/portfolio?state=bogus", "Accept-Language", "fr"); r.StatusCode != http.StatusBadRequest ||
		!strings.Contains(r.body, "Le paramètre state doit valoir action, offline, attention ou ok, pas «\u00a0bogus\u00a0».") {
		t.Errorf("a bad state in French = %d\n%s", r.StatusCode, r.body)
	}
	page := owner.get("/portfolio", "Accept-Language", "de").doc(t)
	if got := strings.TrimSpace(page.Find(".portfolio-table th").First().Text()); got != "Kunde" {
		t.Errorf("the portfolio's first column in German is %q", got)
	}
	owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"12"}})
	list := owner.get("/portfolio/screens?lang=es") // the person chooses Spanish
	id := portfolioScreenID.FindStringSubmatch(list.body)
	r := owner.formOf("/portfolio/screens", "/portfolio/screens/"+id[1]+"/remove", url.Values{})
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Esta pantalla sigue vinculada") {
		t.Errorf("removing a linked screen in Spanish = %d\n%s", r.StatusCode, r.body)
	}
}
