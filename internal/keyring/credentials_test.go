package keyring

import (
	"errors"
	"testing"

	"washboard/internal/domain"
)

// The service's credentials sealed for a connected account open for that
// account only, not as a screen's, and screens' credentials sealed as
// they always were still open.
func TestCredentialsOpenForTheirAccountOnly(t *testing.T) {
	r := mustRing(t, key(1), key(2))
	c := domain.Credentials{APIKey: "key-123", ClientID: "client", ClientSecret: "secret"}
	sealed := r.SealCredentials(AccountCredentials, c, []byte("acc-1"))
	if got, stale, err := r.OpenCredentials(AccountCredentials, sealed, []byte("acc-1")); err != nil || stale || got != c {
		t.Errorf("OpenCredentials = %v, %v, %v", got.APIKey == c.APIKey, stale, err)
	}
	if _, _, err := r.OpenCredentials(AccountCredentials, sealed, []byte("acc-2")); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("one account's credentials opened as another's: %v", err)
	}
	if _, _, err := r.OpenCredentials(ScreenCredentials, sealed, []byte("acc-1")); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("an account's credentials opened as a screen's: %v", err)
	}
	old := mustRing(t, key(2)).Seal(ScreenCredentials, []byte(`{"k":"key-9","a":"Bearer t"}`), []byte("screen-1"))
	got, stale, err := r.OpenCredentials(ScreenCredentials, old, []byte("screen-1"))
	if err != nil || !stale || got.APIKey != "key-9" || got.Authorization != "Bearer t" {
		t.Errorf("a screen's credentials sealed by the old key, as screens kept them: %v, stale %v", err, stale)
	}
	if _, _, err := r.OpenCredentials(ScreenCredentials, r.Seal(ScreenCredentials, []byte("not JSON"), nil), nil); !errors.Is(err, ErrCannotOpen) {
		t.Errorf("a sealed value that is no credentials: %v", err)
	}
}
