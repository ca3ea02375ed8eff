package keyring

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func key(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

func mustRing(t *testing.T, current []byte, old ...[]byte) *Ring {
	t.Helper()
	r, err := New(current, old...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSealedValuesOpenOnlyForTheirPurposeAndData(t *testing.T) {
	r := mustRing(t, key(1))
	sealed := r.Seal(ScreenCredentials, []byte("api key and token"), []byte("screen-1"))
	plain, stale, err := r.Open(ScreenCredentials, sealed, []byte("screen-1"))
	if err != nil || stale || string(plain) != "api key and token" {
		t.Fatalf("Open = %q, stale %v, %v", plain, stale, err)
	}
	if _, _, err := r.Open(ScreenCredentials, sealed, []byte("screen-2")); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("credentials of one screen opened as another's: %v", err)
	}
	if _, _, err := r.Open(ScreenCookies, sealed, []byte("screen-1")); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("screen credentials opened as a screen cookie: %v", err)
	}
	if _, _, err := r.Open(Sessions, sealed, nil); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("screen credentials opened as a session: %v", err)
	}
	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-1] ^= 1
	if _, _, err := r.Open(ScreenCredentials, tampered, []byte("screen-1")); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("a changed value opened: %v", err)
	}
	if _, _, err := r.Open(Sessions, []byte("short"), nil); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("a too-short value: %v", err)
	}
	if a, b := r.Seal(Sessions, []byte("x"), nil), r.Seal(Sessions, []byte("x"), nil); bytes.Equal(a, b) {
		t.Error("sealing twice gives the same bytes: the nonce is not random")
	}
}

func TestAnotherKeyOpensNothing(t *testing.T) {
	sealed := mustRing(t, key(1)).Seal(Sessions, []byte("session"), nil)
	if _, _, err := mustRing(t, key(2)).Open(Sessions, sealed, nil); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("a value sealed with another key opened: %v", err)
	}
}

func TestRotationOpensWhatTheOldKeySealedAndSealsItAgain(t *testing.T) {
	oldRing := mustRing(t, key(1))
	sealed := oldRing.Seal(ScreenCookies, []byte("screen cookie"), nil)
	r := mustRing(t, key(2), key(1))
	plain, stale, err := r.Open(ScreenCookies, sealed, nil)
	if err != nil || !stale || string(plain) != "screen cookie" {
		t.Fatalf("Open with the old key in the ring = %q, stale %v, %v", plain, stale, err)
	}
	again, changed, err := r.Reseal(ScreenCookies, sealed, nil)
	if err != nil || !changed {
		t.Fatalf("Reseal = changed %v, %v", changed, err)
	}
	if _, _, err := mustRing(t, key(2)).Open(ScreenCookies, again, nil); err != nil {
		t.Errorf("the resealed value does not open with the new key alone: %v", err)
	}
	if _, changed, _ := r.Reseal(ScreenCookies, again, nil); changed {
		t.Error("a value sealed with the current key was sealed again")
	}
}

func TestValuesSealedWithTheKeyItselfStillOpen(t *testing.T) {
	// Before each purpose had a key of its own, values were sealed with
	// AES-GCM under the secret key itself, without associated data.
	block, _ := aes.NewCipher(key(3))
	gcm, _ := cipher.NewGCM(block)
	nonce := make([]byte, gcm.NonceSize())
	rand.Read(nonce)
	legacy := gcm.Seal(nonce, nonce, []byte("old session"), nil)
	plain, stale, err := mustRing(t, key(3)).Open(Sessions, legacy, nil)
	if err != nil || !stale || string(plain) != "old session" {
		t.Fatalf("a legacy value = %q, stale %v, %v", plain, stale, err)
	}
}

func TestMACsVerifyUnderEveryKeyOfTheRing(t *testing.T) {
	old := mustRing(t, key(1))
	r := mustRing(t, key(2), key(1))
	sum := old.MAC(FormTokens, "session", "abc")
	if !r.VerifyMAC(FormTokens, sum, "session", "abc") {
		t.Error("a token signed with the old key is refused during the rotation")
	}
	if r.VerifyMAC(FormTokens, sum, "session", "abd") || r.VerifyMAC(FormTokens, sum, "sessiona", "bc") {
		t.Error("a token verified for another message")
	}
	if mustRing(t, key(2)).VerifyMAC(FormTokens, sum, "session", "abc") {
		t.Error("a token signed with another key verified")
	}
}

func TestTheCheckValueNamesTheKey(t *testing.T) {
	a, b := mustRing(t, key(1)), mustRing(t, key(2))
	if a.Check() == b.Check() || a.Check() != mustRing(t, key(1)).Check() {
		t.Fatal("check values do not tell keys apart")
	}
	if bytes.Contains([]byte(a.Check()), key(1)[:4]) {
		t.Error("the check value shows the key")
	}
	r := mustRing(t, key(2), key(1))
	if cur, old := r.Recognize(b.Check()); !cur || old {
		t.Errorf("the current key's check: current %v, old %v", cur, old)
	}
	if cur, old := r.Recognize(a.Check()); cur || !old {
		t.Errorf("the old key's check: current %v, old %v", cur, old)
	}
	if cur, old := r.Recognize(mustRing(t, key(9)).Check()); cur || old {
		t.Error("an unknown key's check was recognised")
	}
}

func TestKeysMustBeTheirSize(t *testing.T) {
	if _, err := New(key(1)[:16]); err == nil {
		t.Error("a 16-byte key was taken")
	}
	if _, err := New(key(1), []byte("short")); err == nil {
		t.Error("a short old key was taken")
	}
}

func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	k1, err := LoadKey("WASHBOARD_SECRET_KEY", "", dir)
	if err != nil || len(k1) != KeySize {
		t.Fatalf("first start: %d bytes, %v", len(k1), err)
	}
	fi, err := os.Stat(filepath.Join(dir, "secret.key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if k2, err := LoadKey("WASHBOARD_SECRET_KEY", "", dir); err != nil || !bytes.Equal(k1, k2) {
		t.Error("the second start did not read the same key back")
	}
	env := key(9)
	for _, enc := range []string{base64.StdEncoding.EncodeToString(env), hex.EncodeToString(env), base64.RawURLEncoding.EncodeToString(env)} {
		if k, err := LoadKey("WASHBOARD_SECRET_KEY", enc, dir); err != nil || !bytes.Equal(k, env) {
			t.Errorf("WASHBOARD_SECRET_KEY %q was not used: %v", enc, err)
		}
	}
	if _, err := LoadKey("WASHBOARD_SECRET_KEY_OLD", "too-short", dir); err == nil || !strings.Contains(err.Error(), "WASHBOARD_SECRET_KEY_OLD") {
		t.Errorf("a short key: %v, want an error naming WASHBOARD_SECRET_KEY_OLD", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.key"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKey("WASHBOARD_SECRET_KEY", "", dir); err == nil || !strings.Contains(err.Error(), "secret.key") {
		t.Errorf("a damaged key file: %v, want an error naming the file", err)
	}
}
