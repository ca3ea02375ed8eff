package domain

import "errors"

// ErrNotFound is wrapped by errors that say something asked for does not
// exist (or belongs to another account, which to the asker is the same).
var ErrNotFound = errors.New("not found")
