package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/internal/webhook"
)

// TestBrowserNotificationsPage: the notifications page, with channels and
// rules made on it and of the file, a delivery log and a refused form,
// passes axe-core in the light and the dark theme and needs no sideways
// scrolling on a 360 px phone; "Send a test" says what happened under the
// channel, in place.
func TestBrowserNotificationsPage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	acc := a.world.Accounts()[0]
	hook, broken := newHookReceiver(t, http.StatusOK), newHookReceiver(t, http.StatusServiceUnavailable)
	file, err := rules.ParseFile(fmt.Appendf(nil, `{"accounts": [{"account_id": %q,
		"channels": [{"name": "Facilities desk", "email": {"to": ["facilities@example.com", "Night shift <night@example.com>"]}},
			{"name": "Night hook", "webhook": {"url": %q, "format": "teams"}}],
		"rules": [{"name": "Overdue anywhere", "when": "alert.overdue", "channels": ["Facilities desk"], "quiet_hours": {"from": "22:00", "to": "06:00"}}]}]}`,
		acc.ID, broken.URL+"/night"))
	if err != nil {
		t.Fatal(err)
	}
	a.useNotifications(notifier.Config{File: file, SMTP: &notify.SMTPSettings{Host: "mail.example.com", From: "Washboard <alerts@example.com>"}})
	floor := acc.Buildings[0].Floors[0]
	page := rules.Account{
		Channels: []rules.Channel{
			{Name: "Ops chat", Settings: &notify.WebhookSettings{URL: hook.URL + "/services/T000/B000/XXXX", Format: notify.FormatSlack, Secret: webhook.NewSecret()}},
			{Name: "Stores", Settings: &notify.EmailSettings{To: []string{"stores@example.com"},
				SMTP: &notify.SMTPSettings{Host: "smtp.example.com", Port: 587, User: "stores", Password: "pw-not-shown", From: "stores@example.com"}}},
		},
		Rules: []rules.Rule{
			{Name: "Jams on " + floor.Name, When: notify.AlertOpened, BuildingID: acc.Buildings[0].ID, FloorID: floor.ID, Channels: []string{"Ops chat", "Night hook"}},
			{Name: "Offline for an hour", When: notify.DeviceOffline, AfterMinutes: 60, DigestMinutes: 30, Channels: []string{"Stores"},
				QuietHours: &rules.QuietHours{From: 20 * 60, To: 7 * 60, During: rules.QuietDrop}},
		},
	}
	if err := a.notifier.SaveSettings(context.Background(), acc.ID, page); err != nil {
		t.Fatal(err)
	}

	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	openAlert(t, a, acc.Rooms[0].Locations[0], "browser-alert-1")
	a.notifier.Pass(context.Background())

	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/notifications"), chromedp.WaitVisible(chromedp.CSS("main"))), "opening /notifications")
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".channels-table tbody tr:first-child .test-form button")),
		chromedp.Poll[chromedp.Void](`!!document.querySelector('#channel-1-test .test-outcome')`,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))), "sending a test")
	if got := text(t, ctx, "#channel-1-test"); !strings.Contains(got, "accepted the test") {
		t.Errorf("after the test the channel says %q", got)
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.HasSuffix(loc, "/notifications") {
		t.Errorf("the test left the page for %s", loc)
	}

	// A refused form: the page as it answers it.
	refused := func() {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/notifications"), chromedp.WaitVisible(chromedp.ID("channel-name")),
			chromedp.SendKeys(chromedp.ID("channel-name"), "Cleaners"),
			chromedp.SendKeys(chromedp.ID("channel-to"), "cleaners at example.com")), "filling the channel form")
		loadAfter(t, ctx, chromedp.Submit(chromedp.ID("channel-name")), "adding a channel with a bad address")
		must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("channel-to-problem"))), "waiting for the field's problem")
	}
	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		must(t, err, "emulating the "+scheme+" theme")
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/notifications"), chromedp.WaitVisible(chromedp.CSS(".log-table"))), "opening /notifications")
		checkAxe(t, ctx, "/notifications ("+scheme+")")
		refused()
		checkAxe(t, ctx, "/notifications with a refused channel ("+scheme+")")
	}

	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
	for _, open := range []struct {
		what string
		do   func()
	}{
		{"/notifications", func() {
			must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/notifications"), chromedp.WaitVisible(chromedp.CSS("main"))), "opening /notifications")
		}},
		{"/notifications with a refused channel", refused},
	} {
		open.do()
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
		must(t, err, "measuring "+open.what)
		if over > 0 {
			t.Errorf("%s is %d px wider than a 360 px phone", open.what, over)
		}
	}
}
