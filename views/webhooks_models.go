package views

import "time"

// Webhooks is the page where signed-in users manage the addresses the
// service sends its events to.
type Webhooks struct {
	Page
	Receivers []ReceiverRow
	// New is a receiver just made or given a new secret: its address and
	// secret, shown once.
	New   *NewReceiver
	Error string // what is wrong with the form, in words
	Now   time.Time
}

// ReceiverRow is one receiver in the list.
type ReceiverRow struct {
	URL        string
	Created    time.Time
	Rotated    time.Time // zero: never
	LastEvent  time.Time // zero: none yet
	Accepted   int64
	Rejected   int64
	Unreadable bool   // the server's key cannot open its secret: it needs a new one
	RotateHref string // POST with csrf_token (and secret): a new secret
	RemoveHref string // POST with csrf_token: remove
}

// NewReceiver is what the service must be given, shown once.
type NewReceiver struct {
	URL    string
	Secret string
	// Rotated says the secret replaces another, which is accepted for a
	// day more.
	Rotated bool
}
