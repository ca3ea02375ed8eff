package notify

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
	"unicode"
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
// in words, for a delivery log and a test's result: it names the receiving
// host, never the whole webhook URL (whose path is often its secret), and
// never holds a webhook secret, an SMTP password or the message's body.
//
// Nor does it hold what the other end sent, but for the code and short
// reason of a reply from a server that greeted as a mail server
// (smtpReply): a person signed in chooses where a channel connects, and an
// answer quoted back would let them read whatever answers there, a banner,
// a page, a certificate's names. An HTTP answer is its status code and
// the code's name; anything else is said in Washboard's own words
// (connectionWords, certificateWords).
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

// connectionWords says in Washboard's words why a connection failed or
// broke off, for the failures of the network it knows: "connection
// refused", "the connection was closed"; "" for another error, whose text
// may quote the other end and is not to be repeated.
func connectionWords(err error) string {
	var opErr *net.OpError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection was closed"
	case errors.As(err, &opErr) && opErr.Err != nil:
		// The system's words ("connection refused", "no route to host"),
		// or a TLS alert's name, from a table of Go's.
		var sysErr interface{ Unwrap() error }
		if errors.As(opErr.Err, &sysErr) && sysErr.Unwrap() != nil {
			return sysErr.Unwrap().Error()
		}
		return opErr.Err.Error()
	}
	return ""
}

// isCertificateError reports whether err is a certificate that did not
// verify.
func isCertificateError(err error) bool {
	var (
		certErr *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		invalid x509.CertificateInvalidError
		name    x509.HostnameError
	)
	return errors.As(err, &certErr) || errors.As(err, &unknown) || errors.As(err, &invalid) || errors.As(err, &name)
}

// certificateWords says why a certificate did not verify, without the
// names and authorities it holds, which the other end wrote.
func certificateWords(err error) string {
	var (
		unknown x509.UnknownAuthorityError
		invalid x509.CertificateInvalidError
		name    x509.HostnameError
	)
	switch {
	case errors.As(err, &unknown):
		return "it is signed by an authority Washboard does not trust"
	case errors.As(err, &name):
		return "it is not made out to " + name.Host
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "it has expired or is not valid yet"
	}
	return "it does not verify"
}

// maxReply bounds the reason of a mail server's reply an error repeats.
const maxReply = 100

// smtpReply is a reply of a mail server, one that greeted as one, as an
// error repeats it: its code and the start of its reason, as one line of
// printable text with the password taken out: "535 5.7.8 Authentication
// failed".
func smtpReply(code int, msg string, redact *strings.Replacer) string {
	s := strings.ToValidUTF8(msg, "")
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }), " ")
	s = redact.Replace(s)
	if len(s) > maxReply {
		s = truncate(s, maxReply) + "…"
	}
	return strings.TrimSpace(fmt.Sprintf("%d %s", code, s))
}
