package httpkit

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

const (
	ctxRequestID = "request_id"
	ctxLog       = "log"
)

// RequestID gives every request an id, and a logger (base's) that writes
// it on every line logged for the request.
func RequestID(base *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			id := RandomHex(8)
			c.Set(ctxRequestID, id)
			c.Set(ctxLog, base.With("request_id", id))
			c.Response().Header().Set("X-Request-Id", id)
			return next(c)
		}
	}
}

// RequestIDOf is the request's id; "" before RequestID.
func RequestIDOf(c echo.Context) string {
	id, _ := c.Get(ctxRequestID).(string)
	return id
}

// LogOf is the request's logger, every line with its request id; other
// before RequestID.
func LogOf(c echo.Context, other *slog.Logger) *slog.Logger {
	if l, ok := c.Get(ctxLog).(*slog.Logger); ok {
		return l
	}
	return other
}

// Logging says how LogRequests logs requests.
type Logging struct {
	// Log is the logger of requests that RequestID gave none.
	Log *slog.Logger
	// SecretPaths are the prefixes of paths whose rest is a secret (a
	// link's token): their lines say the prefix and REDACTED.
	SecretPaths []string
	// Observe, when set, records each request by its route's pattern.
	Observe func(route, method string, status int, d time.Duration)
}

// maxLoggedPath is how much of a request's path its log line keeps.
const maxLoggedPath = 256

// LogRequests logs one line per request (method, path, status, duration,
// request id) and hands it to Observe. Queries and bodies are not logged:
// a sign-in form carries credentials.
func LogRequests(l Logging) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			path := l.LoggedPath(c.Request().URL.Path)
			d := time.Since(start)
			LogOf(c, l.Log).Info("request", "method", c.Request().Method, "path", path,
				"status", c.Response().Status, "duration", d.Round(time.Microsecond).String())
			if l.Observe != nil {
				l.Observe(c.Path(), c.Request().Method, c.Response().Status, d)
			}
			return nil
		}
	}
}

// LoggedPath is a request's path as its log line shows it: a secret
// redacted, and cut short when long.
func (l Logging) LoggedPath(path string) string {
	for _, p := range l.SecretPaths {
		if strings.HasPrefix(path, p) {
			return p + "REDACTED"
		}
	}
	if len(path) <= maxLoggedPath {
		return path
	}
	cut := maxLoggedPath
	for cut > 0 && !utf8.RuneStart(path[cut]) {
		cut--
	}
	return path[:cut] + "…"
}

// RecoverPanics turns a panic into an error, which the error handler
// answers with a 500 page and an error id.
func RecoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if v := recover(); v != nil {
				if e, ok := v.(error); ok && e == http.ErrAbortHandler {
					panic(v)
				}
				err = fmt.Errorf("panic: %v", v)
			}
		}()
		return next(c)
	}
}

// contentSecurityPolicy allows nothing from outside the server and no
// inline script or style.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// SecurityHeaders sets the headers that keep a browser from running or
// framing anything but the server's own, and, over TLS (directly or
// through one of the proxies), from ever coming back without it.
func SecurityHeaders(proxies Proxies) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("Content-Security-Policy", contentSecurityPolicy)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
			if proxies.Secure(c.Request()) {
				h.Set("Strict-Transport-Security", "max-age=31536000")
			}
			return next(c)
		}
	}
}

// Private marks responses that belong to one person or one screen: no
// cache may keep them, and a cache must tell them apart by the headers
// named (a page from its fragment).
func Private(vary ...string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set(echo.HeaderCacheControl, "no-store")
			AddVary(h, vary...)
			return next(c)
		}
	}
}

// AddVary adds names to the response's Vary header, keeping it one line
// without repeats.
func AddVary(h http.Header, names ...string) {
	var have []string
	for _, v := range h.Values(echo.HeaderVary) {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				have = append(have, f)
			}
		}
	}
	for _, n := range names {
		found := false
		for _, f := range have {
			if strings.EqualFold(f, n) {
				found = true
				break
			}
		}
		if !found {
			have = append(have, n)
		}
	}
	h.Set(echo.HeaderVary, strings.Join(have, ", "))
}
