package notifier_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/push"
	"washboard/internal/push/pushtest"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
)

// pushFixture is a fixture whose notifications file pushes the alerts of
// building b2 to its staff, with Ana staff of b2 and Ben staff of b1, and
// a push service in the test.
type pushFixture struct {
	*fixture
	srv *pushtest.Server
	svc *push.Service
}

func newPushFixture(t testing.TB, rule string, change ...func(*notifier.Config)) *pushFixture {
	t.Helper()
	st, _ := sqlitetest.Open(t)
	keys, err := keyring.New([]byte(strings.Repeat("k", keyring.KeySize)))
	if err != nil {
		t.Fatal(err)
	}
	p := &pushFixture{srv: pushtest.New(t)}
	p.svc, err = push.New(context.Background(), push.Config{Link: "https://washboard.example.com", Guard: notify.Guard{AllowPrivate: true}, TLS: p.srv.TLS()},
		push.Deps{Store: st, Keys: keys, Clock: nil})
	if err != nil {
		t.Fatal(err)
	}
	p.srv.Key = p.svc.PublicKey()
	file := `{"accounts": [{"account_id": "acme", "channels": [{"name": "phones", "push": {"to": "staff"}}],
	  "rules": [` + rule + `]}]}`
	p.fixture = newFixtureOn(t, st, file, append(change, func(c *notifier.Config) { c.Pusher = p.svc })...)
	for _, m := range []struct {
		id, name, building string
	}{{"p-ana", "Ana", "b2"}, {"p-ben", "Ben", "b1"}} {
		_, err := st.JoinAccount(context.Background(), store.Join{Account: account, Sealed: []byte("sealed"), NewPerson: true, At: start,
			Person: domain.Person{ID: m.id, Name: m.name, Email: m.id + "@example.com", Created: start},
			Decide: func(store.JoinState) (domain.Role, error) { return domain.Staff, nil }})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.ChangeMembership(context.Background(), domain.Membership{PersonID: m.id, Account: account, Role: domain.Staff, Buildings: []string{m.building}}, store.Audit{}); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// An alert opened in building b2 is pushed, by the notifier, to the
// device of b2's staff alone; a push service that answers 500 is tried
// again after the notifier's backoff; one that says the device is gone
// (410) has it removed, and the notification fails with the reason.
func TestPushChannelThroughTheNotifier(t *testing.T) {
	t.Parallel()
	p := newPushFixture(t, `{"name": "Out", "when": "alert.opened", "channels": ["phones"]}`)
	ana := p.srv.NewDevice(t, "Ana's phone")
	if _, err := p.svc.Subscribe(p.ctx, "p-ana", "Ana's phone", ana.Sub); err != nil {
		t.Fatal(err)
	}
	if _, err := p.svc.Subscribe(p.ctx, "p-ben", "Ben's phone", p.srv.NewDevice(t, "Ben's phone").Sub); err != nil {
		t.Fatal(err)
	}

	p.open("a1", "l2", domain.AlertConsumableOut)
	p.pass()
	pushes := p.srv.Pushes()
	if len(pushes) != 1 || pushes[0].Device != "Ana's phone" || p.states("phones") != "sent" {
		t.Fatalf("pushed %+v, log %q; want one push to Ana's phone, sent", pushes, p.states("phones"))
	}
	var m push.Message
	if err := json.Unmarshal(pushes[0].Plain, &m); err != nil || m.Body != "Product out: Stall 2, Restroom B; bring 2 tissue rolls" ||
		m.URL != "https://washboard.example.com/locations/l2" || m.Action == nil || m.Action.Path != "/my/alerts/a1/claim" || m.Action.Title != "I'm on it" {
		t.Errorf("the push read %+v, %v", m, err)
	}

	p.srv.Answer(http.StatusInternalServerError)
	p.open("a2", "l2", domain.AlertBatteryOut)
	p.pass()
	if log := p.log("phones"); log[0].State != store.NotificationPending || !strings.Contains(log[0].Note, "answered 500 Internal Server Error") {
		t.Fatalf("after a 500: %s %q", log[0].State, log[0].Note)
	}
	p.advance(30 * time.Second) // the first retry
	if got := len(p.srv.Pushes()); got != 2 || p.states("phones") != "sent sent" {
		t.Fatalf("after the retry: %d pushes, %q", got, p.states("phones"))
	}

	p.srv.Answer(http.StatusGone)
	p.open("a3", "l2", domain.AlertJam)
	p.pass()
	log := p.log("phones")
	if log[0].State != store.NotificationFailed || log[0].Note != "failed: pushed to 0 of 1 device; 1 device was gone, and removed" {
		t.Errorf("after a 410: %s %q", log[0].State, log[0].Note)
	}
	if devices, _ := p.svc.Devices(p.ctx, "p-ana"); len(devices) != 0 {
		t.Errorf("Ana's devices after the 410: %+v", devices)
	}
}

// BenchmarkPushFromEvent measures, alert after alert, the time from an
// alert written to the cache (as a sync, or the service's event, writes
// it) to its push accepted by the push service: the outbox read, the rule
// decided, the staff of the building found, the push encrypted, signed
// and posted. It reports the 95th percentile.
func BenchmarkPushFromEvent(b *testing.B) {
	p := newPushFixture(b, `{"name": "Out", "when": "alert.opened", "channels": ["phones"]}`, func(c *notifier.Config) { c.RatePerMinute = 1 << 30 })
	if _, err := p.svc.Subscribe(p.ctx, "p-ana", "Ana's phone", p.srv.NewDevice(b, "Ana's phone").Sub); err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	for i := range b.N {
		began := time.Now()
		p.open(fmt.Sprint("bench-", i), "l2", domain.AlertConsumableOut)
		for len(p.srv.Pushes()) <= i {
			p.pass()
		}
		took = append(took, p.srv.Pushes()[i].At.Sub(began))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}
