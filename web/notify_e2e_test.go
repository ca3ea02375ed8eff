package web

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/notify/mailtest"
	"washboard/internal/rules"
	"washboard/internal/sim"
	"washboard/internal/webhook"
)

// hookCatcher is a webhook receiver that keeps the events it is sent,
// with the path each came to and the dashboard's time it arrived.
type hookCatcher struct {
	srv *httptest.Server

	mu      sync.Mutex
	got     []map[string]any
	arrived []caught
	wake    chan struct{}
}

type caught struct {
	path string
	at   time.Time
	body map[string]any
}

func newHookCatcher(t *testing.T, now func() time.Time) *hookCatcher {
	h := &hookCatcher{wake: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		h.mu.Lock()
		h.got = append(h.got, body)
		h.arrived = append(h.arrived, caught{r.URL.Path, now(), body})
		close(h.wake)
		h.wake = make(chan struct{})
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// waitFor returns the first body whose alert is at the location, or nil
// when none arrives within timeout.
func (h *hookCatcher) waitFor(location string, timeout time.Duration) map[string]any {
	deadline := time.After(timeout)
	for {
		h.mu.Lock()
		wake := h.wake
		for _, b := range h.got {
			if alert, ok := b["alert"].(map[string]any); ok && alert["device_location_id"] == location {
				h.mu.Unlock()
				return b
			}
		}
		h.mu.Unlock()
		select {
		case <-wake:
		case <-deadline:
			return nil
		}
	}
}

// caughtAt are the deliveries that came to the path.
func (h *hookCatcher) caughtAt(path string) []caught {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []caught
	for _, c := range h.arrived {
		if c.path == path {
			out = append(out, c)
		}
	}
	return out
}

// runNotifier runs, until the test ends, a notifier of the app whose rules
// send every alert opening to a webhook and to an e-mail address.
func runNotifier(t *testing.T, a *app, account string) (*hookCatcher, *mailtest.Server) {
	t.Helper()
	hooks := newHookCatcher(t, a.clock.Now)
	return hooks, runNotifierWith(t, a, account, fmt.Sprintf(`
	  "channels": [{"name": "ops", "webhook": {"url": %q}}, {"name": "desk", "email": {"to": ["facilities@example.com"]}}],
	  "rules": [{"name": "Opened", "when": "alert.opened", "channels": ["ops", "desk"]}]`, hooks.srv.URL))
}

// runNotifierWith runs, until the test ends, a notifier of the app with
// the account's channels and rules of a notifications file, and a mail
// server it sends e-mail through.
func runNotifierWith(t *testing.T, a *app, account, channelsAndRules string) *mailtest.Server {
	t.Helper()
	mails := mailtest.Start(t, mailtest.Options{})
	file, err := rules.ParseFile(fmt.Appendf(nil, `{"accounts": [{"account_id": %q, %s}]}`, account, channelsAndRules))
	if err != nil {
		t.Fatal(err)
	}
	n := a.newNotifier(notifier.Config{
		File:    file,
		SMTP:    &notify.SMTPSettings{Host: mails.Host, Port: mails.Port, User: mails.User, Password: mails.Pass, From: "alerts@washboard.example.com"},
		SMTPTLS: &tls.Config{RootCAs: mails.Roots},
		Poll:    100 * time.Millisecond,
	}, a.deps.Keys)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { n.Run(ctx); close(done) }()
	// Each change to the account's cache wakes the notifier, as serve's
	// engine does through syncer.Config.Changed.
	changes, stop := a.engine.Subscribe(account)
	go func() {
		for range changes {
			n.Wake()
		}
	}()
	t.Cleanup(func() { stop(); cancel(); <-done })
	return mails
}

// mailAbout returns the first message whose text names the location, or
// nil when none arrives within timeout.
func mailAbout(t *testing.T, mails *mailtest.Server, place string, timeout time.Duration) *mail.Message {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for n := 1; ; n++ {
		got := mails.Wait(n, time.Until(deadline))
		for _, m := range got {
			if bytes.Contains(m.Data, []byte(place)) {
				msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
				if err != nil {
					t.Fatal(err)
				}
				return msg
			}
		}
		if len(got) < n || time.Now().After(deadline) {
			return nil
		}
	}
}

// emptyTowel empties a towel dispenser of the account with no alert open,
// and returns its location's id and name.
func emptyTowel(t *testing.T, a *app, acc *sim.Account) (id, name string) {
	t.Helper()
	ids, names := emptyTowels(t, a, acc, 1)
	return ids[0], names[0]
}

// emptyTowels empties n towel dispensers of the account with no alert
// open, and returns their locations' ids and names.
func emptyTowels(t *testing.T, a *app, acc *sim.Account, n int) (ids, names []string) {
	t.Helper()
	for _, r := range acc.Rooms {
		for _, l := range r.Locations {
			if len(ids) < n && l.Type == "towel" && len(openAlertsAt(t, a, acc.ID, fmt.Sprint(l.ID))) == 0 {
				if !a.world.Empty(l.Devices[0].MAC) {
					t.Fatal("the simulator did not find the device")
				}
				ids, names = append(ids, fmt.Sprint(l.ID)), append(names, l.Name)
			}
		}
	}
	if len(ids) < n {
		t.Fatalf("%d towel dispensers without an alert, want %d", len(ids), n)
	}
	return ids, names
}

// A towel runs out; the sync that follows sees its alert, and the webhook
// and the e-mail arrive within 5 s of it: within one sync interval and
// 5 s of the alert.
func TestNotificationsArriveWithinSecondsOfTheSync(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1) // the first sync, the baseline, is done
	acc := a.world.Accounts()[0]
	hooks, mails := runNotifier(t, a, acc.ID)

	loc, name := emptyTowel(t, a, acc)
	began := time.Now()
	a.clock.Advance(time.Minute) // one interval: the next sync
	body := hooks.waitFor(loc, 5*time.Second)
	if body == nil {
		t.Fatalf("no webhook about location %s within 5 s of the sync", loc)
	}
	if body["event"] != "alert.opened" || !strings.HasSuffix(fmt.Sprint(body["url"]), "/locations/"+loc) {
		t.Errorf("the webhook says %v, links %v", body["event"], body["url"])
	}
	msg := mailAbout(t, mails, name, 5*time.Second-time.Since(began))
	if msg == nil {
		t.Fatalf("no e-mail about %s within 5 s of the sync", name)
	}
	t.Logf("sync to webhook and e-mail: %s", time.Since(began).Round(time.Millisecond))
	if subject := msg.Header.Get("Subject"); !strings.Contains(subject, name) {
		t.Errorf("the e-mail's subject %q does not say where", subject)
	}
}

// With the service's events, the webhook and the e-mail arrive within 5 s
// of the alert, without waiting for a sync.
func TestNotificationsArriveWithinSecondsOfAnEvent(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1)
	acc := a.world.Accounts()[0]
	addr, _, text := b.makeReceiver("")
	secret, _ := webhook.ParseSecret(text)
	if _, _, err := a.world.AddWebhook(0, sim.WebhookSpec{URL: addr, Secret: secret}); err != nil {
		t.Fatal(err)
	}
	hooks, mails := runNotifier(t, a, acc.ID)

	began := time.Now()
	loc, name := emptyTowel(t, a, acc)
	if hooks.waitFor(loc, 5*time.Second) == nil {
		t.Fatalf("no webhook about location %s within 5 s of the event", loc)
	}
	if mailAbout(t, mails, name, 5*time.Second-time.Since(began)) == nil {
		t.Fatalf("no e-mail about %s within 5 s of the event", name)
	}
	t.Logf("event to webhook and e-mail: %s", time.Since(began).Round(time.Millisecond))
}

// With the simulator and the sync: two towels run out at 09:30, one of
// their alerts is claimed on the claim page. A rule with quiet hours until
// 09:45 holds both until then; a ten-minute digest sends both in one
// message at 09:41; a five-minute escalation sends only the unclaimed one,
// at 09:36.
func TestRulesEndToEndWithTheSimulator(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1)
	acc := a.world.Accounts()[0]
	hooks := newHookCatcher(t, a.clock.Now)
	runNotifierWith(t, a, acc.ID, fmt.Sprintf(`
	  "channels": [{"name": "night", "webhook": {"url": %q}}, {"name": "digest", "webhook": {"url": %q}}, {"name": "nobody", "webhook": {"url": %q}}],
	  "rules": [
	    {"name": "Held", "when": "alert.opened", "alert_types": ["consumable_out"], "quiet_hours": {"from": "09:00", "to": "09:45"}, "channels": ["night"]},
	    {"name": "Ten minutes", "when": "alert.opened", "alert_types": ["consumable_out"], "digest_minutes": 10, "channels": ["digest"]},
	    {"name": "Nobody on it", "when": "alert.unclaimed", "alert_types": ["consumable_out"], "after_minutes": 5, "channels": ["nobody"]}]`,
		hooks.srv.URL+"/night", hooks.srv.URL+"/digest", hooks.srv.URL+"/nobody"))

	locs, _ := emptyTowels(t, a, acc, 2)
	a.clock.Advance(time.Minute) // 09:31: the sync sees both alerts
	a.clock.BlockUntil(1)
	opened := a.clock.Now()
	claimed := openAlertsAt(t, a, acc.ID, locs[1])
	if len(claimed) != 1 || len(openAlertsAt(t, a, acc.ID, locs[0])) != 1 {
		t.Fatal("the sync did not bring the two alerts")
	}
	claimPath := "/alerts/" + claimed[0].ID + "/claim"
	if r := b.post(claimPath, url.Values{"csrf_token": {b.pageCSRF(claimPath)}, "person": {a.owner(acc.ID).PersonID}, "back": {"/alerts"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("claiming: %d", r.StatusCode)
	}
	for a.clock.Now().Before(opened.Add(15 * time.Minute)) {
		time.Sleep(300 * time.Millisecond) // the notifier's passes at this minute
		a.clock.Advance(time.Minute)
		a.clock.BlockUntil(1)
	}
	time.Sleep(300 * time.Millisecond)

	// The simulated fleet opens alerts of its own meanwhile: only the two
	// towels' are counted.
	about := func(cs []caught, loc string) (n int, first time.Time) {
		for _, c := range cs {
			if locationOf(c.body) == loc {
				if n++; n == 1 {
					first = c.at
				}
			}
		}
		return n, first
	}
	nobody := hooks.caughtAt("/nobody")
	n0, at0 := about(nobody, locs[0])
	n1, _ := about(nobody, locs[1])
	if n0 != 1 || n1 != 0 || at0.Before(opened.Add(4*time.Minute)) {
		t.Errorf("escalations: %s; want one of the unclaimed alert at %s, 5 minutes after it opened, none of the claimed one at %s", describe(nobody), locs[0], locs[1])
	}
	digests := hooks.caughtAt("/digest")
	if len(digests) == 0 || !slices.Contains(itemLocations(digests[0].body), locs[0]) || !slices.Contains(itemLocations(digests[0].body), locs[1]) ||
		digests[0].at.Before(opened.Add(10*time.Minute)) {
		t.Errorf("digests: %s; want the first to list both towels, 10 minutes after %s", describe(digests), opened.Format("15:04"))
	}
	night := hooks.caughtAt("/night")
	end := time.Date(2026, 11, 18, 9, 45, 0, 0, time.UTC)
	h0, _ := about(night, locs[0])
	h1, _ := about(night, locs[1])
	if h0 != 1 || h1 != 1 || len(night) == 0 || night[0].at.Before(end) {
		t.Errorf("held: %s; want both towels once, nothing before 09:45 when the quiet hours end", describe(night))
	}
}

func locationOf(body map[string]any) string {
	alert, _ := body["alert"].(map[string]any)
	return fmt.Sprint(alert["device_location_id"])
}

// itemLocations are the locations of a digest's items.
func itemLocations(body map[string]any) []string {
	var out []string
	for _, it := range itemsOf(body) {
		if m, ok := it.(map[string]any); ok {
			out = append(out, locationOf(m))
		}
	}
	return out
}

func itemsOf(body map[string]any) []any {
	items, _ := body["items"].([]any)
	return items
}

// describe says what arrived and when, for a failure's message.
func describe(cs []caught) string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s at %s (location %s, %d items)", c.body["event"], c.at.Format("15:04"), locationOf(c.body), len(itemsOf(c.body))))
	}
	return fmt.Sprintf("%d %v", len(cs), out)
}
