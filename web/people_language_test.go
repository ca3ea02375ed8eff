package web

import (
	"context"
	"maps"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/people"
)

// letterSubject is a letter's subject, decoded.
func letterSubject(t *testing.T, raw []byte) string {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	return subject
}

// TestSignInLetterSpeaksThePersonsLanguage: the letter with a sign-in
// link is in the language its person chose, whatever the language of the
// browser that asked for it; for a person who chose none, in the
// language of that browser.
func TestSignInLetterSpeaksThePersonsLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ms := a.withMail()
	a.browser().signIn(credA)
	owner := a.ownerWithEmail("ana@example.com")
	if err := a.people.SetLanguage(context.Background(), owner.PersonID, "de"); err != nil {
		t.Fatal(err)
	}

	english := a.browser() // asks for nothing: English
	if r := english.askForLink("ana@example.com"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, linkOnItsWay) {
		t.Fatalf("asking for a link = %d; want 200 in English\n%s", r.StatusCode, r.body)
	}
	got := a.lettersSent(ms)
	if len(got) != 1 {
		t.Fatalf("%d letters sent; want 1", len(got))
	}
	if subject := letterSubject(t, got[0].Data); subject != "Ihr Anmeldelink für Washboard" {
		t.Errorf("the letter's subject is %q; want German", subject)
	}
	text := letterText(t, got[0])
	for _, want := range []string{"Guten Tag " + owner.Name + ",", "öffnen Sie diesen Link, um sich bei Washboard anzumelden.", "Ohne den Link kann sich niemand anmelden."} {
		if !strings.Contains(text, want) {
			t.Errorf("the letter does not say %q:\n%s", want, text)
		}
	}

	if err := a.people.SetLanguage(context.Background(), owner.PersonID, ""); err != nil {
		t.Fatal(err)
	}
	french := a.browser()
	french.get("/signin/email?lang=fr")
	if r := french.askForLink("ana@example.com"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Consultez vos e-mails.") {
		t.Fatalf("asking for a link in French = %d; want 200 in French\n%s", r.StatusCode, r.body)
	}
	got = a.lettersSent(ms)
	if len(got) != 2 {
		t.Fatalf("%d letters sent; want 2", len(got))
	}
	if subject := letterSubject(t, got[1].Data); subject != "Votre lien de connexion à Washboard" {
		t.Errorf("the letter to a person of no language, asked for in French, has the subject %q; want French", subject)
	}
}

// TestInvitationLetterAndNoticesSpeakTheInvitersLanguage: an invitation
// made from the people page in Spanish is e-mailed in Spanish, and the
// page says what it did in Spanish.
func TestInvitationLetterAndNoticesSpeakTheInvitersLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ms := a.withMail()
	owner := a.browser()
	owner.signIn(credA)
	owner.get("/people?lang=es")
	r := owner.post("/people/invitations", url.Values{"csrf_token": {owner.formToken("/people")}, "email": {"sid@example.com"}, "role": {"staff"}})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("inviting = %d\n%s", r.StatusCode, r.body)
	}
	if got := strings.TrimSpace(r.doc(t).Find(".new-invitation .message-title").Text()); got != "Se creó la invitación." {
		t.Errorf("the page says %q; want Spanish", got)
	}
	got := ms.Received()
	if len(got) != 1 {
		t.Fatalf("%d letters sent; want 1", len(got))
	}
	if subject := letterSubject(t, got[0].Data); !strings.Contains(subject, " le invita a ") {
		t.Errorf("the invitation's subject is %q; want Spanish", subject)
	}
	if text := letterText(t, got[0]); !strings.Contains(text, "como personal.") || !strings.Contains(text, "Abra este enlace para aceptar") {
		t.Errorf("the invitation letter is not in Spanish:\n%s", text)
	}

	withdraw := owner.get("/people").doc(t).Find(".invitation-list form").AttrOr("action", "")
	r = owner.post(withdraw, url.Values{"csrf_token": {owner.formToken("/people")}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("withdrawing = %d\n%s", r.StatusCode, r.body)
	}
	if flash := strings.TrimSpace(owner.get("/people").doc(t).Find(".flash").Text()); flash != "Se retiró la invitación: su enlace ya no sirve." {
		t.Errorf("after withdrawing, the page says %q; want Spanish", flash)
	}
}

// TestPeopleRefusalsSpeakThePagesLanguage: what the rules of people
// refuse is said in the page's language: an admin removing an owner, in
// German; an invitation to an address that is not one, in French.
func TestPeopleRefusalsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	keyHolder := a.browser() // the owner
	keyHolder.signIn(credA)
	admin := a.browserAs(domain.Admin, "Ada Admin")
	admin.get("/people?lang=de")
	owner := a.owner(a.accountOf(false))
	r := admin.post("/people/"+owner.PersonID+"/remove", url.Values{"csrf_token": {admin.formToken("/people")}})
	if got := strings.TrimSpace(r.doc(t).Find("main .message-error").Text()); r.StatusCode != http.StatusForbidden ||
		got != "Nur ein Inhaber kann einen Inhaber ändern oder entfernen." {
		t.Errorf("an admin removing an owner = %d, saying %q; want 403 in German", r.StatusCode, got)
	}

	admin.get("/people?lang=fr")
	r = admin.post("/people/invitations", url.Values{"csrf_token": {admin.formToken("/people")}, "email": {"Sid <sid@example.com>"}, "role": {"staff"}})
	want := "\"Sid <sid@example.com>\" n'est pas une adresse e-mail\u00a0: écrivez-la comme nom@example.com, sans nom ni chevrons."
	if got := strings.TrimSpace(r.doc(t).Find("#invite-error").Text()); r.StatusCode != http.StatusUnprocessableEntity || got != want {
		t.Errorf("inviting an address that is not one = %d, saying %q; want 422 saying %q", r.StatusCode, got, want)
	}

	keyHolder.get("/organisation?lang=es")
	if r := keyHolder.post("/organisation", url.Values{"csrf_token": {keyHolder.formToken("/organisation")}, "name": {"Acme Group"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("making an organisation = %d\n%s", r.StatusCode, r.body)
	}
	r = keyHolder.post("/organisation/people", url.Values{"csrf_token": {keyHolder.formToken("/organisation")}, "email": {"nobody@example.com"}, "role": {"staff"}})
	want = "Nadie que inicie sesión aquí tiene la dirección nobody@example.com: invítele antes a una de las cuentas (Personas) y luego añádale aquí."
	if got := strings.TrimSpace(r.doc(t).Find("main .message-error").Text()); r.StatusCode != http.StatusUnprocessableEntity || got != want {
		t.Errorf("giving a role to an address nobody has = %d, saying %q; want 422 saying %q", r.StatusCode, got, want)
	}
}

// TestPeopleLimitsSpeakThePagesLanguage: an invitation past the most an
// account keeps open is refused in the page's language.
func TestPeopleLimitsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	owner := a.browser()
	owner.signIn(credA)
	for range people.MaxInvitations {
		a.invite(a.accountOf(false), domain.Viewer, "")
	}
	owner.get("/people?lang=de")
	r := owner.post("/people/invitations", url.Values{"csrf_token": {owner.formToken("/people")}, "role": {"staff"}})
	want := "Ein Konto hat höchstens 200 offene Einladungen, und dieses hat so viele."
	if got := strings.TrimSpace(r.doc(t).Find("#invite-error").Text()); r.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(got, want) {
		t.Errorf("one invitation more than the limit = %d, saying %q; want 422 saying %q", r.StatusCode, got, want)
	}
}

// TestBuildingRefusalsSpeakThePagesLanguage: an admin limited to a
// building who invites for every building is told, in French, to choose
// among theirs.
func TestBuildingRefusalsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	a.browser().signIn(credA)
	buildings := a.world.Accounts()[0].Buildings
	_, token, err := a.people.Invite(context.Background(), a.owner(a.accountOf(false)), people.Invite{Role: domain.Admin, Buildings: []string{buildings[0].ID}})
	if err != nil {
		t.Fatal(err)
	}
	admin := a.browser()
	if res := admin.accept(token, "Nora North"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("accepting: %d", res.StatusCode)
	}
	admin.get("/people?lang=fr")
	r := admin.post("/people/invitations", url.Values{"csrf_token": {admin.formToken("/people")}, "role": {"staff"}})
	want := "Votre rôle est limité à certains bâtiments\u00a0: choisissez parmi eux."
	if got := strings.TrimSpace(r.doc(t).Find("#invite-error").Text()); r.StatusCode != http.StatusUnprocessableEntity || got != want {
		t.Errorf("inviting for every building = %d, saying %q; want 422 saying %q", r.StatusCode, got, want)
	}
}

// TestCredentialProblemsSpeakThePagesLanguage: credentials that lack a
// field, or a field too long, are refused in the page's language.
func TestCredentialProblemsSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.get("/signin?lang=de")
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"api_key": {credA.APIKey}}, "Geben Sie den Authorization-Wert ein, oder Client-ID und Client-Secret."},
		{url.Values{"api_key": {credA.APIKey}, "authorization": {strings.Repeat("x", maxCredential+1)}},
			"Das Feld „Authorization-Wert“ ist länger als 8192 Zeichen: Prüfen Sie, ob nur der Wert für „Authorization-Wert“ eingefügt wurde."},
	} {
		tc.form.Set("csrf_token", b.csrf())
		r := b.post("/signin", tc.form)
		if got := strings.TrimSpace(r.doc(t).Find("main .message-error p:not(.message-title)").Text()); r.StatusCode != http.StatusBadRequest || got != tc.want {
			t.Errorf("signing in with %v = %d, saying %q; want 400 saying %q", slices.Collect(maps.Keys(tc.form)), r.StatusCode, got, tc.want)
		}
	}
}
