package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// The headers of a signed delivery.
const (
	HeaderID        = standardwebhooks.HeaderWebhookID        // the event's id, the same on every attempt
	HeaderTimestamp = standardwebhooks.HeaderWebhookTimestamp // Unix seconds of the attempt
	HeaderSignature = standardwebhooks.HeaderWebhookSignature // "v1,<base64>", several separated by spaces
)

// Tolerance is how far a delivery's timestamp may be from the receiver's
// clock, either way, before Verify rejects it as a replay or a clock gone
// wrong.
const Tolerance = 5 * time.Minute

// secretPrefix starts a secret's text form.
const secretPrefix = "whsec_"

// Lengths of a secret's key, in bytes: the Standard Webhooks specification
// asks for 24 to 64.
const (
	minKeyLen = 24
	maxKeyLen = 64
	newKeyLen = 32
)

// Secret is the key that signs deliveries to one endpoint. Its text form is
// "whsec_" followed by the key in standard base64. String and LogValue hide
// the key, so that printing or logging a Secret by mistake reveals nothing;
// Text gives the whole form, for the one place it is shown.
type Secret struct {
	key []byte
}

// NewSecret draws a secret of 32 random bytes.
func NewSecret() Secret {
	key := make([]byte, newKeyLen)
	rand.Read(key) // never fails: since Go 1.24 a broken source crashes the program instead
	return Secret{key: key}
}

// ErrSecret marks every error of ParseSecret.
var ErrSecret = errors.New("webhook secret")

// ParseSecret reads a secret written "whsec_" + base64, or the base64 alone.
// Its errors say what is wrong and never repeat the text.
func ParseSecret(s string) (Secret, error) {
	s = strings.TrimSpace(s)
	b64 := strings.TrimPrefix(s, secretPrefix)
	switch {
	case s == "":
		return Secret{}, fmt.Errorf("%w is empty", ErrSecret)
	case b64 == "":
		return Secret{}, fmt.Errorf("%w has nothing after whsec_", ErrSecret)
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return Secret{}, fmt.Errorf("%w is not standard base64 after the whsec_ prefix", ErrSecret)
	}
	if len(key) < minKeyLen || len(key) > maxKeyLen {
		return Secret{}, fmt.Errorf("%w holds a key of %d bytes; it must be %d to %d", ErrSecret, len(key), minKeyLen, maxKeyLen)
	}
	return Secret{key: key}, nil
}

// IsZero reports whether the secret is the zero value, holding no key.
func (s Secret) IsZero() bool { return len(s.key) == 0 }

// Text returns the secret's whole text form, "whsec_" + base64.
func (s Secret) Text() string { return secretPrefix + base64.StdEncoding.EncodeToString(s.key) }

// Equal reports whether two secrets hold the same key.
func (s Secret) Equal(o Secret) bool { return string(s.key) == string(o.key) }

// String hides the key.
func (s Secret) String() string { return secretPrefix + "…" }

// GoString hides the key from %#v.
func (s Secret) GoString() string { return "webhook.Secret{" + s.String() + "}" }

// LogValue hides the key from slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

func (s Secret) signer() *standardwebhooks.Webhook {
	wh, _ := standardwebhooks.NewWebhookRaw(s.key) // never fails
	return wh
}

// Sign returns the headers of a delivery of body with the event id,
// attempted at timestamp (sent in whole Unix seconds).
func Sign(secret Secret, id string, timestamp time.Time, body []byte) http.Header {
	sig, _ := secret.signer().Sign(id, timestamp, body) // HMAC never fails
	h := http.Header{}
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(timestamp.Unix(), 10))
	h.Set(HeaderSignature, sig)
	return h
}

// The errors of Verify, to tell apart with errors.Is.
var (
	ErrMissingHeaders      = errors.New("missing webhook headers")
	ErrBadTimestamp        = errors.New("webhook-timestamp is not Unix seconds")
	ErrNoMatchingSignature = errors.New("no matching webhook signature")
	ErrTooOld              = errors.New("webhook timestamp too old")
	ErrTooNew              = errors.New("webhook timestamp too new")
)

// Verify checks a delivery: one of the signatures in its webhook-signature
// header must be the v1 signature of its id, timestamp and body with the
// secret, and its timestamp within Tolerance of now. Signatures of other
// versions are ignored.
//
// The signature is checked before the timestamp, so that ErrTooOld and
// ErrTooNew say the delivery is genuine but stale or early (a replay, or a
// clock gone wrong) and a forgery always gives ErrNoMatchingSignature.
// Errors never hold the secret or the body.
func Verify(secret Secret, h http.Header, body []byte, now time.Time) error {
	var missing []string
	for _, name := range []string{HeaderID, HeaderTimestamp, HeaderSignature} {
		if h.Get(name) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %s", ErrMissingHeaders, strings.Join(missing, ", "))
	}
	ts := h.Get(HeaderTimestamp)
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || secs < 0 || strings.TrimLeft(ts, "0123456789") != "" {
		return ErrBadTimestamp
	}
	if secret.IsZero() {
		return fmt.Errorf("%w: no secret to check against", ErrNoMatchingSignature)
	}
	if err := secret.signer().VerifyIgnoringTimestamp(body, h); err != nil {
		if errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
			return ErrNoMatchingSignature
		}
		return fmt.Errorf("%w: %v", ErrNoMatchingSignature, err)
	}
	switch at := time.Unix(secs, 0); {
	case now.Sub(at) > Tolerance:
		return fmt.Errorf("%w: %s behind the receiver's clock, more than %s", ErrTooOld, now.Sub(at).Round(time.Second), Tolerance)
	case at.Sub(now) > Tolerance:
		return fmt.Errorf("%w: %s ahead of the receiver's clock, more than %s", ErrTooNew, at.Sub(now).Round(time.Second), Tolerance)
	}
	return nil
}
