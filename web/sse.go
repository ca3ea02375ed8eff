package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// stream is a server-sent event stream being written: the one place that
// knows its headers and framing.
type stream struct {
	c echo.Context
}

// startStream answers a request with an event stream. Streams stay open
// for hours: the server's ReadTimeout ends with the request's reading, and
// it sets no WriteTimeout (see NewHTTPServer).
func startStream(c echo.Context) *stream {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-store")
	h.Set("X-Accel-Buffering", "no")
	c.Response().WriteHeader(http.StatusOK)
	return &stream{c: c}
}

// send writes one event and flushes it; false when the client is gone.
func (s *stream) send(name, data string) bool {
	return s.write(fmt.Sprintf("event: %s\ndata: %s\n\n", name, data))
}

// retry tells the client how long to wait before reconnecting.
func (s *stream) retry(d time.Duration) bool {
	return s.write(fmt.Sprintf("retry: %d\n\n", d.Milliseconds()))
}

// ping writes a comment, so that proxies keep an idle stream open and the
// server notices a client that went away.
func (s *stream) ping() bool { return s.write(": ping\n\n") }

func (s *stream) write(frame string) bool {
	if _, err := fmt.Fprint(s.c.Response(), frame); err != nil {
		return false
	}
	s.c.Response().Flush()
	return true
}
