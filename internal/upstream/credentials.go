package upstream

import (
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
)

// Credentials are what a request needs to be answered for one account: the
// x-api-key header and the Authorization header, sent as given (a scheme
// such as "Bearer " is part of Authorization). A Client never keeps them;
// every call takes them.
//
// Printing or logging Credentials shows REDACTED instead of the values:
// fmt with any verb, slog and encoding/json. A Credentials held in an
// unexported field of another struct is printed by fmt without asking the
// value, so keep them in exported fields or pass them along.
type Credentials struct {
	APIKey        string
	Authorization string
}

const redacted = "REDACTED"

// String returns REDACTED.
func (c Credentials) String() string { return redacted }

// GoString returns REDACTED.
func (c Credentials) GoString() string { return redacted }

// Format writes REDACTED whatever the verb and flags.
func (c Credentials) Format(f fmt.State, verb rune) { io.WriteString(f, redacted) }

// LogValue logs REDACTED.
func (c Credentials) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalJSON encodes the string "REDACTED", so that a struct holding
// credentials can be logged as JSON. Store credentials by copying the
// fields.
func (c Credentials) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// redactor replaces the credentials' values with REDACTED, or is nil when
// both are empty. The token of an Authorization value with a scheme
// ("Bearer abc") is replaced on its own too.
func (c Credentials) redactor() *strings.Replacer {
	values := []string{c.APIKey, c.Authorization}
	if _, token, ok := strings.Cut(c.Authorization, " "); ok {
		values = append(values, strings.TrimSpace(token))
	}
	// Longer values first, so that one holding another is replaced whole.
	slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, v := range values {
		if v != "" {
			pairs = append(pairs, v, redacted)
		}
	}
	if pairs == nil {
		return nil
	}
	return strings.NewReplacer(pairs...)
}
