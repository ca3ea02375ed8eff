package push

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"washboard/internal/keyring"
)

// keysSetting is the name the sealed keys are kept under in the
// database's settings.
const keysSetting = "push_vapid_keys"

// Keys are the server's VAPID key pair (RFC 8292), on P-256: the public
// key browsers subscribe with, the private one that signs each push. A
// device subscribed with one public key takes pushes signed by it alone,
// so the pair is made once and kept, for every replica. Printing Keys
// shows the public key only.
type Keys struct {
	public  string // base64url, no padding: the uncompressed point
	private string // base64url, no padding: the scalar
}

// NewKeys makes a key pair.
func NewKeys() (Keys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, err
	}
	return Keys{
		public:  base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes()),
		private: base64.RawURLEncoding.EncodeToString(k.Bytes()),
	}, nil
}

// Public is the public key as a browser's PushManager.subscribe takes it
// (applicationServerKey): the uncompressed point in base64url.
func (k Keys) Public() string { return k.public }

// String shows the public key only.
func (k Keys) String() string { return "VAPID keys, public " + k.public }

// GoString leaves the private key out of %#v.
func (k Keys) GoString() string { return "push.Keys{" + k.String() + "}" }

// LogValue leaves the private key out of slog.
func (k Keys) LogValue() slog.Value { return slog.StringValue(k.String()) }

// savedKeys is how the keys are kept, sealed.
type savedKeys struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// SettingKeeper keeps a setting once for every replica
// (store.Push.KeepSetting), and replaces it when it is sealed again.
type SettingKeeper interface {
	KeepSetting(ctx context.Context, name, value string) (string, error)
	ReplaceSetting(ctx context.Context, name, old, value string) (bool, error)
}

// LoadKeys returns the server's keys from the database, made and kept
// there, sealed with the server's key, on the first start. Replicas that
// start at once each make a pair, and all keep the first one written.
// During a rotation of the secret key, keys sealed with the old one are
// sealed again with the new one.
func LoadKeys(ctx context.Context, st SettingKeeper, ring *keyring.Ring) (Keys, error) {
	made, err := NewKeys()
	if err != nil {
		return Keys{}, err
	}
	plain, err := json.Marshal(savedKeys{Public: made.public, Private: made.private})
	if err != nil {
		return Keys{}, err
	}
	sealed := base64.StdEncoding.EncodeToString(ring.Seal(keyring.PushKeys, plain, []byte(keysSetting)))
	kept, err := st.KeepSetting(ctx, keysSetting, sealed)
	if err != nil {
		return Keys{}, fmt.Errorf("keeping the push keys: %w", err)
	}
	raw, err := base64.StdEncoding.DecodeString(kept)
	if err != nil {
		return Keys{}, errors.New("the push keys kept in the database do not read: they are not base64")
	}
	plain, stale, err := ring.Open(keyring.PushKeys, raw, []byte(keysSetting))
	if err != nil {
		return Keys{}, fmt.Errorf("the push keys kept in the database do not open: %w; start with the key that sealed them", err)
	}
	if stale {
		resealed := base64.StdEncoding.EncodeToString(ring.Seal(keyring.PushKeys, plain, []byte(keysSetting)))
		if _, err := st.ReplaceSetting(ctx, keysSetting, kept, resealed); err != nil { // false: another replica did
			return Keys{}, fmt.Errorf("sealing the push keys with the new key: %w", err)
		}
	}
	var saved savedKeys
	if err := json.Unmarshal(plain, &saved); err != nil {
		return Keys{}, errors.New("the push keys kept in the database do not read")
	}
	k := Keys{public: saved.Public, private: saved.Private}
	if err := k.check(); err != nil {
		return Keys{}, fmt.Errorf("the push keys kept in the database are not a key pair: %w", err)
	}
	return k, nil
}

// check reports whether the private key is a P-256 key whose public key
// is the public one.
func (k Keys) check() error {
	d, err := base64.RawURLEncoding.DecodeString(k.private)
	if err != nil {
		return errors.New("the private key is not base64url")
	}
	priv, err := ecdh.P256().NewPrivateKey(d)
	if err != nil {
		return errors.New("the private key is not a P-256 key")
	}
	if base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()) != k.public {
		return errors.New("the public key is not the private key's")
	}
	return nil
}
