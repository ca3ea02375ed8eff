package domain

import "time"

// Claim says who is on an open alert: someone signed in said "I'm on it".
// Claims live in Washboard only (the service is read-only). An alert has
// at most one active claim; it ends when it is released, handed to
// someone else (a new claim), or when the alert closes.
type Claim struct {
	AlertID string
	// PersonID is the person the claim is in the name of; "" for a claim
	// made before people existed, or by a session of no person, whose
	// name was typed.
	PersonID string
	// Name is who is on it: the person's name as it is now, or the name
	// typed; Note is optional.
	Name, Note string
	// At is when the claim was made.
	At time.Time
	// Ended is when the claim ended; zero while it is active.
	Ended time.Time
	// EndedBy says how it ended; empty while it is active.
	EndedBy ClaimEnd
}

// ClaimEnd is how a claim ended.
type ClaimEnd string

// How claims end.
const (
	ClaimReleased ClaimEnd = "released" // its holder let it go
	ClaimHanded   ClaimEnd = "handed"   // another claim took its place
	ClaimClosed   ClaimEnd = "closed"   // the alert closed, or left the cache
)

// Active reports whether the claim has not ended.
func (c Claim) Active() bool { return c.Ended.IsZero() }

// Limits of what a claim holds, in characters.
const (
	MaxClaimName = 80
	MaxClaimNote = 500
)
