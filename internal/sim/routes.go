package sim

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"washboard/docs/openapi"
)

// OpenAPIPath is where the simulator serves the OpenAPI document of the
// interface, to anyone: it holds no secret.
const OpenAPIPath = "/openapi.json"

// route is a path the simulator serves and the methods it answers there.
type route struct {
	// pattern is the path as OpenAPI writes it: "{name}" stands for one
	// non-empty segment, whose value the handler reads with PathValue.
	pattern string
	methods []string // any other is answered 405 with Allow
	// simulator marks the simulator's own routes, which the vendor's
	// interface does not have: the stand-in for its portal, and the
	// OpenAPI document.
	simulator bool
	serve     http.HandlerFunc
	// notAllowed answers a method the route does not take; writeError's
	// 405 if nil.
	notAllowed func(http.ResponseWriter, *http.Request, string)
}

// routes are every route the simulator serves. The OpenAPI document in
// docs/openapi describes exactly these, and marks the same ones as the
// simulator's own (TestOpenAPIDescribesEveryRoute).
//
// Faults are injected into the data endpoints only: the token endpoint,
// the admin routes and the document answer as they should whatever
// SetFaults says.
func (w *World) routes() []route {
	data := func(list dataLister) http.HandlerFunc { return w.chaos.wrap(w.serveData(list)).ServeHTTP }
	get := []string{http.MethodGet, http.MethodHead}
	post := []string{http.MethodPost}
	return []route{
		{pattern: "/alerts", methods: get, serve: data(listAlerts)},
		{pattern: "/devices", methods: get, serve: data(listDevices)},
		{pattern: "/metadata", methods: get, serve: data(listMetadata)},
		{pattern: TokenPath, methods: post, serve: w.issueToken, notAllowed: tokenMethodNotAllowed},
		{pattern: RevokeClientPath, methods: post, serve: w.revokeClient, simulator: true},
		{pattern: "/admin/webhooks", methods: []string{http.MethodGet, http.MethodPost}, serve: w.serveWebhooks, simulator: true},
		{pattern: "/admin/webhooks/{id}", methods: []string{http.MethodGet, http.MethodPatch, http.MethodDelete}, serve: w.serveWebhook, simulator: true},
		{pattern: "/admin/webhooks/{id}/deliveries", methods: []string{http.MethodGet}, serve: w.serveDeliveries, simulator: true},
		{pattern: OpenAPIPath, methods: get, serve: serveOpenAPI, simulator: true},
	}
}

// Handler serves the Device Monitoring Service's interface (GET /alerts,
// /devices and /metadata, POST /oauth/token), the simulator's stand-in for
// the vendor's portal under /admin/, and the OpenAPI document of them all
// at /openapi.json. Each data request brings the caller's account forward
// to the clock's now before it is answered.
func (w *World) Handler() http.Handler {
	routes := w.routes()
	return recoverPanics(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		for _, rt := range routes {
			if rt.match(r) {
				rt.serveHTTP(rw, r)
				return
			}
		}
		writeError(rw, newAPIError(http.StatusNotFound, "", "no such endpoint: %s", r.URL.Path))
	}))
}

// match reports whether the request's path is the route's, and if so sets
// the values of the pattern's {name} segments on r.
func (rt route) match(r *http.Request) bool {
	want, got := strings.Split(rt.pattern, "/"), strings.Split(r.URL.Path, "/")
	if len(want) != len(got) {
		return false
	}
	for i, seg := range want {
		if _, wild := wildcard(seg); (wild && got[i] == "") || (!wild && got[i] != seg) {
			return false
		}
	}
	for i, seg := range want {
		if name, wild := wildcard(seg); wild {
			r.SetPathValue(name, got[i])
		}
	}
	return true
}

// wildcard returns the name of a {name} segment.
func wildcard(seg string) (string, bool) {
	name, ok := strings.CutPrefix(seg, "{")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(name, "}")
}

func (rt route) serveHTTP(rw http.ResponseWriter, r *http.Request) {
	if slices.Contains(rt.methods, r.Method) {
		rt.serve(rw, r)
		return
	}
	allow := strings.Join(rt.methods, ", ")
	rw.Header().Set("Allow", allow)
	if rt.notAllowed != nil {
		rt.notAllowed(rw, r, allow)
		return
	}
	writeError(rw, newAPIError(http.StatusMethodNotAllowed, "", "%s takes %s, not %s", r.URL.Path, allow, r.Method))
}

// serveOpenAPI answers GET /openapi.json with the document.
func serveOpenAPI(rw http.ResponseWriter, _ *http.Request) {
	doc := openapi.DeviceMonitoring()
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Content-Length", strconv.Itoa(len(doc)))
	io.WriteString(rw, doc)
}
