package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	. "washboard/views"
)

// The pages of people, their ways in, their accounts and organisation,
// each in every state it can show, for the tests of the converted pages
// (i18n_test.go).
func init() {
	convertedParts["people"] = peoplePages
	pageDataParts = append(pageDataParts, `Sid Staff|sid@example\.com|North Tower|North|Annex|Vale Cleaning|Acme Group|`+
		`Tablet, room 2|the mail server said no\.|the service's own words|`+
		`the link's own words|rcv_1|\d+ Nov 2026`)
}

func peoplePages() map[string]templ.Component {
	at := time.Date(2026, 11, 7, 14, 5, 0, 0, time.UTC)
	page := Page{Title: "T", Nav: "people", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123",
		Version: "v1.2.3", Zone: time.UTC, PersonName: "Ana Lima", Role: domain.Owner, SwitchAccounts: true,
		Portfolio: true, NotificationsLink: true}
	out := Page{Title: "T", CSRFToken: "csrf-123", Version: "v1.2.3", Zone: time.UTC}
	roles := domain.Roles()
	qr := QRCode{Size: 21, Path: "M0 0h1v1h-1z"}

	people := PeoplePage{Page: page, Error: "Ana Lima's own error", NewLink: "https://washboard.example.com/invitations/t", NewLinkQR: qr,
		Mailed: "sid@example.com", MailError: "the mail server said no.", Grantable: roles,
		Members: []PersonRow{{ID: "p1", Name: "Ana Lima", Email: "ana@example.com", Role: domain.Owner, LastSeen: at, Self: true},
			{ID: "p2", Name: "Sid Staff", Role: domain.Staff, Buildings: []string{"North Tower", "Annex"}},
			{ID: "p3", Name: "Ben Okafor", Role: domain.Supervisor, Buildings: []string{"North Tower"}, LastSeen: at}},
		Invitations: []InvitationRow{{ID: "i1", To: "sid@example.com", Role: domain.Staff, Buildings: []string{"Annex"}, MadeBy: "Ana Lima", Expires: at},
			{ID: "i2", Role: domain.Viewer, MadeBy: "Ana Lima", Expires: at}},
		Buildings: []BuildingChoice{{ID: "b1", Name: "North Tower", Checked: true}, {ID: "b2", Name: "Annex"}},
		Invite:    InviteForm{Email: "sid@example.com", Role: domain.Staff, Error: "Ana Lima's own error"}}
	quietPeople := PeoplePage{Page: page, Grantable: roles[:2], Members: people.Members[:1]}

	invitation := InvitationPage{Page: out, Account: "Acme Facilities", Role: domain.Supervisor, Buildings: []string{"North Tower", "Annex"},
		MadeBy: "Ana Lima", Expires: at, Token: "t", Name: "Sid Staff", NameError: "Ana Lima's own error"}
	signedIn := invitation
	signedIn.Page, signedIn.SignedInAs, signedIn.Buildings, signedIn.NameError = page, "Ana Lima", nil, ""

	accounts := AccountsPage{Page: page, Portfolio: true, Accounts: []AccountChoice{{ID: "a", Name: "Acme Facilities", Role: domain.Owner, Current: true},
		{ID: "b", Name: "Borealis", Role: domain.Staff, ByOrganisation: true}}}
	plainAccounts := AccountsPage{Page: page, Accounts: accounts.Accounts[:1]}

	audit := AuditPage{Page: page, People: []PersonRow{{ID: "p1", Name: "Ana Lima"}}, Actions: domain.AuditActions(),
		Filter:  AuditFilter{Person: "p1", Action: string(domain.AuditPersonInvited), From: "2026-11-01", To: "2026-11-07"},
		CSVHref: "/audit.csv?person=p1", NextHref: "/audit?after=x"}
	for _, a := range domain.AuditActions() {
		audit.Entries = append(audit.Entries, AuditRow{At: at, Who: "Ana Lima", Action: a, Subject: "rcv_1"})
	}

	settings := AccountSettingsPage{Page: page, Error: "the service's own words"}
	confirm := AccountSettingsPage{Page: page, Confirming: true, ConfirmWith: "acct", Error: "the service's own words",
		Summary: domain.AccountSummary{People: 3, Invitations: 1, Screens: 2, Webhooks: 1, Devices: 41000, Locations: 12, Alerts: 1234,
			Claims: 5, Enrolled: 2, AuditEntries: 77, Notifications: true}}
	empty := AccountSettingsPage{Page: page, Confirming: true, ConfirmWith: "acct"}

	devices := EnrolledDevicesPage{Page: page, Error: "Ana Lima's own error", NewLink: "https://washboard.example.com/enrol/t", NewLinkQR: qr, NewFor: "Sid Staff",
		Devices: []EnrolledDeviceRow{{ID: "d1", Name: "Tablet, room 2", Person: "Sid Staff", MadeBy: "Ana Lima", Created: at, LastSeen: at},
			{ID: "d2", Name: "Old phone", Person: "Sid Staff", MadeBy: "Ana Lima", Created: at, Revoked: at},
			{ID: "d3", Name: "New phone", Person: "Sid Staff", MadeBy: "Ana Lima", Created: at}},
		People: []PersonChoice{{ID: "p2", Name: "Sid Staff", Selected: true}}, Form: EnrolForm{Name: "Tablet, room 2", Error: "Ana Lima's own error"}}

	org := OrganisationPage{Page: page, Error: "Ana Lima's own error", Name: "Acme Group", Role: domain.Owner, MayManage: true, MayAddCurrent: true,
		CurrentAccount: "Borealis", Hidden: 2, Grantable: roles,
		Accounts: []OrganisationAccountRow{{ID: "a", Name: "Acme Facilities", Client: "Vale Cleaning", Region: "North"}, {ID: "b", Name: "Borealis"}},
		People: []OrganisationPersonRow{{ID: "p1", Name: "Ana Lima", Email: "ana@example.com", Role: domain.Owner, Accounts: "Acme Facilities, Borealis", Self: true},
			{ID: "p2", Name: "Sid Staff", Role: domain.Staff, Accounts: "Acme Facilities, Borealis"}}}
	orgViewer := org
	orgViewer.Role, orgViewer.MayManage, orgViewer.MayAddCurrent, orgViewer.Hidden, orgViewer.Error = domain.Viewer, false, false, 1, ""

	passkeyRefused := PersonPage{Page: page, Name: "Ana Lima", Passkeys: Passkeys{Offered: true, Error: "the service's own words",
		Keys: []PasskeyRow{{ID: "k1", Name: "Work phone", Created: at}}}}

	return map[string]templ.Component{
		"me-passkey-refused":        PersonView(passkeyRefused),
		"people":                    PeopleView(people),
		"people-quiet":              PeopleView(quietPeople),
		"invitation":                Invitation(invitation),
		"invitation-signed-in":      Invitation(signedIn),
		"invitation-problem":        Invitation(InvitationPage{Page: out, Problem: "the link's own words"}),
		"accounts":                  AccountsSwitcher(accounts),
		"accounts-plain":            AccountsSwitcher(plainAccounts),
		"audit":                     AuditLog(audit),
		"audit-empty":               AuditLog(AuditPage{Page: page, CSVHref: "/audit.csv?"}),
		"account":                   AccountSettings(settings),
		"account-confirm":           AccountSettings(confirm),
		"account-confirm-nothing":   AccountSettings(empty),
		"devices":                   EnrolledDevicesView(devices),
		"devices-none":              EnrolledDevicesView(EnrolledDevicesPage{Page: page}),
		"enrolment":                 Enrolment(EnrolmentPage{Page: out, Token: "t"}),
		"enrolment-problem":         Enrolment(EnrolmentPage{Page: out, Problem: "the link's own words"}),
		"signin-email":              EmailSignInPage(EmailSignIn{Page: out, Email: "ana@example.com", Error: "the service's own words"}),
		"signin-email-sent":         EmailSignInPage(EmailSignIn{Page: out, Sent: true}),
		"signin-email-unavailable":  EmailSignInPage(EmailSignIn{Page: out, Unavailable: "the service's own words"}),
		"signin-link":               SignInLinkPage(SignInLink{Page: out, Token: "t"}),
		"signin-link-problem":       SignInLinkPage(SignInLink{Page: out, Problem: "the link's own words"}),
		"organisation":              OrganisationView(org),
		"organisation-viewer":       OrganisationView(orgViewer),
		"organisation-none":         OrganisationView(OrganisationPage{Page: page, MayCreate: true, CurrentAccount: "Acme Facilities"}),
		"organisation-none-no-make": OrganisationView(OrganisationPage{Page: page, CurrentAccount: "Acme Facilities"}),
	}
}

// TestPeoplePagesSpeakTheirLanguage: the pages of people, invitations,
// devices, sign-in by e-mail, accounts, the audit log and the
// organisation show their words in German, Spanish and French.
func TestPeoplePagesSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := peoplePages()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"de", "people", ".people-table caption", "Personen dieses Kontos"},
		{"de", "people", ".people-table td[data-label='Rolle']", "Inhaber"},
		{"es", "people", ".people-table tbody tr:nth-child(2) td[data-label='Rol']", "personal, en North Tower y Annex"},
		{"fr", "people", ".people-table td[data-label='Dernière visite']", "07/11/2026 14:05"},
		{"fr", "people", ".invitation-list li:nth-child(2)", "Un lien en tant que lecteur, par Ana Lima, jusqu'au 07/11/2026 14:05"},
		{"de", "people", "#invite-heading", "Jemanden einladen"},
		{"es", "people", ".new-invitation .message-title", "Se creó la invitación."},
		{"de", "invitation", "#invitation-heading", "Acme Facilities beitreten"},
		{"fr", "invitation", ".invitation p", "Ana Lima vous invite au compte Acme Facilities sur Washboard en tant que superviseur, dans North Tower et Annex."},
		{"es", "invitation-problem", "#invitation-heading", "Esta invitación no se puede usar"},
		{"de", "accounts", "#accounts-heading", "Ihre Konten"},
		{"fr", "accounts", ".account-list button", "Passer à Borealis"},
		{"es", "accounts", "#connect-heading", "Conectar otra cuenta"},
		{"de", "audit", ".audit-table tbody tr:nth-child(4) td[data-label='Aktion']", "Person eingeladen"},
		{"fr", "audit", "#audit-action option[selected]", "Personne invitée"},
		{"es", "audit-empty", "#audit-heading + p + form + p + p", "Ninguna entrada coincide."},
		{"de", "account-confirm", "strong", "3 Personen, 1 offene Einladung, 2 eingerichtete Geräte, 2 Bildschirme, 1 Webhook, seine Benachrichtigungskanäle und -regeln, 12 Standorte, 41.000 Spender, 1.234 Alarmeinträge, 5 Übernahmen, 77 Protokolleinträge"},
		{"fr", "account-confirm-nothing", "strong", "rien"},
		{"es", "account", "#credentials-heading", "Sustituir las credenciales del servicio"},
		{"de", "devices", ".enrolled-devices caption", "Eingerichtete Geräte"},
		{"fr", "devices", ".enrolled-devices .revoked", "révoqué le 07/11/2026 14:05"},
		{"es", "devices", ".enrolled-devices tbody tr:nth-child(3) td[data-label='Último inicio de sesión']", "aún no abierto"},
		{"de", "devices-none", "#enrol-heading + p", "Es gibt niemanden, für den Sie ein Gerät einrichten dürfen: nur für Personen, deren Rolle und Gebäude innerhalb Ihrer liegen."},
		{"fr", "enrolment", "#enrolment-heading", "Connecter cet appareil"},
		{"de", "signin-email", "#email-sign-in-heading", "Mit einem Link per E-Mail anmelden"},
		{"es", "signin-email", "form .button-primary", "Enviarme un enlace"},
		{"fr", "signin-email-sent", ".message-title", "Consultez vos e-mails."},
		{"de", "signin-link", "form .button-primary", "Anmelden"},
		{"de", "organisation", ".organisation-accounts caption", "Konten der Organisation, die Sie sehen"},
		{"fr", "organisation", ".note", "2 autres comptes de l'organisation sont hors de votre rôle."},
		{"fr", "organisation-viewer", ".note", "1 autre compte de l'organisation est hors de votre rôle."},
		{"es", "organisation", ".organisation-people .self + button, .organisation-people button", "Dejar la organización"},
		{"de", "organisation-none", "#organisation-heading", "Organisation"},
		{"es", "organisation-none", "form .button-primary", "Crear la organización"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		if got, _ := doc.Find("html").Attr("lang"); got != tc.lang {
			t.Errorf("%s in %s: <html lang=%q>", tc.page, tc.lang, got)
		}
		got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " ")
		if !strings.Contains(got, strings.Join(strings.Fields(tc.want), " ")) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// TestPeoplePagesDifferFromEnglish: in every language but English, the
// pages of people show none of their English headings, buttons or
// labels.
func TestPeoplePagesDifferFromEnglish(t *testing.T) {
	t.Parallel()
	english := []string{"Open invitations", "Invite someone", "Change role", "This invitation cannot be used", "Accept and sign in",
		"Your accounts", "Connect another account", "Audit log", "Every action", "Replace the service's credentials",
		"Disconnect the account", "Enrolled devices", "Enrol a device", "Sign in this device", "Sign in with a link by e-mail",
		"E-mail me a link", "Check your mail", "Other ways to sign in", "Make the organisation", "Give the role",
		"Leave the organisation", "Person invited", "not opened yet", " people", "every building"}
	for _, l := range i18n.Languages[1:] {
		for name, c := range peoplePages() {
			doc := renderIn(t, i18n.For(l.Code), c)
			doc.Find(strings.Join(notYetConverted, ", ")).Remove()
			text := doc.Find("body").Text()
			for _, en := range english {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}

// TestPasskeyScriptWordsComeFromTheCatalogs: the words static/js/passkeys.js
// says are rendered with the page, in its language.
func TestPasskeyScriptWordsComeFromTheCatalogs(t *testing.T) {
	t.Parallel()
	for lang, want := range map[string]string{"en": "The passkey was added.", "de": "Der Passkey wurde hinzugefügt.",
		"es": "Se añadió la llave de acceso.", "fr": "La clé d'accès a été ajoutée."} {
		doc := renderIn(t, i18n.For(lang), PersonView(PersonPage{Page: Page{Title: "T", SignedIn: true, Zone: time.UTC}, Passkeys: Passkeys{Offered: true}}))
		words := doc.Find("script#passkey-words").Text()
		if !strings.Contains(words, `"added":"`+want+`"`) {
			t.Errorf("in %s, the passkey script's words are %s; want %q as added", lang, words, want)
		}
	}
	doc := renderIn(t, i18n.For("de"), SignInPage(SignIn{Page: Page{Title: "T"}, Passkeys: true}))
	if words := doc.Find("script#passkey-words").Text(); !strings.Contains(words, "Angemeldet.") {
		t.Errorf("the sign-in page's passkey words are %s; want German", words)
	}
}

// TestListsJoinAsTheLanguageDoes: the buildings a role is limited to are
// joined with the language's "and", after the role.
func TestListsJoinAsTheLanguageDoes(t *testing.T) {
	t.Parallel()
	people := PeoplePage{Page: Page{Title: "T", Nav: "people", SignedIn: true, Role: domain.Admin},
		Members: []PersonRow{{ID: "p2", Name: "Sid Staff", Role: domain.Staff, Buildings: []string{"A", "B", "C"}}}}
	for lang, want := range map[string]string{"en": "staff, in A, B and C", "de": "Personal, in A, B und C", "es": "personal, en A, B y C",
		"fr": "personnel, dans A, B et C"} {
		doc := renderIn(t, i18n.For(lang), PeopleView(people))
		if got := doc.Find(".people-table tbody tr td").Eq(1).Text(); got != want {
			t.Errorf("in %s: %q; want %q", lang, got, want)
		}
	}
}
