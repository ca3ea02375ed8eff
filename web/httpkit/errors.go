// Package httpkit is the HTTP plumbing under Washboard's handlers:
// compression, the cache of rendered pages, the session cache, limits on
// what a request may make the server hold, the sign-in rate limit, and
// the middleware every request passes (request ids and logs, panics,
// security headers, clean input, the client's address behind proxies,
// private responses). It knows HTTP and echo, and nothing of the
// application: no views, no handlers, no features.
package httpkit

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
)

// Error is an error with the status and the message in words that the
// person using the page sees; Err, when set, is what the log gets.
type Error struct {
	Code  int
	Msg   string
	Param string // the query parameter at fault, for a 400
	Err   error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Code, e.Msg, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Code, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// BadParam is a 400 that names the parameter at fault.
func BadParam(param, format string, args ...any) error {
	return &Error{Code: http.StatusBadRequest, Param: param, Msg: fmt.Sprintf("The %s parameter %s", param, fmt.Sprintf(format, args...))}
}

// BadParamSaid is a 400 naming the parameter param, in words said by
// the caller (in the reader's language): BadParam's, from the catalogs.
func BadParamSaid(param, said string) error {
	return &Error{Code: http.StatusBadRequest, Param: param, Msg: said}
}

// Clip cuts a value that a message repeats to 40 characters.
func Clip(s string) string {
	const max = 40
	r := []rune(s)
	if len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// RandomHex is n random bytes in hex: request ids, error ids, tokens.
func RandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b)
}
