package notifier_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/cluster"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/notify/mailtest"
	"washboard/internal/rules"
	"washboard/internal/store"
	"washboard/internal/webhook"
)

// An alert that opens reaches the webhook, signed, and the mailbox, over
// STARTTLS, each once, with the notification's key in the webhook-id and
// the Message-ID; the log says both were sent, and the outbox's facts
// are gone.
func TestAnOpenedAlertReachesTheWebhookAndTheMailbox(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Out of product", "when": "alert.opened", "alert_types": ["consumable_out"], "channels": ["ops", "desk"]}`))
	f.open("a1", "l1", domain.AlertConsumableOut)
	f.open("a2", "l2", domain.AlertJam) // another type: no rule
	f.pass()

	got := f.hooks.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d webhook deliveries (%s), want 1", len(got), f.hooks.events())
	}
	ops := f.log("ops")
	if len(ops) != 1 || ops[0].State != store.NotificationSent || ops[0].Attempts != 1 {
		t.Fatalf("log of ops: %+v", ops)
	}
	d := got[0]
	if d.header.Get("webhook-id") != ops[0].ID {
		t.Errorf("webhook-id %q, the notification's key %q", d.header.Get("webhook-id"), ops[0].ID)
	}
	secret, _ := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err := webhook.Verify(secret, d.header, d.raw, f.clk.Now()); err != nil {
		t.Errorf("the delivery's signature does not verify: %v", err)
	}
	where, _ := d.body["where"].(map[string]any)
	building, _ := where["building"].(map[string]any)
	if d.body["event"] != "alert.opened" || building["name"] != "North Tower" || d.body["url"] != "https://washboard.example.com/locations/l1" {
		t.Errorf("body: event %v, building %v, url %v", d.body["event"], building["name"], d.body["url"])
	}

	mails := f.mail.Wait(1, time.Second)
	if len(mails) != 1 || !mails[0].TLS {
		t.Fatalf("%d mails received", len(mails))
	}
	msg, err := mail.ReadMessage(bytes.NewReader(mails[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	desk := f.log("desk")
	if len(desk) != 1 || desk[0].State != store.NotificationSent {
		t.Fatalf("log of desk: %+v", desk)
	}
	if id := msg.Header.Get("Message-Id"); !strings.Contains(id, desk[0].ID) {
		t.Errorf("Message-ID %q does not hold the key %q", id, desk[0].ID)
	}
	if types := partTypes(t, msg); types != "text/plain text/html" {
		t.Errorf("the e-mail's parts are %q, want plain text and HTML", types)
	}
	if facts, _ := f.st.FactsAfter(f.ctx, 0, 0); len(facts) != 0 {
		t.Errorf("%d facts left in the outbox after they were decided", len(facts))
	}

	f.write(domain.Alert{ID: "a1", LocationID: "l1", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: start, RefillCount: 3})
	f.advance(time.Minute)
	if n := len(f.hooks.deliveries()); n != 1 {
		t.Errorf("the same alert written again: %d deliveries, want still 1", n)
	}
}

// partTypes are the media types of a multipart/alternative message.
func partTypes(t *testing.T, msg *mail.Message) string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q: %v", msg.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	var types []string
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		pt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		types = append(types, pt)
	}
	return strings.Join(types, " ")
}

// A notification decided and not yet sent when the process stops is sent
// by the next one; one cut off mid-send is sent again with the same key.
func TestNothingDecidedIsLostAcrossARestart(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	hold := make(chan struct{})
	f.hooks.answering(func(n int) int {
		if n == 1 {
			<-hold // the first delivery arrives; the sender dies before the answer
		}
		return http.StatusNoContent
	})
	f.open("a1", "l1", domain.AlertJam)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.n.Pass(ctx); close(done) }()
	for len(f.hooks.deliveries()) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	close(hold)
	if log := f.log("ops"); len(log) != 1 || log[0].State != store.NotificationPending {
		t.Fatalf("after the cut: %+v", log)
	}

	f.n = f.notifier() // the next process
	f.pass()
	got := f.hooks.deliveries()
	if len(got) != 2 || got[0].header.Get("webhook-id") != got[1].header.Get("webhook-id") {
		t.Fatalf("%d deliveries; keys %q and %q", len(got), got[0].header.Get("webhook-id"), got[len(got)-1].header.Get("webhook-id"))
	}
	if log := f.log("ops"); log[0].State != store.NotificationSent {
		t.Errorf("after the restart: %s", log[0].State)
	}
}

// During quiet hours that hold, a notification waits until they end; in
// those that drop, a battery running low is dropped and said so in the
// log, while an overdue alert is held.
func TestQuietHours(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`
	  {"name": "Overdue", "when": "alert.overdue", "channels": ["ops"], "quiet_hours": {"from": "22:00", "to": "06:00", "during": "drop"}},
	  {"name": "Batteries", "when": "battery.low", "channels": ["ops"], "quiet_hours": {"from": "22:00", "to": "06:00", "during": "drop"}}`))
	f.clk.Set(time.Date(2026, 11, 24, 23, 0, 0, 0, time.UTC))
	a := f.open("a1", "l1", domain.AlertConsumableOut)
	a.Overdue = true
	f.write(a)
	low := device("D1", "l1")
	low.BatteryState = domain.BatteryLow
	f.devices(low, device("D2", "l2"))
	f.pass()
	if got := f.hooks.events(); got != "" {
		t.Fatalf("sent during quiet hours: %s", got)
	}
	if got := f.states("ops"); got != "pending dropped" {
		t.Errorf("states %q, want the overdue alert held and the battery dropped", got)
	}
	log := f.log("ops")
	if !strings.Contains(log[1].Note, "held by the rule's quiet hours until 25 Nov 06:00") || !strings.Contains(log[0].Note, "dropped") {
		t.Errorf("notes %q, %q", log[1].Note, log[0].Note)
	}
	f.advance(6*time.Hour + 59*time.Minute) // 05:59
	if got := f.hooks.events(); got != "" {
		t.Fatalf("sent before quiet hours ended: %s", got)
	}
	f.advance(time.Minute)
	if got := f.hooks.events(); got != "alert.overdue a1" {
		t.Errorf("at 06:00: %q", got)
	}
}

// A rule with a digest sends what arrives within its minutes in one
// message, and the next item after that opens another.
func TestADigestGroups(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Every ten minutes", "when": "alert.opened", "digest_minutes": 10, "channels": ["ops"]}`))
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	f.clk.Advance(3 * time.Minute)
	f.open("a2", "l2", domain.AlertConsumableOut)
	f.pass()
	f.clk.Advance(3 * time.Minute)
	f.open("a3", "l1", domain.AlertBatteryOut)
	f.advance(3 * time.Minute)
	if got := f.hooks.events(); got != "" {
		t.Fatalf("sent before the digest was due: %s", got)
	}
	f.advance(time.Minute)
	if got := f.hooks.events(); got != "digest 3" {
		t.Fatalf("at ten minutes: %q, want one digest of 3; log %+v", got, f.log("ops"))
	}
	f.open("a4", "l2", domain.AlertJam)
	f.pass()
	f.advance(10 * time.Minute)
	if got := f.hooks.events(); got != "digest 3, digest 1" {
		t.Errorf("after the next item: %q", got)
	}
}

// An alert nobody has claimed within the rule's minutes is escalated;
// one someone is on is not, and the log says who.
func TestEscalationOnlyForUnclaimedAlerts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Nobody on it", "when": "alert.unclaimed", "after_minutes": 15, "channels": ["ops"]}`))
	f.open("a1", "l1", domain.AlertConsumableOut)
	f.open("a2", "l2", domain.AlertConsumableOut)
	f.advance(5 * time.Minute)
	if err := f.st.ClaimAlert(f.ctx, account, domain.Claim{AlertID: "a2", Name: "Maria", At: f.clk.Now()}); err != nil {
		t.Fatal(err)
	}
	f.advance(9 * time.Minute)
	if got := f.hooks.events(); got != "" {
		t.Fatalf("escalated early: %s", got)
	}
	f.advance(time.Minute)
	if got := f.hooks.events(); got != "alert.unclaimed a1" {
		t.Errorf("after 15 minutes: %q, want only the unclaimed alert", got)
	}
	log := f.log("ops")
	var notes []string
	for _, no := range log {
		notes = append(notes, string(no.State)+": "+no.Note)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "cancelled: Maria is on it since 24 Nov 09:05") {
		t.Errorf("log:\n%s", strings.Join(notes, "\n"))
	}
}

// A device offline for the rule's minutes is notified; one back online
// before is not.
func TestDeviceOfflineAfterMinutes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Offline", "when": "device.offline", "after_minutes": 30, "channels": ["ops"]}`))
	d1, d2 := device("D1", "l1"), device("D2", "l2")
	d1.Offline, d2.Offline = true, true
	f.devices(d1, d2)
	f.advance(10 * time.Minute)
	d2.Offline = false
	f.devices(d1, d2)
	f.advance(20 * time.Minute)
	if got := f.states("ops"); got != "sent cancelled" && got != "cancelled sent" {
		t.Errorf("states %q", got)
	}
	if got := f.hooks.events(); got != "device.offline" {
		t.Errorf("sent %q, want one device.offline", got)
	}
}

// A receiver that fails is tried again later and later, its channel's
// other notifications waiting without a storm of attempts, until it
// answers.
func TestRetriesBackOffWithoutAStorm(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	f.hooks.answering(func(int) int { return http.StatusInternalServerError })
	f.open("a1", "l1", domain.AlertJam)
	f.open("a2", "l2", domain.AlertJam)
	f.open("a3", "l1", domain.AlertConsumableOut)
	f.pass()
	if n := len(f.hooks.deliveries()); n != 1 {
		t.Fatalf("%d attempts while the receiver fails, want 1 (the others wait)", n)
	}
	f.advance(29 * time.Second)
	if n := len(f.hooks.deliveries()); n != 1 {
		t.Fatalf("%d attempts before the first retry", n)
	}
	f.advance(time.Second)
	if n := len(f.hooks.deliveries()); n != 2 {
		t.Fatalf("%d attempts after 30 s, want 2", n)
	}
	f.advance(time.Minute)
	if n := len(f.hooks.deliveries()); n != 3 {
		t.Fatalf("%d attempts after another minute, want 3", n)
	}
	var failed store.Notification
	for _, no := range f.log("ops") {
		if no.Attempts == 3 {
			failed = no
		}
	}
	if failed.State != store.NotificationPending || !strings.Contains(failed.Note, "attempt 3 failed") || !strings.Contains(failed.Note, "500") {
		t.Errorf("the failing notification: %s, %q", failed.State, failed.Note)
	}
	f.hooks.answering(func(int) int { return http.StatusOK })
	f.advance(2 * time.Minute)
	if got := f.states("ops"); got != "sent sent sent" {
		t.Errorf("once the receiver answers: %q", got)
	}
}

// A redirect is not followed and not tried again; a receiver that fails
// for a day is given up with the reason, after a bounded number of tries.
func TestFailuresEndInTheLogWithTheReason(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	f.hooks.answering(func(int) int { return http.StatusFound })
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	f.advance(time.Hour)
	log := f.log("ops")
	if len(f.hooks.deliveries()) != 1 || log[0].State != store.NotificationFailed || !strings.Contains(log[0].Note, "redirects are not followed") {
		t.Fatalf("%d attempts; %s: %q", len(f.hooks.deliveries()), log[0].State, log[0].Note)
	}

	f.hooks.answering(func(int) int { return http.StatusServiceUnavailable })
	f.open("a2", "l2", domain.AlertJam)
	for range 30 * 24 {
		f.advance(2 * time.Minute)
	}
	log = f.log("ops")
	if log[0].State != store.NotificationFailed || !strings.Contains(log[0].Note, "given up") || !strings.Contains(log[0].Note, "503") {
		t.Errorf("after a day: %s: %q", log[0].State, log[0].Note)
	}
	if n := len(f.hooks.deliveries()) - 1; n > 40 {
		t.Errorf("%d attempts in a day, want at most 40", n)
	}
}

// Each channel sends at most its rate a minute; the rest wait their turn.
func TestEachChannelKeepsItsRate(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`), func(c *notifier.Config) { c.RatePerMinute = 5 })
	for i := range 8 {
		f.open(string(rune('a'+i)), "l1", domain.AlertJam)
	}
	f.pass()
	if n := len(f.hooks.deliveries()); n != 5 {
		t.Fatalf("%d sent in the first minute, want 5", n)
	}
	held := 0
	for _, no := range f.log("ops") {
		if no.State == store.NotificationPending && strings.Contains(no.Note, "limit of 5 a minute") {
			held++
		}
	}
	if held != 3 {
		t.Errorf("%d held by the limit, want 3", held)
	}
	f.advance(time.Minute)
	if n := len(f.hooks.deliveries()); n != 8 {
		t.Errorf("%d sent after a minute, want 8", n)
	}
}

// Without --allow-private-webhooks, a webhook to a loopback address is
// refused before anything is sent, and the log says why.
func TestWebhooksToPrivateAddressesAreRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`), func(c *notifier.Config) { c.Guard.AllowPrivate = false })
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	log := f.log("ops")
	if len(f.hooks.deliveries()) != 0 || log[0].State != store.NotificationFailed || !strings.Contains(log[0].Note, "private") {
		t.Errorf("%d delivered; %s: %q", len(f.hooks.deliveries()), log[0].State, log[0].Note)
	}
}

// A mail server that refuses the password fails for good, saying so
// without the password; one that cannot be reached is tried again.
func TestBadMailSettings(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["desk"]}`), func(c *notifier.Config) { c.SMTP.Password = "Tr0ub4dor&3" })
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	log := f.log("desk")
	if log[0].State != store.NotificationFailed || !strings.Contains(log[0].Note, "refused the user name or password") || strings.Contains(log[0].Note, "Tr0ub4dor") {
		t.Errorf("%s: %q", log[0].State, log[0].Note)
	}

	f = newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["desk"]}`), func(c *notifier.Config) { c.SMTP.Port = 1 })
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	log = f.log("desk")
	if log[0].State != store.NotificationPending || !strings.HasPrefix(log[0].Note, "attempt 1 failed") {
		t.Errorf("unreachable: %s: %q", log[0].State, log[0].Note)
	}
}

// Channels and rules made on the page are kept sealed, shown with the
// file's, and refused when they clash with the file or cannot send.
func TestPageSettings(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	secret := webhook.NewSecret()
	page := rules.Account{
		Channels: []rules.Channel{{Name: "night", Settings: &notify.WebhookSettings{URL: f.hooks.srv.URL + "/night", Format: notify.FormatSlack, Secret: secret}}},
		Rules:    []rules.Rule{{Name: "Batteries", When: notify.BatteryLow, Channels: []string{"night", "desk"}}},
	}
	if err := f.n.SaveSettings(f.ctx, account, page); err != nil {
		t.Fatal(err)
	}
	sealed, err := f.st.NotificationSettings(f.ctx, account)
	if err != nil || bytes.Contains(sealed, []byte(secret.Text()[6:])) || bytes.Contains(sealed, []byte("/night")) {
		t.Errorf("the settings are kept in clear (%v)", err)
	}
	s, err := f.n.Settings(f.ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Page.Channels) != 1 || !s.Page.Channels[0].Settings.(*notify.WebhookSettings).Secret.Equal(secret) || len(s.File.Rules) != 1 || s.DefaultMail == "" {
		t.Errorf("settings read back: %#v", s)
	}

	for _, c := range []struct {
		name string
		page rules.Account
		want string
	}{
		{"a channel named like the file's", rules.Account{Channels: []rules.Channel{{Name: "ops", Settings: &notify.EmailSettings{To: []string{"a@example.com"}}}}}, `has a channel named "ops"`},
		{"a rule naming no channel there is", rules.Account{Rules: []rules.Rule{{Name: "x", When: notify.AlertOpened, Channels: []string{"nowhere"}}}}, `nowhere`},
		{"a mail server without a sender", rules.Account{Channels: []rules.Channel{{Name: "m", Settings: &notify.EmailSettings{To: []string{"a@example.com"}, SMTP: &notify.SMTPSettings{Host: "mail.example.com"}}}}}, "sender"},
	} {
		err := f.n.SaveSettings(f.ctx, account, c.page)
		var se *notifier.SettingsError
		if !errors.As(err, &se) || !strings.Contains(se.Error(), c.want) {
			t.Errorf("%s: %v, want a SettingsError saying %q", c.name, err, c.want)
		}
	}

	low := device("D2", "l2")
	low.BatteryState = domain.BatteryLow
	f.devices(device("D1", "l1"), low)
	f.pass()
	if len(f.log("night")) != 1 || f.log("night")[0].State != store.NotificationSent {
		t.Errorf("the page's rule did not send to the page's channel: %+v", f.log("night"))
	}
	said, err := f.n.TestChannel(f.ctx, account, "night")
	if err != nil || !strings.Contains(said, "accepted") {
		t.Errorf("test of the channel: %q, %v", said, err)
	}
}

// Two notifiers on one store, as two replicas: each notification is
// sent by one of them.
func TestOneReplicaDelivers(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	leases := cluster.NewLocal(cluster.DefaultBuffer)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var done []chan struct{}
	for range 2 {
		n, err := notifier.New(f.cfg, notifier.Deps{Store: f.st, Leases: leases, Keys: f.keys, Clock: f.clk})
		if err != nil {
			t.Fatal(err)
		}
		d := make(chan struct{})
		done = append(done, d)
		go func() { n.Run(ctx); close(d) }()
	}
	for i := range 20 {
		f.open(string(rune('a'+i)), "l1", domain.AlertJam)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(f.hooks.deliveries()) < 20 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	cancel()
	for _, d := range done {
		<-d
	}
	seen := map[string]int{}
	for _, d := range f.hooks.deliveries() {
		seen[d.header.Get("webhook-id")]++
	}
	if len(seen) != 20 || len(f.hooks.deliveries()) != 20 {
		t.Errorf("%d deliveries of %d notifications, want 20 of 20", len(f.hooks.deliveries()), len(seen))
	}
}

// Settings sealed with a key the server no longer has are reported, not
// failed on: the page still opens, and saving new ones replaces them.
func TestUnreadablePageSettingsAreReportedAndReplaced(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	page := rules.Account{Channels: []rules.Channel{{Name: "night", Settings: &notify.WebhookSettings{URL: f.hooks.srv.URL, Format: notify.FormatJSON}}}}
	if err := f.n.SaveSettings(f.ctx, account, page); err != nil {
		t.Fatal(err)
	}
	other, err := keyring.New([]byte(strings.Repeat("o", keyring.KeySize)))
	if err != nil {
		t.Fatal(err)
	}
	f.keys = other
	f.n = f.notifier()
	s, err := f.n.Settings(f.ctx, account)
	if err != nil || !strings.Contains(s.Unreadable, "cannot be read") || len(s.Page.Channels) != 0 || len(s.File.Channels) != 2 {
		t.Fatalf("settings under another key: %+v, %v", s, err)
	}
	if err := f.n.SaveSettings(f.ctx, account, page); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.n.Settings(f.ctx, account); s.Unreadable != "" || len(s.Page.Channels) != 1 {
		t.Errorf("after saving again: %+v", s)
	}
}

// A receiver that does not answer in time is tried again later, and the
// log says it timed out.
func TestAReceiverThatTimesOutIsTriedAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`), func(c *notifier.Config) { c.Timeout = 100 * time.Millisecond })
	f.hooks.answering(func(n int) int {
		if n == 1 {
			time.Sleep(400 * time.Millisecond)
		}
		return http.StatusNoContent
	})
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	log := f.log("ops")
	if log[0].State != store.NotificationPending || !strings.Contains(log[0].Note, "attempt 1 failed") || !strings.Contains(log[0].Note, "100ms") {
		t.Fatalf("after a timeout: %s: %q", log[0].State, log[0].Note)
	}
	f.advance(30 * time.Second)
	if log := f.log("ops"); log[0].State != store.NotificationSent || log[0].Attempts != 2 {
		t.Errorf("the retry: %s after %d attempts", log[0].State, log[0].Attempts)
	}
}

// A product that runs out notifies without an alert of it, saying what to
// bring; a rule of another building says nothing of it.
func TestProductOutWithoutAnAlertAndRulesOfABuilding(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`
	  {"name": "Out", "when": "product.out", "channels": ["ops"]},
	  {"name": "South only", "when": "product.out", "building_id": "b2", "channels": ["desk"]}`))
	out := device("D1", "l1")
	out.Compartments = []domain.Compartment{{Level: 0, Out: true}, {Level: 0, Out: true}}
	f.devices(out, device("D2", "l2"))
	f.pass()
	got := f.hooks.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries (%s), want 1", len(got), f.hooks.events())
	}
	bring, _ := got[0].body["bring"].(map[string]any)
	if got[0].body["event"] != "product.out" || got[0].body["alert"] != nil || bring["refills"] != float64(2) || bring["text"] != "2 soap refills" {
		t.Errorf("the notification: event %v, alert %v, bring %v", got[0].body["event"], got[0].body["alert"], bring)
	}
	if n := len(f.log("desk")); n != 0 {
		t.Errorf("the rule of building b2 decided %d notifications about building b1", n)
	}
}

// A digest collects at most 200 items, however many passes bring them:
// the next opens another.
func TestADigestIsBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Hourly", "when": "alert.opened", "digest_minutes": 60, "channels": ["ops"]}`))
	for pass := range 3 {
		var alerts []domain.Alert
		for i := range 90 {
			alerts = append(alerts, domain.Alert{ID: fmt.Sprint("p", pass, "-", i), LocationID: "l1", Status: domain.AlertOpen, Type: domain.AlertJam, Created: f.clk.Now()})
		}
		f.write(alerts...)
		f.advance(time.Minute)
	}
	f.advance(time.Hour)
	if got := f.hooks.events(); got != "digest 200, digest 70" {
		t.Errorf("270 items in an hour were sent as %q, want digests of 200 and 70", got)
	}
}

// Without --allow-private-webhooks, an e-mail channel made on the page
// whose own mail server is on loopback is refused, by "Send a test" and in
// the delivery log, and the server gets nothing from it; the server of
// --smtp-url, which the operator gave, is used wherever it is.
func TestChannelsOwnMailServerIsGuarded(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["desk"]}`), func(c *notifier.Config) { c.Guard.AllowPrivate = false })
	own := &notify.SMTPSettings{Host: f.mail.Host, Port: f.mail.Port, TLS: notify.StartTLS, User: f.mail.User, Password: f.mail.Pass, From: "alerts@washboard.example.com"}
	page := rules.Account{
		Channels: []rules.Channel{{Name: "own", Settings: &notify.EmailSettings{To: []string{"night@example.com"}, SMTP: own}}},
		Rules:    []rules.Rule{{Name: "Opened here", When: notify.AlertOpened, Channels: []string{"own"}}},
	}
	if err := f.n.SaveSettings(f.ctx, account, page); err != nil {
		t.Fatal(err)
	}
	const refused = "the mail server's address 127.0.0.1 is a loopback address"
	said, err := f.n.TestChannel(f.ctx, account, "own")
	if err == nil || !strings.Contains(said, refused) {
		t.Errorf("test of the channel: %q, %v", said, err)
	}
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	if log := f.log("own"); len(log) != 1 || log[0].State != store.NotificationFailed || !strings.Contains(log[0].Note, refused) {
		t.Errorf("the channel's log: %+v", log)
	}
	mails := f.mail.Received()
	if len(mails) != 1 || strings.Join(mails[0].To, ",") != "facilities@example.com" {
		t.Errorf("the mail server received %d messages; want the one of --smtp-url's channel", len(mails))
	}
}

// What answers a channel is not read out: a mail server's address where
// something else answers, a webhook that answers 500 with a body. "Send a
// test" and the delivery log say what failed in words and repeat nothing
// of the answer.
func TestAnswersAreNotReadOut(t *testing.T) {
	t.Parallel()
	const leak = "internal-db-01"
	im := mailtest.StartImpostor(t, "500 "+leak+" banner\r\n", false)
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "panic at "+leak+": password authentication failed", http.StatusInternalServerError)
	}))
	defer failing.Close()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	page := rules.Account{
		Channels: []rules.Channel{
			{Name: "db", Settings: &notify.EmailSettings{To: []string{"night@example.com"},
				SMTP: &notify.SMTPSettings{Host: im.Host, Port: im.Port, TLS: notify.NoTLS, From: "alerts@washboard.example.com"}}},
			{Name: "hook", Settings: &notify.WebhookSettings{URL: failing.URL + "/hook", Format: notify.FormatJSON}},
		},
		Rules: []rules.Rule{{Name: "Opened here", When: notify.AlertOpened, Channels: []string{"db", "hook"}}},
	}
	if err := f.n.SaveSettings(f.ctx, account, page); err != nil {
		t.Fatal(err)
	}
	f.open("a1", "l1", domain.AlertJam)
	f.pass()
	for channel, words := range map[string]string{
		"db":   "the server at " + im.Addr + " did not greet as a mail server does (with 220), so what it sent is not shown",
		"hook": strings.TrimPrefix(failing.URL, "http://") + " answered 500 Internal Server Error",
	} {
		said, err := f.n.TestChannel(f.ctx, account, channel)
		if err == nil || !strings.Contains(said, words) || strings.Contains(said, leak) {
			t.Errorf("test of %s: %q; want it to say %q", channel, said, words)
		}
		if log := f.log(channel); len(log) != 1 || !strings.Contains(log[0].Note, words) || strings.Contains(log[0].Note, leak) {
			t.Errorf("the log of %s: %+v; want it to say %q", channel, log, words)
		}
	}
}

// An alert about to miss its service level target is notified once per
// target, when four fifths of it are used: the time to claim unless
// someone is on it by then, the time to resolve unless it closed. A
// building's service level overrides the account's; a type without
// targets is not notified.
func TestAlertAboutToMissItsTarget(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "About to miss", "when": "alert.at_risk", "channels": ["ops"]}`))
	for _, sl := range []store.ServiceLevel{
		{Week: "always", Zone: "UTC", Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute, Resolve: time.Hour}}},
		{Building: "b2", Week: "always", Zone: "UTC", Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 30 * time.Minute}}},
	} {
		if err := f.st.SaveServiceLevel(f.ctx, account, sl); err != nil {
			t.Fatal(err)
		}
	}
	f.open("a1", "l1", domain.AlertConsumableOut)
	f.open("a2", "l1", domain.AlertConsumableOut)
	f.open("a3", "l2", domain.AlertConsumableOut) // in b2: 30 min to claim
	f.open("j1", "l1", domain.AlertJam)           // no target
	f.advance(5 * time.Minute)
	if err := f.st.ClaimAlert(f.ctx, account, domain.Claim{AlertID: "a2", Name: "Maria", At: f.clk.Now()}); err != nil {
		t.Fatal(err)
	}
	f.advance(6 * time.Minute)
	if got := f.hooks.events(); got != "" {
		t.Fatalf("notified before any alert was at risk: %s", got)
	}
	f.advance(time.Minute) // 12 of a1's 15 minutes to claim
	if got := f.hooks.events(); got != "alert.at_risk a1" {
		t.Fatalf("at 12 minutes: %q, want a1's time to claim alone", got)
	}
	if body := fmt.Sprint(f.hooks.deliveries()[0].body); !strings.Contains(body, "Claim it by 24 Nov 09:15 to keep to the client's target of 15 min to claim.") {
		t.Errorf("the notification does not say by when to claim it: %s", body)
	}
	f.advance(12 * time.Minute) // 24 of a3's 30
	f.advance(24 * time.Minute) // 48 of a1's and a2's hour to resolve
	f.advance(2 * time.Hour)
	events := strings.Split(f.hooks.events(), ", ")
	slices.Sort(events[2:])
	if got, want := strings.Join(events, ", "), "alert.at_risk a1, alert.at_risk a3, alert.at_risk a1, alert.at_risk a2"; got != want {
		t.Errorf("notified %q; want %q", got, want)
	}
	var notes []string
	for _, no := range f.log("ops") {
		notes = append(notes, string(no.State)+": "+no.Note)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "cancelled: the alert was claimed at 24 Nov 09:05") {
		t.Errorf("log:\n%s", strings.Join(notes, "\n"))
	}
}
