package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// dataLister answers a data endpoint: the account's data at now for the
// request's parameters. The caller holds a.mu.
type dataLister func(a *Account, p params, r *http.Request, now time.Time) (any, *apiError)

func listAlerts(a *Account, p params, _ *http.Request, now time.Time) (any, *apiError) {
	return a.listAlerts(p, now)
}

func listDevices(a *Account, p params, _ *http.Request, now time.Time) (any, *apiError) {
	return a.listDevices(p, now)
}

func listMetadata(a *Account, p params, r *http.Request, _ time.Time) (any, *apiError) {
	return a.listMetadata(p, endpointURL(r))
}

// serveData answers a data endpoint with list, after bringing the caller's
// account forward to the clock's now.
func (w *World) serveData(list dataLister) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		a, aerr := w.authenticate(r.Header.Get("x-api-key"), r.Header.Get("Authorization"))
		if aerr != nil {
			writeError(rw, aerr)
			return
		}
		p := params(r.URL.Query())

		a.mu.Lock()
		now := w.clock.Now()
		a.advance(now)
		body, aerr := list(a, p, r, now)
		var buf bytes.Buffer
		var encErr error
		if aerr == nil {
			encErr = json.NewEncoder(&buf).Encode(body)
		}
		w.unlock(a)

		if aerr != nil {
			writeError(rw, aerr)
			return
		}
		if encErr != nil {
			panic(fmt.Sprintf("encoding %s: %v", r.URL.Path, encErr))
		}
		rw.Header().Set("Content-Type", "application/json")
		w.chaos.writeBody(rw, buf.Bytes())
	}
}

// endpointURL is the absolute URL of the requested endpoint, for the links
// that metadata pages carry.
func endpointURL(r *http.Request) url.URL {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return url.URL{Scheme: scheme, Host: r.Host, Path: r.URL.Path}
}

// recoverPanics turns a panic into a 500 with a JSON body, so that no
// client ever sees a broken connection for a bug (deliberately aborted
// responses excepted).
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
				panic(v)
			}
			slog.Error("sim: panic serving request", "path", r.URL.Path, "panic", fmt.Sprint(v))
			writeError(rw, newAPIError(http.StatusInternalServerError, "", "internal server error"))
		}()
		next.ServeHTTP(rw, r)
	})
}

// LogRequests logs one line per request: method, path, status and
// duration. Headers, and with them credentials, are never logged.
func LogRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: rw, status: http.StatusOK}
		defer func() {
			log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status,
				"duration", time.Since(start).Round(time.Microsecond).String(), "bytes", strconv.Itoa(sw.bytes))
		}()
		next.ServeHTTP(sw, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
