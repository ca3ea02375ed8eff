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

// Error is an ErrInvalid in words: Msg in English, and Code and Args for
// a page to say it in its own language.
type Error struct {
	Msg  string
	Code Code  // which problem; "" for one said in English only
	Args []any // the values Msg names, in its order: texts as typed (unquoted), numbers, weekdays, durations in words
}

// Code is a problem of a service level as typed in a form.
type Code string

// The problems of a service level as typed, each with the Args it has.
const (
	WeekTooLong      Code = "week_too_long"      // length, most
	ClosedAndOpen    Code = "closed_and_open"    // weekday, opening time
	TooManyIntervals Code = "too_many_intervals" // weekday, intervals, most
	ClosedEveryDay   Code = "closed_every_day"   // text
	TimesNoDays      Code = "times_no_days"      // entry
	DaysNoTimes      Code = "days_no_times"      // entry
	NotADay          Code = "not_a_day"          // text
	NotAnInterval    Code = "not_an_interval"    // text
	StartsAt24       Code = "starts_at_24"       // text
	CoversNoTime     Code = "covers_no_time"     // text, time
	NotATimeOfDay    Code = "not_a_time_of_day"  // text
	Overlap          Code = "overlap"            // opening time, opening time
	HolidaysTooLong  Code = "holidays_too_long"  // length, most
	TooManyHolidays  Code = "too_many_holidays"  // holidays, most
	NotADate         Code = "not_a_date"         // text
	NoZone           Code = "no_zone"            //
	ZoneTooLong      Code = "zone_too_long"      // name (its first 64 characters are said)
	NotAZone         Code = "not_a_zone"         // name
	ResolveShorter   Code = "resolve_shorter"    // alert type, time to resolve, time to claim
	TargetNegative   Code = "target_negative"    // text
	NotATime         Code = "not_a_time"         // text
	TargetZero       Code = "target_zero"        // text
	TargetTooLong    Code = "target_too_long"    // text, longest target
	NotWholeMinutes  Code = "not_whole_minutes"  // text
)

func (e *Error) Error() string { return e.Msg }

// Is makes an Error an ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

func invalid(code Code, format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Code: code, Args: args}
}
