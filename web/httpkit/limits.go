package httpkit

import (
	"bytes"
	"errors"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
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

// NewServer returns the HTTP server for a handler, with timeouts that
// keep a slow or idle client from holding a connection.
func NewServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          errorLog,
	}
}

var errTooLarge = &Error{Code: http.StatusRequestEntityTooLarge,
	Msg: "What was sent is larger than any form of Washboard needs, so it was not read."}

// LimitBody reads a request's body, up to the limit for its path, before
// anything else does: a larger one is answered 413 without being kept
// anywhere, and forms are parsed from memory, so that no upload reaches the
// disk. Whatever a handler still parsed as multipart is removed when the
// request ends.
func LimitBody(limit func(path string) int64) echo.MiddlewareFunc {
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
				return &Error{Code: http.StatusBadRequest, Msg: "The request's body could not be read.", Err: err}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
			return next(c)
		}
	}
}
