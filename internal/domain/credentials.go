package domain

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strings"
)

// ErrIncompleteCredentials is matched by the error of
// Credentials.Validate.
var ErrIncompleteCredentials = errors.New("incomplete credentials")

// Credentials are what a request needs to be answered for one account, in
// one of two kinds:
//
//   - a fixed value: APIKey and Authorization, sent as the x-api-key and
//     Authorization headers as given (a scheme such as "Bearer " is part of
//     Authorization);
//   - an OAuth 2.0 client: APIKey, ClientID and ClientSecret. The upstream
//     client obtains an access token for the client from the token
//     endpoint and sends it as "Authorization: Bearer TOKEN" beside the
//     x-api-key.
//
// OAuth reports which kind a value is, and Validate whether it is complete.
// The upstream client never keeps a fixed value; it keeps an OAuth
// client's id and secret, and its access token, for as long as it renews
// the token.
//
// Printing or logging Credentials shows REDACTED instead of the values:
// fmt with any verb, slog and encoding/json. A Credentials held in an
// unexported field of another struct is printed by fmt without asking the
// value, so keep them in exported fields or pass them along.
type Credentials struct {
	APIKey        string
	Authorization string
	ClientID      string
	ClientSecret  string
}

const redacted = "REDACTED"

// OAuth reports whether the credentials are an OAuth client (ClientID or
// ClientSecret is set) rather than a fixed Authorization value.
func (c Credentials) OAuth() bool { return c.ClientID != "" || c.ClientSecret != "" }

// CredentialsError says what makes credentials unusable.
type CredentialsError struct {
	// Problem is a sentence that names the fields at fault and never their
	// values, for the person who entered them.
	Problem string
	// Reason is which rule they break, for a page that says Problem in
	// another language.
	Reason CredentialsReason
}

// CredentialsReason is what makes credentials unusable.
type CredentialsReason int

// The reasons of a CredentialsError.
const (
	CredentialsBothKinds      CredentialsReason = iota + 1 // an Authorization value and a client
	CredentialsEmpty                                       // no field at all
	CredentialsNoAPIKey                                    // the rest, but no API key
	CredentialsNoSecondHalf                                // an API key alone
	CredentialsNoClientID                                  // a client secret without its ID
	CredentialsNoClientSecret                              // a client ID without its secret
)

func (e *CredentialsError) Error() string { return "incomplete credentials: " + e.Problem }

// Is reports whether target is ErrIncompleteCredentials.
func (e *CredentialsError) Is(target error) bool { return target == ErrIncompleteCredentials }

// Validate reports, as a *CredentialsError, what keeps the credentials from
// being either kind: the API key with an Authorization value, or the API
// key with a client ID and a client secret. It only checks which fields are
// empty; the service decides whether the values are right.
func (c Credentials) Validate() error {
	var problem string
	var reason CredentialsReason
	switch {
	case c.Authorization != "" && c.OAuth():
		problem, reason = "Enter either an Authorization value or a client ID and client secret, not both.", CredentialsBothKinds
	case c.APIKey == "" && c.Authorization == "" && !c.OAuth():
		problem, reason = "Enter the API key, and either the Authorization value or the client ID and client secret.", CredentialsEmpty
	case c.APIKey == "":
		problem, reason = "Enter the API key as well.", CredentialsNoAPIKey
	case !c.OAuth():
		if c.Authorization != "" {
			return nil
		}
		problem, reason = "Enter the Authorization value, or a client ID and client secret.", CredentialsNoSecondHalf
	case c.ClientID == "":
		problem, reason = "Enter the client ID as well as the client secret.", CredentialsNoClientID
	case c.ClientSecret == "":
		problem, reason = "Enter the client secret as well as the client ID.", CredentialsNoClientSecret
	default:
		return nil
	}
	return &CredentialsError{Problem: problem, Reason: reason}
}

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

// Redactor replaces the credentials' values, and the access tokens given,
// with REDACTED, or is nil when all are empty. The token of an
// Authorization value with a scheme ("Bearer abc") is replaced on its own
// too, and so are the client id and secret as form-urlencoding spells them.
func (c Credentials) Redactor(tokens ...string) *strings.Replacer {
	values := append([]string{c.APIKey, c.Authorization, c.ClientID, c.ClientSecret,
		url.QueryEscape(c.ClientID), url.QueryEscape(c.ClientSecret)}, tokens...)
	if _, token, ok := strings.Cut(c.Authorization, " "); ok {
		values = append(values, strings.TrimSpace(token))
	}
	// Longer values first, so that one holding another is replaced whole.
	slices.SortFunc(values, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	var pairs []string
	for _, v := range slices.Compact(values) {
		if v != "" {
			pairs = append(pairs, v, redacted)
		}
	}
	if pairs == nil {
		return nil
	}
	return strings.NewReplacer(pairs...)
}
