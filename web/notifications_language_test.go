package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A channel's language is chosen on its form, the creator's by default,
// kept with the channel and shown in the list; one Washboard does not
// speak is refused under its field, in the page's language.
func TestChannelFormKeepsTheChannelsLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	hook := newHookReceiver(t, http.StatusOK)

	doc := b.get("/notifications?lang=de").doc(t)
	if got := doc.Find("#channel-language option[selected]").AttrOr("value", ""); got != "de" {
		t.Errorf("the form offers the language %q first; want the creator's, de", got)
	}
	if got := doc.Find("h1").Text(); got != "Benachrichtigungen" {
		t.Errorf("the page in German is headed %q", got)
	}

	form := webhookChannel("Salle", hook.URL+"/hook")
	form.Set("language", "fr")
	if r := b.addChannel(form); r.StatusCode != http.StatusSeeOther && r.StatusCode != http.StatusOK {
		t.Fatalf("adding a French channel = %d", r.StatusCode)
	}
	doc = b.get("/notifications").doc(t)
	if got := strings.TrimSpace(doc.Find(".channels-table td.channel-language").First().Text()); got != "Français" {
		t.Errorf("the list says the channel speaks %q; want Français", got)
	}
	set, err := a.notifier.Settings(context.Background(), acc.ID)
	if err != nil || len(set.Page.Channels) != 1 || set.Page.Channels[0].Language != "fr" {
		t.Errorf("the channel kept: %+v, %v; want it in French", set.Page.Channels, err)
	}

	// A test goes out in the channel's language, and the page, in German,
	// says what became of it in German.
	r := b.postHX("/notifications/channels/Salle/test", url.Values{"csrf_token": {b.pageCSRF("/notifications")}})
	if r.StatusCode != http.StatusOK || !strings.Contains(r.body, "hat die JSON-Testnachricht angenommen") {
		t.Errorf("a test from the German page = %d: %s", r.StatusCode, r.body)
	}
	if got := hook.received(); len(got) != 1 || !strings.Contains(got[0], `"title":"Notification de test de Washboard"`) {
		t.Errorf("the French channel's receiver got %q", got)
	}

	form = webhookChannel("Unknown", hook.URL+"/hook")
	form.Set("language", "xx")
	r = b.addChannel(form)
	if got := r.doc(t).Find("main [role=alert]").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, "Sprache: Wählen Sie English, Deutsch, Español oder Français.") {
		t.Errorf("a language Washboard does not speak = %d: %q; want it refused under the field, in German", r.StatusCode, got)
	}
	if _, ok := r.doc(t).Find("#channel-language").Attr("aria-invalid"); !ok {
		t.Errorf("the language field is not marked invalid")
	}
}
