package passkey

import (
	"errors"
	"strings"

	"github.com/go-webauthn/webauthn/protocol"

	"washboard/internal/domain"
)

// What goes wrong with a passkey, in words a page can show. An error of a
// Finish is an *Error whose Reason is one of these, or
// people.ErrPasskeyCloned.
var (
	ErrNoCeremony     = domain.Problem("No passkey step was started in this browser, or it was finished already: start again.")
	ErrExpired        = domain.Problem("The passkey took longer than 5 minutes to answer: start again.")
	ErrReplayed       = domain.Problem("This passkey answer was used already: start again.")
	ErrUnknownPasskey = domain.Problem("This passkey is not registered here: sign in another way, and add it on your page.")
	ErrOtherPerson    = domain.Problem("This passkey belongs to someone else than the person signing in: use your own.")
	ErrOtherSite      = domain.Problem("This passkey answer was made for another site or address than this one: open Washboard at its usual address and try again.")
	ErrNotVerified    = domain.Problem("The passkey's answer could not be verified: try again, or sign in another way.")
	ErrGarbled        = domain.Problem("The browser's passkey answer could not be read: try again.")
)

// Error is a refused passkey answer: Reason in words for the person,
// Detail (may be nil) for the log.
type Error struct {
	Reason error
	Detail error
}

func (e *Error) Error() string { return e.Reason.Error() }

// Unwrap lets errors.Is find the reason.
func (e *Error) Unwrap() error { return e.Reason }

// LogDetail is the reason and the detail, for the log.
func (e *Error) LogDetail() string {
	if e.Detail == nil {
		return e.Reason.Error()
	}
	return e.Reason.Error() + " (" + e.Detail.Error() + ")"
}

func fail(reason, detail error) *Error { return &Error{Reason: reason, Detail: detail} }

// ceremonyError is the reason the library refused an answer. It says
// "another site" for an answer signed for another relying party or made
// on another origin, which its details name.
func ceremonyError(err error) *Error {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		detail := errors.New(pe.Details + ": " + pe.DevInfo)
		switch {
		case strings.Contains(pe.Details, "origin"), strings.Contains(pe.DevInfo, "RP Hash mismatch"):
			return fail(ErrOtherSite, detail)
		case strings.Contains(pe.Details, "challenge"):
			return fail(ErrNotVerified, detail)
		}
		return fail(ErrNotVerified, detail)
	}
	return fail(ErrNotVerified, err)
}
