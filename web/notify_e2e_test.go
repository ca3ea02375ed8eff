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

// hookCatcher is a webhook receiver that keeps the events it is sent.
type hookCatcher struct {
	srv *httptest.Server

	mu   sync.Mutex
	got  []map[string]any
	wake chan struct{}
}

func newHookCatcher(t *testing.T) *hookCatcher {
	h := &hookCatcher{wake: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		h.mu.Lock()
		h.got = append(h.got, body)
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

// runNotifier runs, until the test ends, a notifier of the app whose rules
// send every alert opening to a webhook and to an e-mail address.
func runNotifier(t *testing.T, a *app, account string) (*hookCatcher, *mailtest.Server) {
	t.Helper()
	hooks, mails := newHookCatcher(t), mailtest.Start(t, mailtest.Options{})
	file, err := rules.ParseFile(fmt.Appendf(nil, `{"accounts": [{"account_id": %q,
	  "channels": [{"name": "ops", "webhook": {"url": %q}}, {"name": "desk", "email": {"to": ["facilities@example.com"]}}],
	  "rules": [{"name": "Opened", "when": "alert.opened", "channels": ["ops", "desk"]}]}]}`, account, hooks.srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	n := a.newNotifier(notifier.Config{
		File:    file,
		SMTP:    &notify.SMTPSettings{Host: mails.Host, Port: mails.Port, User: mails.User, Password: mails.Pass, From: "alerts@washboard.example.com"},
		SMTPTLS: &tls.Config{RootCAs: mails.Roots},
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
	return hooks, mails
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
	for _, r := range acc.Rooms {
		for _, l := range r.Locations {
			if l.Type == "towel" && len(openAlertsAt(t, a, acc.ID, fmt.Sprint(l.ID))) == 0 {
				if !a.world.Empty(l.Devices[0].MAC) {
					t.Fatal("the simulator did not find the device")
				}
				return fmt.Sprint(l.ID), l.Name
			}
		}
	}
	t.Fatal("no towel dispenser without an alert")
	return "", ""
}

// A towel runs out; the sync that follows sees its alert, and the webhook
// and the e-mail arrive within 5 s of it: within one sync interval and
// 5 s of the alert.
func TestNotificationsArriveWithinSecondsOfTheSync(t *testing.T) {
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
