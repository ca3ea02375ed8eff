package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/rules"
)

// pagerSettings are the settings of a kind of channel only this test
// knows: a pager's number. Registering the kind is all it takes for the
// notifications file and the page to offer it.
type pagerSettings struct {
	Number string `json:"number"`
}

func (pagerSettings) Kind() string                              { return "pager" }
func (s pagerSettings) String() string                          { return "pager " + s.Number }
func (pagerSettings) Ready(notify.Env) error                    { return nil }
func (s pagerSettings) Save() ([]byte, error)                   { return json.Marshal(s) }
func (s pagerSettings) Open(notify.Env) (notify.Channel, error) { return pager(s), nil }

func (s pagerSettings) Validate() error {
	if s.Number == "" || strings.Trim(s.Number, "0123456789") != "" {
		return &notify.FieldError{Field: "number", Msg: fmt.Sprintf(`"number" must be the pager's number in digits, not %q`, s.Number)}
	}
	return nil
}

// pager is a pager channel: it says it was paged.
type pager pagerSettings

func (pager) Send(context.Context, notify.Notification) error { return nil }
func (p pager) Test(context.Context) (string, error) {
	return "The pager " + p.Number + " beeped.", nil
}

var registerPager = sync.OnceFunc(func() {
	notify.RegisterChannelKind(notify.ChannelKind{
		Name: "pager", Label: "Pager", FileFields: []string{"number"},
		ReadFile: func(o notify.FileObject) (notify.ChannelSettings, error) {
			return &pagerSettings{Number: o.String("number")}, nil
		},
		FormFields: []notify.FormField{{Name: "pager_number", Label: "Pager number", Setting: "number"}},
		ReadForm: func(form url.Values) (notify.ChannelSettings, error) {
			return &pagerSettings{Number: strings.TrimSpace(form.Get("pager_number"))}, nil
		},
		Load: func(data []byte) (notify.ChannelSettings, error) {
			var s pagerSettings
			err := json.Unmarshal(data, &s)
			return &s, err
		},
	})
})

// A kind of channel is one registration (notify.RegisterChannelKind): the
// notifications file reads it, saying where its problems are, and the
// page offers it with its fields, adds it, lists it, keeps it and tests
// it, without a line of their own for it.
func TestAKindOfChannelIsOneRegistration(t *testing.T) {
	t.Parallel()
	registerPager()
	a := newApp(t, Config{})
	acc := a.world.Accounts()[0]
	channelOf := func(channel string) string {
		return fmt.Sprintf(`{"accounts": [{"account_id": %q, "channels": [%s], "rules": [{"name": "Night", "when": "alert.overdue", "channels": ["Night pager"]}]}]}`,
			acc.ID, channel)
	}

	file, err := rules.ParseFile([]byte(channelOf(`{"name": "Night pager", "pager": {"number": "5550100"}}`)))
	if err != nil {
		t.Fatalf("a file with a pager channel: %v", err)
	}
	if got := file.Accounts[0].Channels[0].String(); got != "Night pager: pager 5550100" {
		t.Errorf("the file's pager channel reads %q", got)
	}
	_, err = rules.ParseFile([]byte(channelOf(`{"name": "Night pager",
		"pager": {"number": "call me"}}`)))
	var re *rules.Error
	if !errors.As(err, &re) || re.Field != "pager.number" || re.Line != 2 || !strings.Contains(err.Error(), `"number" must be the pager's number in digits`) {
		t.Errorf("a pager without a number: %v; want its field named, on line 2", err)
	}
	_, err = rules.ParseFile([]byte(channelOf(`{"name": "Night pager", "pager": {"number": "5550100", "pin": "1234"}}`)))
	if err == nil || !strings.Contains(err.Error(), `unknown field "pin"; the fields of "pager" are number`) {
		t.Errorf("a pager with a field it does not have: %v", err)
	}
	if _, err := rules.ParseFile([]byte(channelOf(`{"name": "Night pager", "beeper": {}}`))); err == nil || !strings.Contains(err.Error(), "pager") {
		t.Errorf("a channel of a kind nobody registered: %v; want the known kinds listed", err)
	}

	a.useNotifications(notifier.Config{File: file})
	b := a.browser()
	b.signIn(credA)
	doc := b.get("/notifications").doc(t)
	choice := doc.Find(`#channel-kind input[name="kind"][value="pager"]`)
	if choice.Length() != 1 || !strings.Contains(choice.Parent().Text(), "Pager") {
		t.Fatalf("the channel form offers no pager: %q", doc.Find("#channel-kind > legend ~ .channel-kind > .choice").Text())
	}
	if doc.Find(`label[for="channel-pager-number"]`).Text() != "Pager number" || doc.Find(`#channel-pager-number[name="pager_number"]`).Length() != 1 {
		t.Error("the channel form has no field of the pager's number")
	}
	if got := doc.Find(`section[aria-labelledby="file-heading"] .channels-table td[data-label="Sends"]`).Text(); got != "pager 5550100" {
		t.Errorf("the file's pager channel sends %q", got)
	}

	r := b.addChannel(url.Values{"name": {"Day pager"}, "kind": {"beeper"}})
	if got := r.doc(t).Find("main [role=alert]").Text(); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, "Sends by: choose e-mail, pager, push to phones or webhook.") {
		t.Errorf("a channel of a kind nobody registered = %d: %q; want the kinds offered", r.StatusCode, got)
	}
	r = b.addChannel(url.Values{"name": {"Day pager"}, "kind": {"pager"}, "pager_number": {"555-0111"}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.doc(t).Find("#channel-pager-number").AttrOr("aria-invalid", "") != "true" ||
		!strings.Contains(r.doc(t).Find("#channel-pager-number-problem").Text(), `Pager number: "number" must be the pager's number in digits`) {
		t.Errorf("a pager number with dashes = %d; want it refused under its field: %q", r.StatusCode, r.doc(t).Find("main [role=alert]").Text())
	}
	if got := r.doc(t).Find("#channel-pager-number").AttrOr("value", ""); got != "555-0111" {
		t.Errorf("the refused form shows the number %q, want it as typed", got)
	}
	if r := b.addChannel(url.Values{"name": {"Day pager"}, "kind": {"pager"}, "pager_number": {"5550111"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("adding a pager channel = %d", r.StatusCode)
	}
	set, err := a.notifier.Settings(context.Background(), acc.ID)
	if err != nil || len(set.Page.Channels) != 1 || set.Page.Channels[0].String() != "Day pager: pager 5550111" {
		t.Fatalf("the page's channels kept: %v, %v", set.Page.Channels, err)
	}
	doc = b.get("/notifications").doc(t)
	if got := doc.Find(`section[aria-labelledby="channels-heading"] .channels-table td[data-label="Sends"]`).Text(); got != "pager 5550111" {
		t.Errorf("the page's pager channel sends %q", got)
	}
	r = b.postHX("/notifications/channels/Day%20pager/test", url.Values{"csrf_token": {b.pageCSRF("/notifications")}})
	if !strings.Contains(r.body, "The pager 5550111 beeped.") {
		t.Errorf("a test of the pager channel says:\n%s", r.body)
	}
}

// TestBrowserChannelFormShowsTheKindChosen: the channel form shows the
// fields of the kind of channel chosen, and hides the others', whichever
// kinds are registered.
func TestBrowserChannelFormShowsTheKindChosen(t *testing.T) {
	t.Parallel()
	registerPager()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/notifications"), chromedp.WaitVisible(chromedp.ID("channel-name"))), "opening /notifications")
	shown := func() []string {
		t.Helper()
		var ids []string
		for _, id := range []string{"channel-to", "channel-url", "channel-pager-number"} {
			visible, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("`+id+`").checkVisibility()`))
			must(t, err, "looking at #"+id)
			if visible {
				ids = append(ids, id)
			}
		}
		return ids
	}
	for _, kind := range []string{"", "webhook", "pager", "email"} {
		want := map[string]string{"": "channel-to", "email": "channel-to", "webhook": "channel-url", "pager": "channel-pager-number"}[kind]
		if kind != "" {
			must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("channel-kind-"+kind))), "choosing "+kind)
		}
		if got := shown(); len(got) != 1 || got[0] != want {
			t.Errorf("with %q chosen the form shows %v; want only #%s", kind, got, want)
		}
	}
}
