package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"washboard/internal/domain"
)

// A form's problem, in the words web/form gives it, is said in the page's
// language, after the field's label in that language.
func TestFormProblemsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)

	b.get("/me?lang=de")
	r := b.post("/me", url.Values{"csrf_token": {b.pageCSRF("/me")}, "name": {"Maria"}, "email": {strings.Repeat("x", 255)}})
	if got := r.doc(t).Find("main").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, "E-Mail-Adresse: höchstens 254 Zeichen.") {
		t.Errorf("an address too long, in German = %d: %q", r.StatusCode, got)
	}

	b.get("/notifications?lang=fr")
	r = b.addRule(url.Values{"name": {"Nuit"}, "when": {"alert.opened"}, "quiet_from": {"22:00"}})
	want := "Heures calmes\u00a0: indiquez un début et une fin, par exemple de 22:00 à 06:00, ou aucun des deux."
	if got := r.doc(t).Find("main [role=alert]").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
		t.Errorf("half of the quiet hours, in French = %d: %q; want %q", r.StatusCode, got, want)
	}
}

// What the rules' checks refuse on /notifications is said in the page's
// language, after the field's label.
func TestRuleProblemsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)

	b.get("/notifications?lang=de")
	r := b.addRule(url.Values{"name": {"Nacht"}, "when": {"alert.opened"}})
	want := `Kanäle: nennt keinen Kanal in "channels"; nennen Sie 1 bis 10 Kanäle des Kontos.`
	if got := r.doc(t).Find("main [role=alert]").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
		t.Errorf("a rule without a channel, in German = %d: %q; want %q", r.StatusCode, got, want)
	}

	r = b.addChannel(webhookChannel("Empfang", "ftp://example.com/hook"))
	want = `"url" ist keine absolute http- oder https-URL wie https://hooks.example.com/washboard.`
	if got := r.doc(t).Find("main [role=alert]").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
		t.Errorf("a webhook's address that is not one, in German = %d: %q; want %q", r.StatusCode, got, want)
	}

	hook := newHookReceiver(t, http.StatusOK)
	b.get("/notifications?lang=es")
	if r := b.addChannel(webhookChannel("Sala", hook.URL+"/hook")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a channel = %d", r.StatusCode)
	}
	r = b.addChannel(webhookChannel("Sala", hook.URL+"/hook"))
	want = `también se llama "Sala"; los canales de una cuenta deben tener nombres distintos`
	if got := r.doc(t).Find("main [role=alert]").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
		t.Errorf("a channel's name twice, in Spanish = %d: %q; want %q", r.StatusCode, got, want)
	}
}

// The service level form's refusals, on the account's page and a
// building's, are said in the page's language.
func TestServiceLevelProblemsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)

	b.get("/service-levels?lang=de")
	token := b.pageCSRF("/service-levels")
	for _, c := range []struct{ week, zone, field, want string }{
		{"Mon-Fri 06:00-22:00", "Mars/Olympus", "zone", `"Mars/Olympus" ist keine Zeitzone: Geben Sie einen IANA-Namen an`},
		{"Mon closed; Mon 08:00-12:00", "UTC", "week", "Montag ist zugleich geschlossen und 08:00-12:00 geöffnet"},
	} {
		r := b.post("/service-levels", serviceLevelForm(token, c.week, "", c.zone, "15", "60"))
		if got := r.doc(t).Find("#sl-" + c.field + "-problem").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, c.want) {
			t.Errorf("%+v, in German = %d: %q", c, r.StatusCode, got)
		}
	}

	building := "/service-levels/buildings/" + url.PathEscape(a.world.Accounts()[0].Buildings[0].ID)
	b.get(building + "?lang=fr")
	r := b.post(building, serviceLevelForm(b.pageCSRF(building), "Mon-Fri 06:00-22:00", "", "UTC", "soon", ""))
	want := "délai de prise en charge\u00a0: \"soon\" n’est pas un délai : écrivez des minutes"
	want = strings.ReplaceAll(want, " : écrivez", "\u00a0: écrivez")
	if got := r.doc(t).Find("#sl-claim_jam_fault-problem").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
		t.Errorf("a building's time to claim, in French = %d: %q; want %q", r.StatusCode, got, want)
	}
}

// A text the rules of people refuse, such as a name with a line break in
// it, is said in the page's language, after the field's label.
func TestPeopleProblemsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	for lang, want := range map[string]string{
		"de": "Name: ohne Zeilenumbrüche oder andere Steuerzeichen schreiben.",
		"fr": "Nom\u00a0: écrivez-le sans saut de ligne ni autre caractère de contrôle.",
	} {
		b.get("/me?lang=" + lang)
		r := b.post("/me", url.Values{"csrf_token": {b.pageCSRF("/me")}, "name": {"Ana\nPereira"}})
		if got := r.doc(t).Find("main").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, want) {
			t.Errorf("a name with a line break, in %s = %d; want %q", lang, r.StatusCode, want)
		}
	}
}

// Whom a supervisor may not put on an alert is said in the page's
// language.
func TestClaimProblemsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.browserAs(domain.Viewer, "Vera")
	vera := a.members(a.accountOf(false))["Vera"].PersonID
	claimPath := "/alerts/" + a.anOpenAlert().ID + "/claim"
	for _, c := range []struct{ lang, person, want string }{
		{"es", "", "Elija quién se encarga, de la lista de personas de la cuenta."},
		{"de", vera, "Vera ist Betrachter, und Betrachter übernehmen keine Meldungen"},
	} {
		b.get(claimPath + "?lang=" + c.lang)
		r := b.post(claimPath, url.Values{"csrf_token": {b.pageCSRF(claimPath)}, "person": {c.person}})
		if got := r.doc(t).Find("main").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, c.want) {
			t.Errorf("%+v = %d: %q", c, r.StatusCode, got)
		}
	}
}
