package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/receiver"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/syncer"
	"washboard/internal/webhook"
)

var (
	receiverURLPattern = regexp.MustCompile(`value="(https?://[^"]+/hooks/(rcv_[A-Za-z0-9_-]+))"`)
	secretPattern      = regexp.MustCompile(`value="(whsec_[A-Za-z0-9+/=]+)"`)
)

// makeReceiver makes a receiver on the Webhooks page and returns its
// address and secret.
func (b *browser) makeReceiver(pasted string) (string, string, string) {
	t := b.a.t
	t.Helper()
	page := b.get("/webhooks")
	token := csrfInput.FindStringSubmatch(page.body)
	if page.StatusCode != http.StatusOK || token == nil {
		t.Fatalf("GET /webhooks = %d", page.StatusCode)
	}
	r := b.post("/webhooks", url.Values{"csrf_token": {token[1]}, "secret": {pasted}})
	u, s := receiverURLPattern.FindStringSubmatch(r.body), secretPattern.FindStringSubmatch(r.body)
	if r.StatusCode != http.StatusOK || u == nil || s == nil {
		t.Fatalf("making a receiver = %d\n%s", r.StatusCode, r.body)
	}
	return u[1], u[2], s[1]
}

func TestWebhooksPageShowsANewReceiversSecretOnce(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	addr, id, secret := b.makeReceiver("")
	if !strings.HasPrefix(addr, a.srv.URL+"/hooks/rcv_") {
		t.Errorf("the receiver's address is %q", addr)
	}
	list := b.get("/webhooks")
	if strings.Contains(list.body, secret) || !strings.Contains(list.body, addr) {
		t.Error("the list shows the secret again, or not the address")
	}
	if got := list.doc(t).Find("table.receivers td[data-label=\"Last event\"]").Text(); !strings.Contains(got, "None yet") {
		t.Errorf("a new receiver's last event reads %q", got)
	}
	// A secret pasted from the service's portal is taken as it is.
	const pasted = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	if _, _, s := b.makeReceiver(pasted); s != pasted {
		t.Errorf("the pasted secret became %q", s)
	}
	// One that cannot be used is refused in words.
	token := csrfInput.FindStringSubmatch(list.body)[1]
	r := b.post("/webhooks", url.Values{"csrf_token": {token}, "secret": {"whsec_not base64!"}})
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "The signing secret cannot be used") || strings.Contains(r.body, "not base64!") {
		t.Errorf("a bad pasted secret = %d:\n%s", r.StatusCode, r.doc(t).Find("[role=alert]").Text())
	}
	// A new secret, shown once; then the receiver is removed.
	r = b.post("/webhooks/"+id+"/rotate", url.Values{"csrf_token": {token}})
	s := secretPattern.FindStringSubmatch(r.body)
	if r.StatusCode != http.StatusOK || s == nil || s[1] == secret || !strings.Contains(r.body, "one more day") {
		t.Errorf("rotating = %d, new secret %v", r.StatusCode, s)
	}
	if r := b.post("/webhooks/"+id+"/remove", url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("removing = %d", r.StatusCode)
	}
	if strings.Contains(b.get("/webhooks").body, id) {
		t.Error("the removed receiver is still listed")
	}
	// Another account cannot touch a receiver.
	other := a.browser()
	other.signIn(credB)
	_, id2, _ := b.makeReceiver("")
	otherToken := csrfInput.FindStringSubmatch(other.get("/webhooks").body)[1]
	if r := other.post("/webhooks/"+id2+"/remove", url.Values{"csrf_token": {otherToken}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("another account removing a receiver = %d, want 404", r.StatusCode)
	}
	if strings.Contains(a.logs.String(), strings.TrimPrefix(secret, "whsec_")) {
		t.Error("a webhook secret is in the log")
	}
}

// post sends a delivery to a receiver's address.
func postEvent(t *testing.T, addr string, h http.Header, body []byte) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, addr, bytes.NewReader(body))
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// alertEvent is a signed event about an alert of account A's first
// location.
func alertEvent(a *app, secret webhook.Secret, eventID, alertID string, at time.Time) (http.Header, []byte) {
	loc := a.world.Accounts()[0].Rooms[0].Locations[0]
	data := fmt.Sprintf(`{"alert_id":%q,"device_location_id":"%d","device_macid":[%q],"alert_status":"OPEN",
		"alert_type":"jam_fault","created_date":%q,"resolved_date":null,"resolution_type":null,"overdue":false,"refill_count":0}`,
		alertID, loc.ID, loc.Devices[0].MAC, a.clock.Now().UTC().Format(webhook.TimeLayout))
	body, _ := json.Marshal(webhook.Event{ID: eventID, Type: webhook.AlertCreated, CreatedAt: a.clock.Now(), Data: json.RawMessage(data)})
	return webhook.Sign(secret, eventID, at, body), body
}

func TestTheHookAnswersEveryBadDeliveryWithItsStatus(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	addr, _, text := b.makeReceiver("")
	secret, _ := webhook.ParseSecret(text)
	now := time.Now()

	h, body := alertEvent(a, secret, "evt_ok", "hook-alert-1", now)
	if code, _ := postEvent(t, addr, h, body); code != http.StatusNoContent {
		t.Fatalf("a good delivery = %d, want 204", code)
	}
	// Account B is synced too: its alerts are in the cache.
	a.browser().signIn(credB)
	bAlert := a.world.Accounts()[1].AlertRecords()[0].ID
	tests := []struct {
		name string
		send func() (int, string)
		want int
	}{
		{"the same delivery again", func() (int, string) { return postEvent(t, addr, h, body) }, http.StatusNoContent},
		{"an unknown receiver", func() (int, string) { return postEvent(t, strings.TrimRight(addr, "/")+"x", h, body) }, http.StatusNotFound},
		{"a wrong signature", func() (int, string) {
			wh, wb := alertEvent(a, webhook.NewSecret(), "evt_w", "w", now)
			return postEvent(t, addr, wh, wb)
		}, http.StatusUnauthorized},
		{"a stale timestamp", func() (int, string) {
			oh, ob := alertEvent(a, secret, "evt_o", "o", now.Add(-10*time.Minute))
			return postEvent(t, addr, oh, ob)
		}, http.StatusUnauthorized},
		{"no signature", func() (int, string) { return postEvent(t, addr, http.Header{}, body) }, http.StatusUnauthorized},
		{"malformed JSON", func() (int, string) {
			junk := []byte(`{"id": "evt_j", "type": `)
			return postEvent(t, addr, webhook.Sign(secret, "evt_j", now, junk), junk)
		}, http.StatusBadRequest},
		{"another account's alert", func() (int, string) {
			xh, xb := alertEvent(a, secret, "evt_x", bAlert, now)
			return postEvent(t, addr, xh, xb)
		}, http.StatusBadRequest},
		{"an event of a type this receiver does not read", func() (int, string) {
			ev, _ := json.Marshal(webhook.Event{ID: "evt_del", Type: "alert.deleted", CreatedAt: now, Data: json.RawMessage(`{"alert_id":"hook-alert-1"}`)})
			return postEvent(t, addr, webhook.Sign(secret, "evt_del", now, ev), ev)
		}, http.StatusBadRequest},
		{"a body over 1 MB", func() (int, string) {
			big := bytes.Repeat([]byte("x"), 1<<20+1)
			return postEvent(t, addr, webhook.Sign(secret, "evt_big", now, big), big)
		}, http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		code, answer := tt.send()
		if code != tt.want {
			t.Errorf("%s = %d (%s), want %d", tt.name, code, answer, tt.want)
		}
		// Every refusal is JSON with the status and why, in words.
		var refusal struct {
			Status int    `json:"status"`
			Error  string `json:"error"`
		}
		if err := json.Unmarshal([]byte(answer), &refusal); code >= 400 && (err != nil || refusal.Status != code || refusal.Error == "") {
			t.Errorf("%s is answered %.100q; want JSON with the status and why", tt.name, answer)
		}
	}
	if code, answer := postEvent(t, addr, http.Header{}, bytes.Repeat([]byte("x"), 1<<20+1)); code != http.StatusRequestEntityTooLarge ||
		!strings.Contains(answer, "larger than 1048576 bytes") {
		t.Errorf("a body over 1 MB: %d %.100q; want 413 saying how large an event may be", code, answer)
	}
	// The refused deliveries are counted as such on the Webhooks page: all
	// but the first, its repeat, the unknown receiver's and the bodies too
	// large to read.
	row := b.get("/webhooks").doc(t).Find("tbody tr").First()
	if acc, ref := row.Find(`td[data-label="Accepted"]`).Text(), row.Find(`td[data-label="Refused"]`).Text(); acc != "2" || ref != "6" {
		t.Errorf("the receiver's counts: %s accepted, %s refused; want 2 and 6", acc, ref)
	}
	// No cookie or form token applies: the route sets none.
	req, _ := http.NewRequest(http.MethodPost, addr, bytes.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		if len(resp.Cookies()) > 0 {
			t.Error("the hook sets a cookie")
		}
		resp.Body.Close()
	}
	// The log says why, never with the body or the secret.
	logs := a.logs.String()
	for _, leak := range []string{strings.TrimPrefix(text, "whsec_"), "jam_fault", `"type": `} {
		if strings.Contains(logs, leak) {
			t.Errorf("the log holds %q", leak)
		}
	}
	for _, why := range []string{"no matching webhook signature", "too old", "not an event", "another account"} {
		if !strings.Contains(logs, why) {
			t.Errorf("the log does not say %q", why)
		}
	}
}

func TestTheHookSurvivesHostileDeliveries(t *testing.T) {
	t.Parallel()
	// The receiver's wall clock stands still, so that the whole test is
	// one minute of refusals, whenever in the minute it starts.
	wall := clock.NewFake(time.Now())
	cfg := receiverConfigForFlood
	cfg.Now = wall.Now
	a := newAppWith(t, Config{}, appOptions{locations: 120, receiver: cfg})
	b := a.browser()
	b.signIn(credA)
	addr, _, text := b.makeReceiver("")
	secret, _ := webhook.ParseSecret(text)
	rng := rand.New(rand.NewPCG(7, 8))
	now := wall.Now()

	// A bounded fuzz of bodies and headers, signed and not.
	for i := range 300 {
		body := []byte(fuzzValue(rng))
		if i%3 == 0 {
			body = []byte(fmt.Sprintf(`{"id":%q,"type":%q,"created_at":%q,"data":%s}`, fuzzValue(rng), "alert."+fuzzValue(rng), fuzzValue(rng), fuzzValue(rng)))
		}
		h := webhook.Sign(secret, fmt.Sprint("evt_f", i), now, body)
		// Header values as an HTTP client can send them.
		header := func() string {
			return strings.Map(func(r rune) rune {
				if r < ' ' || r > '~' {
					return -1
				}
				return r
			}, fuzzValue(rng))
		}
		switch i % 4 {
		case 1:
			h.Set(webhook.HeaderTimestamp, header())
		case 2:
			h.Set(webhook.HeaderSignature, header())
		case 3:
			h.Set(webhook.HeaderID, header())
		}
		code, answer := postEvent(t, addr, h, body)
		if code >= 500 || code < 200 {
			t.Fatalf("fuzz %d: %d %s", i, code, answer)
		}
	}
	// A flood from one sender, faster than events are applied: no 5xx but
	// the documented 503, and the server stays up.
	var wg sync.WaitGroup
	var busy, ok, other atomic.Int64
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				id := fmt.Sprintf("evt_flood_%d_%d", w, i)
				h, body := alertEvent(a, secret, id, fmt.Sprintf("flood-%d-%d", w, i), now)
				switch code, _ := postEvent(t, addr, h, body); code {
				case http.StatusNoContent:
					ok.Add(1)
				case http.StatusServiceUnavailable:
					busy.Add(1)
				default:
					other.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if other.Load() > 0 || ok.Load() == 0 {
		t.Errorf("a flood of 960 good deliveries: %d accepted, %d told to retry, %d other answers", ok.Load(), busy.Load(), other.Load())
	}
	if r := b.get("/"); r.StatusCode != http.StatusOK {
		t.Errorf("after the flood the overview = %d", r.StatusCode)
	}
	if n := strings.Count(a.logs.String(), `msg="event refused"`); n > 25 {
		t.Errorf("%d log lines for refused events in a minute; want them bounded", n)
	}
}

func TestEventsAreAppliedAndAnnouncedWithinSeconds(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	addr, _, text := b.makeReceiver("")
	secret, _ := webhook.ParseSecret(text)
	if _, _, err := a.world.AddWebhook(0, sim.WebhookSpec{URL: addr, Secret: secret}); err != nil {
		t.Fatal(err)
	}
	events, stop := a.engine.Subscribe(acc.ID)
	defer stop()
	// A towel runs out: the simulator raises an alert and sends it.
	var mac, loc string
	for _, r := range acc.Rooms {
		for _, l := range r.Locations {
			if l.Type == "towel" && mac == "" && len(openAlertsAt(t, a, acc.ID, fmt.Sprint(l.ID))) == 0 {
				mac, loc = l.Devices[0].MAC, fmt.Sprint(l.ID)
			}
		}
	}
	began := time.Now()
	a.world.Empty(mac)
	deadline := time.After(5 * time.Second)
	for len(openAlertsAt(t, a, acc.ID, loc)) == 0 {
		select {
		case ev := <-events:
			if ev.Kind != syncer.EventChanged || ev.Resource != domain.ResourceAlerts {
				t.Logf("event %s %s", ev.Kind, ev.Resource)
			}
		case <-deadline:
			t.Fatal("the alert did not reach the cache within 5 s of the simulated event")
		}
	}
	t.Logf("event to cache: %s", time.Since(began).Round(time.Millisecond))
	if !a.engine.Live(acc.ID) {
		t.Error("the account is not live while events arrive")
	}
	if got := b.get("/status").body; !strings.Contains(got, "alerts live") {
		t.Errorf("the freshness line does not say the alerts are live: %s", got)
	}
	list := b.get("/webhooks").doc(t)
	if got := list.Find(`td[data-label="Accepted"]`).Text(); got == "0" {
		t.Errorf("the receiver counts %s accepted", got)
	}
}

func openAlertsAt(t *testing.T, a *app, account, loc string) []domain.Alert {
	t.Helper()
	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: account, LocationID: loc, Status: domain.AlertOpen})
	if err != nil {
		t.Fatal(err)
	}
	return alerts
}

// shuffler stands between the simulator and the dashboard: it sends every
// delivery on twice, in a shuffled order.
type shuffler struct {
	to      string
	rng     *rand.Rand
	mu      sync.Mutex
	held    []*http.Request
	sent    atomic.Int64 // deliveries passed on, twice each
	applied atomic.Int64 // of them, answered 204 by the dashboard
}

func (s *shuffler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req, _ := http.NewRequest(http.MethodPost, s.to, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	s.mu.Lock()
	s.held = append(s.held, req)
	var send []*http.Request
	if len(s.held) >= 4 { // every fourth delivery releases the held ones, shuffled, each twice
		send = append(s.held, s.held...)
		s.rng.Shuffle(len(send), func(i, j int) { send[i], send[j] = send[j], send[i] })
		s.held = nil
	}
	s.mu.Unlock()
	for _, q := range send {
		again, _ := http.NewRequest(http.MethodPost, q.URL.String(), nil)
		again.Header = q.Header
		b, _ := io.ReadAll(q.Body)
		q.Body = io.NopCloser(bytes.NewReader(b))
		again.Body = io.NopCloser(bytes.NewReader(b))
		s.sent.Add(1)
		if resp, err := http.DefaultClient.Do(again); err == nil {
			if resp.StatusCode == http.StatusNoContent {
				s.applied.Add(1)
			}
			resp.Body.Close()
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func TestLostDuplicatedAndReorderedEventsLeaveTheCacheRightAfterTwoPolls(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	addr, _, text := b.makeReceiver("")
	secret, _ := webhook.ParseSecret(text)
	sh := &shuffler{to: addr, rng: rand.New(rand.NewPCG(1, 2))}
	shuffle := httptest.NewServer(sh)
	defer shuffle.Close()
	f := a.world.Faults()
	f.WebhookDropRate = 0.3
	a.world.SetFaults(f)
	if _, _, err := a.world.AddWebhook(0, sim.WebhookSpec{URL: shuffle.URL, Secret: secret}); err != nil {
		t.Fatal(err)
	}
	// A simulated day passes in steps of ten minutes: alerts open, change
	// and close, and their events are lost, doubled and shuffled.
	for range 144 {
		a.clock.Advance(10 * time.Minute)
		a.clock.BlockUntil(1)
		b.get("/status") // someone keeps looking: the session holds the sync
	}
	if sh.sent.Load() < 40 || sh.applied.Load() == 0 {
		t.Fatalf("%d deliveries passed on, %d taken: too few events for the test", sh.sent.Load(), sh.applied.Load())
	}
	t.Logf("%d deliveries passed on (each twice), %d answered 204", sh.sent.Load()/2, sh.applied.Load())
	// Two poll intervals after the events, the cache matches the
	// simulator exactly.
	a.clock.Advance(5 * time.Minute)
	a.clock.BlockUntil(1)
	a.clock.Advance(5 * time.Minute)
	a.clock.BlockUntil(1)
	checkCacheMatchesSimulator(t, a, acc)
}

// receiverConfigForFlood makes the queue small compared with a flood, so
// that it fills.
var receiverConfigForFlood = receiver.Config{QueueSize: 64}

func TestAnEventThatComesLateNeverUndoesALaterState(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	addr, _, text := b.makeReceiver("")
	secret, _ := webhook.ParseSecret(text)
	acc := a.world.Accounts()[0]
	loc := acc.Rooms[0].Locations[0]
	created := a.clock.Now().Add(-time.Hour).UTC().Format(webhook.TimeLayout)
	event := func(id, status string, refills int, resolved string) (http.Header, []byte) {
		res := "null"
		if resolved != "" {
			res = fmt.Sprintf("%q", resolved)
		}
		data := fmt.Sprintf(`{"alert_id":"late-1","device_location_id":"%d","device_macid":[%q],"alert_status":%q,"alert_type":"consumable_out",
			"created_date":%q,"resolved_date":%s,"resolution_type":%s,"overdue":false,"refill_count":%d}`,
			loc.ID, loc.Devices[0].MAC, status, created, res, map[bool]string{true: `"RESOLVED"`, false: "null"}[resolved != ""], refills)
		body, _ := json.Marshal(webhook.Event{ID: id, Type: webhook.AlertUpdated, CreatedAt: a.clock.Now(), Data: json.RawMessage(data)})
		return webhook.Sign(secret, id, time.Now(), body), body
	}
	resolvedAt := a.clock.Now().UTC().Format(webhook.TimeLayout)
	// The events of one alert arrive newest first.
	for _, e := range []struct {
		id, status string
		refills    int
		resolved   string
	}{{"evt_3", "CLOSED", 2, resolvedAt}, {"evt_2", "OPEN", 2, ""}, {"evt_1", "OPEN", 1, ""}} {
		h, body := event(e.id, e.status, e.refills, e.resolved)
		if code, answer := postEvent(t, addr, h, body); code != http.StatusNoContent {
			t.Fatalf("%s = %d %s", e.id, code, answer)
		}
	}
	// Events are applied in the order they were taken: once a last one is
	// in the cache, so are the three.
	h, body := alertEvent(a, secret, "evt_last", "late-sentinel", time.Now())
	if code, answer := postEvent(t, addr, h, body); code != http.StatusNoContent {
		t.Fatalf("the last event = %d %s", code, answer)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		all, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: acc.ID, LocationID: fmt.Sprint(loc.ID)})
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]domain.Alert{}
		for _, x := range all {
			byID[x.ID] = x
		}
		if _, done := byID["late-sentinel"]; done {
			got := byID["late-1"]
			if got.Open() || got.RefillCount != 2 {
				t.Errorf("after the events came newest first, the alert is %s with %d refills; want closed with 2", got.Status, got.RefillCount)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the events were not applied within 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
