package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"washboard/internal/webhook"
)

// simUntilStopped runs "washboard sim" with args until stop, which returns
// its exit code and log.
func simUntilStopped(t *testing.T, args ...string) (printed string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	_, printed, done, stderr := startSim(t, ctx, args...)
	return printed, func() (int, string) {
		cancel()
		select {
		case code := <-done:
			return code, stderr.String()
		case <-time.After(10 * time.Second):
			t.Fatal("the simulator did not stop within 10 s of cancellation")
			return 0, ""
		}
	}
}

func TestSimSendsWebhooks(t *testing.T) {
	t.Parallel()
	secrets := make(chan webhook.Secret, 1)
	got := make(chan error, 100)
	recv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		secret := <-secrets
		secrets <- secret
		err := webhook.Verify(secret, r.Header, body, time.Now())
		var ev webhook.Event
		if err == nil {
			err = json.Unmarshal(body, &ev)
		}
		select {
		case got <- err:
		default:
		}
		rw.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()

	// A day a second: 40 locations raise alerts every few seconds.
	printed, stop := simUntilStopped(t, "--devices", "40", "--history", "2d", "--speed", "86400", "--webhook-url", recv.URL+"/hook")
	m := regexp.MustCompile(`Webhook (wh_\S+) of account 1 sends every event to (\S+)\n  secret: (whsec_\S+)`).FindStringSubmatch(printed)
	if m == nil || m[2] != recv.URL+"/hook" {
		stop()
		t.Fatalf("no webhook with its made-up secret printed; output:\n%s", printed)
	}
	secret, err := webhook.ParseSecret(m[3])
	if err != nil {
		stop()
		t.Fatalf("printed secret: %v", err)
	}
	secrets <- secret

	// Two deliveries: the worker logs the first before it makes the second.
	for range 2 {
		select {
		case err := <-got:
			if err != nil {
				t.Errorf("a delivery does not verify with the printed secret: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("no delivery within 5 s")
		}
	}
	code, logs := stop()
	if code != 0 {
		t.Errorf("exit code %d, want 0; log:\n%s", code, logs)
	}
	if !regexp.MustCompile(`msg="webhook delivery" webhook=` + m[1] + ` event=evt_\S+ type=alert\.\S+ alert=\S+ attempt=1 outcome=delivered`).MatchString(logs) {
		t.Errorf("no delivery line in the log:\n%s", logs)
	}
	if strings.Contains(logs, strings.TrimPrefix(m[3], "whsec_")) {
		t.Error("the log reveals the webhook secret")
	}
}

func TestSimWebhookSecretGivenIsNotPrinted(t *testing.T) {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	t.Setenv("WASHBOARD_WEBHOOK_SECRET", secret)
	printed, stop := simUntilStopped(t, "--devices", "5", "--history", "1h", "--webhook-url", "http://127.0.0.1:1/hook")
	code, _ := stop()
	if !regexp.MustCompile(`Webhook wh_\S+ of account 1 sends every event to http://127\.0\.0\.1:1/hook\n`).MatchString(printed) {
		t.Errorf("the webhook is not announced; output:\n%s", printed)
	}
	if strings.Contains(printed, strings.TrimPrefix(secret, "whsec_")) {
		t.Errorf("a secret given by the environment is printed:\n%s", printed)
	}
	if code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}
