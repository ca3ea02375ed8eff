package passkey

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

// authenticator is a software passkey, as the WebAuthn specification
// describes an authenticator's answers: an ECDSA P-256 key, "none"
// attestation, a signature over the authenticator data and the hash of
// the client data. It answers as a browser at origin would, for the
// relying party rpID.
type authenticator struct {
	key        *ecdsa.PrivateKey
	id         []byte
	userHandle []byte
	count      uint32
	rpID       string
	origin     string
	noCounter  bool // sends 0 always, as synced passkeys do
}

func newAuthenticator(t *testing.T) *authenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 32)
	rand.Read(id)
	return &authenticator{key: key, id: id, rpID: rpID, origin: origin}
}

// clientData is the browser's client data for a ceremony.
func (a *authenticator) clientData(t *testing.T, ceremony string, challenge protocol.URLEncodedBase64) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"type": ceremony, "challenge": challenge.String(), "origin": a.origin, "crossOrigin": false})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// authData is the authenticator data: the hash of the relying party's
// id, the flags (user present and verified), the counter, and the
// attested credential when registering.
func (a *authenticator) authData(t *testing.T, attested bool) []byte {
	t.Helper()
	h := sha256.Sum256([]byte(a.rpID))
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

// register answers navigator.credentials.create's options.
func (a *authenticator) register(t *testing.T, options []byte) []byte {
	t.Helper()
	var o protocol.CredentialCreation
	if err := json.Unmarshal(options, &o); err != nil {
		t.Fatal(err)
	}
	handle, _ := o.Response.User.ID.(string)
	var err error
	if a.userHandle, err = base64.RawURLEncoding.DecodeString(handle); err != nil {
		t.Fatalf("the user's id %q is not base64url", handle)
	}
	authData := a.authData(t, true)
	var att []byte
	att, err = webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": authData})
	if err != nil {
		t.Fatal(err)
	}
	return a.answer(t, map[string]any{
		"attestationObject": b64(att),
		"clientDataJSON":    b64(a.clientData(t, "webauthn.create", o.Response.Challenge)),
	})
}

// assert answers navigator.credentials.get's options, counting one more
// use.
func (a *authenticator) assert(t *testing.T, options []byte) []byte {
	t.Helper()
	var o protocol.CredentialAssertion
	if err := json.Unmarshal(options, &o); err != nil {
		t.Fatal(err)
	}
	if !a.noCounter {
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
		"userHandle":        b64(a.userHandle),
	})
}

func (a *authenticator) answer(t *testing.T, response map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"id": b64(a.id), "rawId": b64(a.id), "type": "public-key", "response": response})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
