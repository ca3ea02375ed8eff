package upstream

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"washboard/internal/domain"
)

// Kind says what went wrong with a call, in terms a caller can act on.
type Kind uint8

// The kinds of failure. errors.Is matches each with its sentinel error:
// KindTimeout with ErrNetwork, KindTruncated and KindDecode with
// ErrBadResponse, KindUnreadable with ErrUnreadable, KindCanceled with the
// context's error.
//
// A page refused for what it holds (KindTooLarge, KindUnreadable) is not
// tried again within the call: the same answer would come back, costing
// up to Config.MaxBodySize each time; the sync tries again at its next
// refresh.
const (
	KindStatus        Kind = iota // an HTTP status the interface does not list, such as 405
	KindUnauthorized              // 401: the Authorization value is missing or not valid
	KindForbidden                 // 403: the x-api-key is missing or not valid
	KindRateLimited               // 429: too many requests
	KindNotFound                  // 404: an identifier in the query names nothing the account has
	KindBadRequest                // 400: a query parameter is not valid
	KindServer                    // 5xx
	KindNetwork                   // the request or the answer was lost on the way
	KindTimeout                   // the attempt took longer than Config.Timeout
	KindTruncated                 // the body ended before its declared length or the connection broke mid-body
	KindDecode                    // the body is not JSON, or not the shape of the endpoint's answer
	KindTooLarge                  // the body exceeds Config.MaxBodySize, or a page more records or JSON values than Config.MaxPageRecords allows
	KindForeignHost               // a redirect or a next URL points at another host
	KindCursorLoop                // a walk was sent back to a cursor or URL it had already followed, or to an earlier offset
	KindRepeatedPage              // a page of a walk held the same records as the page before it
	KindPageLimit                 // a walk needed more than Config.MaxPages pages
	KindCanceled                  // the caller's context ended, or the Client was closed
	KindClientRevoked             // the token endpoint refused the OAuth client: revoked, unknown or a wrong secret
	KindIncomplete                // the OAuth credentials lack a field or mix in an Authorization value; nothing was sent
	KindUnreadable                // a page held records and none of them could be read
)

// Sentinel errors, for errors.Is. An *Error matches the sentinel of its
// Kind; ErrRejected matches ErrUnauthorized, ErrForbidden,
// ErrClientRevoked and ErrIncomplete,
// ErrEndlessPaging every kind that says a walk would not end, and
// ErrTransient every kind that is worth trying again later.
var (
	ErrStatus        = errors.New("upstream: unexpected status")
	ErrRejected      = errors.New("upstream: credentials rejected")
	ErrUnauthorized  = errors.New("upstream: unauthorized")
	ErrForbidden     = errors.New("upstream: forbidden")
	ErrRateLimited   = errors.New("upstream: rate limited")
	ErrNotFound      = errors.New("upstream: not found")
	ErrBadRequest    = errors.New("upstream: bad request")
	ErrServer        = errors.New("upstream: server error")
	ErrNetwork       = errors.New("upstream: network error")
	ErrBadResponse   = errors.New("upstream: unreadable response")
	ErrTooLarge      = errors.New("upstream: response too large")
	ErrForeignHost   = errors.New("upstream: link to another host")
	ErrCursorLoop    = errors.New("upstream: repeated cursor")
	ErrRepeatedPage  = errors.New("upstream: repeated page")
	ErrPageLimit     = errors.New("upstream: too many pages")
	ErrEndlessPaging = errors.New("upstream: paging does not end")
	ErrTransient     = errors.New("upstream: transient failure")
	ErrClientRevoked = errors.New("upstream: OAuth client refused by the token endpoint")
	ErrUnreadable    = errors.New("upstream: no record of a page could be read")
	// ErrIncomplete is matched by the error of Credentials.Validate too.
	ErrIncomplete = domain.ErrIncompleteCredentials
)

var kindInfo = [...]struct {
	name     string
	sentinel error
}{
	KindStatus:        {"unexpected status", ErrStatus},
	KindUnauthorized:  {"unauthorized", ErrUnauthorized},
	KindForbidden:     {"forbidden", ErrForbidden},
	KindRateLimited:   {"rate limited", ErrRateLimited},
	KindNotFound:      {"not found", ErrNotFound},
	KindBadRequest:    {"bad request", ErrBadRequest},
	KindServer:        {"server error", ErrServer},
	KindNetwork:       {"network error", ErrNetwork},
	KindTimeout:       {"timed out", ErrNetwork},
	KindTruncated:     {"truncated response", ErrBadResponse},
	KindDecode:        {"unreadable response", ErrBadResponse},
	KindTooLarge:      {"response too large", ErrTooLarge},
	KindForeignHost:   {"link to another host refused", ErrForeignHost},
	KindCursorLoop:    {"repeated cursor", ErrCursorLoop},
	KindRepeatedPage:  {"repeated page", ErrRepeatedPage},
	KindPageLimit:     {"too many pages", ErrPageLimit},
	KindCanceled:      {"canceled", nil},
	KindClientRevoked: {"OAuth client refused", ErrClientRevoked},
	KindIncomplete:    {"incomplete credentials", ErrIncomplete},
	KindUnreadable:    {"unreadable records", ErrUnreadable},
}

// String names the kind in words, as error messages show it.
func (k Kind) String() string {
	if int(k) < len(kindInfo) {
		return kindInfo[k].name
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Transient reports whether a failure of this kind may go away by itself,
// so that the call is worth repeating.
func (k Kind) Transient() bool {
	switch k {
	case KindRateLimited, KindServer, KindNetwork, KindTimeout, KindTruncated, KindDecode:
		return true
	}
	return false
}

// Error is the error of every call of a Client. Its text never holds the
// credentials of the call, even when the server echoes them.
type Error struct {
	Kind       Kind
	Op         string        // the request, as "GET /alerts" (path only)
	Status     int           // the HTTP status; 0 when no answer arrived
	Message    string        // the server's message, or what went wrong
	Param      string        // the query parameter at fault, when the server names one
	RetryAfter time.Duration // what Retry-After asked for; 0 when absent
	Attempts   int           // attempts made for this call; an attempt may have failed getting its access token
	Err        error         // the underlying cause, if any
}

// Error describes the failure: the request, the kind, the status, the
// parameter at fault, the message and the attempts made.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("upstream: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(e.Kind.String())
	if e.Status != 0 {
		fmt.Fprintf(&b, " (status %d)", e.Status)
	}
	if e.Param != "" {
		fmt.Fprintf(&b, ", parameter %s", e.Param)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Err != nil && e.Err.Error() != e.Message {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, "; retry after %s", e.RetryAfter)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap returns the underlying cause, so that errors.Is finds
// context.Canceled when the caller's context ended.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether the error is of the kind target stands for.
func (e *Error) Is(target error) bool {
	switch target {
	case nil:
		return false
	case ErrRejected:
		switch e.Kind {
		case KindUnauthorized, KindForbidden, KindClientRevoked, KindIncomplete:
			return true
		}
		return false
	case ErrEndlessPaging:
		return e.Kind == KindCursorLoop || e.Kind == KindRepeatedPage || e.Kind == KindPageLimit
	case ErrTransient:
		return e.Kind.Transient()
	}
	return int(e.Kind) < len(kindInfo) && kindInfo[e.Kind].sentinel == target
}

// Transient reports whether the call is worth repeating later.
func (e *Error) Transient() bool { return e.Kind.Transient() }

// redact removes the credentials, and the access tokens given, from every
// text of the error.
func (e *Error) redact(cred Credentials, tokens ...string) {
	r := cred.Redactor(tokens...)
	if r == nil {
		return
	}
	e.Op = r.Replace(e.Op)
	e.Message = r.Replace(e.Message)
	e.Param = r.Replace(e.Param)
	if e.Err != nil {
		if s := e.Err.Error(); r.Replace(s) != s {
			e.Err = &redactedError{msg: r.Replace(s), err: e.Err}
		}
	}
}

// redactedError is a cause whose text held a credential: it shows the
// text without it and still unwraps to the cause.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
