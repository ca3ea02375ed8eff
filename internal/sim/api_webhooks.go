package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"washboard/internal/webhook"
)

// The admin interface: the stand-in for the vendor's portal, where an
// account defines its webhooks. The spec shows none of it; it is the
// simulator's own.
//
//	GET    /admin/webhooks                   the account's definitions
//	POST   /admin/webhooks                   define one: {"url", "secret", "event_types", "enabled"}
//	GET    /admin/webhooks/{id}              one definition
//	PATCH  /admin/webhooks/{id}              {"enabled": true|false}
//	DELETE /admin/webhooks/{id}              remove it
//	GET    /admin/webhooks/{id}/deliveries   its delivery log, oldest first
//
// Requests carry the account's x-api-key and Authorization, checked as on
// the data endpoints (403, 401). Bodies are JSON; errors have the data
// endpoints' error body, parameter naming the field at fault. The secret
// is in the answer to POST only. Times are real time, as deliveries
// happen in real time whatever the simulated clock says. The OpenAPI
// document (docs/openapi) describes every field.

const maxAdminBody = 64 << 10

// webhookJSON is a definition as the admin interface shows it.
type webhookJSON struct {
	ID         string              `json:"id"`
	URL        string              `json:"url"`
	EventTypes []webhook.EventType `json:"event_types"` // empty: every type
	Enabled    bool                `json:"enabled"`
	Failing    bool                `json:"failing"`
	CreatedAt  string              `json:"created_at"`
	Queued     int                 `json:"queued"`
	Dropped    int                 `json:"dropped"`
	Secret     string              `json:"secret,omitempty"` // in the answer to POST only
}

func toWebhookJSON(h Webhook) webhookJSON {
	types := h.Types
	if types == nil {
		types = []webhook.EventType{}
	}
	return webhookJSON{
		ID: h.ID, URL: h.URL, EventTypes: types, Enabled: h.Enabled, Failing: h.Failing,
		CreatedAt: h.Created.UTC().Format(timestampLayout), Queued: h.Queued, Dropped: h.Dropped,
	}
}

// deliveryJSON is a delivery log entry as the admin interface shows it.
type deliveryJSON struct {
	EventID     string            `json:"event_id"`
	Type        webhook.EventType `json:"type"`
	AlertID     string            `json:"alert_id"`
	Attempt     int               `json:"attempt"`
	At          string            `json:"at"`
	Outcome     Outcome           `json:"outcome"`
	Status      *int              `json:"status"` // null without an answer
	Error       string            `json:"error,omitempty"`
	DurationMS  float64           `json:"duration_ms"`
	NextAttempt *string           `json:"next_attempt"` // null unless retrying
}

func toDeliveryJSON(d Delivery) deliveryJSON {
	j := deliveryJSON{
		EventID: d.EventID, Type: d.Type, AlertID: d.AlertID, Attempt: d.Attempt,
		At: d.At.UTC().Format(timestampLayout), Outcome: d.Outcome, Error: d.Error,
		DurationMS: float64(d.Duration.Microseconds()) / 1000,
	}
	if d.Status != 0 {
		j.Status = &d.Status
	}
	if !d.NextAttempt.IsZero() {
		next := d.NextAttempt.UTC().Format(timestampLayout)
		j.NextAttempt = &next
	}
	return j
}

// caller authenticates a request of the admin interface as the data
// endpoints do, answering the error itself when it fails.
func (w *World) caller(rw http.ResponseWriter, r *http.Request) (*Account, bool) {
	a, aerr := w.authenticate(r.Header.Get("x-api-key"), r.Header.Get("Authorization"))
	if aerr != nil {
		writeError(rw, aerr)
		return nil, false
	}
	return a, true
}

// serveWebhooks answers GET and POST /admin/webhooks.
func (w *World) serveWebhooks(rw http.ResponseWriter, r *http.Request) {
	a, ok := w.caller(rw, r)
	if !ok {
		return
	}
	if r.Method == http.MethodPost {
		w.createWebhook(rw, r, a)
		return
	}
	list := w.listWebhooks(a)
	out := struct {
		Webhooks []webhookJSON `json:"webhooks"`
	}{make([]webhookJSON, 0, len(list))}
	for _, h := range list {
		out.Webhooks = append(out.Webhooks, toWebhookJSON(h))
	}
	writeJSON(rw, http.StatusOK, out)
}

// errNoWebhook answers an id that names none of the account's definitions.
func errNoWebhook(id string) *apiError {
	return errNotFound("id", "no webhook with id %q in this account", id)
}

// serveWebhook answers GET, PATCH and DELETE /admin/webhooks/{id}.
func (w *World) serveWebhook(rw http.ResponseWriter, r *http.Request) {
	a, ok := w.caller(rw, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	h := a.findHook(id)
	if h == nil {
		writeError(rw, errNoWebhook(id))
		return
	}
	switch r.Method {
	case http.MethodGet:
		writeJSON(rw, http.StatusOK, toWebhookJSON(h.snapshot()))
	case http.MethodPatch:
		var in struct {
			Enabled *bool `json:"enabled"`
		}
		if e := readJSON(r, rw, &in, "enabled"); e != nil {
			writeError(rw, e)
			return
		}
		if in.Enabled == nil {
			writeError(rw, errBadParam("enabled", "enabled is required: true or false"))
			return
		}
		view, ok := w.setWebhookEnabled(a, id, *in.Enabled)
		if !ok {
			writeError(rw, errNoWebhook(id))
			return
		}
		writeJSON(rw, http.StatusOK, toWebhookJSON(view))
	case http.MethodDelete:
		if !w.removeWebhook(a, id) {
			writeError(rw, errNoWebhook(id))
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	}
}

// serveDeliveries answers GET /admin/webhooks/{id}/deliveries.
func (w *World) serveDeliveries(rw http.ResponseWriter, r *http.Request) {
	a, ok := w.caller(rw, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	h := a.findHook(id)
	if h == nil {
		writeError(rw, errNoWebhook(id))
		return
	}
	log := h.deliveries()
	out := struct {
		Deliveries []deliveryJSON `json:"deliveries"`
	}{make([]deliveryJSON, 0, len(log))}
	for _, d := range log {
		out.Deliveries = append(out.Deliveries, toDeliveryJSON(d))
	}
	writeJSON(rw, http.StatusOK, out)
}

// createWebhook answers POST /admin/webhooks.
func (w *World) createWebhook(rw http.ResponseWriter, r *http.Request, a *Account) {
	var in struct {
		URL        *string  `json:"url"`
		Secret     *string  `json:"secret"`
		EventTypes []string `json:"event_types"`
		Enabled    *bool    `json:"enabled"`
	}
	if e := readJSON(r, rw, &in, "url, secret, event_types and enabled"); e != nil {
		writeError(rw, e)
		return
	}
	var spec WebhookSpec
	if in.URL != nil {
		spec.URL = strings.TrimSpace(*in.URL)
	}
	if in.Secret != nil {
		s, err := webhook.ParseSecret(*in.Secret)
		if err != nil {
			writeError(rw, errBadParam("secret", "%s; leave secret out to have one made", err))
			return
		}
		spec.Secret = s
	}
	for _, name := range in.EventTypes {
		t, err := webhook.ParseEventType(name)
		if err != nil {
			writeError(rw, errBadParam("event_types", "%s", err))
			return
		}
		spec.Types = append(spec.Types, t)
	}
	spec.Disabled = in.Enabled != nil && !*in.Enabled

	h, secret, err := w.addWebhook(a, spec)
	var se *SpecError
	switch {
	case errors.As(err, &se) && se.Field != "":
		writeError(rw, errBadParam(se.Field, "%s", se.Msg))
		return
	case errors.As(err, &se):
		writeError(rw, newAPIError(http.StatusConflict, "", "%s", se.Msg))
		return
	case err != nil:
		writeError(rw, newAPIError(http.StatusServiceUnavailable, "", "webhooks are stopped: the simulator is shutting down"))
		return
	}
	out := toWebhookJSON(h)
	out.Secret = secret.Text()
	rw.Header().Set("Location", "/admin/webhooks/"+h.ID)
	writeJSON(rw, http.StatusCreated, out)
}

// readJSON reads a request's JSON object into v, refusing unknown fields
// (fields lists the known ones, for the message).
func readJSON(r *http.Request, rw http.ResponseWriter, v any, fields string) *apiError {
	dec := json.NewDecoder(http.MaxBytesReader(rw, r.Body, maxAdminBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	var tooBig *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &tooBig):
		return newAPIError(http.StatusRequestEntityTooLarge, "", "the body is over %d bytes", maxAdminBody)
	case errors.As(err, &typeErr) && typeErr.Field != "":
		field, _, _ := strings.Cut(typeErr.Field, ".")
		want := map[string]string{"enabled": "true or false", "event_types": "an array of event type names"}[field]
		if want == "" {
			want = "a string"
		}
		return errBadParam(field, "%s must be %s, not a JSON %s", field, want, typeErr.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return errBadParam(name, "unknown field %q; the fields are %s", name, fields)
	default:
		return errBadParam("", "the body must be one JSON object: %v", err)
	}
}

func writeJSON(rw http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		panic(fmt.Sprintf("sim: encoding an admin answer: %v", err)) // plain data always encodes
	}
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	rw.Write(buf.Bytes())
}
