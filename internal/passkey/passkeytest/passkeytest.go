// Package passkeytest is a software passkey for tests: it answers a
// relying party's options as a browser and its authenticator would, so
// that tests can register passkeys and sign in with them without a
// browser.
package passkeytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
)

// Authenticator is a software passkey, as the WebAuthn specification
// describes an authenticator's answers: an ECDSA P-256 key, "none"
// attestation, a signature over the authenticator data and the hash of
// the client data. It answers as a browser at Origin would, for the
// relying party RPID.
type Authenticator struct {
	key   *ecdsa.PrivateKey
	id    []byte
	count uint32
	// UserHandle is the person's id the passkey keeps once registered,
	// and sends with each sign-in.
	UserHandle []byte
	RPID       string
	Origin     string
	NoCounter  bool // sends 0 always, as synced passkeys do
}

// New is a new passkey of a browser at origin, for the relying party
// rpID.
func New(t testing.TB, rpID, origin string) *Authenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 32)
	rand.Read(id)
	return &Authenticator{key: key, id: id, RPID: rpID, Origin: origin}
}

// ID is the passkey's credential id.
func (a *Authenticator) ID() []byte { return a.id }

// clientData is the browser's client data for a ceremony.
func (a *Authenticator) clientData(t testing.TB, ceremony string, challenge protocol.URLEncodedBase64) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"type": ceremony, "challenge": challenge.String(), "origin": a.Origin, "crossOrigin": false})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// authData is the authenticator data: the hash of the relying party's
// id, the flags (user present and verified), the counter, and the
// attested credential when registering.
func (a *Authenticator) authData(t testing.TB, attested bool) []byte {
	t.Helper()
	h := sha256.Sum256([]byte(a.RPID))
	flags := protocol.FlagUserPresent | protocol.FlagUserVerified
	if attested {
		flags |= protocol.FlagAttestedCredentialData
	}
	data := append(h[:], byte(flags))
	data = binary.BigEndian.AppendUint32(data, a.count)
	if !attested {
		return data
	}
	pub, err := webauthncbor.Marshal(map[int64]any{
		1:  int64(webauthncose.EllipticKey),
		3:  int64(webauthncose.AlgES256),
		-1: int64(webauthncose.P256),
		-2: a.key.X.FillBytes(make([]byte, 32)),
		-3: a.key.Y.FillBytes(make([]byte, 32)),
	})
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, make([]byte, 16)...) // AAGUID: none
	data = binary.BigEndian.AppendUint16(data, uint16(len(a.id)))
	data = append(data, a.id...)
	return append(data, pub...)
}

// Register answers navigator.credentials.create's options (JSON, as the
// relying party sends them) with the JSON a page sends back.
func (a *Authenticator) Register(t testing.TB, options []byte) []byte {
	t.Helper()
	var o protocol.CredentialCreation
	if err := json.Unmarshal(options, &o); err != nil {
		t.Fatalf("the registration's options are not JSON: %v\n%s", err, options)
	}
	handle, _ := o.Response.User.ID.(string)
	var err error
	if a.UserHandle, err = base64.RawURLEncoding.DecodeString(handle); err != nil {
		t.Fatalf("the user's id %q is not base64url", handle)
	}
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(t, true)})
	if err != nil {
		t.Fatal(err)
	}
	return a.answer(t, map[string]any{
		"attestationObject": b64(att),
		"clientDataJSON":    b64(a.clientData(t, "webauthn.create", o.Response.Challenge)),
	})
}

// Assert answers navigator.credentials.get's options (JSON) with the
// JSON a page sends back, counting one more use.
func (a *Authenticator) Assert(t testing.TB, options []byte) []byte {
	t.Helper()
	var o protocol.CredentialAssertion
	if err := json.Unmarshal(options, &o); err != nil {
		t.Fatalf("the sign-in's options are not JSON: %v\n%s", err, options)
	}
	if !a.NoCounter {
		a.count++
	}
	authData := a.authData(t, false)
	client := a.clientData(t, "webauthn.get", o.Response.Challenge)
	ch := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte{}, authData...), ch[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	return a.answer(t, map[string]any{
		"authenticatorData": b64(authData),
		"clientDataJSON":    b64(client),
		"signature":         b64(sig),
		"userHandle":        b64(a.UserHandle),
	})
}

func (a *Authenticator) answer(t testing.TB, response map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": b64(a.id), "rawId": b64(a.id), "type": "public-key", "response": response})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
