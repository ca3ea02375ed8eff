package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"washboard/internal/metrics"
)

// TestHealthAndReadiness: /healthz and /readyz answer without a session,
// with the version and nothing about accounts; /readyz is 503 when the
// database does not answer.
func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{Version: "v1.2.3"})
	b := a.browser()
	b.signIn(credA)
	anon := a.browser()
	for _, path := range []string{"/healthz", "/readyz"} {
		r := anon.get(path)
		var h health
		if r.StatusCode != http.StatusOK || json.Unmarshal([]byte(r.body), &h) != nil || h.Status != "ok" || h.Version != "v1.2.3" {
			t.Errorf("%s: %d %s; want 200 with status ok and the version", path, r.StatusCode, r.body)
		}
		if acc := a.world.Accounts()[0]; strings.Contains(r.body, acc.Name) || strings.Contains(r.body, acc.ID) {
			t.Errorf("%s reveals the account: %s", path, r.body)
		}
	}
	a.store.Close()
	if r := anon.get("/readyz"); r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(r.body, "database") {
		t.Errorf("/readyz with the database closed: %d %s; want 503 naming the database", r.StatusCode, r.body)
	}
	if r := anon.get("/healthz"); r.StatusCode != http.StatusOK {
		t.Errorf("/healthz with the database closed: %d; the process still answers", r.StatusCode)
	}
}

// TestMetricsByRoutePattern: /metrics counts requests by route pattern,
// never by path (which would carry ids), and has no account in any label.
func TestMetricsByRoutePattern(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	a := newAppWith(t, Config{ServeMetrics: true}, appOptions{locations: 120, metrics: m})
	b := a.browser()
	b.signIn(credA)
	floor := a.world.Accounts()[0].Buildings[0].Floors[0].ID
	b.get("/floors/" + floor)
	r := a.browser().get("/metrics")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d", r.StatusCode)
	}
	if !strings.Contains(r.body, `washboard_http_request_duration_seconds_count{method="GET",route="/floors/:id",status="200"} 1`) {
		t.Error("the floor page is not counted by its route pattern")
	}
	acc := a.world.Accounts()[0]
	for _, secret := range []string{floor, acc.ID, acc.Name, credA.APIKey} {
		if strings.Contains(r.body, secret) {
			t.Errorf("/metrics holds %q", secret)
		}
	}
}

// TestEveryLogLineOfARequestHasItsID: the lines a request logs carry the
// id its response names.
func TestEveryLogLineOfARequestHasItsID(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	r := b.signIn(credA)
	id := r.Header.Get("X-Request-Id")
	if id == "" {
		t.Fatal("no X-Request-Id")
	}
	lines := 0
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, "signed in") || strings.Contains(line, "msg=request") && strings.Contains(line, "path=/signin") && strings.Contains(line, "method=POST") {
			lines++
			if !strings.Contains(line, "request_id=") {
				t.Errorf("a line of a request without its id: %s", line)
			}
		}
	}
	if lines < 2 {
		t.Errorf("found %d log lines of the sign-in; want the request line and the sign-in line", lines)
	}
}
