// Package servicelevel measures alerts against the service levels agreed
// with a client: service hours (a week of opening times and holidays, in
// the client's time zone) outside which the clock stops, and targets per
// alert type for the time to claim and the time to resolve.
//
// It is pure: no storage, no clock of its own, no I/O; callers pass the
// times they hold (Evaluate, Explain) and the alerts they measured (Tally).
// The store keeps policies and the measures of closed alerts
// (store.ServiceLevels); internal/dashboard measures open alerts live.
// Service hours go to text and back: ParseWeek and ParseHolidays read
// what Week.String and FormatHolidays write; ParseTargetTime reads a
// target typed in a form.
package servicelevel

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error that says a service level, as
// given, makes no sense: the message names the problem in words a manager
// can act on.
var ErrInvalid = errors.New("invalid service level")

// Error is an ErrInvalid in words.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Is makes an Error an ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

func invalid(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}
