package views

import "time"

// Passkeys is the passkeys section of a person's own page.
type Passkeys struct {
	// Offered says the server offers passkeys: it knows the address it is
	// reached at.
	Offered bool
	Keys    []PasskeyRow
	// Welcome greets a person who just accepted an invitation to the
	// account named, and offers them to add a passkey.
	Welcome string
	Error   string // what went wrong with a change, in words
}

// PasskeyRow is one of a person's passkeys. ID is its credential id in
// base64url, as its addresses carry it.
type PasskeyRow struct {
	ID, Name          string
	Created, LastUsed time.Time
}
