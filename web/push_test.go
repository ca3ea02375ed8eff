package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"washboard/internal/notify"
	"washboard/internal/push"
	"washboard/internal/push/pushtest"
)

// usePush gives the app a push service that may reach a push service of
// the test on loopback, as the notifier may reach webhooks there.
func (a *app) usePush(srv *pushtest.Server) *push.Service {
	a.t.Helper()
	svc, err := push.New(a.t.Context(), push.Config{Link: "https://washboard.example.com", Guard: notify.Guard{AllowPrivate: true}, TLS: srv.TLS()},
		push.Deps{Store: a.store, Keys: a.deps.Keys, Clock: a.clock})
	if err != nil {
		a.t.Fatal(err)
	}
	srv.Key = svc.PublicKey()
	a.deps.Push = svc
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
	return svc
}

// A person subscribes a device from /me, sees it listed, pushes a test to
// it, and removes it; a subscription with a bad key is refused in words,
// and the push service's address is never shown. The page offers the
// subscription to scripts alone, and says what pushes need without them.
func TestPushDevicesOnThePersonsPage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	srv := pushtest.New(t)
	svc := a.usePush(srv)
	b := a.browser()
	b.signIn(credA)

	d := b.get("/me").doc(t)
	offer := d.Find("form[data-push-offer]")
	if key, _ := offer.Attr("data-key"); key != svc.PublicKey() || offer.AttrOr("hidden", "no") == "no" {
		t.Errorf("the offer: key %q, hidden %v; want the server's key, hidden until the script shows it", key, offer.AttrOr("hidden", "no"))
	}
	// The worker that shows pushes is the app's, of scope /.
	if w := offer.AttrOr("data-worker", ""); w != "/sw.js" || !strings.Contains(b.get(w).body, `self.addEventListener("push"`) {
		t.Errorf("the offer registers %q, which shows no pushes; want /sw.js", w)
	}
	if got := d.Find("[data-push-unsupported]").Text(); !strings.HasPrefix(got, "Pushes need a browser that supports them") {
		t.Errorf("without scripts the page says %q", got)
	}

	phone := srv.NewDevice(t, "phone")
	form := url.Values{"endpoint": {phone.Sub.Endpoint}, "p256dh": {phone.Sub.P256dh}, "auth": {phone.Sub.Auth}, "device": {"Firefox on Android"}}
	bad := url.Values{"csrf_token": {b.pageCSRF("/me")}, "endpoint": {phone.Sub.Endpoint}, "p256dh": {phone.Sub.P256dh[:20]}, "auth": {phone.Sub.Auth}}
	r := b.post("/me/push", bad)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "The device&#39;s key (p256dh) is 15 bytes; it must be a P-256 point of 65 bytes, uncompressed.") {
		t.Errorf("a short key: %d\n%s", r.StatusCode, r.body)
	}
	form.Set("csrf_token", b.pageCSRF("/me"))
	if r := b.post("/me/push", form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("subscribing: %d\n%s", r.StatusCode, r.body)
	}
	page := b.get("/me")
	host := strings.TrimPrefix(srv.URL, "https://")
	if item := strings.Join(strings.Fields(page.doc(t).Find(".me-push li").Text()), " "); !strings.HasPrefix(item, "Firefox on Android, through "+host+", since") {
		t.Errorf("the device listed: %q", item)
	}
	if strings.Contains(page.body, phone.Sub.Endpoint[len(srv.URL):]) || strings.Contains(page.body, phone.Sub.Auth) {
		t.Error("the page shows the push service's address or the device's secret")
	}

	r = b.post("/me/push/test", url.Values{"csrf_token": {b.pageCSRF("/me")}})
	if r.StatusCode != http.StatusOK || !strings.Contains(r.body, "The test was pushed: pushed to 1 of 1 device.") {
		t.Errorf("the test push: %d\n%s", r.StatusCode, r.body)
	}
	var m push.Message
	if p := srv.Pushes(); len(p) != 1 || json.Unmarshal(p[0].Plain, &m) != nil || m.Body != "Test notification from Washboard" {
		t.Errorf("the phone received %+v (%+v)", p, m)
	}

	id, _ := page.doc(t).Find(`.me-push form[action^="/me/push/push_"]`).Attr("action")
	other := a.browser()
	other.signIn(credB)
	if r := other.post(id, url.Values{"csrf_token": {other.pageCSRF("/me")}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("another person removing the device: %d", r.StatusCode)
	}
	if r := b.post(id, url.Values{"csrf_token": {b.pageCSRF("/me")}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing it: %d", r.StatusCode)
	}
	if !strings.Contains(b.get("/me").body, "No device of yours receives pushes.") {
		t.Error("the device is still listed")
	}
}
