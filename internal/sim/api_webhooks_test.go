package sim

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"washboard/internal/webhook"
)

// adminRequest sends a request with a JSON body (none if empty) through h.
func adminRequest(t *testing.T, h http.Handler, method, path, body, key, auth string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result(), rec.Body.Bytes()
}

// webhookWire is a definition as a client of the admin interface decodes it.
type webhookWire struct {
	ID         string   `json:"id"`
	URL        string   `json:"url"`
	EventTypes []string `json:"event_types"`
	Enabled    bool     `json:"enabled"`
	Failing    bool     `json:"failing"`
	CreatedAt  string   `json:"created_at"`
	Queued     int      `json:"queued"`
	Dropped    int      `json:"dropped"`
	Secret     *string  `json:"secret"`
}

func TestAdminWebhooksAuthentication(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 20, WebhookOptions{})
	h := hw.Handler()
	made, _, err := hw.AddWebhook(0, WebhookSpec{URL: "https://example.com/hook"})
	if err != nil {
		t.Fatal(err)
	}
	endpoints := []struct{ method, path, body string }{
		{http.MethodGet, "/admin/webhooks", ""},
		{http.MethodPost, "/admin/webhooks", `{"url":"https://example.com/other"}`},
		{http.MethodGet, "/admin/webhooks/" + made.ID, ""},
		{http.MethodPatch, "/admin/webhooks/" + made.ID, `{"enabled":false}`},
		{http.MethodDelete, "/admin/webhooks/" + made.ID, ""},
		{http.MethodGet, "/admin/webhooks/" + made.ID + "/deliveries", ""},
	}
	creds := []struct {
		name, key, auth string
		status          int
	}{
		{"no headers", "", "", http.StatusForbidden},
		{"unknown x-api-key", "key-x", apiAuthA, http.StatusForbidden},
		{"no Authorization", apiKeyA, "", http.StatusUnauthorized},
		{"the other account's Authorization", apiKeyA, apiAuthB, http.StatusUnauthorized},
	}
	for _, e := range endpoints {
		for _, c := range creds {
			t.Run(e.method+" "+e.path+" "+c.name, func(t *testing.T) {
				res, body := adminRequest(t, h, e.method, e.path, e.body, c.key, c.auth)
				wantError(t, res, body, c.status, "")
			})
		}
	}
	if got := hw.Webhooks(0); len(got) != 1 || !got[0].Enabled {
		t.Errorf("after refused requests the definitions are %+v; want the one, untouched", got)
	}
}

func TestAdminWebhooksDefineListRemove(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{})
	var logs bytes.Buffer
	h := LogRequests(slog.New(slog.NewTextHandler(&logs, nil)), hw.Handler())
	rc := newReceiver(t, hw.wall)

	body := `{"url":"` + rc.url + `","secret":"` + rc.secret.Text() + `","event_types":["alert.resolved"]}`
	res, raw := adminRequest(t, h, http.MethodPost, "/admin/webhooks", body, apiKeyA, apiAuthA)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("POST: status %d, want 201; body %s", res.StatusCode, raw)
	}
	made := decodeJSON[webhookWire](t, raw)
	if made.Secret == nil || *made.Secret != rc.secret.Text() {
		t.Errorf("POST answered secret %v, want the one given", made.Secret)
	}
	if !strings.HasPrefix(made.ID, "wh_") || made.URL != rc.url || !slices.Equal(made.EventTypes, []string{"alert.resolved"}) || !made.Enabled || made.Failing {
		t.Errorf("POST answered %+v", made)
	}
	if loc := res.Header.Get("Location"); loc != "/admin/webhooks/"+made.ID {
		t.Errorf("Location %q, want /admin/webhooks/%s", loc, made.ID)
	}

	// Without a secret, one is made and shown once.
	_, raw = adminRequest(t, h, http.MethodPost, "/admin/webhooks", `{"url":"https://example.com/hook","enabled":false}`, apiKeyA, apiAuthA)
	second := decodeJSON[webhookWire](t, raw)
	if second.Secret == nil {
		t.Fatalf("POST without a secret answered none: %s", raw)
	}
	if _, err := webhook.ParseSecret(*second.Secret); err != nil || second.Enabled || len(second.EventTypes) != 0 {
		t.Errorf("made secret: %v; enabled %v; event_types %v; want a whsec_ secret, disabled, every type", err, second.Enabled, second.EventTypes)
	}

	list := getOK(t, h, "/admin/webhooks", apiKeyA, apiAuthA)
	for _, s := range []string{rc.secret.Text(), *second.Secret, `"secret"`} {
		if bytes.Contains(list, []byte(s)) {
			t.Errorf("the listing shows a secret: %s", list)
		}
	}
	listed := decodeJSON[struct{ Webhooks []webhookWire }](t, list).Webhooks
	if len(listed) != 2 || listed[0].ID != made.ID || listed[1].ID != second.ID {
		t.Fatalf("listing %s, want both definitions, oldest first", list)
	}
	if one := getOK(t, h, "/admin/webhooks/"+made.ID, apiKeyA, apiAuthA); bytes.Contains(one, []byte("secret")) {
		t.Errorf("GET of one definition shows its secret: %s", one)
	}

	// The other account sees none of them.
	if other := getOK(t, h, "/admin/webhooks", apiKeyB, apiAuthB); !bytes.Contains(other, []byte(`"webhooks":[]`)) {
		t.Errorf("account B's listing: %s, want empty", other)
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		res, raw := adminRequest(t, h, m, "/admin/webhooks/"+made.ID, "", apiKeyB, apiAuthB)
		wantError(t, res, raw, http.StatusNotFound, "id")
	}
	res, raw = adminRequest(t, h, http.MethodGet, "/admin/webhooks/"+made.ID+"/deliveries", "", apiKeyB, apiAuthB)
	wantError(t, res, raw, http.StatusNotFound, "id")

	// Only resolutions are sent, signed with the secret given.
	a := hw.accounts[0]
	d := quietDevice(t, a, isFourRoll)
	hw.alter(a, d, func() { setLevels(d, 0, 60, 70, 80) })
	al := openAlert(t, a, d, AlertConsumableOut)
	hw.alter(a, d, d.refill)
	if rv := rc.next(t); rv.event.Type != webhook.AlertResolved || alertOf(t, rv.event) != al.ID {
		t.Errorf("first delivery %s of %s; want only the resolution of %s", rv.event.Type, alertOf(t, rv.event), al.ID)
	}
	hw.entry(t)
	deliveries := getOK(t, h, "/admin/webhooks/"+made.ID+"/deliveries", apiKeyA, apiAuthA)
	var log struct {
		Deliveries []map[string]any `json:"deliveries"`
	}
	if err := json.Unmarshal(deliveries, &log); err != nil || len(log.Deliveries) != 1 {
		t.Fatalf("deliveries %s, want one entry", deliveries)
	}
	e := log.Deliveries[0]
	if e["type"] != "alert.resolved" || e["alert_id"] != al.ID || e["attempt"] != 1.0 || e["outcome"] != "delivered" ||
		e["status"] != 204.0 || e["next_attempt"] != nil || !strings.HasPrefix(e["event_id"].(string), "evt_") {
		t.Errorf("delivery entry %v", e)
	}
	if _, ok := e["duration_ms"].(float64); !ok {
		t.Errorf("delivery entry %v has no duration_ms", e)
	}

	// Disable, then remove.
	res, raw = adminRequest(t, h, http.MethodPatch, "/admin/webhooks/"+made.ID, `{"enabled":false}`, apiKeyA, apiAuthA)
	if res.StatusCode != http.StatusOK || decodeJSON[webhookWire](t, raw).Enabled {
		t.Errorf("PATCH enabled false: %d %s", res.StatusCode, raw)
	}
	res, raw = adminRequest(t, h, http.MethodDelete, "/admin/webhooks/"+made.ID, "", apiKeyA, apiAuthA)
	if res.StatusCode != http.StatusNoContent || len(raw) != 0 {
		t.Errorf("DELETE: %d %s, want 204 without a body", res.StatusCode, raw)
	}
	res, raw = adminRequest(t, h, http.MethodGet, "/admin/webhooks/"+made.ID, "", apiKeyA, apiAuthA)
	wantError(t, res, raw, http.StatusNotFound, "id")
	res, raw = adminRequest(t, h, http.MethodDelete, "/admin/webhooks/"+made.ID, "", apiKeyA, apiAuthA)
	wantError(t, res, raw, http.StatusNotFound, "id")
	if got := hw.Webhooks(0); len(got) != 1 || got[0].ID != second.ID {
		t.Errorf("definitions after DELETE: %+v", got)
	}

	for _, s := range []string{rc.secret.Text(), *second.Secret} {
		if strings.Contains(logs.String(), s) {
			t.Errorf("the request log reveals a secret:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), "method=POST path=/admin/webhooks status=201") {
		t.Errorf("no request line for the POST:\n%s", logs.String())
	}
}

func TestAdminWebhooksBadInput(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 20, WebhookOptions{})
	h := hw.Handler()
	cases := []struct {
		name, body string
		status     int
		param      string
	}{
		{"no url", `{}`, 400, "url"},
		{"empty url", `{"url":""}`, 400, "url"},
		{"relative url", `{"url":"/hooks"}`, 400, "url"},
		{"url of another scheme", `{"url":"ftp://example.com/x"}`, 400, "url"},
		{"url with a password", `{"url":"https://u:p@example.com/x"}`, 400, "url"},
		{"url not a string", `{"url":42}`, 400, "url"},
		{"unknown event type", `{"url":"https://example.com/x","event_types":["alert.deleted"]}`, 400, "event_types"},
		{"event_types not an array", `{"url":"https://example.com/x","event_types":"alert.created"}`, 400, "event_types"},
		{"secret not base64", `{"url":"https://example.com/x","secret":"whsec_???"}`, 400, "secret"},
		{"secret too short", `{"url":"https://example.com/x","secret":"whsec_c2hvcnQ="}`, 400, "secret"},
		{"secret empty", `{"url":"https://example.com/x","secret":""}`, 400, "secret"},
		{"enabled not a boolean", `{"url":"https://example.com/x","enabled":"yes"}`, 400, "enabled"},
		{"unknown field", `{"url":"https://example.com/x","events":["alert.created"]}`, 400, "events"},
		{"not JSON", `url=https://example.com/x`, 400, ""},
		{"two objects", `{"url":"https://example.com/x"}{}`, 400, ""},
		{"too large", `{"url":"https://example.com/` + strings.Repeat("x", 70<<10) + `"}`, 413, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, body := adminRequest(t, h, http.MethodPost, "/admin/webhooks", c.body, apiKeyA, apiAuthA)
			wantError(t, res, body, c.status, c.param)
			if strings.Contains(c.name, "secret") && strings.Contains(string(body), "c2hvcnQ") {
				t.Errorf("the error repeats the secret: %s", body)
			}
		})
	}
	if got := hw.Webhooks(0); len(got) != 0 {
		t.Fatalf("%d definitions after bad requests, want none", len(got))
	}

	made, _, err := hw.AddWebhook(0, WebhookSpec{URL: "https://example.com/hook"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ body, param string }{{`{}`, "enabled"}, {`{"enabled":1}`, "enabled"}, {`{"url":"https://x.example"}`, "url"}} {
		res, body := adminRequest(t, h, http.MethodPatch, "/admin/webhooks/"+made.ID, c.body, apiKeyA, apiAuthA)
		wantError(t, res, body, http.StatusBadRequest, c.param)
	}

	for range maxWebhooksPerAccount - 1 {
		if _, _, err := hw.AddWebhook(0, WebhookSpec{URL: "https://example.com/hook"}); err != nil {
			t.Fatal(err)
		}
	}
	res, body := adminRequest(t, h, http.MethodPost, "/admin/webhooks", `{"url":"https://example.com/x"}`, apiKeyA, apiAuthA)
	wantError(t, res, body, http.StatusConflict, "")
}

func TestAdminWebhooksPathsAndMethods(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 20, WebhookOptions{})
	h := hw.Handler()
	made, _, err := hw.AddWebhook(0, WebhookSpec{URL: "https://example.com/hook"})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/admin/", "/admin/webhooks/", "/admin/webhooksx", "/admin/webhooks/" + made.ID + "/", "/admin/webhooks/" + made.ID + "/log", "/admin/webhooks//deliveries"} {
		res, body := adminRequest(t, h, http.MethodGet, path, "", apiKeyA, apiAuthA)
		wantError(t, res, body, http.StatusNotFound, "")
	}
	res, body := adminRequest(t, h, http.MethodGet, "/admin/webhooks/wh_nope", "", apiKeyA, apiAuthA)
	wantError(t, res, body, http.StatusNotFound, "id")
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodPut, "/admin/webhooks", "GET, POST"},
		{http.MethodDelete, "/admin/webhooks", "GET, POST"},
		{http.MethodPost, "/admin/webhooks/" + made.ID, "GET, PATCH, DELETE"},
		{http.MethodDelete, "/admin/webhooks/" + made.ID + "/deliveries", "GET"},
	} {
		res, body := adminRequest(t, h, c.method, c.path, "", apiKeyA, apiAuthA)
		wantError(t, res, body, http.StatusMethodNotAllowed, "")
		if got := res.Header.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
	// The data endpoints' injected faults leave the admin interface alone.
	hw.SetFaults(Faults{ErrorRate: 1})
	getOK(t, h, "/admin/webhooks", apiKeyA, apiAuthA)
}
