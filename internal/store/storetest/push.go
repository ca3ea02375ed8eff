package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testPushSubscriptions: a person's devices are kept and listed oldest
// first, only for the people asked about; the same device subscribed
// again replaces its subscription rather than adding one; the bound holds
// when devices subscribe at once; one person cannot remove another's.
func testPushSubscriptions(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	sub := func(id, person, endpoint string, at time.Duration) store.PushSubscription {
		return store.PushSubscription{ID: id, PersonID: person, EndpointHash: []byte("h-" + endpoint), Sealed: []byte("sealed " + id),
			Device: "Firefox on Android", Created: t0.Add(at)}
	}
	phone, tablet := sub("s2", "p-ana", "phone", time.Hour), sub("s1", "p-ana", "tablet", 2*time.Hour)
	other := sub("s3", "p-ben", "phone", 0)
	for _, x := range []store.PushSubscription{phone, tablet, other} {
		if err := s.AddPushSubscription(ctx, x, 10); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.PushSubscriptions(ctx, []string{"p-ana"}); err != nil || !reflect.DeepEqual(got, []store.PushSubscription{phone, tablet}) {
		t.Errorf("Ana's devices = %+v, %v; want her phone, then her tablet", got, err)
	}
	again := sub("s4", "p-ana", "phone", 3*time.Hour)
	if err := s.AddPushSubscription(ctx, again, 2); err != nil {
		t.Fatalf("the phone subscribed again, at the bound: %v; want it to replace the old one", err)
	}
	if got, _ := s.PushSubscriptions(ctx, []string{"p-ben", "p-ana"}); !reflect.DeepEqual(got, []store.PushSubscription{tablet, again, other}) {
		t.Errorf("after the phone subscribed again: %+v", got)
	}
	if err := s.AddPushSubscription(ctx, sub("s5", "p-ana", "laptop", 4*time.Hour), 2); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a third device with a bound of 2: %v; want ErrLimit", err)
	}
	if err := s.RemovePushSubscription(ctx, "p-ben", "s1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Ben removing Ana's tablet: %v; want ErrNotFound", err)
	}
	if err := s.RemovePushSubscription(ctx, "p-ana", "s1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.PushSubscriptions(ctx, []string{"p-ana"}); !reflect.DeepEqual(got, []store.PushSubscription{again}) {
		t.Errorf("after removing the tablet: %+v", got)
	}

	secrets, err := s.PushSubscriptionSecrets(ctx)
	if err != nil || len(secrets) != 2 || string(secrets["s4"]) != "sealed s4" {
		t.Errorf("the sealed parts: %q, %v", secrets, err)
	}
	n, err := s.ResealPushSubscriptions(ctx, map[string]store.Reseal{
		"s4": {Old: []byte("sealed s4"), New: []byte("resealed s4")},
		"s3": {Old: []byte("not what is kept"), New: []byte("lost")},
	})
	if secrets, _ := s.PushSubscriptionSecrets(ctx); err != nil || n != 1 || string(secrets["s4"]) != "resealed s4" || string(secrets["s3"]) != "sealed s3" {
		t.Errorf("resealing: %d, %v; now %q", n, err, secrets)
	}

	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			_ = s.AddPushSubscription(ctx, sub(fmt.Sprintf("c%d", i), "p-cy", fmt.Sprintf("d%d", i), 0), 3)
		})
	}
	wg.Wait()
	if got, _ := s.PushSubscriptions(ctx, []string{"p-cy"}); len(got) != 3 {
		t.Errorf("six devices subscribing at once with a bound of 3 kept %d", len(got))
	}
}

// testKeepSetting: the first value kept under a name stays, whoever asks
// after it, and replicas starting at once all get the same one.
func testKeepSetting(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	if got, err := s.KeepSetting(ctx, "push_keys", "first"); err != nil || got != "first" {
		t.Fatalf("the first value = %q, %v", got, err)
	}
	if got, err := s.KeepSetting(ctx, "push_keys", "second"); err != nil || got != "first" {
		t.Errorf("a second value = %q, %v; want the first kept", got, err)
	}
	if ok, err := s.ReplaceSetting(ctx, "push_keys", "not it", "third"); err != nil || ok {
		t.Errorf("replacing a value that changed meanwhile: %v, %v", ok, err)
	}
	if ok, err := s.ReplaceSetting(ctx, "push_keys", "first", "resealed"); err != nil || !ok {
		t.Errorf("replacing the value: %v, %v", ok, err)
	}
	if got, _ := s.KeepSetting(ctx, "push_keys", "x"); got != "resealed" {
		t.Errorf("after replacing: %q", got)
	}
	got := make([]string, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			v, err := s.KeepSetting(ctx, "race", fmt.Sprintf("v%d", i))
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	wg.Wait()
	for _, v := range got {
		if v != got[0] || v == "" {
			t.Fatalf("replicas starting at once were given %q", got)
		}
	}
}

// testPushSubscriptionsSpeakTheirPersonsLanguage: each device is listed
// with the language its person chose, which their pushes are in; none
// for a person who chose none.
func testPushSubscriptionsSpeakTheirPersonsLanguage(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", "ana@example.com"), true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)
	if err := s.SetPersonLanguage(ctx, "p-ana", "de"); err != nil {
		t.Fatal(err)
	}
	for i, person := range []string{"p-ana", "p-ben"} {
		sub := store.PushSubscription{ID: fmt.Sprint("s", i), PersonID: person, EndpointHash: []byte(person), Sealed: []byte("sealed"),
			Device: "Firefox on Android", Created: t0, Language: "fr"} // the person's is read, not this
		if err := s.AddPushSubscription(ctx, sub, 10); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.PushSubscriptions(ctx, []string{"p-ana", "p-ben"})
	if err != nil || len(got) != 2 {
		t.Fatalf("the devices: %+v, %v", got, err)
	}
	if got[0].Language != "de" || got[1].Language != "" {
		t.Errorf("Ana's device speaks %q and Ben's %q; want de, and none", got[0].Language, got[1].Language)
	}
}
