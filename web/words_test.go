package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A channel's test that fails says why in the page's language: what the
// receiver answered, in German; the host and status as they are.
func TestChannelTestSaysWhyItFailedInThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	broken := newHookReceiver(t, http.StatusInternalServerError)
	if r := b.addChannel(webhookChannel("Broken", broken.URL+"/hook")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding the channel = %d", r.StatusCode)
	}
	host := strings.TrimPrefix(broken.URL, "http://")
	r := b.postHX("/notifications/channels/Broken/test", url.Values{"csrf_token": {b.pageCSRF("/notifications?lang=de")}})
	want := "Der Test wurde nicht zugestellt: " + host + " antwortete 500 Internal Server Error."
	if got := strings.TrimSpace(r.doc(t).Text()); r.StatusCode != http.StatusOK || got != want {
		t.Errorf("a failed test from the German page = %d: %q; want %q", r.StatusCode, got, want)
	}
}
