package webhook

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The Standard Webhooks specification's published test vector (also in its
// Go library's webhook_test.go).
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorPayload   = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func mustSecret(t *testing.T, s string) Secret {
	t.Helper()
	secret, err := ParseSecret(s)
	if err != nil {
		t.Fatal(err)
	}
	return secret
}

func TestSignMatchesTheSpecificationVector(t *testing.T) {
	secret := mustSecret(t, vectorSecret)
	h := Sign(secret, vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorPayload))
	if got := h.Get("webhook-signature"); got != vectorSignature {
		t.Errorf("webhook-signature = %q, want %q", got, vectorSignature)
	}
	if got := h.Get("webhook-id"); got != vectorID {
		t.Errorf("webhook-id = %q, want %q", got, vectorID)
	}
	if got := h.Get("webhook-timestamp"); got != "1614265330" {
		t.Errorf("webhook-timestamp = %q, want Unix seconds 1614265330", got)
	}
	// The receiving side of the same vector, at the moment it was signed.
	vh := http.Header{}
	vh.Set("webhook-id", vectorID)
	vh.Set("webhook-timestamp", "1614265330")
	vh.Set("webhook-signature", vectorSignature)
	if err := Verify(secret, vh, []byte(vectorPayload), time.Unix(vectorTimestamp, 0)); err != nil {
		t.Errorf("Verify of the published vector: %v", err)
	}
}

func TestSignVerifyRoundTrip(t *testing.T) {
	secret := NewSecret()
	now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	body := []byte(`{"id":"evt_1","type":"alert.created","created_at":"2026-11-22T09:29:58.123Z","data":{"alert_id":"a"}}`)
	h := Sign(secret, "evt_1", now, body)
	for _, at := range []time.Duration{0, Tolerance, -Tolerance, time.Second} {
		if err := Verify(secret, h, body, now.Add(at)); err != nil {
			t.Errorf("Verify %s after signing: %v", at, err)
		}
	}
	// The text form reads back as the same key.
	again := mustSecret(t, secret.Text())
	if err := Verify(again, h, body, now); err != nil {
		t.Errorf("Verify with the secret read back from %q form: %v", "whsec_", err)
	}
}

func TestVerifyRejects(t *testing.T) {
	secret := mustSecret(t, vectorSecret)
	now := time.Unix(vectorTimestamp, 0)
	body := []byte(vectorPayload)
	signed := func() http.Header { return Sign(secret, vectorID, now, body) }
	otherSig := Sign(NewSecret(), vectorID, now, body).Get("webhook-signature")
	sigOnly := strings.TrimPrefix(vectorSignature, "v1,")

	tests := []struct {
		name   string
		header func() http.Header
		body   string
		secret *Secret
		now    time.Time
		want   error
	}{
		{name: "tampered body", header: signed, body: `{"test": 2432232315}`, want: ErrNoMatchingSignature},
		{name: "wrong secret", header: signed, secret: ptr(NewSecret()), want: ErrNoMatchingSignature},
		{name: "another id", header: func() http.Header { h := signed(); h.Set("webhook-id", "msg_other"); return h }, want: ErrNoMatchingSignature},
		{name: "timestamp changed after signing", header: func() http.Header { h := signed(); h.Set("webhook-timestamp", "1614265331"); return h }, now: now.Add(time.Second), want: ErrNoMatchingSignature},
		{name: "unknown version prefix", header: func() http.Header { h := signed(); h.Set("webhook-signature", "v2,"+sigOnly); return h }, want: ErrNoMatchingSignature},
		{name: "signature without version", header: func() http.Header { h := signed(); h.Set("webhook-signature", sigOnly); return h }, want: ErrNoMatchingSignature},
		{name: "empty v1 signature", header: func() http.Header { h := signed(); h.Set("webhook-signature", "v1,"); return h }, want: ErrNoMatchingSignature},
		{name: "several signatures, none matching", header: func() http.Header {
			h := signed()
			h.Set("webhook-signature", otherSig+" v2,"+sigOnly+" v1a,"+sigOnly)
			return h
		}, want: ErrNoMatchingSignature},
		{name: "too old", header: signed, now: now.Add(Tolerance + time.Second), want: ErrTooOld},
		{name: "too new", header: signed, now: now.Add(-Tolerance - time.Second), want: ErrTooNew},
		{name: "no webhook-id", header: func() http.Header { h := signed(); h.Del("webhook-id"); return h }, want: ErrMissingHeaders},
		{name: "no webhook-timestamp", header: func() http.Header { h := signed(); h.Del("webhook-timestamp"); return h }, want: ErrMissingHeaders},
		{name: "no webhook-signature", header: func() http.Header { h := signed(); h.Del("webhook-signature"); return h }, want: ErrMissingHeaders},
		{name: "no headers at all", header: func() http.Header { return http.Header{} }, want: ErrMissingHeaders},
		{name: "timestamp in milliseconds text", header: func() http.Header { h := signed(); h.Set("webhook-timestamp", "1614265330.5"); return h }, want: ErrBadTimestamp},
		{name: "timestamp as a date", header: func() http.Header { h := signed(); h.Set("webhook-timestamp", "2021-02-25T15:02:10Z"); return h }, want: ErrBadTimestamp},
		{name: "negative timestamp", header: func() http.Header { h := signed(); h.Set("webhook-timestamp", "-1"); return h }, want: ErrBadTimestamp},
		{name: "no secret", header: signed, secret: &Secret{}, want: ErrNoMatchingSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := secret
			if tt.secret != nil {
				s = *tt.secret
			}
			b := body
			if tt.body != "" {
				b = []byte(tt.body)
			}
			at := now
			if !tt.now.IsZero() {
				at = tt.now
			}
			err := Verify(s, tt.header(), b, at)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify = %v, want %v", err, tt.want)
			}
			for _, leak := range []string{vectorSecret, strings.TrimPrefix(vectorSecret, "whsec_"), string(b)} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("error %q reveals the secret or the body", err)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestVerifyAcceptsOneMatchingSignatureAmongSeveral(t *testing.T) {
	secret := mustSecret(t, vectorSecret)
	now := time.Unix(vectorTimestamp, 0)
	h := Sign(secret, vectorID, now, []byte(vectorPayload))
	old := Sign(NewSecret(), vectorID, now, []byte(vectorPayload)).Get("webhook-signature")
	// A sender rotating its secret signs with both; an unknown version
	// travels alongside.
	for _, sigs := range []string{
		old + " " + vectorSignature,
		vectorSignature + " " + old,
		"v2,abc " + old + " " + vectorSignature + " v1a,xyz",
	} {
		h.Set("webhook-signature", sigs)
		if err := Verify(secret, h, []byte(vectorPayload), now); err != nil {
			t.Errorf("Verify with signatures %q: %v", sigs, err)
		}
	}
}

func TestParseSecret(t *testing.T) {
	key24 := strings.TrimPrefix(vectorSecret, "whsec_")
	for _, ok := range []string{vectorSecret, key24, " " + vectorSecret + "\n", NewSecret().Text()} {
		if _, err := ParseSecret(ok); err != nil {
			t.Errorf("ParseSecret(%q): %v", ok, err)
		}
	}
	a, b := mustSecret(t, vectorSecret), mustSecret(t, key24)
	if !a.Equal(b) {
		t.Error("the secret with and without whsec_ differ; want the same key")
	}
	short := "whsec_" + "c2hvcnQga2V5IG9mIDE2IGI=" // 17 bytes
	long := "whsec_" + strings.Repeat("QUJD", 22)  // 66 bytes
	tests := []struct{ in, want string }{
		{"", "is empty"},
		{"   ", "is empty"},
		{"whsec_", "nothing after whsec_"},
		{"whsec_not base64!", "not standard base64"},
		{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw=", "not standard base64"},
		{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS_", "not standard base64"},
		{short, "key of 17 bytes; it must be 24 to 64"},
		{long, "key of 66 bytes; it must be 24 to 64"},
	}
	for _, tt := range tests {
		_, err := ParseSecret(tt.in)
		if !errors.Is(err, ErrSecret) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseSecret(%q) = %v, want an ErrSecret saying %q", tt.in, err, tt.want)
			continue
		}
		if body := strings.TrimPrefix(strings.TrimSpace(tt.in), "whsec_"); len(body) > 3 && strings.Contains(err.Error(), body) {
			t.Errorf("ParseSecret(%q): error %q repeats the secret", tt.in, err)
		}
	}
}

func TestNewSecretIsRandomAndWellFormed(t *testing.T) {
	form := regexp.MustCompile(`^whsec_[A-Za-z0-9+/]+={0,2}$`)
	seen := map[string]bool{}
	for range 20 {
		s := NewSecret().Text()
		if !form.MatchString(s) {
			t.Fatalf("NewSecret().Text() = %q, want whsec_ and standard base64", s)
		}
		p := mustSecret(t, s)
		if n := len(p.key); n < 24 || n > 32 {
			t.Fatalf("a new secret holds %d bytes, want 24 to 32", n)
		}
		if seen[s] {
			t.Fatal("NewSecret returned the same secret twice")
		}
		seen[s] = true
	}
}

func TestSecretHiddenWhenPrinted(t *testing.T) {
	s := mustSecret(t, vectorSecret)
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("made", "secret", s)
	for _, out := range []string{fmt.Sprint(s), fmt.Sprintf("%v %s %+v %#v", s, s, s, s), buf.String()} {
		if strings.Contains(out, strings.TrimPrefix(vectorSecret, "whsec_")) {
			t.Errorf("printing a Secret reveals its key: %q", out)
		}
	}
	if s.Text() != vectorSecret {
		t.Errorf("Text() = %q, want the whole secret %q", s.Text(), vectorSecret)
	}
}
