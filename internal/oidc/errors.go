package oidc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"washboard/internal/domain"
	"washboard/internal/notify"
)

// What goes wrong with a sign-in, in words a page can show. An error of
// Begin or Finish is an *Error whose Reason is one of these.
var (
	ErrNoSignIn       = domain.Problem("No sign-in was started in this browser, or it was finished already: start again.")
	ErrRefused        = domain.Problem("The sign-in provider did not let you in: start again, or ask whoever runs it.")
	ErrStateMismatch  = domain.Problem("This answer of the sign-in provider belongs to another sign-in than the one started in this browser: start again.")
	ErrStateReplayed  = domain.Problem("This answer of the sign-in provider was used already: start again.")
	ErrPendingExpired = domain.Problem("The sign-in took longer than 10 minutes: start again.")
	ErrNonce          = domain.Problem("The sign-in provider's token was made for another sign-in than this one (its nonce differs): start again.")
	ErrTokenExpired   = domain.Problem("The sign-in provider's token has expired: start again. If it happens every time, this server's clock or the provider's is wrong.")
	ErrTokenInvalid   = domain.Problem("The sign-in provider's token could not be verified (its signature or its audience is wrong): start again, and tell an admin if it happens again.")
	ErrIssuer         = domain.Problem("The sign-in provider names itself differently from the issuer Washboard is set to (--oidc-issuer): an admin should correct the setting.")
	ErrUnreachable    = domain.Problem("The sign-in provider could not be reached, or did not answer in time: try again in a moment.")
	ErrGarbage        = domain.Problem("The sign-in provider's answer is not one an OpenID provider gives: try again later, and tell an admin if it goes on.")
	ErrNotAllowed     = domain.Problem("The sign-in provider is at an address Washboard does not connect to (its own, or a private one): an admin should check the issuer setting (--oidc-issuer), or allow a provider on a private network (--oidc-allow-private).")
)

// Error is a failed sign-in: Reason in words for the person, Detail (may
// be nil) for the log. Neither holds a code, a token or a secret.
type Error struct {
	Reason domain.Problem
	Detail error
}

func (e *Error) Error() string { return e.Reason.Error() }

// Unwrap lets errors.Is find the reason, and what the detail wraps.
func (e *Error) Unwrap() []error {
	if e.Detail == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Detail}
}

// LogDetail is the reason and the detail, for the log.
func (e *Error) LogDetail() string {
	if e.Detail == nil {
		return e.Reason.Error()
	}
	return e.Reason.Error() + " (" + e.Detail.Error() + ")"
}

func fail(reason domain.Problem, detail error) *Error { return &Error{Reason: reason, Detail: detail} }

// connectionError is the reason of a request that got no answer, nil
// when err is not one.
func connectionError(err error) *Error {
	var ne net.Error
	switch {
	case errors.Is(err, notify.ErrForbiddenTarget):
		return fail(ErrNotAllowed, err)
	case errors.Is(err, errTooLarge):
		return fail(ErrGarbage, err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), errors.As(err, &ne):
		return fail(ErrUnreachable, err)
	}
	return nil
}

// discoveryError is the reason discovery failed.
func discoveryError(err error) *Error {
	var mismatch *gooidc.IssuerMismatchError
	if errors.As(err, &mismatch) {
		return fail(ErrIssuer, fmt.Errorf("the provider names itself %q", cut(mismatch.Discovered, 200)))
	}
	if e := connectionError(err); e != nil {
		return e
	}
	return fail(ErrGarbage, errors.New(cut(err.Error(), 300)))
}

// exchangeError is the reason the code's exchange failed. The provider's
// answer is not quoted: it may repeat the code.
func exchangeError(err error) *Error {
	if e := connectionError(err); e != nil {
		return e
	}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		detail := fmt.Errorf("the token endpoint answered %s %q", re.Response.Status, cut(re.ErrorCode, 64))
		if re.Response.StatusCode >= 500 {
			return fail(ErrUnreachable, detail)
		}
		if re.ErrorCode != "" || re.Response.StatusCode == http.StatusBadRequest || re.Response.StatusCode == http.StatusUnauthorized {
			return fail(ErrRefused, detail)
		}
		return fail(ErrGarbage, detail)
	}
	return fail(ErrGarbage, errors.New("the token endpoint's answer could not be read"))
}

// verifyError is the reason the ID token was not accepted.
func verifyError(err error) *Error {
	var expired *gooidc.TokenExpiredError
	if errors.As(err, &expired) {
		return fail(ErrTokenExpired, fmt.Errorf("the ID token expired at %s", expired.Expiry.UTC().Format("2006-01-02 15:04:05Z")))
	}
	if e := connectionError(err); e != nil {
		return e
	}
	detail := errors.New(cut(err.Error(), 300))
	if strings.Contains(err.Error(), "issued by a different provider") { // go-oidc has no type for it

		return fail(ErrIssuer, detail)
	}
	return fail(ErrTokenInvalid, detail)
}
