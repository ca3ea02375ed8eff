package push_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notify"
	"washboard/internal/push"
	"washboard/internal/push/pushtest"
	"washboard/internal/store"
)

// fakeStore keeps what the service keeps, in memory, as the store does
// (the store's own contract is tested in internal/store/storetest).
type fakeStore struct {
	mu       sync.Mutex
	settings map[string]string
	subs     []store.PushSubscription
	members  []domain.Member
	org      []domain.OrganisationMember
	claims   map[string]domain.Claim
	langs    map[string]string // people's languages
}

func (f *fakeStore) KeepSetting(_ context.Context, name, value string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if v, ok := f.settings[name]; ok {
		return v, nil
	}
	f.settings[name] = value
	return value, nil
}

func (f *fakeStore) ReplaceSetting(_ context.Context, name, old, value string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.settings[name] != old {
		return false, nil
	}
	f.settings[name] = value
	return true, nil
}

func (f *fakeStore) PushSubscriptionSecrets(context.Context) (map[string][]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string][]byte{}
	for _, s := range f.subs {
		out[s.ID] = s.Sealed
	}
	return out, nil
}

func (f *fakeStore) ResealPushSubscriptions(_ context.Context, byID map[string]store.Reseal) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for i, s := range f.subs {
		if r, ok := byID[s.ID]; ok && bytes.Equal(r.Old, s.Sealed) {
			f.subs[i].Sealed = r.New
			n++
		}
	}
	return n, nil
}

func (f *fakeStore) AddPushSubscription(_ context.Context, sub store.PushSubscription, max int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs = slices.DeleteFunc(f.subs, func(s store.PushSubscription) bool {
		return s.PersonID == sub.PersonID && bytes.Equal(s.EndpointHash, sub.EndpointHash)
	})
	n := 0
	for _, s := range f.subs {
		if s.PersonID == sub.PersonID {
			n++
		}
	}
	if n >= max {
		return domain.ErrLimit
	}
	f.subs = append(f.subs, sub)
	return nil
}

func (f *fakeStore) PushSubscriptions(_ context.Context, people []string) ([]store.PushSubscription, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []store.PushSubscription
	for _, s := range f.subs {
		if slices.Contains(people, s.PersonID) {
			s.Language = f.langs[s.PersonID]
			out = append(out, s)
		}
	}
	return out, nil
}

func (f *fakeStore) RemovePushSubscription(_ context.Context, person, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.subs)
	f.subs = slices.DeleteFunc(f.subs, func(s store.PushSubscription) bool { return s.PersonID == person && s.ID == id })
	if len(f.subs) == n {
		return domain.ErrNotFound
	}
	return nil
}

func (f *fakeStore) Members(context.Context, string) ([]domain.Member, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.members), nil
}

func (f *fakeStore) AccountOrganisationMembers(context.Context, string) ([]domain.OrganisationMember, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.org), nil
}

func (f *fakeStore) ActiveClaims(context.Context, string) (map[string]domain.Claim, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.claims, nil
}

func (f *fakeStore) Person(_ context.Context, id string) (domain.Person, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return domain.Person{ID: id, Language: f.langs[id]}, nil
}

func (f *fakeStore) devices(person string) int {
	subs, _ := f.PushSubscriptions(context.Background(), []string{person})
	return len(subs)
}

// fixture is a push service in the test, and Washboard's push service
// that pushes to it, with the account's people: Ana (staff, every
// building), Ben (staff of b2 only), Cy (supervisor), Di (viewer).
type fixture struct {
	ctx  context.Context
	srv  *pushtest.Server
	st   *fakeStore
	ring *keyring.Ring
	svc  *push.Service
	log  *bytes.Buffer
	clk  *clock.Fake
}

var t0 = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

func newFixture(t *testing.T, timeout time.Duration) *fixture {
	t.Helper()
	ring, err := keyring.New(bytes.Repeat([]byte{7}, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{ctx: t.Context(), srv: pushtest.New(t), ring: ring, log: &bytes.Buffer{}, clk: clock.NewFake(t0), st: &fakeStore{
		settings: map[string]string{}, claims: map[string]domain.Claim{}, langs: map[string]string{},
		members: []domain.Member{
			{Membership: domain.Membership{PersonID: "p-ana", Role: domain.Staff}, Name: "Ana"},
			{Membership: domain.Membership{PersonID: "p-ben", Role: domain.Staff, Buildings: []string{"b2"}}, Name: "Ben"},
			{Membership: domain.Membership{PersonID: "p-cy", Role: domain.Supervisor}, Name: "Cy"},
			{Membership: domain.Membership{PersonID: "p-di", Role: domain.Viewer}, Name: "Di"},
		},
	}}
	f.svc, err = push.New(f.ctx, push.Config{
		Link:    "https://washboard.example.com",
		Guard:   notify.Guard{AllowPrivate: true}, // the push service of the test is on loopback
		TLS:     f.srv.TLS(),
		Timeout: timeout,
	}, push.Deps{Store: f.st, Keys: ring, Clock: f.clk, Log: slog.New(slog.NewTextHandler(f.log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Key = f.svc.PublicKey()
	return f
}

// subscribe subscribes a new device of the person.
func (f *fixture) subscribe(t *testing.T, person, name string) *pushtest.Device {
	t.Helper()
	d := f.srv.NewDevice(t, name)
	if _, err := f.svc.Subscribe(f.ctx, person, name, d.Sub); err != nil {
		t.Fatalf("subscribing %s: %v", name, err)
	}
	return d
}

// productOut is an alert's notification in building b1.
func productOut(id string) notify.Notification {
	return notify.Notification{ID: id, At: t0, Item: notify.Item{
		Kind:  notify.AlertOpened,
		Alert: &notify.Alert{Alert: domain.Alert{ID: "al-1", Type: domain.AlertConsumableOut, RefillCount: 2}},
		Where: notify.Where{
			Building: domain.Building{ID: "b1", Name: "North Tower"},
			Room:     domain.Room{Name: "Men's Restroom 3.12"},
			Location: domain.Location{ID: "loc-7", Name: "Stall 2"},
		},
		Bring: notify.Bring{Refills: 2, Refill: domain.Tissue},
		URL:   "https://washboard.example.com/locations/loc-7",
	}}
}

// privateKey is the server's VAPID private key, as kept sealed.
func (f *fixture) privateKey(t *testing.T) string {
	t.Helper()
	for _, v := range f.st.settings {
		raw, _ := base64.StdEncoding.DecodeString(v)
		plain, _, err := f.ring.Open(keyring.PushKeys, raw, []byte("push_vapid_keys"))
		if err != nil {
			t.Fatal(err)
		}
		var k struct{ Private string }
		if err := json.Unmarshal(plain, &k); err != nil || k.Private == "" {
			t.Fatalf("the kept keys %s: %v", plain, err)
		}
		return k.Private
	}
	t.Fatal("no keys kept")
	return ""
}

// guard is the guard of the tests: loopback allowed, as for webhooks.
func (f *fixture) guard() notify.Guard { return notify.Guard{AllowPrivate: true} }
