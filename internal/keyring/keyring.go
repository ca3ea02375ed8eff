// Package keyring turns the server's secret key into one key per use:
// sealing sessions, sealing screen cookies, sealing the credentials kept
// for screens and for connected accounts, and signing form tokens. A value sealed for one use does
// not open as another, and a check value tells, without revealing the
// key, whether the data at rest was sealed with it.
//
// A ring may also hold the keys it replaces. What they sealed still opens,
// and says so, so that it can be sealed again with the current key: that
// is how a key is rotated without signing anyone out.
package keyring

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// KeySize is the length of a secret key.
const KeySize = 32

// Overhead is how much longer a sealed value is than what it seals: its
// nonce and its authentication tag. Anything shorter was never sealed.
const Overhead = 12 + 16

// Purpose is a use of a key. Each purpose gets a key of its own.
type Purpose string

// The purposes of Washboard's keys.
const (
	Sessions          Purpose = "sessions"
	ScreenCookies     Purpose = "screen-cookies"
	ScreenCredentials Purpose = "screen-credentials"
	// AccountCredentials seals the service's credentials a connected
	// account syncs with, nobody signed in.
	AccountCredentials Purpose = "account-credentials"
	WebhookSecrets     Purpose = "webhook-secrets"
	// NotificationSettings seals the channels and rules made on the
	// /notifications page: webhook secrets and mail passwords among them.
	NotificationSettings Purpose = "notification-settings"
	// PushKeys seals the server's VAPID key pair, kept in the database
	// for every replica; PushSubscriptions the push service's address and
	// the keys of each device a person subscribed.
	PushKeys          Purpose = "push-keys"
	PushSubscriptions Purpose = "push-subscriptions"
	FormTokens        Purpose = "form-tokens"
	// PushActions signs the action tokens of pushes: "I'm on it" from a
	// notification's button, for one person and alert, for a while.
	PushActions Purpose = "push-actions"
	check       Purpose = "key-check"

	// RoomCodes seals the tokens of the rooms' codes, for a floor's sheet
	// of codes to print again; VisitorForms signs the forms a room's code
	// shows its visitors, for a while.
	RoomCodes    Purpose = "room-codes"
	VisitorForms Purpose = "visitor-forms"
)

// sealedPurposes are the purposes whose values are sealed (the others are
// MACs).
var sealedPurposes = []Purpose{Sessions, ScreenCookies, ScreenCredentials, AccountCredentials, WebhookSecrets, NotificationSettings, PushKeys, PushSubscriptions, RoomCodes}

// ErrCannotOpen is returned for a sealed value that no key of the ring
// opens: it was sealed with another key, for another purpose or other
// associated data, or it was changed.
var ErrCannotOpen = errors.New("sealed with a key this server does not have, or damaged")

// Ring holds the current key and the keys it replaces.
type Ring struct {
	current *keySet
	old     []*keySet
}

// keySet is what one secret key gives.
type keySet struct {
	aeads map[Purpose]cipher.AEAD
	macs  map[Purpose][]byte
	// legacy seals with the secret key itself, as values were sealed
	// before each purpose had its own key; such values only ever open.
	legacy cipher.AEAD
}

// New returns a ring with the current key and, optionally, keys it
// replaces, each of KeySize bytes.
func New(current []byte, old ...[]byte) (*Ring, error) {
	cur, err := newKeySet(current)
	if err != nil {
		return nil, fmt.Errorf("the secret key: %w", err)
	}
	r := &Ring{current: cur}
	for i, k := range old {
		ks, err := newKeySet(k)
		if err != nil {
			return nil, fmt.Errorf("old key %d: %w", i+1, err)
		}
		r.old = append(r.old, ks)
	}
	return r, nil
}

func newKeySet(secret []byte) (*keySet, error) {
	if len(secret) != KeySize {
		return nil, fmt.Errorf("must be %d bytes, got %d", KeySize, len(secret))
	}
	ks := &keySet{aeads: map[Purpose]cipher.AEAD{}, macs: map[Purpose][]byte{}}
	for _, p := range sealedPurposes {
		a, err := newAEAD(derive(secret, p))
		if err != nil {
			return nil, err
		}
		ks.aeads[p] = a
	}
	for _, p := range []Purpose{FormTokens, PushActions, VisitorForms, check} {
		ks.macs[p] = derive(secret, p)
	}
	legacy, err := newAEAD(secret)
	if err != nil {
		return nil, err
	}
	ks.legacy = legacy
	return ks, nil
}

// derive is the key of a purpose: HKDF-SHA256 of the secret key, with
// the purpose as its info.
func derive(secret []byte, p Purpose) []byte {
	k, err := hkdf.Key(sha256.New, secret, nil, "washboard "+string(p), KeySize)
	if err != nil {
		panic(err) // only for lengths HKDF-SHA256 cannot give
	}
	return k
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Seal seals plain for a purpose with the current key, bound to ad
// (associated data, which Open must be given again; nil for none). The
// result starts with its random nonce.
func (r *Ring) Seal(p Purpose, plain, ad []byte) []byte {
	a := r.current.aeads[p]
	if a == nil {
		panic(fmt.Sprintf("keyring: %q is not a purpose values are sealed for", p))
	}
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(plain)+a.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return a.Seal(nonce, nonce, plain, ad)
}

// Open opens a value sealed for a purpose with ad. Stale is true when a
// key other than the current one opened it: it should be sealed again.
func (r *Ring) Open(p Purpose, sealed, ad []byte) (plain []byte, stale bool, err error) {
	if plain, ok := open(r.current.aeads[p], sealed, ad); ok {
		return plain, false, nil
	}
	for _, ks := range r.old {
		if plain, ok := open(ks.aeads[p], sealed, ad); ok {
			return plain, true, nil
		}
	}
	for _, ks := range append([]*keySet{r.current}, r.old...) {
		if plain, ok := open(ks.legacy, sealed, nil); ok {
			return plain, true, nil
		}
	}
	return nil, false, ErrCannotOpen
}

func open(a cipher.AEAD, sealed, ad []byte) ([]byte, bool) {
	if a == nil || len(sealed) < a.NonceSize()+a.Overhead() {
		return nil, false
	}
	n := a.NonceSize()
	plain, err := a.Open(nil, sealed[:n], sealed[n:], ad)
	return plain, err == nil
}

// Reseal opens a sealed value and, when an old key opened it, seals it
// again with the current key. Changed says whether it did.
func (r *Ring) Reseal(p Purpose, sealed, ad []byte) (resealed []byte, changed bool, err error) {
	plain, stale, err := r.Open(p, sealed, ad)
	if err != nil || !stale {
		return sealed, false, err
	}
	return r.Seal(p, plain, ad), true, nil
}

// MAC signs the parts of a message for a purpose with the current key. The
// parts are length-prefixed, so that ("ab", "c") and ("a", "bc") differ.
func (r *Ring) MAC(p Purpose, parts ...string) []byte {
	return mac(r.current.macs[p], p, parts)
}

// VerifyMAC reports whether sum is the MAC of parts under any key of the
// ring.
func (r *Ring) VerifyMAC(p Purpose, sum []byte, parts ...string) bool {
	for _, ks := range append([]*keySet{r.current}, r.old...) {
		if hmac.Equal(sum, mac(ks.macs[p], p, parts)) {
			return true
		}
	}
	return false
}

func mac(key []byte, p Purpose, parts []string) []byte {
	if key == nil {
		panic(fmt.Sprintf("keyring: %q is not a purpose messages are signed for", p))
	}
	h := hmac.New(sha256.New, key)
	var n [8]byte
	for _, s := range parts {
		for i := range n {
			n[i] = byte(uint64(len(s)) >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return h.Sum(nil)
}

// Check is the current key's check value: it names the key without
// revealing it, so that data at rest can say which key sealed it.
func (r *Ring) Check() string { return checkOf(r.current) }

// Recognize says whether a check value is the current key's, or one of the
// old keys'.
func (r *Ring) Recognize(value string) (current, old bool) {
	if value == r.Check() {
		return true, false
	}
	for _, ks := range r.old {
		if value == checkOf(ks) {
			return false, true
		}
	}
	return false, false
}

func checkOf(ks *keySet) string {
	return hex.EncodeToString(mac(ks.macs[check], check, []string{"washboard key check"})[:16])
}

// Rotating reports whether the ring holds keys it replaces.
func (r *Ring) Rotating() bool { return len(r.old) > 0 }
