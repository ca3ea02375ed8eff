package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/receiver"
	"washboard/internal/rules"
)

// TestWhatAnAccountKeepsIsLimited: an account at its limit of channels,
// rules, wall screens or webhook receivers is refused one more, 422 with
// the limit in words and the form as typed; removing a channel makes room
// again.
func TestWhatAnAccountKeepsIsLimited(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	ctx := context.Background()
	hook := newHookReceiver(t, http.StatusOK)
	refused := func(what string, r response, limit, typed string) {
		t.Helper()
		text := strings.Join(strings.Fields(r.doc(t).Find("main").Text()), " ")
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(text, limit) {
			t.Errorf("one %s more than the limit: %d saying %q; want 422 saying %q", what, r.StatusCode, text, limit)
		}
		if typed != "" && !strings.Contains(r.body, `value="`+typed+`"`) {
			t.Errorf("the refused %s's form does not keep %q", what, typed)
		}
	}

	// Channels and rules: the page's, at their limits.
	page := rules.Account{AccountID: acc.ID}
	for i := range notifier.MaxChannels {
		page.Channels = append(page.Channels, rules.Channel{Name: fmt.Sprint("Ops ", i), Settings: &notify.WebhookSettings{URL: hook.URL, Format: "json"}})
	}
	for i := range notifier.MaxRules {
		page.Rules = append(page.Rules, rules.Rule{Name: fmt.Sprint("Rule ", i), When: notify.AlertOpened, Channels: []string{"Ops 0"}})
	}
	if err := a.notifier.SaveSettings(ctx, acc.ID, page); err != nil {
		t.Fatal(err)
	}
	refused("channel", b.addChannel(webhookChannel("One too many", hook.URL)),
		"An account keeps at most 50 channels made on this page, and this one has as many. Remove one it no longer uses before adding another", "One too many")
	refused("rule", b.addRule(url.Values{"name": {"One rule too many"}, "when": {"alert.opened"}, "channel": {"Ops 1"}}),
		"An account keeps at most 200 rules made on this page, and this one has as many", "One rule too many")
	if set, err := a.notifier.Settings(ctx, acc.ID); err != nil || len(set.Page.Channels) != notifier.MaxChannels || len(set.Page.Rules) != notifier.MaxRules {
		t.Errorf("after the refusals the account keeps %d channels and %d rules (%v)", len(set.Page.Channels), len(set.Page.Rules), err)
	}
	token := b.pageCSRF("/notifications")
	if r := b.post("/notifications/channels/Ops%2049/remove", url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing a channel at the limit: %d", r.StatusCode)
	}
	if r := b.addChannel(webhookChannel("In its place", hook.URL)); r.StatusCode != http.StatusSeeOther {
		t.Errorf("adding a channel after one was removed: %d", r.StatusCode)
	}

	// Wall screens, revoked ones included.
	for i := range dashboard.MaxScreens {
		if _, _, err := a.deps.Dashboard.CreateScreen(ctx, domain.EveryBuilding(), domain.Screen{Account: acc.ID, Name: fmt.Sprint("Screen ", i), Scope: domain.ScreenScope{Kind: "account"}},
			domain.Credentials{APIKey: credA.APIKey, Authorization: credA.Authorization}); err != nil {
			t.Fatal(err)
		}
	}
	form := screenForm("One screen too many", "account")
	form.Set("csrf_token", b.pageCSRF("/screens"))
	refused("screen", b.post("/screens", form), "An account keeps at most 200 wall screens, and this one has as many. Revoked screens can be removed to make room", "One screen too many")

	// Webhook receivers.
	for range receiver.MaxReceivers {
		b.makeReceiver("")
	}
	r := b.post("/webhooks", url.Values{"csrf_token": {b.pageCSRF("/webhooks")}})
	refused("receiver", r, "An account keeps at most 20 webhook receivers, and this one has as many. Remove one it no longer uses", "")
	if n := strings.Count(r.body, `class="receiver-url"`); n != receiver.MaxReceivers {
		t.Errorf("the Webhooks page lists %d receivers after the refusal; want %d", n, receiver.MaxReceivers)
	}
}

// TestChannelsAddedAtOnceAreAllKept: channels added at the same moment,
// from two tabs, are all kept, each said to be added.
func TestChannelsAddedAtOnceAreAllKept(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	hook := newHookReceiver(t, http.StatusOK)
	token := b.pageCSRF("/notifications")
	var wg sync.WaitGroup
	codes := make([]int, 16)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			form := webhookChannel(fmt.Sprint("Tab ", i), hook.URL)
			form.Set("csrf_token", token)
			codes[i] = b.post("/notifications/channels", form).StatusCode
		}()
	}
	wg.Wait()
	set, err := a.notifier.Settings(context.Background(), a.world.Accounts()[0].ID)
	if err != nil || len(set.Page.Channels) != len(codes) {
		t.Errorf("%d channels added at once (answered %v); %d kept (%v)", len(codes), codes, len(set.Page.Channels), err)
	}
}
