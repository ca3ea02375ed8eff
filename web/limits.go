package web

import (
	"bytes"
	"errors"
	"io"
	"log"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// Limits on what a request may make the server hold.
const (
	// maxFormBody is the largest request body any form of Washboard needs:
	// the longest, sign-in, is two credentials of at most 8 KB.
	maxFormBody = 64 << 10
	// maxLoggedPath is how much of a request's path its log line keeps.
	maxLoggedPath = 256
)

// Timeouts of the HTTP server. Reading a request, headers and body, may
// take readTimeout; the server lifts that deadline once the request is
// read, so event streams stay open for hours. There is no write timeout,
// for the same reason.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 2 * time.Minute
)

// NewHTTPServer returns the HTTP server for the dashboard's handler, with
// timeouts that keep a slow or idle client from holding a connection.
func NewHTTPServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          errorLog,
	}
}

var errTooLarge = &HTTPError{Code: http.StatusRequestEntityTooLarge,
	Msg: "What was sent is larger than any form of Washboard needs, so it was not read."}

// bodyLimit is the largest body a request to path may have: an event of
// the service at /hooks/, a form anywhere else.
func bodyLimit(path string) int64 {
	if isHookPath(path) {
		return maxEventBody
	}
	return maxFormBody
}

// limitBody reads a request's body, up to the limit for its path, before
// anything else does: a larger one is answered 413 without being kept
// anywhere, and forms are parsed from memory, so that no upload reaches the
// disk. Whatever a handler still parsed as multipart is removed when the
// request ends.
func limitBody(limit func(path string) int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			max := limit(r.URL.Path)
			defer func() {
				if f := c.Request().MultipartForm; f != nil {
					f.RemoveAll() //nolint:errcheck // nothing to do about a file that will not go
				}
			}()
			if r.Body == nil || r.Body == http.NoBody {
				return next(c)
			}
			if r.ContentLength > max {
				return errTooLarge
			}
			body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, max))
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return errTooLarge
			}
			if err != nil {
				return &HTTPError{Code: http.StatusBadRequest, Msg: "The request's body could not be read.", Err: err}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			return next(c)
		}
	}
}

// isHookPath says whether path is a receiver's address, where the service
// sends its events.
func isHookPath(path string) bool { return strings.HasPrefix(path, "/hooks/") }

// loggedPath is a request's path as its log line shows it: a screen link's
// token redacted, and cut short when long.
func loggedPath(path string) string {
	if strings.HasPrefix(path, "/s/") {
		return "/s/REDACTED"
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

// private marks responses that belong to one person or one screen: no
// cache may keep them, and a cache must tell a page from its fragment.
func private(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderCacheControl, "no-store")
		addVary(h, hxRequest)
		return next(c)
	}
}

// addVary adds names to the response's Vary header, keeping it one line
// without repeats.
func addVary(h http.Header, names ...string) {
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

// cleanInput refuses a request whose path parameters, query or form
// values hold a NUL byte or text that is not UTF-8: no name or id holds
// them, and the database would refuse them. The sign-in form checks its
// own, and says more about a credential pasted with something around it.
func cleanInput(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Path() == "/signin" {
			return next(c)
		}
		names := c.ParamNames()
		for i, v := range c.ParamValues() {
			if !cleanText(v) && i < len(names) {
				return errUncleanParam(names[i])
			}
		}
		values := c.QueryParams()
		r := c.Request()
		if r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get(echo.HeaderContentType), echo.MIMEApplicationForm) {
			form, err := c.FormParams()
			if err != nil {
				return &HTTPError{Code: http.StatusBadRequest, Msg: "The form could not be read: " + clip(err.Error())}
			}
			values = form
		}
		for k, vs := range values {
			if !cleanText(k) {
				return &HTTPError{Code: http.StatusBadRequest, Msg: "A parameter's name holds a NUL byte or text that is not UTF-8."}
			}
			for _, v := range vs {
				if !cleanText(v) {
					return errUncleanParam(clip(k))
				}
			}
		}
		return next(c)
	}
}

func cleanText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

func errUncleanParam(name string) error {
	return errBadParam(name, "holds a character no name or id has: a NUL byte, or text that is not UTF-8")
}
