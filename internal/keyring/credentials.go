package keyring

import (
	"encoding/json"

	"washboard/internal/domain"
)

// sealedCredentials is how the service's credentials are kept, sealed:
// by wall screens, and by connected accounts.
type sealedCredentials struct {
	APIKey        string `json:"k"`
	Authorization string `json:"a,omitempty"`
	ClientID      string `json:"c,omitempty"`
	ClientSecret  string `json:"s,omitempty"`
}

// SealCredentials seals the service's credentials for a purpose, bound
// to ad (what holds them: a screen's id, an account's).
func (r *Ring) SealCredentials(p Purpose, c domain.Credentials, ad []byte) []byte {
	plain, err := json.Marshal(sealedCredentials{c.APIKey, c.Authorization, c.ClientID, c.ClientSecret})
	if err != nil {
		panic(err) // strings always encode
	}
	return r.Seal(p, plain, ad)
}

// OpenCredentials opens credentials SealCredentials sealed with ad;
// ErrCannotOpen when no key of the ring does. Stale is as Open's.
func (r *Ring) OpenCredentials(p Purpose, sealed, ad []byte) (c domain.Credentials, stale bool, err error) {
	plain, stale, err := r.Open(p, sealed, ad)
	if err != nil {
		return c, false, err
	}
	var sc sealedCredentials
	if err := json.Unmarshal(plain, &sc); err != nil {
		return c, false, ErrCannotOpen
	}
	return domain.Credentials{APIKey: sc.APIKey, Authorization: sc.Authorization, ClientID: sc.ClientID, ClientSecret: sc.ClientSecret}, stale, nil
}
