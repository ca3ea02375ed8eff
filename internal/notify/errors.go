package notify

import (
	"errors"
	"time"
)

// Sentinel errors, for errors.Is. An *Error matches ErrPermanent or
// ErrTransient by its class; a refusal of the request forgery guard also
// matches ErrForbiddenTarget, a notification that is not valid ErrInvalid.
var (
	ErrPermanent       = errors.New("notify: permanent failure")
	ErrTransient       = errors.New("notify: transient failure")
	ErrForbiddenTarget = errors.New("notify: target address not allowed")
)

// Error is the error of every Send and Test. Its text says what went wrong
// in words, for a delivery log: it names the receiving host, never the
// whole webhook URL (whose path is often its secret), and never holds a
// webhook secret, an SMTP password or the message's body.
type Error struct {
	// Permanent says that sending the same notification again would fail
	// the same way: a refusal, a bad address, a redirect. Otherwise the
	// failure may go away by itself: a network error, a timeout, a 5xx.
	Permanent bool
	// Msg is what went wrong, in words.
	Msg string
	// Code is the HTTP status or the SMTP reply code; 0 without an answer.
	Code int
	// RetryAfter is how long the receiver asked to wait (Retry-After);
	// 0 when it did not say.
	RetryAfter time.Duration
	// Err is the cause, for errors.Is and errors.As; its text is not part
	// of Msg unless Msg says so.
	Err error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause, so that errors.Is finds context.Canceled or
// ErrForbiddenTarget.
func (e *Error) Unwrap() error { return e.Err }

// Is matches ErrPermanent or ErrTransient by the error's class.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrPermanent:
		return e.Permanent
	case ErrTransient:
		return !e.Permanent
	}
	return false
}

// IsPermanent reports whether err says that sending again would fail the
// same way. Errors that are not an *Error count as transient.
func IsPermanent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Permanent
}

// RetryAfter is how long the receiver asked to wait before the next
// attempt; 0 when it did not say.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

func permanent(code int, cause error, msg string) *Error {
	return &Error{Permanent: true, Msg: msg, Code: code, Err: cause}
}

func transient(code int, cause error, msg string) *Error {
	return &Error{Msg: msg, Code: code, Err: cause}
}
