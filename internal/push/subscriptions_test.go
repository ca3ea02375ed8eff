package push_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"washboard/internal/keyring"
	"washboard/internal/notify"
	"washboard/internal/push"
)

// A subscription is refused in words when its address is not https or is
// at an address the guard refuses, or its keys are not a P-256 point and
// a 16-byte secret; a person keeps at most push.MaxDevices devices, and
// the same device subscribed again replaces its own.
func TestSubscriptionsAreChecked(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	good := f.srv.NewDevice(t, "phone").Sub
	b64 := base64.RawURLEncoding.EncodeToString
	strict := notify.Guard{} // as the server runs without --allow-private-webhooks
	for _, c := range []struct {
		name  string
		guard notify.Guard
		sub   push.Subscription
		want  string
	}{
		{"http", f.guard(), push.Subscription{Endpoint: "http://push.example.com/x", P256dh: good.P256dh, Auth: good.Auth},
			"The push service's address is not an https address."},
		{"private", strict, push.Subscription{Endpoint: "https://10.1.2.3/x", P256dh: good.P256dh, Auth: good.Auth},
			"The push service's address is not allowed: 10.1.2.3 is a private address."},
		{"loopback", strict, good, "The push service's address is not allowed: 127.0.0.1 is a loopback address."},
		{"compressed key", f.guard(), push.Subscription{Endpoint: good.Endpoint, P256dh: b64(append([]byte{2}, make([]byte, 32)...)), Auth: good.Auth},
			"The device's key (p256dh) is 33 bytes; it must be a P-256 point of 65 bytes, uncompressed."},
		{"off the curve", f.guard(), push.Subscription{Endpoint: good.Endpoint, P256dh: b64(append([]byte{4}, make([]byte, 64)...)), Auth: good.Auth},
			"The device's key (p256dh) is not a point of the P-256 curve."},
		{"short secret", f.guard(), push.Subscription{Endpoint: good.Endpoint, P256dh: good.P256dh, Auth: b64(make([]byte, 8))},
			"The device's secret (auth) is 8 bytes; it must be 16."},
		{"not base64", f.guard(), push.Subscription{Endpoint: good.Endpoint, P256dh: good.P256dh, Auth: "%%%"},
			"The device's secret (auth) is not base64url."},
	} {
		err := c.sub.Check(f.ctx, c.guard)
		var p *push.Problem
		if !errors.As(err, &p) || p.Msg != c.want {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}

	again := f.subscribe(t, "p-ana", "phone").Sub
	if _, err := f.svc.Subscribe(f.ctx, "p-ana", "phone, again", again); err != nil {
		t.Fatal(err)
	}
	if n := f.st.devices("p-ana"); n != 1 {
		t.Errorf("the same device subscribed twice is %d devices", n)
	}
	for i := 2; i <= push.MaxDevices; i++ {
		f.subscribe(t, "p-ana", fmt.Sprint("device ", i))
	}
	_, err := f.svc.Subscribe(f.ctx, "p-ana", "one more", f.srv.NewDevice(t, "one more").Sub)
	if err == nil || err.Error() != "You have 10 devices that receive pushes, as many as one may. Remove one you no longer use first." {
		t.Errorf("an eleventh device: %v", err)
	}
	list, err := f.svc.Devices(f.ctx, "p-ana")
	if err != nil || len(list) != push.MaxDevices || list[0].Name != "phone, again" || list[0].Service != strings.TrimPrefix(f.srv.URL, "https://") {
		t.Errorf("Ana's devices: %+v, %v", list, err)
	}
	if err := f.svc.Remove(f.ctx, "p-ben", list[0].ID); err == nil {
		t.Error("Ben removed Ana's device")
	}
	if err := f.svc.Remove(f.ctx, "p-ana", list[0].ID); err != nil || f.st.devices("p-ana") != push.MaxDevices-1 {
		t.Errorf("Ana removing her device: %v", err)
	}
	for _, sealed := range f.st.subs {
		if bytes.Contains(sealed.Sealed, []byte(good.Auth)) || bytes.Contains(sealed.Sealed, []byte("/push/")) {
			t.Fatal("a subscription is kept unsealed")
		}
	}
}

// The server's VAPID keys are made on the first start and kept sealed:
// the next start (or another replica) reads the same keys; a server with
// another key cannot open them and says so.
func TestKeysAreMadeOnceAndKeptSealed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	again, err := push.LoadKeys(f.ctx, f.st, f.ring)
	if err != nil || again.Public() != f.svc.PublicKey() {
		t.Fatalf("the keys read again: %v, %v; want the first start's", again, err)
	}
	for _, v := range f.st.settings {
		if strings.Contains(v, f.privateKey(t)) || strings.Contains(v, f.svc.PublicKey()) {
			t.Error("the keys are kept unsealed")
		}
	}
	if s := fmt.Sprintf("%v %#v %s", again, again, again); strings.Contains(s, f.privateKey(t)) {
		t.Errorf("printing the keys shows the private key: %s", s)
	}
	other, _ := keyring.New(bytes.Repeat([]byte{8}, keyring.KeySize))
	if _, err := push.LoadKeys(f.ctx, f.st, other); err == nil || !strings.Contains(err.Error(), "the push keys kept in the database do not open") {
		t.Errorf("with another server key: %v", err)
	}
}

// During a rotation of the secret key, the push keys and the devices'
// subscriptions are sealed again with the new key: once the old key is
// gone, the server still pushes, with the same keys, to the same devices.
func TestRotationSealsPushesAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	f.subscribe(t, "p-ana", "Ana's phone")
	newKey, oldKey := bytes.Repeat([]byte{9}, keyring.KeySize), bytes.Repeat([]byte{7}, keyring.KeySize)
	rotating, _ := keyring.New(newKey, oldKey)
	if k, err := push.LoadKeys(f.ctx, f.st, rotating); err != nil || k.Public() != f.svc.PublicKey() {
		t.Fatalf("the keys during the rotation: %v, %v", k, err)
	}
	if n, err := push.Reseal(f.ctx, f.st, rotating); err != nil || n != 1 {
		t.Fatalf("Reseal = %d, %v; want the one device", n, err)
	}
	after, _ := keyring.New(newKey)
	svc, err := push.New(f.ctx, push.Config{Link: "https://washboard.example.com", Guard: f.guard(), TLS: f.srv.TLS()}, push.Deps{Store: f.st, Keys: after})
	if err != nil || svc.PublicKey() != f.svc.PublicKey() {
		t.Fatalf("after the rotation: %v; the public key kept: %v", err, err == nil && svc.PublicKey() == f.svc.PublicKey())
	}
	if said, err := svc.Push(f.ctx, "acme", notify.PushStaff, productOut("n-1")); err != nil || said != "pushed to 1 of 1 device" {
		t.Errorf("pushing after the rotation: %q, %v", said, err)
	}
}
