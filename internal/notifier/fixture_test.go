package notifier_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/cluster"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/notify/mailtest"
	"washboard/internal/rules"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
)

// start is 09:00 UTC on a Tuesday.
var start = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// fixture is a notifier over a real SQLite store with an account "acme"
// of two locations, a webhook receiver and a mail server.
type fixture struct {
	t     testing.TB
	ctx   context.Context
	st    store.Store
	clk   *clock.Fake
	keys  *keyring.Ring
	hooks *receiver
	mail  *mailtest.Server
	n     *notifier.Notifier
	cfg   notifier.Config
}

const account = "acme"

// newFixture starts a fixture whose notifications file is file, with
// {{hooks}} standing for the webhook receiver's URL.
func newFixture(t testing.TB, file string, change ...func(*notifier.Config)) *fixture {
	t.Helper()
	st, _ := sqlitetest.Open(t)
	return newFixtureOn(t, st, file, change...)
}

// newFixtureOn is newFixture on the store st.
func newFixtureOn(t testing.TB, st store.Store, file string, change ...func(*notifier.Config)) *fixture {
	t.Helper()
	ctx := context.Background()
	keys, err := keyring.New([]byte(strings.Repeat("k", keyring.KeySize)))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, ctx: ctx, st: st, clk: clock.NewFake(start), keys: keys, hooks: newReceiver(t), mail: mailtest.Start(t, mailtest.Options{})}
	parsed, err := rules.ParseFile([]byte(strings.ReplaceAll(file, "{{hooks}}", f.hooks.srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	f.cfg = notifier.Config{
		File: parsed, Link: "https://washboard.example.com",
		SMTP: &notify.SMTPSettings{
			Host: f.mail.Host, Port: f.mail.Port, TLS: notify.StartTLS, User: f.mail.User, Password: f.mail.Pass,
			From: "Washboard <alerts@washboard.example.com>",
		},
		SMTPTLS: &tls.Config{RootCAs: f.mail.Roots},
		Guard:   notify.Guard{AllowPrivate: true},
		Zone:    time.UTC,
	}
	for _, c := range change {
		c(&f.cfg)
	}
	f.n = f.notifier()
	f.layout()
	return f
}

// notifier is a notifier over the fixture's store: another process, as
// after a restart.
func (f *fixture) notifier() *notifier.Notifier {
	f.t.Helper()
	log := slog.New(slog.NewTextHandler(tlog{f.t}, nil))
	n, err := notifier.New(f.cfg, notifier.Deps{Store: f.st, Leases: cluster.NewLocal(cluster.DefaultBuffer), Keys: f.keys, Clock: f.clk, Log: log})
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

// layout writes the account's layout, and the first refresh of its alerts
// and devices, which record no facts.
func (f *fixture) layout() {
	f.t.Helper()
	l := domain.Layout{
		Account:   domain.Account{ID: account, Name: "Acme"},
		Buildings: []domain.Building{{ID: "b1", Name: "North Tower"}, {ID: "b2", Name: "South Wing"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Ground floor"}, {ID: "f2", BuildingID: "b2", Name: "Level 2"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Restroom A"}, {ID: "r2", FloorID: "f2", Name: "Restroom B"}},
		Locations: []domain.Location{
			{ID: "l1", RoomID: "r1", Name: "Sink left", Type: domain.Soap},
			{ID: "l2", RoomID: "r2", Name: "Stall 2", Type: domain.Tissue},
		},
	}
	if _, err := f.st.ReplaceLayout(f.ctx, l); err != nil {
		f.t.Fatal(err)
	}
	f.devices(device("D1", "l1"), device("D2", "l2"))
	f.write(domain.Alert{ID: "old", LocationID: "l1", Status: domain.AlertClosed, Type: domain.AlertJam, Created: start.Add(-time.Hour), Resolved: start.Add(-time.Minute)})
}

func device(mac, location string) domain.Device {
	return domain.Device{MAC: mac, LocationID: location, Compartments: []domain.Compartment{{Level: 80}}, BatteryState: domain.BatteryNormal, LastSeen: start}
}

// devices writes the account's devices.
func (f *fixture) devices(ds ...domain.Device) {
	f.t.Helper()
	if _, err := f.st.ReplaceDevices(f.ctx, account, ds); err != nil {
		f.t.Fatal(err)
	}
}

// write writes alerts as a sync would.
func (f *fixture) write(alerts ...domain.Alert) {
	f.t.Helper()
	if _, err := f.st.ApplyAlerts(f.ctx, account, store.AlertWrite{Upserts: alerts, SeenAt: f.clk.Now()}); err != nil {
		f.t.Fatal(err)
	}
}

// open writes an alert opened now at the location.
func (f *fixture) open(id, location string, typ domain.AlertType) domain.Alert {
	f.t.Helper()
	a := domain.Alert{ID: id, LocationID: location, Status: domain.AlertOpen, Type: typ, Created: f.clk.Now(), RefillCount: 2}
	f.write(a)
	return a
}

// pass runs a pass of the notifier.
func (f *fixture) pass() { f.n.Pass(f.ctx) }

// advance moves the clock on and runs a pass.
func (f *fixture) advance(d time.Duration) {
	f.clk.Advance(d)
	f.pass()
}

// log returns the delivery log of the account's channel.
func (f *fixture) log(channel string) []store.Notification {
	f.t.Helper()
	log, err := f.st.NotificationLog(f.ctx, account, channel, 100)
	if err != nil {
		f.t.Fatal(err)
	}
	return log
}

// states are the states of a channel's notifications, oldest first.
func (f *fixture) states(channel string) string {
	log := f.log(channel)
	var out []string
	for i := len(log) - 1; i >= 0; i-- {
		out = append(out, string(log[i].State))
	}
	return strings.Join(out, " ")
}

// receiver is a webhook receiver that keeps what it is sent and answers
// what answer says.
type receiver struct {
	srv *httptest.Server

	mu     sync.Mutex
	got    []delivery
	answer func(n int) int // the status of the n-th request, from 1
}

type delivery struct {
	header http.Header
	raw    []byte
	body   map[string]any
}

func newReceiver(t testing.TB) *receiver {
	r := &receiver{answer: func(int) int { return http.StatusNoContent }}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var m map[string]any
		_ = json.Unmarshal(body, &m)
		r.mu.Lock()
		r.got = append(r.got, delivery{req.Header.Clone(), body, m})
		n, answer := len(r.got), r.answer
		r.mu.Unlock()
		status := answer(n)
		if status == http.StatusFound {
			w.Header().Set("Location", "https://elsewhere.example.com/")
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) answering(answer func(n int) int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answer = answer
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// events are the "event" of each delivery, with the alert's id or the
// number of items: "alert.opened a1", "digest 3".
func (r *receiver) events() string {
	var out []string
	for _, d := range r.deliveries() {
		s := fmt.Sprint(d.body["event"])
		if alert, ok := d.body["alert"].(map[string]any); ok {
			s += " " + fmt.Sprint(alert["alert_id"])
		}
		if items, ok := d.body["items"].([]any); ok {
			s += fmt.Sprint(" ", len(items))
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// oneWebhook is a file with one webhook channel "ops" and the rules given.
func oneWebhook(rulesJSON string) string {
	return `{"accounts": [{"account_id": "acme",
	  "channels": [{"name": "ops", "webhook": {"url": "{{hooks}}", "format": "json", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}},
	               {"name": "desk", "email": {"to": ["Facilities <facilities@example.com>"]}}],
	  "rules": [` + rulesJSON + `]}]}`
}

// tlog writes a notifier's log into the test's.
type tlog struct{ t testing.TB }

func (l tlog) Write(p []byte) (int, error) {
	l.t.Helper()
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
