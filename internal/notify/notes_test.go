package notify

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"washboard/internal/i18n"
)

// A channel's test says why it failed in the language of the page that
// asked: what the receiver answered, in German and French; in English as
// always.
func TestChannelTestSaysWhyInThePagesLanguage(t *testing.T) {
	t.Parallel()
	failing := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	refusing := newReceiver(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusNotFound) })
	for _, tc := range []struct {
		lang, url, want string
	}{
		{"en", failing.URL, "The test was not delivered: HOST answered 503 Service Unavailable; it asked to wait 30s before trying again."},
		{"de", failing.URL, "Der Test wurde nicht zugestellt: HOST antwortete 503 Service Unavailable; es bat, 30s zu warten."},
		{"fr", refusing.URL, "HOST a refusé le message\u00a0: 404 Not Found"},
	} {
		w, _ := newTestWebhook(t, WebhookConfig{URL: tc.url, Format: FormatJSON})
		said, err := w.Test(i18n.WithLocalizer(context.Background(), i18n.For(tc.lang)))
		want := strings.ReplaceAll(tc.want, "HOST", strings.TrimPrefix(tc.url, "http://"))
		if err == nil || !strings.Contains(said, want) {
			t.Errorf("in %s the test says %q; want %q", tc.lang, said, want)
		}
	}
}

// The delivery log's notes read in the page's language where they are
// the notes' own sentences; words they do not know stay as they are.
func TestDeliveryNotesInThePagesLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, note, want string }{
		{"en", "attempt 2 failed: hooks.example.com answered 500 Internal Server Error", "attempt 2 failed: hooks.example.com answered 500 Internal Server Error"},
		{"de", "attempt 2 failed: hooks.example.com answered 500 Internal Server Error", "Versuch 2 fehlgeschlagen: hooks.example.com antwortete 500 Internal Server Error"},
		{"es", "failed: given up after 9 attempts over a day; the last: hooks.example.com did not answer within 10s",
			"falló: se abandonó tras 9 intentos durante un día; el último: hooks.example.com no respondió en 10s"},
		{"fr", "pushed to 1 of 2 devices; 1 device was gone, and removed", "envoyée à 1 sur 2 appareils\u00a0; 1 appareil n'existait plus et a été retiré"},
		{"de", "held by the rule's quiet hours until 27 Nov 22:00", "wegen der Ruhezeiten der Regel zurückgehalten bis 27 Nov 22:00"},
		{"de", "waiting until 27 Nov 14:05 to see whether the device is back online", "wartet bis 27 Nov 14:05, ob das Gerät wieder online ist"},
		{"fr", "failed: could not reach push.example.net", "échec\u00a0: push.example.net n'a pas pu être joint"},
		{"de", "failed: the mail server mail.example.com refused the sender: 550 no", "fehlgeschlagen: the mail server mail.example.com refused the sender: 550 no"},
	} {
		if got := NoteIn(i18n.For(tc.lang), tc.note); got != tc.want {
			t.Errorf("%s: %q reads %q; want %q", tc.lang, tc.note, got, tc.want)
		}
	}
}

// The webhook's and the push's other fixed sentences read in the page's
// language too.
func TestMoreDeliveryNotesInThePagesLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, note, want string }{
		{"de", "failed: hooks.example.com does not speak HTTPS; check the webhook URL's scheme and port",
			"fehlgeschlagen: hooks.example.com spricht kein HTTPS; prüfen Sie Schema und Port der Webhook-URL"},
		{"es", "failed: none of the 3 people to push to has subscribed a device to pushes (on their page, Me)",
			"falló: ninguna de las 3 personas destinatarias ha suscrito un dispositivo a las notificaciones push (en su propia página)"},
		{"fr", "hooks.example.com answered 301 Moved Permanently, a redirect, and redirects are not followed: set the webhook's URL to the receiver's final address",
			"hooks.example.com a répondu 301 Moved Permanently, une redirection, et les redirections ne sont pas suivies\u00a0: indiquez comme URL du webhook l'adresse finale du destinataire"},
	} {
		if got := NoteIn(i18n.For(tc.lang), tc.note); got != tc.want {
			t.Errorf("%s: %q reads %q; want %q", tc.lang, tc.note, got, tc.want)
		}
	}
}
