package sim

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"washboard/docs/openapi"
	"washboard/internal/webhook"
)

// The OpenAPI document (docs/openapi) describes the interface as Washboard
// reads it. These tests hold the simulator to it: every answer the
// simulator gives, every webhook it delivers and every route it serves is
// checked against the document, and every status the document lists must
// turn up.

// docURL is the address the schema compiler knows the document by;
// nothing is fetched from it.
const docURL = "https://washboard.invalid/openapi.json"

// apiDoc is the OpenAPI document, read for checking answers against it.
type apiDoc struct {
	root     map[string]any
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema // by JSON pointer
	// seen records what the simulator answered: "METHOD path status" as
	// the document writes them, and "webhook type" for each event type
	// delivered.
	seen map[string]bool
}

// readDoc reads the document. Its schemas are compiled strict: an object
// the document describes member by member may hold no other member. A
// client should accept more (the service may add members); the simulator
// sends exactly what the document names.
func readDoc(t *testing.T) *apiDoc {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(openapi.DeviceMonitoring()))
	if err != nil {
		t.Fatalf("the OpenAPI document is not JSON: %v", err)
	}
	root, ok := v.(map[string]any)
	if !ok || !strings.HasPrefix(fmt.Sprint(root["openapi"]), "3.1.") {
		t.Fatalf("the document is not an OpenAPI 3.1 document: openapi %v", root["openapi"])
	}
	forbidUnnamedMembers(root)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(docURL, root); err != nil {
		t.Fatal(err)
	}
	return &apiDoc{root: root, compiler: c, compiled: map[string]*jsonschema.Schema{}, seen: map[string]bool{}}
}

// forbidUnnamedMembers adds "unevaluatedProperties": false to every object
// schema that lists its properties and says nothing of others.
func forbidUnnamedMembers(v any) {
	switch v := v.(type) {
	case map[string]any:
		_, props := v["properties"].(map[string]any)
		_, additional := v["additionalProperties"]
		_, unevaluated := v["unevaluatedProperties"]
		if v["type"] == "object" && props && !additional && !unevaluated {
			v["unevaluatedProperties"] = false
		}
		for _, e := range v {
			forbidUnnamedMembers(e)
		}
	case []any:
		for _, e := range v {
			forbidUnnamedMembers(e)
		}
	}
}

// pointer is the JSON pointer of the tokens, as a URL fragment.
func pointer(tokens ...string) string {
	var b strings.Builder
	b.WriteString("#")
	for _, tok := range tokens {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
		b.WriteString("/" + url.PathEscape(tok))
	}
	return b.String()
}

// at returns the value at the JSON pointer, following a "$ref" found there
// (to a place in the document), and the pointer it ended at.
func (d *apiDoc) at(t *testing.T, ptr string) (map[string]any, string) {
	t.Helper()
	for range 10 {
		var v any = d.root
		for _, tok := range strings.Split(strings.TrimPrefix(ptr, "#/"), "/") {
			tok, err := url.PathUnescape(tok)
			if err != nil {
				t.Fatalf("pointer %s: %v", ptr, err)
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			found := false
			switch parent := v.(type) {
			case map[string]any:
				v, found = parent[tok]
			case []any:
				if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(parent) {
					v, found = parent[i], true
				}
			}
			if !found {
				t.Fatalf("the document has nothing at %s", ptr)
			}
		}
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("the document has no object at %s", ptr)
		}
		ref, isRef := m["$ref"].(string)
		if !isRef {
			return m, ptr
		}
		ptr = ref
	}
	t.Fatalf("$ref chain too long at %s", ptr)
	return nil, ""
}

// has reports whether the object at the pointer has the member.
func (d *apiDoc) has(t *testing.T, ptr, member string) bool {
	t.Helper()
	m, _ := d.at(t, ptr)
	_, ok := m[member]
	return ok
}

// validate checks a decoded JSON value against the schema at the pointer.
func (d *apiDoc) validate(t *testing.T, ptr string, v any) error {
	t.Helper()
	s, ok := d.compiled[ptr]
	if !ok {
		var err error
		if s, err = d.compiler.Compile(docURL + ptr); err != nil {
			t.Fatalf("compiling the schema at %s: %v", ptr, err)
		}
		d.compiled[ptr] = s
	}
	return s.Validate(v)
}

// validateJSON checks a JSON text against the schema at the pointer.
func (d *apiDoc) validateJSON(t *testing.T, ptr string, body []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(body)))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return d.validate(t, ptr, v)
}

// validateHeader checks a header value against the schema at the pointer:
// as a number where the schema says integer, as text otherwise.
func (d *apiDoc) validateHeader(t *testing.T, ptr, value string) error {
	t.Helper()
	if schema, _ := d.at(t, ptr); schema["type"] == "integer" {
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("%q is not an integer", value)
		}
		return d.validate(t, ptr, json.Number(strconv.Itoa(n)))
	}
	return d.validate(t, ptr, value)
}

// operation returns the pointer of the operation, failing the test when the
// document has none.
func (d *apiDoc) operation(t *testing.T, method, path string) string {
	t.Helper()
	paths, _ := d.root["paths"].(map[string]any)
	item, _ := paths[path].(map[string]any)
	if _, ok := item[strings.ToLower(method)]; !ok {
		t.Fatalf("the document has no operation %s %s", method, path)
	}
	return pointer("paths", path, strings.ToLower(method))
}

// response returns the pointer of the document's response to the operation
// with the status, and the key it is listed under ("404", "4XX",
// "default"); the key is "" when the document lists none.
func (d *apiDoc) response(t *testing.T, op string, status int) (string, string) {
	t.Helper()
	code := strconv.Itoa(status)
	for _, key := range []string{code, code[:1] + "XX", "default"} {
		if d.has(t, op+"/responses", key) {
			_, ptr := d.at(t, op+"/responses/"+url.PathEscape(key))
			return ptr, key
		}
	}
	return "", ""
}

// check checks an answer to method path (the path as the document writes
// it) against the document: its status is listed, every header it
// requires is there and valid, its Content-Type is one it lists and its
// body is valid for it. A request body that the simulator accepted (2xx)
// must be one the document describes.
func (d *apiDoc) check(t *testing.T, method, path string, reqBody, reqType string, res *http.Response, body []byte) {
	t.Helper()
	op := d.operation(t, method, path)
	resp, key := d.response(t, op, res.StatusCode)
	if key == "" {
		t.Fatalf("%s %s answered %d, which the document does not list; body %.300s", method, path, res.StatusCode, body)
	}
	d.seen[method+" "+path+" "+key] = true
	what := fmt.Sprintf("%s %s %d", method, path, res.StatusCode)

	if d.has(t, resp, "headers") {
		headers, _ := d.at(t, resp+"/headers")
		for _, name := range slices.Sorted(maps.Keys(headers)) {
			h, hptr := d.at(t, resp+pointer("headers", name)[1:])
			value := res.Header.Get(name)
			switch {
			case value == "" && h["required"] == true:
				t.Errorf("%s: no %s header, which the document requires", what, name)
			case value != "":
				if err := d.validateHeader(t, hptr+"/schema", value); err != nil {
					t.Errorf("%s: header %s: %v", what, name, err)
				}
			}
		}
	}

	switch {
	case method == http.MethodHead:
		// No body reaches a client; the recorder keeps what was written.
	case !d.has(t, resp, "content"):
		if len(body) > 0 {
			t.Errorf("%s: a body, where the document describes none: %.300s", what, body)
		}
	default:
		mt, _, err := mime.ParseMediaType(res.Header.Get("Content-Type"))
		if err != nil || !d.has(t, resp+"/content", mt) {
			t.Fatalf("%s: Content-Type %q, which the document does not list", what, res.Header.Get("Content-Type"))
		}
		if err := d.validateJSON(t, resp+pointer("content", mt, "schema")[1:], body); err != nil {
			t.Errorf("%s: the body is not what the document describes: %v\nbody %.600s", what, err, body)
		}
	}

	if res.StatusCode/100 == 2 && reqBody != "" {
		d.checkRequestBody(t, op, what, reqBody, reqType)
	}
}

// checkRequestBody checks a request body the simulator accepted against the
// operation's request body in the document.
func (d *apiDoc) checkRequestBody(t *testing.T, op, what, body, contentType string) {
	t.Helper()
	if !d.has(t, op, "requestBody") {
		t.Errorf("%s accepted a body, where the document describes none", what)
		return
	}
	rb, ptr := d.at(t, op+"/requestBody")
	content, _ := rb["content"].(map[string]any)
	if _, ok := content[contentType]; !ok {
		t.Errorf("%s accepted a body of type %s, which the document does not list", what, contentType)
		return
	}
	schema := ptr + pointer("content", contentType, "schema")[1:]
	var err error
	switch contentType {
	case "application/x-www-form-urlencoded":
		form, perr := url.ParseQuery(body)
		if perr != nil {
			t.Fatalf("%s: the test's form %q: %v", what, body, perr)
		}
		fields := map[string]any{}
		for k, v := range form {
			fields[k] = v[0]
		}
		err = d.validate(t, schema, fields)
	default:
		err = d.validateJSON(t, schema, []byte(body))
	}
	if err != nil {
		t.Errorf("%s accepted a body the document does not describe: %v\nbody %s", what, err, body)
	}
}

// operations lists the document's operations as "METHOD path".
func (d *apiDoc) operations() []string {
	var out []string
	paths, _ := d.root["paths"].(map[string]any)
	for path, v := range paths {
		item, _ := v.(map[string]any)
		for key := range item {
			if method := strings.ToUpper(key); slices.Contains(httpMethods, method) {
				out = append(out, method+" "+path)
			}
		}
	}
	slices.Sort(out)
	return out
}

// httpMethods are the methods an OpenAPI path item can describe.
var httpMethods = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions, http.MethodTrace,
}

// unseen lists the responses of the document, by status, that no answer
// was checked against.
func (d *apiDoc) unseen(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, opKey := range d.operations() {
		method, path, _ := strings.Cut(opKey, " ")
		responses, _ := d.at(t, d.operation(t, method, path)+"/responses")
		for key := range responses {
			if _, err := strconv.Atoi(key); err == nil && !d.seen[opKey+" "+key] {
				out = append(out, opKey+" "+key)
			}
		}
	}
	webhooks, _ := d.root["webhooks"].(map[string]any)
	for typ := range webhooks {
		if !d.seen["webhook "+typ] {
			out = append(out, "webhook "+typ)
		}
	}
	slices.Sort(out)
	return out
}

// checkEvent checks a webhook delivery against the document's webhook of
// its type: the headers it requires and the body.
func (d *apiDoc) checkEvent(t *testing.T, rv received) {
	t.Helper()
	typ := string(rv.event.Type)
	webhooks, _ := d.root["webhooks"].(map[string]any)
	if _, ok := webhooks[typ]; !ok {
		t.Fatalf("a delivery of type %q, which the document's webhooks do not list", typ)
	}
	d.seen["webhook "+typ] = true
	op := pointer("webhooks", typ, "post")
	params, _ := d.at(t, op)
	list, _ := params["parameters"].([]any)
	for i := range list {
		p, pptr := d.at(t, op+"/parameters/"+strconv.Itoa(i))
		if p["in"] != "header" {
			continue
		}
		name := fmt.Sprint(p["name"])
		value := rv.header.Get(name)
		switch {
		case value == "" && p["required"] == true:
			t.Errorf("%s delivery: no %s header", typ, name)
		case value != "":
			if err := d.validateHeader(t, pptr+"/schema", value); err != nil {
				t.Errorf("%s delivery: header %s: %v", typ, name, err)
			}
		}
	}
	mt, _, _ := mime.ParseMediaType(rv.header.Get("Content-Type"))
	if !d.has(t, op+"/requestBody/content", mt) {
		t.Fatalf("%s delivery: Content-Type %q, which the document does not list", typ, rv.header.Get("Content-Type"))
	}
	if err := d.validateJSON(t, op+pointer("requestBody", "content", mt, "schema")[1:], rv.body); err != nil {
		t.Errorf("%s delivery: the body is not what the document describes: %v\nbody %.600s", typ, err, rv.body)
	}
}

// docClient sends requests to the simulator and checks every answer
// against the document.
type docClient struct {
	doc *apiDoc
	h   http.Handler
}

// request is a request as the document sees it: the operation's method and
// path, and what is sent.
type request struct {
	method, path string // path as the document writes it: /admin/webhooks/{id}
	target       string // what is requested, with its query; path if empty
	header       http.Header
	body         string
	bodyType     string // Content-Type of body; application/json if empty
}

func (c docClient) do(t *testing.T, r request) (*http.Response, []byte) {
	t.Helper()
	target := cmp.Or(r.target, r.path)
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req := httptest.NewRequest(r.method, target, body)
	for k, v := range r.header {
		req.Header[k] = v
	}
	bodyType := cmp.Or(r.bodyType, "application/json")
	if r.body != "" {
		req.Header.Set("Content-Type", bodyType)
	}
	res, resBody := serveRecorded(t, c.h, req)
	c.doc.check(t, r.method, r.path, r.body, bodyType, res, resBody)
	return res, resBody
}

// want sends the request and fails unless the answer has the status.
func (c docClient) want(t *testing.T, status int, r request) []byte {
	t.Helper()
	res, body := c.do(t, r)
	if res.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d; body %.300s", r.method, cmp.Or(r.target, r.path), res.StatusCode, status, body)
	}
	return body
}

// creds are the headers of a request with the key and Authorization value
// (none for empty ones).
func creds(key, auth string) http.Header {
	h := http.Header{}
	if key != "" {
		h.Set("x-api-key", key)
	}
	if auth != "" {
		h.Set("Authorization", auth)
	}
	return h
}

var credsA = creds(apiKeyA, apiAuthA)

func TestOpenAPIAnswersMatchTheDocument(t *testing.T) {
	t.Parallel()
	doc := readDoc(t)
	hw := newHookWorld(t, 60, WebhookOptions{})
	c := docClient{doc, hw.Handler()}

	t.Run("data", func(t *testing.T) { checkDataAnswers(t, c, hw.World) })
	t.Run("parameters", func(t *testing.T) { checkParameterRules(t, c) })
	t.Run("credentials", func(t *testing.T) { checkCredentials(t, c, hw) })
	t.Run("tokens", func(t *testing.T) { checkTokenAnswers(t, c, hw.World) })
	t.Run("webhooks", func(t *testing.T) { checkWebhookAnswers(t, c, hw) })
	if t.Failed() {
		return
	}
	if missing := doc.unseen(t); len(missing) > 0 {
		t.Errorf("the document lists answers the simulator never gave here (add a case, or take them out of the document):\n  %s", strings.Join(missing, "\n  "))
	}
}

func checkDataAnswers(t *testing.T, c docClient, w *World) {
	page := decodeJSON[struct {
		Alerts []json.RawMessage `json:"alerts"`
		Next   *string           `json:"next"`
	}](t, c.want(t, http.StatusOK, request{method: "GET", path: "/alerts",
		target: withQuery("/alerts", "start_date", "2026-01-01", "page_size", "3"), header: credsA}))
	if page.Next == nil || len(page.Alerts) != 3 {
		t.Fatalf("the first page: %d alerts, next %v; want 3 and a next cursor", len(page.Alerts), page.Next)
	}
	second := decodeJSON[struct {
		Prev *string `json:"prev"`
	}](t, c.want(t, http.StatusOK, request{method: "GET", path: "/alerts", target: withQuery("/alerts", "next", *page.Next), header: credsA}))
	if second.Prev == nil {
		t.Fatal("the second page has no prev cursor")
	}
	c.want(t, http.StatusOK, request{method: "GET", path: "/alerts", target: withQuery("/alerts", "prev", *second.Prev), header: credsA})
	for _, q := range [][]string{
		nil,
		{"alert_status", "closed", "start_date", "2026-01-01"},
		{"alert_status", "OPEN", "start_date", "2026-01-01"},
		{"resolution_type", "RESOLVED_BY_OFFLINE", "start_date", "2026-01-01"},
	} {
		c.want(t, http.StatusOK, request{method: "GET", path: "/alerts", target: withQuery("/alerts", q...), header: credsA})
	}

	devices := c.want(t, http.StatusOK, request{method: "GET", path: "/devices", header: credsA})
	if !strings.Contains(string(devices), `"device_state_type":"1.0"`) || !strings.Contains(string(devices), `"device_state_type":"2.0"`) {
		t.Error("the fleet has no devices of both generations, so the document's rules of each are not checked")
	}
	c.want(t, http.StatusOK, request{method: "GET", path: "/devices", target: "/devices?device_off=true", header: credsA})
	c.want(t, http.StatusOK, request{method: "GET", path: "/devices", target: "/devices?limit=5&offset=5", header: credsA})

	meta := decodeJSON[struct {
		Next *string `json:"next"`
		Prev *string `json:"prev"`
	}](t, c.want(t, http.StatusOK, request{method: "GET", path: "/metadata", target: "/metadata?limit=2&offset=2", header: credsA}))
	if meta.Next == nil || meta.Prev == nil {
		t.Errorf("a middle page of metadata without next or prev: %+v", meta)
	}
	c.want(t, http.StatusOK, request{method: "GET", path: "/metadata", target: "/metadata?device_type=tissue", header: credsA})

	for _, path := range apiEndpoints {
		c.want(t, http.StatusOK, request{method: "HEAD", path: path, header: credsA})
		c.want(t, http.StatusNotFound, request{method: "GET", path: path, target: path + "?building_id=nowhere", header: credsA})
		for _, f := range []struct {
			faults Faults
			status int
		}{{Faults{ErrorRate: 1}, http.StatusInternalServerError}, {Faults{RateLimitRate: 1}, http.StatusTooManyRequests}} {
			w.SetFaults(f.faults)
			c.want(t, f.status, request{method: "GET", path: path, header: credsA})
			c.want(t, f.status, request{method: "HEAD", path: path, header: credsA})
			w.SetFaults(Faults{})
		}
	}
	c.want(t, http.StatusNotFound, request{method: "GET", path: "/devices", target: "/devices?device_macid=000000000000", header: credsA})
	c.want(t, http.StatusBadRequest, request{method: "GET", path: "/alerts", target: "/alerts?start_date=yesterday", header: credsA})
	c.want(t, http.StatusBadRequest, request{method: "GET", path: "/alerts", target: "/alerts?start_date=2026-11-20&end_date=2026-11-20", header: credsA})

	c.want(t, http.StatusOK, request{method: "GET", path: OpenAPIPath})
	c.want(t, http.StatusOK, request{method: "HEAD", path: OpenAPIPath})
}

// checkParameterRules sends every query parameter of the data endpoints
// values on both sides of each rule the document states for it (its type,
// bounds, values, pattern): those it allows must be answered 200, the
// others 400 naming the parameter.
func checkParameterRules(t *testing.T, c docClient) {
	for _, path := range apiEndpoints {
		op := c.doc.operation(t, http.MethodGet, path)
		var params []string
		for _, where := range []string{pointer("paths", path), op} {
			item, _ := c.doc.at(t, where)
			list, _ := item["parameters"].([]any)
			for i := range list {
				params = append(params, where+"/parameters/"+strconv.Itoa(i))
			}
		}
		for _, ptr := range params {
			p, _ := c.doc.at(t, ptr)
			schema, _ := p["schema"].(map[string]any)
			name := fmt.Sprint(p["name"])
			for _, probe := range probesOf(t, schema) {
				res, body := c.do(t, request{method: "GET", path: path, target: withQuery(path, name, probe.value), header: credsA})
				switch {
				case probe.allowed && res.StatusCode != http.StatusOK:
					t.Errorf("GET %s?%s=%s: status %d; the document allows the value. Body %.300s", path, name, probe.value, res.StatusCode, body)
				case !probe.allowed:
					wantError(t, res, body, http.StatusBadRequest, name)
				}
			}
		}
	}
}

// probe is a value of a parameter, and whether the document allows it.
type probe struct {
	value   string
	allowed bool
}

// probesOf returns values on both sides of each rule of a parameter's
// schema.
func probesOf(t *testing.T, schema map[string]any) []probe {
	t.Helper()
	var out []probe
	bound := func(key string, step int) {
		if n, ok := schema[key].(json.Number); ok {
			v, err := n.Int64()
			if err != nil {
				t.Fatalf("%s %s is not an integer", key, n)
			}
			out = append(out, probe{n.String(), true}, probe{strconv.FormatInt(v+int64(step), 10), false})
		}
	}
	switch schema["type"] {
	case "integer":
		out = append(out, probe{"x1", false})
		bound("minimum", -1)
		bound("maximum", 1)
	case "boolean":
		out = append(out, probe{"true", true}, probe{"false", true}, probe{"maybe", false})
	}
	if values, ok := schema["enum"].([]any); ok {
		for _, v := range values {
			out = append(out, probe{fmt.Sprint(v), true})
		}
		out = append(out, probe{"bogus", false})
	}
	if pattern, ok := schema["pattern"].(string); ok {
		const odd = "not-this"
		if regexp.MustCompile(pattern).MatchString(odd) {
			t.Fatalf("pattern %s matches %q; choose another value", pattern, odd)
		}
		out = append(out, probe{odd, false})
	}
	return out
}

// checkCredentials sends every operation of the document without
// credentials, and with the x-api-key alone: what its security
// requirements ask for decides the answer. An operation that asks for
// nothing answers 2xx; one whose every requirement names the x-api-key
// answers 403 without it, and 401 with it alone when every requirement
// also names an Authorization.
func checkCredentials(t *testing.T, c docClient, hw *hookWorld) {
	made, _, err := hw.AddWebhook(0, WebhookSpec{URL: "https://example.com/hook"})
	if err != nil {
		t.Fatal(err)
	}
	defer hw.RemoveWebhook(0, made.ID)
	global, _ := c.doc.root["security"].([]any)
	for _, opKey := range c.doc.operations() {
		method, path, _ := strings.Cut(opKey, " ")
		if path == TokenPath {
			continue // its client credentials are checked in checkTokenAnswers
		}
		op, _ := c.doc.at(t, c.doc.operation(t, method, path))
		reqs := global
		if own, ok := op["security"].([]any); ok {
			reqs = own
		}
		needKey, needAuth := len(reqs) > 0, len(reqs) > 0
		for _, r := range reqs {
			schemes, _ := r.(map[string]any)
			_, key := schemes["apiKey"]
			needKey = needKey && key
			needAuth = needAuth && key && len(schemes) > 1
		}
		target := strings.ReplaceAll(path, "{id}", made.ID)
		res, body := c.do(t, request{method: method, path: path, target: target})
		switch {
		case len(reqs) == 0 && res.StatusCode/100 != 2:
			t.Errorf("%s without credentials: status %d; the document asks for none. Body %.300s", opKey, res.StatusCode, body)
		case needKey && res.StatusCode != http.StatusForbidden:
			t.Errorf("%s without credentials: status %d; the document asks for an x-api-key, want 403", opKey, res.StatusCode)
		}
		if needAuth {
			c.want(t, http.StatusUnauthorized, request{method: method, path: path, target: target, header: creds(apiKeyA, "")})
			c.want(t, http.StatusUnauthorized, request{method: method, path: path, target: target, header: creds(apiKeyA, "Bearer not-a-token")})
		}
	}
}

func checkTokenAnswers(t *testing.T, c docClient, w *World) {
	client := w.Client(0)
	form := func(kv ...string) string {
		q := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		return q.Encode()
	}
	post := func(status int, body, auth string) []byte {
		t.Helper()
		h := http.Header{}
		if auth != "" {
			h.Set("Authorization", auth)
		}
		return c.want(t, status, request{method: "POST", path: TokenPath, header: h, body: body, bodyType: "application/x-www-form-urlencoded"})
	}
	tok := decodeJSON[tokenAnswer](t, post(http.StatusOK, form("grant_type", "client_credentials"), basic(client.ID, client.Secret)))
	post(http.StatusOK, form("grant_type", "client_credentials", "client_id", client.ID, "client_secret", client.Secret, "scope", "all"), "")
	post(http.StatusBadRequest, form("client_id", client.ID, "client_secret", client.Secret), "")
	post(http.StatusBadRequest, form("grant_type", "password", "client_id", client.ID, "client_secret", client.Secret), "")
	post(http.StatusUnauthorized, form("grant_type", "client_credentials", "client_id", client.ID, "client_secret", "wrong"), "")
	post(http.StatusUnauthorized, form("grant_type", "client_credentials"), "")

	c.want(t, http.StatusOK, request{method: "GET", path: "/alerts", header: creds(apiKeyA, "Bearer "+tok.AccessToken)})
	// Account B's client, so that account A's keeps working.
	c.want(t, http.StatusNoContent, request{method: "POST", path: RevokeClientPath, header: creds(apiKeyB, "")})
	c.want(t, http.StatusForbidden, request{method: "POST", path: RevokeClientPath, header: creds("unknown-key", "")})
}

func checkWebhookAnswers(t *testing.T, c docClient, hw *hookWorld) {
	const path, one, log = "/admin/webhooks", "/admin/webhooks/{id}", "/admin/webhooks/{id}/deliveries"
	a := hw.accounts[0]
	d := quietDevice(t, a, isFourRoll)
	rc := newReceiver(t, hw.wall)

	c.want(t, http.StatusOK, request{method: "GET", path: path, header: credsA})
	created := decodeJSON[webhookWire](t, c.want(t, http.StatusCreated, request{method: "POST", path: path, header: credsA,
		body: fmt.Sprintf(`{"url":%q,"secret":%q,"event_types":["alert.created","alert.updated","alert.resolved"]}`, rc.url, rc.secret.Text())}))
	at := func(p string) string { return strings.ReplaceAll(p, "{id}", created.ID) }
	c.want(t, http.StatusOK, request{method: "GET", path: path, header: credsA})
	c.want(t, http.StatusOK, request{method: "GET", path: one, target: at(one), header: credsA})

	hw.alter(a, d, func() { setLevels(d, 0, 60, 70, 80) })
	al := openAlert(t, a, d, AlertConsumableOut)
	hw.alter(a, d, func() { setLevels(d, 0, 0, 70, 80) })
	hw.alter(a, d, d.refill)
	for _, want := range []webhook.EventType{webhook.AlertCreated, webhook.AlertUpdated, webhook.AlertResolved} {
		rv := rc.nextFor(t, al.ID)
		if rv.event.Type != want {
			t.Fatalf("event %s, want %s", rv.event.Type, want)
		}
		c.doc.checkEvent(t, rv)
	}
	for logged := 0; logged < 3; {
		if e := hw.entry(t); e.AlertID == al.ID && e.Outcome == OutcomeDelivered {
			logged++
		}
	}
	c.want(t, http.StatusOK, request{method: "GET", path: log, target: at(log), header: credsA})

	c.want(t, http.StatusOK, request{method: "PATCH", path: one, target: at(one), header: credsA, body: `{"enabled":false}`})
	c.want(t, http.StatusBadRequest, request{method: "PATCH", path: one, target: at(one), header: credsA, body: `{}`})
	huge := `{"enabled":false,"pad":"` + strings.Repeat("x", maxAdminBody) + `"}`
	c.want(t, http.StatusRequestEntityTooLarge, request{method: "PATCH", path: one, target: at(one), header: credsA, body: huge})
	c.want(t, http.StatusBadRequest, request{method: "POST", path: path, header: credsA, body: `{"url":"ftp://example.com/hook"}`})
	c.want(t, http.StatusBadRequest, request{method: "POST", path: path, header: credsA, body: `{"url":"https://example.com/hook","colour":"red"}`})
	c.want(t, http.StatusRequestEntityTooLarge, request{method: "POST", path: path, header: credsA, body: huge})
	for range maxWebhooksPerAccount - 1 {
		if _, _, err := hw.AddWebhook(0, WebhookSpec{URL: "https://example.com/hook", Disabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	c.want(t, http.StatusConflict, request{method: "POST", path: path, header: credsA, body: `{"url":"https://example.com/hook"}`})

	c.want(t, http.StatusNoContent, request{method: "DELETE", path: one, target: at(one), header: credsA})
	for _, r := range []request{
		{method: "GET", path: one},
		{method: "PATCH", path: one, body: `{"enabled":true}`},
		{method: "DELETE", path: one},
		{method: "GET", path: log},
	} {
		r.target, r.header = at(r.path), credsA
		c.want(t, http.StatusNotFound, r)
	}

	hw.Close()
	c.want(t, http.StatusServiceUnavailable, request{method: "POST", path: path, header: creds(apiKeyB, apiAuthB), body: `{"url":"https://example.com/hook"}`})
}

func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	w := newTokenWorld(t, 0, NewManualClock(apiNow))
	res, body := doRequest(t, w.Handler(), http.MethodGet, OpenAPIPath, "", "")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s without credentials: status %d, Content-Type %q; want 200, application/json", OpenAPIPath, res.StatusCode, res.Header.Get("Content-Type"))
	}
	if string(body) != openapi.DeviceMonitoring() {
		t.Errorf("GET %s is not the document in docs/openapi", OpenAPIPath)
	}
}

// The simulator serves exactly the routes the document describes, with
// the methods it lists, and marks as its own exactly those the document
// marks x-washboard-simulator. Any other method is answered 405 with an
// Allow header naming the document's methods.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	t.Parallel()
	doc := readDoc(t)
	w := newTokenWorld(t, 0, NewManualClock(apiNow))
	kind := func(simulator bool) string {
		if simulator {
			return "the simulator's own"
		}
		return "the vendor's"
	}

	served := map[string]string{}
	for _, rt := range w.routes() {
		for _, m := range rt.methods {
			served[m+" "+rt.pattern] = kind(rt.simulator)
		}
	}
	documented := map[string]string{}
	paths, _ := doc.root["paths"].(map[string]any)
	for _, opKey := range doc.operations() {
		_, path, _ := strings.Cut(opKey, " ")
		item, _ := paths[path].(map[string]any)
		documented[opKey] = kind(item["x-washboard-simulator"] == true)
	}
	for _, op := range slices.Sorted(maps.Keys(served)) {
		switch d, ok := documented[op]; {
		case !ok:
			t.Errorf("the simulator serves %s, which the OpenAPI document does not describe", op)
		case d != served[op]:
			t.Errorf("%s is %s, but the document says it is %s", op, served[op], d)
		}
	}
	for _, op := range slices.Sorted(maps.Keys(documented)) {
		if _, ok := served[op]; !ok {
			t.Errorf("the OpenAPI document describes %s, which the simulator does not serve", op)
		}
	}

	h := w.Handler()
	for path := range paths {
		var allowed []string
		for _, opKey := range doc.operations() {
			if m, p, _ := strings.Cut(opKey, " "); p == path {
				allowed = append(allowed, m)
			}
		}
		errorSchema := pointer("components", "schemas", "Error")
		if path == TokenPath {
			errorSchema = pointer("components", "schemas", "OAuthError")
		}
		for _, m := range httpMethods {
			if slices.Contains(allowed, m) {
				continue
			}
			res, body := doRequest(t, h, m, strings.ReplaceAll(path, "{id}", "wh_x"), apiKeyA, apiAuthA)
			if res.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", m, path, res.StatusCode)
				continue
			}
			allow := strings.Split(res.Header.Get("Allow"), ", ")
			slices.Sort(allow)
			slices.Sort(allowed)
			if !slices.Equal(allow, allowed) {
				t.Errorf("%s %s: Allow %v, want the document's methods %v", m, path, allow, allowed)
			}
			if err := doc.validateJSON(t, errorSchema, body); err != nil {
				t.Errorf("%s %s: the 405 body is not the document's %s: %v", m, path, errorSchema, err)
			}
		}
	}
}
