package push

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notify"
	"washboard/internal/store"
)

// MaxEndpointLen bounds a push service's address, in bytes.
const MaxEndpointLen = 2048

// Subscription is what a browser's PushSubscription gives (its toJSON):
// where its push service takes pushes for it, and the keys each push is
// encrypted for. Its String leaves out the address's path and the keys.
type Subscription struct {
	Endpoint string
	P256dh   string // base64url: the device's P-256 public key, uncompressed
	Auth     string // base64url: the 16-byte authentication secret
}

// String shows the push service's host alone: the rest of the address
// lets anyone who holds it push to the device.
func (s Subscription) String() string { return "push subscription at " + hostOf(s.Endpoint) }

// GoString leaves the address and keys out of %#v.
func (s Subscription) GoString() string { return "push.Subscription{" + s.String() + "}" }

// Device is a person's subscribed device, as their page lists it.
type Device struct {
	ID      string
	Name    string // "Firefox on Android"
	Service string // the push service's host: "fcm.googleapis.com"
	Created time.Time
}

// Problem is a subscription that cannot be kept, in words for the person.
type Problem struct{ Msg string }

func (p *Problem) Error() string { return p.Msg }

func problem(format string, args ...any) *Problem { return &Problem{Msg: fmt.Sprintf(format, args...)} }

// Check reports, in words, what makes the subscription unusable: an
// address that is not https or is at an address the guard refuses, keys
// that are not a P-256 point of 65 bytes and a secret of 16.
func (s Subscription) Check(ctx context.Context, guard notify.Guard) error {
	u, err := url.Parse(s.Endpoint)
	switch {
	case s.Endpoint == "":
		return problem("The browser gave no push service address.")
	case len(s.Endpoint) > MaxEndpointLen:
		return problem("The push service's address is %d bytes long; it may be at most %d.", len(s.Endpoint), MaxEndpointLen)
	case err != nil || u.Scheme != "https" || u.Hostname() == "" || u.Opaque != "":
		return problem("The push service's address is not an https address.")
	case u.User != nil:
		return problem("The push service's address holds a user name or password.")
	}
	if err := guard.CheckResolved(ctx, u); err != nil {
		if errors.Is(err, notify.ErrForbiddenTarget) {
			return problem("The push service's address is not allowed: %v.", err)
		}
		return problem("The push service's address could not be checked.")
	}
	if err := checkKeys(s.P256dh, s.Auth); err != nil {
		return err
	}
	return nil
}

// checkKeys checks the device's public key and secret.
func checkKeys(p256dh, auth string) error {
	pub, err := decodeKey(p256dh)
	switch {
	case err != nil:
		return problem("The device's key (p256dh) is not base64url.")
	case len(pub) != 65 || pub[0] != 4:
		return problem("The device's key (p256dh) is %d bytes; it must be a P-256 point of 65 bytes, uncompressed.", len(pub))
	}
	if _, err := ecdh.P256().NewPublicKey(pub); err != nil {
		return problem("The device's key (p256dh) is not a point of the P-256 curve.")
	}
	secret, err := decodeKey(auth)
	switch {
	case err != nil:
		return problem("The device's secret (auth) is not base64url.")
	case len(secret) != 16:
		return problem("The device's secret (auth) is %d bytes; it must be 16.", len(secret))
	}
	return nil
}

// decodeKey reads base64url, with or without padding, as browsers give it.
func decodeKey(s string) ([]byte, error) {
	if len(s) > 200 {
		return nil, errors.New("too long")
	}
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// MaxDeviceName bounds a device's name, in characters.
const MaxDeviceName = domain.MaxDeviceName

// Subscribe keeps a person's device: the same device subscribed again
// replaces its subscription. A person with MaxDevices devices already is
// refused (*Problem), as is a subscription that Check refuses.
func (s *Service) Subscribe(ctx context.Context, person, device string, sub Subscription) (Device, error) {
	if err := sub.Check(ctx, s.cfg.Guard); err != nil {
		return Device{}, err
	}
	device = strings.TrimSpace(device)
	if device == "" {
		device = "A browser"
	}
	if utf8.RuneCountInString(device) > MaxDeviceName {
		device = string([]rune(device)[:MaxDeviceName])
	}
	plain, err := json.Marshal(sub)
	if err != nil {
		return Device{}, err
	}
	id := "push_" + rand.Text()
	hash := sha256.Sum256([]byte(sub.Endpoint))
	kept := store.PushSubscription{
		ID: id, PersonID: person, EndpointHash: hash[:], Device: device, Created: s.clk.Now(),
		Sealed: s.ring.Seal(keyring.PushSubscriptions, plain, []byte(id)),
	}
	switch err := s.st.AddPushSubscription(ctx, kept, MaxDevices); {
	case errors.Is(err, domain.ErrLimit):
		return Device{}, problem("You have %d devices that receive pushes, as many as one may. Remove one you no longer use first.", MaxDevices)
	case err != nil:
		return Device{}, err
	}
	return Device{ID: id, Name: device, Service: hostOf(sub.Endpoint), Created: kept.Created}, nil
}

// Devices lists a person's devices, oldest first.
func (s *Service) Devices(ctx context.Context, person string) ([]Device, error) {
	subs, err := s.st.PushSubscriptions(ctx, []string{person})
	if err != nil {
		return nil, err
	}
	out := make([]Device, 0, len(subs))
	for _, k := range subs {
		d := Device{ID: k.ID, Name: k.Device, Created: k.Created, Service: "a push service this server's key does not open"}
		if sub, err := s.open(k); err == nil {
			d.Service = hostOf(sub.Endpoint)
		}
		out = append(out, d)
	}
	return out, nil
}

// Remove removes a person's device; domain.ErrNotFound when they have
// none of the id.
func (s *Service) Remove(ctx context.Context, person, id string) error {
	return s.st.RemovePushSubscription(ctx, person, id)
}

// open opens a kept subscription.
func (s *Service) open(k store.PushSubscription) (Subscription, error) {
	// Sealed for its id, a subscription copied to another row does not
	// open.
	plain, _, err := s.ring.Open(keyring.PushSubscriptions, k.Sealed, []byte(k.ID))
	if err != nil {
		return Subscription{}, err
	}
	var sub Subscription
	err = json.Unmarshal(plain, &sub)
	return sub, err
}

// hostOf is the host of a push service's address.
func hostOf(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return "an address that is not valid"
	}
	return u.Host
}

// Resealer reads and replaces the sealed parts of subscriptions.
type Resealer interface {
	PushSubscriptionSecrets(ctx context.Context) (map[string][]byte, error)
	ResealPushSubscriptions(ctx context.Context, byID map[string]store.Reseal) (int, error)
}

// Reseal seals again with the current key every subscription an old key
// of the ring sealed, during a rotation of the secret key, and says how
// many it sealed again.
func Reseal(ctx context.Context, st Resealer, ring *keyring.Ring) (int, error) {
	sealed, err := st.PushSubscriptionSecrets(ctx)
	if err != nil {
		return 0, err
	}
	byID := map[string]store.Reseal{}
	for id, b := range sealed {
		if nb, changed, err := ring.Reseal(keyring.PushSubscriptions, b, []byte(id)); err == nil && changed {
			byID[id] = store.Reseal{Old: b, New: nb}
		}
	}
	return st.ResealPushSubscriptions(ctx, byID)
}
