package notifier_test

import (
	"encoding/json"
	"io"
	"mime"
	"net/mail"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/push"
	"washboard/internal/rules"
)

// A channel made on the page in German keeps its language, and its
// e-mail says what, where, what to bring and what to do in German, with
// <html lang="de">; the file's English channel, beside it, stays English.
func TestAnEmailChannelSpeaksItsLanguage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Out of product", "when": "alert.opened", "channels": ["desk"]}`))
	n := f.notifier()
	err := n.SaveSettings(f.ctx, account, rules.Account{
		Channels: []rules.Channel{{Name: "Empfang", Language: "de", Settings: &notify.EmailSettings{To: []string{"empfang@example.com"}}}},
		Rules:    []rules.Rule{{Name: "Leer", When: notify.AlertOpened, Channels: []string{"Empfang"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	set, err := n.Settings(f.ctx, account)
	if err != nil || len(set.Page.Channels) != 1 || set.Page.Channels[0].Language != "de" {
		t.Fatalf("the page's channels read back: %+v, %v; want Empfang in German", set.Page.Channels, err)
	}
	f.open("a1", "l2", domain.AlertConsumableOut)
	f.pass()
	subjects := map[string]string{}
	bodies := map[string]string{}
	for _, m := range f.mail.Received() {
		msg, err := mail.ReadMessage(strings.NewReader(string(m.Data)))
		if err != nil {
			t.Fatal(err)
		}
		subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		to := msg.Header.Get("To")
		subjects[to] = subject
		body, _ := io.ReadAll(msg.Body)
		bodies[to] = string(body)
	}
	de, en := "<empfang@example.com>", `"Facilities" <facilities@example.com>`
	if subjects[de] != "Produkt leer: Stall 2, Restroom B" {
		t.Errorf("the German channel's subject: %q (subjects %q)", subjects[de], subjects)
	}
	if subjects[en] != "Product out: Stall 2, Restroom B" {
		t.Errorf("the English channel's subject: %q", subjects[en])
	}
	for _, want := range []string{"Mitbringen:", "2 Toilettenpapierrollen", "Was zu tun ist:", "Durch eine volle Nachf", `lang=3D"de"`, "Standort =C3=B6ffnen"} {
		if !strings.Contains(bodies[de], want) {
			t.Errorf("the German e-mail lacks %q:\n%s", want, bodies[de])
		}
	}
}

// A push to a person who chose German is in German, the channel being
// English; one to a person who chose none is in the channel's language.
func TestAPushSpeaksThePersonsLanguage(t *testing.T) {
	t.Parallel()
	p := newPushFixture(t, `{"name": "Out", "when": "alert.opened", "channels": ["phones"]}`)
	if err := p.st.SetPersonLanguage(p.ctx, "p-ana", "de"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.svc.Subscribe(p.ctx, "p-ana", "Ana's phone", p.srv.NewDevice(t, "Ana's phone").Sub); err != nil {
		t.Fatal(err)
	}
	p.open("a1", "l2", domain.AlertConsumableOut)
	p.pass()
	pushes := p.srv.Pushes()
	if len(pushes) != 1 {
		t.Fatalf("%d pushes", len(pushes))
	}
	var m push.Message
	if err := json.Unmarshal(pushes[0].Plain, &m); err != nil || m.Body != "Produkt leer: Stall 2, Restroom B; mitbringen: 2 Toilettenpapierrollen" || m.Title != "South Wing" || m.Action == nil || m.Action.Title != "Ich bin dran" {
		t.Errorf("Ana's push read %+v, %v; want it in German", m, err)
	}
}
