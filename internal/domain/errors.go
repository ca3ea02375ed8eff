package domain

import (
	"errors"
	"fmt"
)

// ErrNotFound is wrapped by errors that say something asked for does not
// exist (or belongs to another account, which to the asker is the same).
var ErrNotFound = errors.New("not found")

// ErrLimit says an account keeps as many of something as it may: nothing
// more is added.
var ErrLimit = errors.New("the account keeps as many as it may")

// LimitError is an ErrLimit in words: what the account keeps, how many it
// may, and what to do instead.
type LimitError struct {
	// Holder is what keeps them, "A person"; "An account" when empty.
	Holder string
	What   string // "wall screens"
	Max    int
	Advice string // "Remove one it no longer uses before adding another."
}

func (e *LimitError) Error() string {
	holder := e.Holder
	if holder == "" {
		holder = "An account"
	}
	return fmt.Sprintf("%s keeps at most %d %s, and this one has as many. %s", holder, e.Max, e.What, e.Advice)
}

// Is makes a LimitError an ErrLimit.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// ErrForbidden says the person asking may not do what they asked: their
// role is below it, or it reaches past their buildings.
var ErrForbidden = errors.New("not allowed")

// ForbiddenError is an ErrForbidden in words: what the person may not do,
// and why.
type ForbiddenError struct {
	Why string // "Only an owner can make someone an owner."
}

func (e *ForbiddenError) Error() string { return e.Why }

// Is makes a ForbiddenError an ErrForbidden.
func (e *ForbiddenError) Is(target error) bool { return target == ErrForbidden }
