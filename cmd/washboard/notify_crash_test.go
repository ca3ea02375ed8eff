package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
)

// TestNotificationsSurviveSIGKILL writes 1,000 alerts opening at once,
// with a rule that notifies a webhook of each, then starts the real
// binary and kills it with SIGKILL ten times at random moments while it
// delivers. After the last start, every notification has arrived at least
// once, and every duplicate carries the same key as the first delivery.
func TestNotificationsSurviveSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary and kills it ten times")
	}
	const burst = 1000
	bin := buildBinary(t)
	up := newUpstreamSimOf(t, 10)
	data := t.TempDir()
	writeBurst(t, filepath.Join(data, "washboard.db"), burst)

	var mu sync.Mutex
	keys := map[string]map[string]int{} // by alert: deliveries by webhook-id
	deliveries := 0
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var n struct {
			Alert struct {
				ID string `json:"alert_id"`
			} `json:"alert"`
		}
		if err := json.Unmarshal(body, &n); err != nil || n.Alert.ID == "" {
			t.Errorf("a delivery without an alert: %v: %.200s", err, body)
		}
		mu.Lock()
		if keys[n.Alert.ID] == nil {
			keys[n.Alert.ID] = map[string]int{}
		}
		keys[n.Alert.ID][r.Header.Get("webhook-id")]++
		deliveries++
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hooks.Close()
	delivered := func() (alerts, total int) {
		mu.Lock()
		defer mu.Unlock()
		return len(keys), deliveries
	}
	rulesFile := filepath.Join(t.TempDir(), "notifications.json")
	file := fmt.Sprintf(`{"accounts": [{"account_id": "acme",
	  "channels": [{"name": "ops", "webhook": {"url": %q}}],
	  "rules": [{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}]}]}`, hooks.URL)
	if err := os.WriteFile(rulesFile, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}

	var logs syncBuffer
	defer func() {
		if t.Failed() {
			t.Logf("the binary's log:\n%s", logs.String())
		}
	}()
	args := []string{"serve", "--listen", "127.0.0.1:0", "--data", data, "--upstream", up.srv.URL, "--log-format", "json",
		"--notifications", rulesFile, "--allow-private-webhooks", "--notification-rate", "100000"}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 10 {
		cmd, _ := startBinary(t, bin, &logs, args...)
		_, before := delivered()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if _, now := delivered(); now > before {
				break
			}
		}
		time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		alerts, total := delivered()
		t.Logf("kill %d: %d notifications delivered, %d deliveries", i+1, alerts, total)
	}
	cmd, _ := startBinary(t, bin, &logs, args...)
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if alerts, _ := delivered(); alerts == burst {
			break
		}
	}
	alerts, total := delivered()
	if alerts != burst {
		t.Fatalf("%d of %d notifications delivered after ten kills", alerts, burst)
	}
	mu.Lock()
	defer mu.Unlock()
	for alert, ids := range keys {
		if len(ids) != 1 {
			t.Errorf("the notification of %s was delivered under %d keys: %v", alert, len(ids), ids)
		}
	}
	t.Logf("%d notifications delivered in %d deliveries (%d duplicates, each with its notification's key)", alerts, total, total-alerts)
}

// writeBurst writes, into a new cache, an account whose alerts refresh
// and then n alerts opening at once: n facts waiting in the outbox.
func writeBurst(t *testing.T, path string, n int) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l := domain.Layout{
		Account:   domain.Account{ID: "acme", Name: "Acme"},
		Buildings: []domain.Building{{ID: "b1", Name: "North Tower"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Ground floor"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Restroom A"}},
		Locations: []domain.Location{{ID: "l1", RoomID: "r1", Name: "Stall 1", Type: domain.Tissue}},
	}
	if _, err := st.ReplaceLayout(ctx, l); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{SeenAt: now}); err != nil {
		t.Fatal(err)
	}
	var alerts []domain.Alert
	for i := range n {
		alerts = append(alerts, domain.Alert{ID: fmt.Sprintf("burst-%04d", i), LocationID: "l1", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: now, RefillCount: 1})
	}
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: alerts, SeenAt: now}); err != nil {
		t.Fatal(err)
	}
	if facts, err := st.FactsAfter(ctx, 0, 0); err != nil || len(facts) == 0 {
		t.Fatalf("the burst recorded no facts (%v)", err)
	}
}
