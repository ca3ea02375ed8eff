package views_test

import (
	"bytes"
	"context"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"golang.org/x/net/html"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	. "washboard/views"
)

// renderIn renders a component as the web layer does, with the
// localizer of the request in the context.
func renderIn(t *testing.T, loc *i18n.Localizer, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(i18n.WithLocalizer(context.Background(), loc), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// convertedParts are the pages whose words all come from the catalogs,
// by part of Washboard: each part's test file adds its pages in an init,
// with everything each may show, and the words of their data (names,
// addresses) to pageDataParts.
var (
	convertedParts = map[string]func() map[string]templ.Component{"common": commonPages}
	pageDataParts  = []string{`Washboard|v1\.2\.3|Acme Facilities|Borealis|Ana Lima's own error|Ana Lima|ana@example\.com|` +
		`the service said no|Okta|Work phone|Laptop|Trolley phone|Old phone|New phone|Ben Okafor|Out of product|e-42|` +
		`Deutsch|English|Español|Français|\d+ Nov 2026 14:05`}
)

// convertedPages are the pages of every part, by a name unique among
// them.
func convertedPages() map[string]templ.Component {
	out := map[string]templ.Component{}
	for part, pages := range convertedParts {
		for name, c := range pages() {
			if _, dup := out[name]; dup {
				panic("two parts name a converted page " + name + ": " + part)
			}
			out[name] = c
		}
	}
	return out
}

// pageData are the words of the pages' data, which are no words of
// Washboard's.
// The alternatives of every part are tried longest first, so that one
// part's "Level 3" leaves nothing of another's "Level 3 service room".
func pageData() *regexp.Regexp {
	var alts []string
	for _, p := range pageDataParts {
		alts = append(alts, alternatives(p)...)
	}
	sort.SliceStable(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	return regexp.MustCompile(strings.Join(alts, "|"))
}

// alternatives splits a regular expression at its top-level "|".
func alternatives(re string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(re); i++ {
		switch re[i] {
		case '\\':
			i++
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, re[start:i])
				start = i + 1
			}
		}
	}
	return append(out, re[start:])
}

// commonPages are the pages every part shares: signing in, the person's
// own page, errors.
func commonPages() map[string]templ.Component {
	page := Page{Title: "T", Nav: "me", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123",
		Version: "v1.2.3", Zone: time.UTC, PersonName: "Ana Lima", Role: domain.Owner, SwitchAccounts: true,
		Portfolio: true, NotificationsLink: true}
	out := Page{Title: "T", CSRFToken: "csrf-123", Version: "v1.2.3"}
	at := time.Date(2026, 11, 7, 14, 5, 0, 0, time.UTC)
	me := PersonPage{
		Page: page, Name: "Ana Lima", Email: "ana@example.com", Language: "de", Error: "Ana Lima's own error",
		Accounts: []AccountChoice{{ID: "a", Name: "Acme Facilities", Role: domain.Owner, Current: true}, {ID: "b", Name: "Borealis", Role: domain.Staff}},
		Passkeys: Passkeys{Offered: true, Welcome: "Acme Facilities", Keys: []PasskeyRow{{ID: "k1", Name: "Work phone", Created: at, LastUsed: at}, {ID: "k2", Name: "Laptop", Created: at}}},
		Devices: []EnrolledDeviceRow{{ID: "d1", Name: "Trolley phone", MadeBy: "Ben Okafor", LastSeen: at},
			{ID: "d2", Name: "Old phone", MadeBy: "Ben Okafor", Revoked: at}, {ID: "d3", Name: "New phone", MadeBy: "Ben Okafor"}},
		Notifications: PersonNotifications{Email: "ana@example.com", MayChange: true, Others: 2,
			Rules: []RuleRow{{Name: "Out of product", When: "Alert opened", AlertTypes: "Product out", Where: "North Tower", Channels: "desk"}}},
	}
	quiet := me
	quiet.Passkeys, quiet.Devices = Passkeys{}, nil
	quiet.Page.Role = domain.Viewer
	quiet.Notifications = PersonNotifications{Email: "", MayChange: false}
	few := me
	few.Notifications = PersonNotifications{Email: "ana@example.com", Others: 1}
	off := me
	off.Notifications = PersonNotifications{Off: true}
	return map[string]templ.Component{
		"sign-in": SignInPage(SignIn{Page: out, Error: "the service said no", Kind: "rejected", Demo: true, Next: "/",
			SingleSignOn: "Okta", Email: true, Passkeys: true}),
		"sign-in-plain":  SignInPage(SignIn{Page: out}),
		"me":             PersonView(me),
		"me-quiet":       PersonView(quiet),
		"me-few-rules":   PersonView(few),
		"me-no-notifier": PersonView(off),
		"error-500":      ErrorView(ErrorPage{Page: page, Status: 500, Message: "⟦the handler's words⟧", ErrorID: "e-42"}),
		"error-404":      ErrorView(ErrorPage{Page: out, Status: 404}),
		"error-fragment": ErrorFragment(ErrorPage{Status: 403}),
	}
}

// notYetConverted are the parts of the converted pages that are still
// English-only (docs/contributing.md lists them), as selectors. A part
// whose page shows another's component not yet converted adds its
// selector here in its init.
var notYetConverted = []string{"script"}

// TestConvertedPagesTakeEveryWordFromTheCatalogs: rendered with a
// localizer that marks every message, the converted pages show no word
// outside the marks but their data: no text, no label, no title, no
// placeholder that a translation would miss.
func TestConvertedPagesTakeEveryWordFromTheCatalogs(t *testing.T) {
	t.Parallel()
	marks := regexp.MustCompile(`⟦[^⟦⟧]*⟧`)
	letters := regexp.MustCompile(`\pL{2,}`)
	data := pageData()
	for name, c := range convertedPages() {
		doc := renderIn(t, i18n.Marked(), c)
		doc.Find(strings.Join(notYetConverted, ", ")).Remove()
		var found []string
		check := func(where, s string) {
			for marks.MatchString(s) {
				s = marks.ReplaceAllString(s, "") // a message within a message, too
			}
			s = data.ReplaceAllString(s, "")
			if w := letters.FindString(s); w != "" {
				found = append(found, where+": "+strings.Join(strings.Fields(s), " "))
			}
		}
		for _, n := range doc.Find("html").Nodes {
			walk(n, func(n *html.Node) {
				switch n.Type {
				case html.TextNode:
					if n.Parent != nil && n.Parent.Data != "title" {
						check("text", n.Data)
					}
				case html.ElementNode:
					for _, a := range n.Attr {
						switch a.Key {
						case "title", "aria-label", "placeholder", "alt", "data-label":
							check(a.Key, a.Val)
						}
					}
				}
			})
		}
		for _, f := range found {
			t.Errorf("%s shows words that are not from the catalogs: %s", name, f)
		}
	}
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

// TestConvertedPagesSpeakTheirLanguage: each converted page, in each
// language, says <html lang> in it and shows that language's words.
func TestConvertedPagesSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := convertedPages()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"en", "sign-in", "form[action='/signin'] .button-primary", "Sign in"},
		{"de", "sign-in", "form[action='/signin'] .button-primary", "Anmelden"},
		{"es", "sign-in", "form[action='/signin'] .button-primary", "Iniciar sesión"},
		{"fr", "sign-in", "form[action='/signin'] .button-primary", "Se connecter"},
		{"de", "sign-in", ".message-title", "Der Device Monitoring Service hat diese Zugangsdaten abgelehnt."},
		{"de", "me", ".skip-link", "Zum Inhalt springen"},
		{"es", "me", ".site-nav a[href='/alerts']", "Alertas"},
		{"fr", "me", ".sign-out button span", "Se déconnecter"},
		{"de", "me", ".person-name", "Ana Lima (Inhaber)"},
		{"de", "me", "#me-language option[selected]", "Deutsch"},
		{"fr", "me", "#me-language-heading", "Langue"},
		{"de", "me", ".passkey-table td[data-label='Hinzugefügt']", "07.11.2026, 14:05"},
		{"fr", "me", ".passkey-table td[data-label='Ajoutée']", "07/11/2026 14:05"},
		{"en", "me", ".passkey-table td[data-label='Added']", "7 Nov 2026 14:05"},
		{"es", "me-few-rules", ".me-notifications", "1 regla de esta cuenta envía a ana@example.com sobre toda la cuenta o edificios fuera de los suyos: no aparece aquí."},
		{"de", "me", ".me-notifications", "2 weitere Regeln senden dorthin, zum ganzen Konto oder zu Gebäuden außerhalb Ihrer; sie werden hier nicht aufgeführt."},
		{"fr", "error-404", "#error-heading", "Introuvable"},
		{"es", "error-500", ".error-status", "Error 500"},
		{"de", "error-fragment", ".message-title", "Nicht erlaubt (Fehler 403)"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		if got, _ := doc.Find("html").Attr("lang"); got != tc.lang && tc.page != "error-fragment" {
			t.Errorf("%s in %s: <html lang=%q>", tc.page, tc.lang, got)
		}
		if got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " "); got != tc.want && !strings.Contains(got, " "+tc.want) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// TestTranslationsDifferFromEnglish: in every language but English, a
// converted page shows no message in its English words, except those a
// language writes as English does (Portfolio, Webhooks, Name).
func TestTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range convertedPages() {
			doc := renderIn(t, i18n.For(l.Code), c)
			doc.Find(strings.Join(notYetConverted, ", ")).Remove()
			text := doc.Find("body").Text()
			for _, en := range []string{"Skip to content", "Sign in", "Sign out", "Your accounts", "Alerts you are on",
				"Notifications for you", "Back to the overview", "Passkeys you", "Devices enrolled", "Language of Washboard"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
