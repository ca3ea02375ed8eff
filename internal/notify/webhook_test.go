package notify

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/notify/mailtest"
	"washboard/internal/webhook"
)

// received is a request a test receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver is an HTTP server that records what it is sent and answers
// with answer (200 when nil).
type receiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []received
}

func newReceiver(t *testing.T, answer http.HandlerFunc) *receiver {
	t.Helper()
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{req.Header.Clone(), body})
		r.mu.Unlock()
		if answer != nil {
			answer(w, req)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// newTestWebhook is a channel to url that may reach loopback, with a fake
// clock at the fixtures' time.
func newTestWebhook(t *testing.T, cfg WebhookConfig) (*Webhook, *clock.Fake) {
	t.Helper()
	clk := clock.NewFake(decided)
	cfg.Guard.AllowPrivate = true
	cfg.Clock = clk
	w, err := NewWebhook(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w, clk
}

func mustSecret(t *testing.T) webhook.Secret {
	t.Helper()
	s, err := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A receiver checks each delivery with the Standard Webhooks headers: the
// signature verifies with the shared secret, and webhook-id is the
// notification's key, the same when it is sent again, so that the
// receiver can drop the repeat.
func TestWebhookDeliveryIsSignedAndKeepsItsIDOnAResend(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	secret := mustSecret(t)
	w, clk := newTestWebhook(t, WebhookConfig{URL: rcv.URL + "/hooks/washboard", Secret: secret})

	n := productOut()
	if err := w.Send(context.Background(), n); err != nil {
		t.Fatalf("first attempt: %v", err)
	}
	clk.Advance(5 * time.Minute)
	if err := w.Send(context.Background(), n); err != nil {
		t.Fatalf("second attempt: %v", err)
	}
	got := rcv.requests()
	if len(got) != 2 {
		t.Fatalf("the receiver got %d requests, want 2", len(got))
	}
	for i, r := range got {
		if err := webhook.Verify(secret, r.header, r.body, decided.Add(time.Duration(i)*5*time.Minute)); err != nil {
			t.Errorf("attempt %d does not verify: %v", i+1, err)
		}
		if id := r.header.Get("webhook-id"); id != n.ID {
			t.Errorf("attempt %d: webhook-id %q, want the idempotency key %q", i+1, id, n.ID)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
	}
	if got[0].header.Get("webhook-timestamp") == got[1].header.Get("webhook-timestamp") {
		t.Errorf("both attempts have the timestamp %s; each attempt is stamped when it is made", got[0].header.Get("webhook-timestamp"))
	}
	var b genericBody
	if err := json.Unmarshal(got[0].body, &b); err != nil || b.Event != "alert.opened" || b.ID != n.ID {
		t.Errorf("body %s (%v)", got[0].body, err)
	}
}

// Without a secret the request still carries webhook-id and
// webhook-timestamp, and no signature.
func TestWebhookWithoutSecretIsUnsigned(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL})
	if err := w.Send(context.Background(), productOut()); err != nil {
		t.Fatal(err)
	}
	h := rcv.requests()[0].header
	if h.Get("webhook-id") != productOut().ID || h.Get("webhook-timestamp") != strconv.FormatInt(decided.Unix(), 10) || h.Get("webhook-signature") != "" {
		t.Errorf("headers id %q, timestamp %q, signature %q", h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"))
	}
}

// Slack and Teams receive the shapes their webhooks document.
func TestWebhookSendsSlackAndTeamsShapes(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	slack, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL + "/services/T0/B0/x", Format: FormatSlack})
	teams, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL + "/workflows/x", Format: FormatTeams})
	if err := slack.Send(context.Background(), productOut()); err != nil {
		t.Fatal(err)
	}
	if err := teams.Send(context.Background(), digest()); err != nil {
		t.Fatal(err)
	}
	got := rcv.requests()
	var s slackBody
	if err := json.Unmarshal(got[0].body, &s); err != nil || s.Text == "" || s.Blocks[0].Type != "section" || s.Blocks[1].Elements[0].Type != "button" {
		t.Errorf("Slack body %s (%v)", got[0].body, err)
	}
	var m teamsBody
	if err := json.Unmarshal(got[1].body, &m); err != nil || m.Type != "message" || m.Attachments[0].Content.Type != "AdaptiveCard" ||
		m.Attachments[0].Content.Actions[0].URL != "https://washboard.example.com/alerts" {
		t.Errorf("Teams body %s (%v)", got[1].body, err)
	}
}

// A redirect is not followed: it is a permanent failure that says so with
// the status, and not where it pointed, which is the receiver's answer;
// the other address gets nothing.
func TestWebhookRedirectIsAPermanentFailure(t *testing.T) {
	t.Parallel()
	other := newReceiver(t, nil)
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/moved?token=s3cr3t", http.StatusPermanentRedirect)
	})
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL})
	err := w.Send(context.Background(), productOut())
	e := asError(t, err)
	if !e.Permanent || e.Code != 308 {
		t.Errorf("permanent %v, code %d; want a permanent failure with 308", e.Permanent, e.Code)
	}
	host := strings.TrimPrefix(rcv.URL, "http://")
	if want := host + " answered 308 Permanent Redirect, a redirect, and redirects are not followed"; !strings.HasPrefix(e.Error(), want) {
		t.Errorf("error %q, want it to begin %q", e, want)
	}
	if strings.Contains(e.Error(), "/moved") || strings.Contains(e.Error(), "s3cr3t") {
		t.Errorf("error %q repeats where the redirect pointed", e)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the redirect's target got %d requests", n)
	}
}

// A receiver that does not answer in time is a transient failure that
// says how long Washboard waited.
func TestWebhookTimeoutIsTransient(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL, Timeout: 200 * time.Millisecond})
	e := asError(t, w.Send(context.Background(), productOut()))
	if e.Permanent || !strings.Contains(e.Error(), "did not answer within 200ms") {
		t.Errorf("error %q (permanent %v); want a transient timeout", e, e.Permanent)
	}
}

// The caller's cancellation ends the attempt at once, as a transient
// failure that unwraps to the context's error.
func TestWebhookCancelledByTheCaller(t *testing.T) {
	t.Parallel()
	arrived, release := make(chan struct{}), make(chan struct{})
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	err := w.Send(ctx, productOut())
	if !errors.Is(err, context.Canceled) || IsPermanent(err) {
		t.Errorf("error %v; want a transient failure that is context.Canceled", err)
	}
}

// Each answer is classified as a user would expect: 5xx, 408 and 429 may
// go away by themselves; other 4xx will not. The error gives the status,
// never the body.
func TestWebhookAnswersAreClassified(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status     int
		retryAfter string
		permanent  bool
		words      string
		wait       time.Duration
	}{
		{500, "", false, "answered 500 Internal Server Error", 0},
		{502, "", false, "answered 502 Bad Gateway", 0},
		{503, "30", false, "answered 503 Service Unavailable; it asked to wait 30s before trying again", 30 * time.Second},
		{429, "120", false, "answered 429 Too Many Requests; it asked to wait 2m0s before trying again", 2 * time.Minute},
		{429, decided.Add(90 * time.Second).Format(http.TimeFormat), false, "it asked to wait 1m30s", 90 * time.Second},
		{429, "", false, "answered 429 Too Many Requests", 0},
		{408, "", false, "answered 408 Request Timeout", 0},
		{400, "", true, "refused the message: 400 Bad Request", 0},
		{599, "", false, "answered 599", 0},
		{401, "", true, "refused the message: 401 Unauthorized", 0},
		{404, "", true, "refused the message: 404 Not Found", 0},
		{410, "", true, "refused the message: 410 Gone", 0},
	} {
		rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
			if c.retryAfter != "" {
				w.Header().Set("Retry-After", c.retryAfter)
			}
			w.WriteHeader(c.status)
			io.WriteString(w, "database\n  down")
		})
		w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL})
		e := asError(t, w.Send(context.Background(), productOut()))
		host := strings.TrimPrefix(rcv.URL, "http://")
		if e.Permanent != c.permanent || e.Code != c.status || !strings.Contains(e.Error(), c.words) || !strings.HasPrefix(e.Error(), host) {
			t.Errorf("%d: %q (permanent %v, code %d); want permanent %v and %q", c.status, e, e.Permanent, e.Code, c.permanent, c.words)
		}
		if strings.Contains(e.Error(), "database") {
			t.Errorf("%d: %q repeats the body", c.status, e)
		}
		if e.RetryAfter != c.wait || RetryAfter(e) != c.wait {
			t.Errorf("%d Retry-After %q: RetryAfter %s, want %s", c.status, c.retryAfter, e.RetryAfter, c.wait)
		}
		if errors.Is(e, ErrPermanent) != c.permanent || errors.Is(e, ErrTransient) == c.permanent {
			t.Errorf("%d: errors.Is does not match the class", c.status)
		}
	}
}

// An error names the receiver's host, never the webhook's path (a Slack
// or Teams URL's secret), the signing secret, or the message.
func TestWebhookErrorsHideSecretsAndTheBody(t *testing.T) {
	t.Parallel()
	secret := mustSecret(t)
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "no hook at "+r.URL.Path+" for "+secret.Text())
	})
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL + "/services/T000/B000/XXXXSECRETXXXX", Secret: secret})
	e := asError(t, w.Send(context.Background(), productOut()))
	for _, hidden := range []string{"XXXXSECRETXXXX", secret.Text(), "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "Replace with a full refill", "tissue rolls"} {
		if strings.Contains(e.Error(), hidden) {
			t.Errorf("error %q holds %q", e, hidden)
		}
	}
	if !strings.Contains(e.Error(), "404 Not Found") {
		t.Errorf("error %q does not give the status", e)
	}

	rcv.Close()
	e = asError(t, w.Send(context.Background(), productOut()))
	if strings.Contains(e.Error(), "XXXXSECRETXXXX") {
		t.Errorf("network error %q holds the URL's path", e)
	}
}

// A receiver that is not there is a transient failure: it may come back.
func TestWebhookUnreachableIsTransient(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	w, _ := newTestWebhook(t, WebhookConfig{URL: "http://" + addr + "/hooks"})
	e := asError(t, w.Send(context.Background(), productOut()))
	if e.Permanent || e.Error() != "could not reach "+addr+": connection refused" {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// An https URL to a server that speaks plain HTTP is a permanent failure
// that points at the scheme.
func TestWebhookHTTPSToAPlainServerIsPermanent(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	w, _ := newTestWebhook(t, WebhookConfig{URL: strings.Replace(rcv.URL, "http://", "https://", 1)})
	e := asError(t, w.Send(context.Background(), productOut()))
	if !e.Permanent || !strings.Contains(e.Error(), "does not speak HTTPS") {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
}

// A message larger than a webhook may carry is refused before anything is
// sent.
func TestWebhookRefusesAnOversizedMessage(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL})
	item := productOut().Item
	item.Action = strings.Repeat("Check the dispenser. ", 100)
	items := make([]Item, 400)
	for i := range items {
		items[i] = item
	}
	e := asError(t, w.Send(context.Background(), NewDigest("big", decided, "All", "", items)))
	if !e.Permanent || !strings.Contains(e.Error(), "more than the 512 KB a webhook request may carry") {
		t.Errorf("error %q", e)
	}
	if len(rcv.requests()) != 0 {
		t.Errorf("the receiver got the message")
	}
}

// A notification without a key cannot be sent: webhook-id would be empty.
func TestWebhookRefusesANotificationWithoutAKey(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL})
	n := productOut()
	n.ID = ""
	e := asError(t, w.Send(context.Background(), n))
	if !e.Permanent || !errors.Is(e, ErrInvalid) || len(rcv.requests()) != 0 {
		t.Errorf("error %q, %d requests", e, len(rcv.requests()))
	}
}

// "Send a test" says in words what happened, either way.
func TestWebhookTestSaysWhatHappened(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL, Format: FormatSlack, Link: "https://washboard.example.com/"})
	said, err := w.Test(context.Background())
	host := strings.TrimPrefix(rcv.URL, "http://")
	if err != nil || said != host+" accepted the test Slack message (HTTP 200 OK)." {
		t.Errorf("Test() = %q, %v", said, err)
	}
	var s slackBody
	json.Unmarshal(rcv.requests()[0].body, &s)
	if s.Text != "Test notification from Washboard" || s.Blocks[len(s.Blocks)-1].Elements[0].URL != "https://washboard.example.com/" {
		t.Errorf("test message %s", rcv.requests()[0].body)
	}
	if id := rcv.requests()[0].header.Get("webhook-id"); !strings.HasPrefix(id, "test_") {
		t.Errorf("test webhook-id %q", id)
	}

	gone := newReceiver(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no_service", http.StatusNotFound) })
	w, _ = newTestWebhook(t, WebhookConfig{URL: gone.URL, Format: FormatSlack})
	said, err = w.Test(context.Background())
	host = strings.TrimPrefix(gone.URL, "http://")
	if err == nil || said != "The test was not delivered: "+host+" refused the message: 404 Not Found." {
		t.Errorf("Test() = %q, %v", said, err)
	}
}

// A webhook URL that cannot work is refused when it is set, with words
// that name the fault and do not repeat a password.
func TestNewWebhookRefusesUnusableURLs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ url, words string }{
		{"", "the webhook has no URL"},
		{"hooks.example.com/x", "must begin with https://"},
		{"ftp://hooks.example.com/x", "must begin with https://"},
		{"https:///x", "has no host"},
		{"https://bob:hunter2@hooks.example.com/x", "must not hold a user name or password"},
		{"https://hooks.example.com:99999/x", "is not a port number"},
		{"https://hooks.example.com/x#part", "must not have a #fragment"},
	} {
		_, err := NewWebhook(WebhookConfig{URL: c.url})
		if err == nil || !strings.Contains(err.Error(), c.words) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("NewWebhook(%q): %v; want %q", c.url, err, c.words)
		}
	}
	if _, err := NewWebhook(WebhookConfig{URL: "https://hooks.example.com/x", Format: "discord"}); err == nil {
		t.Errorf("an unknown format was accepted")
	}
}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want an *Error", err, err)
	}
	return e
}

// "Send a test" says the status a receiver answered in words, never its
// body; of a service that does not speak HTTP, it says so and repeats
// nothing it sent.
func TestWebhookTestRepeatsNoAnswer(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "panic at internal-db-01: password authentication failed for user washboard", http.StatusInternalServerError)
	})
	w, _ := newTestWebhook(t, WebhookConfig{URL: rcv.URL})
	said, err := w.Test(context.Background())
	if want := "The test was not delivered: " + strings.TrimPrefix(rcv.URL, "http://") + " answered 500 Internal Server Error."; err == nil || said != want {
		t.Errorf("Test() = %q; want %q", said, want)
	}

	im := mailtest.StartImpostor(t, "500 internal-db-01 banner\r\n", false)
	w, _ = newTestWebhook(t, WebhookConfig{URL: "http://" + im.Addr + "/hook"})
	said, err = w.Test(context.Background())
	if want := "The test was not delivered: " + im.Addr + " did not give an HTTP answer Washboard could read."; err == nil || said != want {
		t.Errorf("Test() = %q; want %q", said, want)
	}
}
