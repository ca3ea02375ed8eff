package push_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/push"
	"washboard/internal/push/pushtest"
)

// A push reaches every device of the staff whose role covers the
// building, encrypted for each device and signed with the server's VAPID
// key; the device reads what and where in one line, the location to open,
// and the "I'm on it" page.
func TestPushReachesTheStaffOfTheBuildingEncryptedAndSigned(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	f.subscribe(t, "p-ana", "Ana's phone")
	f.subscribe(t, "p-ana", "Ana's tablet")
	f.subscribe(t, "p-ben", "Ben's phone") // b2 only
	f.subscribe(t, "p-cy", "Cy's phone")   // supervisor: staff or above
	f.subscribe(t, "p-di", "Di's phone")   // viewer

	said, err := f.svc.Push(f.ctx, "acme", notify.PushStaff, productOut("n-1"))
	if err != nil || said != "pushed to 3 of 3 devices" {
		t.Fatalf("Push = %q, %v; want it pushed to Ana's two devices and Cy's", said, err)
	}
	if r := f.srv.Refused(); len(r) > 0 {
		t.Fatalf("the push service refused pushes: %q", r)
	}
	var devices []string
	for _, p := range f.srv.Pushes() {
		devices = append(devices, p.Device)
		var m push.Message
		if err := json.Unmarshal(p.Plain, &m); err != nil {
			t.Fatalf("%s decrypted %q: %v", p.Device, p.Plain, err)
		}
		want := push.Message{
			Title: "North Tower",
			Body:  "Product out: Stall 2, Men's Restroom 3.12; bring 2 tissue rolls",
			URL:   "https://washboard.example.com/locations/loc-7",
			Tag:   "n-1",
		}
		action := m.Action
		m.Action = nil
		if m != want {
			t.Errorf("%s read %+v; want %+v", p.Device, m, want)
		}
		person := map[string]string{"Ana's phone": "p-ana", "Ana's tablet": "p-ana", "Cy's phone": "p-cy"}[p.Device]
		if action == nil || action.Path != "/my/alerts/al-1/claim" || action.Title != "I'm on it" || action.NotSent != "Not sent: {reason}" {
			t.Errorf("%s: the action %+v; want I'm on it, posted to the alert's of My work", p.Device, action)
		} else if key, err := f.svc.CheckAction(action.Token, person, "acme", "al-1"); err != nil || key != action.Key {
			t.Errorf("%s: the action's token checks as %q, %v; want its key %q", p.Device, key, err, action.Key)
		}
		if p.Urgency != "high" || p.TTL != "3600" || len(p.Topic) != 32 || p.Subject != "https://washboard.example.com" {
			t.Errorf("%s: urgency %q, TTL %q, topic %q, sub %q", p.Device, p.Urgency, p.TTL, p.Topic, p.Subject)
		}
	}
	if want := []string{"Ana's phone", "Ana's tablet", "Cy's phone"}; !reflect.DeepEqual(devices, want) {
		t.Errorf("pushed to %q; want %q", devices, want)
	}

	said, err = f.svc.Push(f.ctx, "acme", notify.PushSupervisors, productOut("n-2"))
	if err != nil || said != "pushed to 1 of 1 device" {
		t.Errorf("to supervisors: %q, %v; want Cy's phone alone", said, err)
	}
}

// "Whoever holds the claim" is the person on the alert, and nobody when
// nobody is: said in words, a failure that trying again does not mend.
func TestPushToWhoeverHoldsTheClaim(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	f.subscribe(t, "p-ana", "Ana's phone")
	f.subscribe(t, "p-ben", "Ben's phone")
	_, err := f.svc.Push(f.ctx, "acme", notify.PushClaim, productOut("n-1"))
	if !notify.IsPermanent(err) || err.Error() != "nobody to push to: nobody of the account holds a claim on the alert" {
		t.Errorf("with no claim: %v", err)
	}
	f.st.claims["al-1"] = domain.Claim{AlertID: "al-1", PersonID: "p-ben", Name: "Ben", At: t0}
	if said, err := f.svc.Push(f.ctx, "acme", notify.PushClaim, productOut("n-2")); err != nil || said != "pushed to 1 of 1 device" {
		t.Fatalf("with Ben's claim: %q, %v", said, err)
	}
	if p := f.srv.Pushes(); len(p) != 1 || p[0].Device != "Ben's phone" {
		t.Errorf("pushed %+v; want Ben's phone alone", p)
	}
}

// What the push service answers decides what happens: 201 is delivered;
// 429, 500 and no answer are tried again by the notifier (transient,
// Retry-After kept); 410 and 404 remove the device. No log line or error
// holds the device's address or keys, or the server's private key.
func TestPushServiceAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		answer     int
		permanent  bool
		retryAfter time.Duration
		kept       bool
		said       string
	}{
		{http.StatusTooManyRequests, false, 2 * time.Minute, true, "pushed to 0 of 1 device; 127.0.0.1:PORT answered 429 Too Many Requests; it asked to wait 2m0s"},
		{http.StatusInternalServerError, false, 0, true, "pushed to 0 of 1 device; 127.0.0.1:PORT answered 500 Internal Server Error"},
		{pushtest.Hang, false, 0, true, "pushed to 0 of 1 device; 127.0.0.1:PORT did not answer within 300ms"},
		{http.StatusGone, true, 0, false, "pushed to 0 of 1 device; 1 device was gone, and removed"},
		{http.StatusNotFound, true, 0, false, "pushed to 0 of 1 device; 1 device was gone, and removed"},
		{http.StatusBadRequest, true, 0, true, "pushed to 0 of 1 device; 127.0.0.1:PORT refused the push: 400 Bad Request"},
	} {
		name := strconv.Itoa(c.answer)
		if c.answer == pushtest.Hang {
			name = "no answer"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, 300*time.Millisecond)
			d := f.subscribe(t, "p-ana", "Ana's phone")
			f.srv.Answer(c.answer)
			_, err := f.svc.Push(f.ctx, "acme", notify.PushStaff, productOut("n-1"))
			port := f.srv.URL[strings.LastIndex(f.srv.URL, ":")+1:]
			var e *notify.Error
			if !errors.As(err, &e) || e.Permanent != c.permanent || e.RetryAfter != c.retryAfter ||
				strings.ReplaceAll(e.Msg, port, "PORT") != c.said {
				t.Fatalf("Push: %#v; want permanent %v, retry after %s, %q", err, c.permanent, c.retryAfter, c.said)
			}
			if kept := f.st.devices("p-ana") == 1; kept != c.kept {
				t.Errorf("the device kept: %v; want %v", kept, c.kept)
			}
			if !c.permanent {
				// The notifier tries again; the push service takes it.
				if said, err := f.svc.Push(f.ctx, "acme", notify.PushStaff, productOut("n-1")); err != nil || said != "pushed to 1 of 1 device" {
					t.Errorf("the next attempt: %q, %v", said, err)
				}
			}
			if !c.kept && !strings.Contains(f.log.String(), "removed a device its push service says is gone") {
				t.Errorf("the removal is not in the log: %s", f.log)
			}
			secrets := []string{d.Sub.Endpoint[strings.LastIndex(d.Sub.Endpoint, "/"):], d.Sub.P256dh, d.Sub.Auth, f.privateKey(t)}
			for _, s := range secrets {
				if strings.Contains(f.log.String(), s) || strings.Contains(err.Error(), s) {
					t.Errorf("a secret of the device (%.12s…) is in the log or the error", s)
				}
			}
		})
	}
}

// Without an https address of its own, the server signs its pushes with
// the sender of its mail as the contact push services write to.
func TestPushContactIsTheMailSender(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	svc, err := push.New(f.ctx, push.Config{Link: "http://localhost:8080", Contact: "Washboard <alerts@example.com>", Guard: f.guard(), TLS: f.srv.TLS()},
		push.Deps{Store: f.st, Keys: f.ring})
	if err != nil {
		t.Fatal(err)
	}
	d := f.srv.NewDevice(t, "phone")
	if _, err := svc.Subscribe(f.ctx, "p-ana", "phone", d.Sub); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Test(f.ctx, "p-ana"); err != nil {
		t.Fatal(err)
	}
	if p := f.srv.Pushes(); len(p) != 1 || p[0].Subject != "mailto:alerts@example.com" {
		t.Errorf("pushed %+v; want the contact mailto:alerts@example.com", p)
	}
}

// People whose organisation's role covers the account are pushed to with
// the higher of their two roles: a viewer of the account who is staff of
// its organisation is staff here; a role over other accounts counts for
// nothing.
func TestPushReachesTheOrganisationsPeople(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	f.st.org = []domain.OrganisationMember{
		{Organisation: "o1", PersonID: "p-di", Role: domain.Staff},                                   // a viewer of the account
		{Organisation: "o1", PersonID: "p-eve", Role: domain.Supervisor, Accounts: []string{"acme"}}, // no membership of the account
		{Organisation: "o1", PersonID: "p-fay", Role: domain.Owner, Accounts: []string{"other"}},
	}
	for _, p := range []string{"p-di", "p-eve", "p-fay"} {
		f.subscribe(t, p, p+"'s phone")
	}
	if said, err := f.svc.Push(f.ctx, "acme", notify.PushStaff, productOut("n-1")); err != nil || said != "pushed to 2 of 2 devices" {
		t.Fatalf("to the staff: %q, %v", said, err)
	}
	if said, err := f.svc.Push(f.ctx, "acme", notify.PushSupervisors, productOut("n-2")); err != nil || said != "pushed to 1 of 1 device" {
		t.Fatalf("to the supervisors: %q, %v", said, err)
	}
	var got []string
	for _, p := range f.srv.Pushes() {
		got = append(got, p.Device)
	}
	if want := []string{"p-di's phone", "p-eve's phone", "p-eve's phone"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pushed to %q; want %q", got, want)
	}
}

// A push's "I'm on it" token is the person's, for the alert, for a shift:
// another person's, another alert's, a changed one or one past its time
// is refused; each token has an idempotency key of its own. Words of the
// button are in the person's language.
func TestPushActionTokens(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	f.st.langs["p-ana"] = "de"
	f.subscribe(t, "p-ana", "Ana's phone")
	if _, err := f.svc.Push(f.ctx, "acme", notify.PushStaff, productOut("n-1")); err != nil {
		t.Fatal(err)
	}
	var m push.Message
	if p := f.srv.Pushes(); len(p) != 1 || json.Unmarshal(p[0].Plain, &m) != nil || m.Action == nil {
		t.Fatalf("pushed %+v", p)
	}
	if m.Action.Title != "Ich bin dran" {
		t.Errorf("the button of Ana, who reads German, says %q", m.Action.Title)
	}
	token := m.Action.Token
	for _, c := range []struct {
		name, token, person, account, alert string
		want                                error
	}{
		{"another person", token, "p-ben", "acme", "al-1", push.ErrActionRefused},
		{"another alert", token, "p-ana", "acme", "al-2", push.ErrActionRefused},
		{"another account", token, "p-ana", "other", "al-1", push.ErrActionRefused},
		{"changed", token[:len(token)-2] + "xx", "p-ana", "acme", "al-1", push.ErrActionRefused},
		{"no token", "not-a-token", "p-ana", "acme", "al-1", push.ErrActionRefused},
	} {
		if _, err := f.svc.CheckAction(c.token, c.person, c.account, c.alert); !errors.Is(err, c.want) {
			t.Errorf("%s: %v; want %v", c.name, err, c.want)
		}
	}
	if other := f.svc.ActionToken("p-ana", "acme", "al-1"); push.ActionKey(other) == push.ActionKey(token) {
		t.Error("two tokens share an idempotency key")
	}
	f.clk.Advance(push.ActionTTL - time.Second)
	if _, err := f.svc.CheckAction(token, "p-ana", "acme", "al-1"); err != nil {
		t.Errorf("a second before its time is up: %v", err)
	}
	f.clk.Advance(time.Second)
	if _, err := f.svc.CheckAction(token, "p-ana", "acme", "al-1"); !errors.Is(err, push.ErrActionExpired) {
		t.Errorf("at its time: %v; want it expired", err)
	}
}
