// Package peopletest makes a people service for tests: over a real SQLite
// cache, with a keyring of its own, on the clock given.
package peopletest

import (
	"bytes"
	"testing"

	"washboard/internal/clock"
	"washboard/internal/keyring"
	"washboard/internal/people"
	"washboard/internal/store/sqlite"
	"washboard/internal/store/sqlite/sqlitetest"
)

// New is a people service over an empty cache, which also reads the time
// from c, and the cache itself.
func New(tb testing.TB, c clock.Clock) (*people.Service, *sqlite.Store) {
	tb.Helper()
	st, _ := sqlitetest.Open(tb)
	st.Now = c.Now
	keys, err := keyring.New(bytes.Repeat([]byte{7}, keyring.KeySize))
	if err != nil {
		tb.Fatal(err)
	}
	return people.New(st, keys, c, people.Config{}), st
}
