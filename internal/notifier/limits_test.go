package notifier_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/internal/store"
)

// pageChannels are n webhook channels named c0, c1, … to the fixture's
// receiver.
func (f *fixture) pageChannels(n int) []rules.Channel {
	var cs []rules.Channel
	for i := range n {
		cs = append(cs, rules.Channel{Name: fmt.Sprint("c", i), Settings: &notify.WebhookSettings{URL: f.hooks.srv.URL, Format: notify.FormatJSON}})
	}
	return cs
}

func addChannel(ch rules.Channel) func(*rules.Account) error {
	return func(a *rules.Account) error {
		a.Channels = append(a.Channels, ch)
		return nil
	}
}

// An account keeps at most MaxChannels channels and MaxRules rules made
// on the page: one more is refused in words, and two added at once to
// one less than the limit make one and refuse the other. The file's
// channels do not count. An account beyond the limits from before may
// remove some, and add none.
func TestPageSettingsAreLimited(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	page := rules.Account{Channels: f.pageChannels(notifier.MaxChannels - 1)}
	for i := range notifier.MaxRules {
		page.Rules = append(page.Rules, rules.Rule{Name: fmt.Sprint("r", i), When: notify.AlertOpened, Channels: []string{"c0", "ops"}})
	}
	if err := f.n.SaveSettings(f.ctx, account, page); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f.n.ChangeSettings(f.ctx, account, addChannel(f.pageChannels(notifier.MaxChannels + 2)[notifier.MaxChannels+i]))
		}()
	}
	wg.Wait()
	var se *notifier.SettingsError
	if (errs[0] == nil) == (errs[1] == nil) || !(errors.As(errs[0], &se) || errors.As(errs[1], &se)) ||
		!strings.Contains(se.Error(), "An account keeps at most 50 channels made on this page, and this one has as many") {
		t.Errorf("two channels added at once to %d: %v and %v; want one made and one refused in words", notifier.MaxChannels-1, errs[0], errs[1])
	}
	err := f.n.ChangeSettings(f.ctx, account, func(a *rules.Account) error {
		a.Rules = append(a.Rules, rules.Rule{Name: "one more", When: notify.AlertOpened, Channels: []string{"c0"}})
		return nil
	})
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "An account keeps at most 200 rules made on this page") {
		t.Errorf("a rule more than %d: %v", notifier.MaxRules, err)
	}
	if s, _ := f.n.Settings(f.ctx, account); len(s.Page.Channels) != notifier.MaxChannels || len(s.Page.Rules) != notifier.MaxRules {
		t.Errorf("the account keeps %d channels and %d rules; want %d and %d", len(s.Page.Channels), len(s.Page.Rules), notifier.MaxChannels, notifier.MaxRules)
	}

	// Settings beyond the limits, saved before there were any.
	type savedChannel struct {
		Name    string         `json:"name"`
		Webhook map[string]any `json:"webhook"`
	}
	var before struct {
		Channels []savedChannel `json:"channels"`
		Rules    []rules.Rule   `json:"rules"`
	}
	for i := range notifier.MaxChannels + 10 {
		before.Channels = append(before.Channels, savedChannel{Name: fmt.Sprint("old", i), Webhook: map[string]any{"url": f.hooks.srv.URL, "format": "json"}})
	}
	plain, _ := json.Marshal(before)
	previous, _ := f.st.NotificationSettings(f.ctx, account)
	if err := f.st.SaveNotificationSettings(f.ctx, account, previous, f.keys.Seal(keyring.NotificationSettings, plain, []byte(account)), f.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if err := f.n.ChangeSettings(f.ctx, account, func(a *rules.Account) error { a.Channels = a.Channels[1:]; return nil }); err != nil {
		t.Errorf("removing a channel of %d: %v", notifier.MaxChannels+10, err)
	}
	if err := f.n.ChangeSettings(f.ctx, account, addChannel(f.pageChannels(1)[0])); !errors.As(err, &se) {
		t.Errorf("adding a channel to %d: %v, want it refused", notifier.MaxChannels+9, err)
	}
}

// Changes made at once by two replicas, each to the settings the other
// saved, are all kept: none is lost to another saved meanwhile.
func TestChangesAtOnceAreAllKept(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`))
	replicas := []*notifier.Notifier{f.n, f.notifier()}
	channels := f.pageChannels(8)
	var wg sync.WaitGroup
	errs := make([]error, len(channels))
	for i, ch := range channels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = replicas[i%2].ChangeSettings(f.ctx, account, addChannel(ch))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.n.Settings(f.ctx, account); len(s.Page.Channels) != len(channels) {
		t.Errorf("%d channels added at once by two replicas; %d kept", len(channels), len(s.Page.Channels))
	}
	// A save from settings that changed meanwhile is the store's to refuse.
	if err := f.st.SaveNotificationSettings(f.ctx, account, nil, []byte("stale"), f.clk.Now()); !errors.Is(err, store.ErrChanged) {
		t.Errorf("a save from no settings over some: %v, want store.ErrChanged", err)
	}
}

// A rule that fans out to many channels keeps each channel within its
// rate: every channel sends at most RatePerMinute a minute, the rest wait
// their turn, and none is lost.
func TestARuleFanningOutKeepsEachChannelsRate(t *testing.T) {
	t.Parallel()
	f := newFixture(t, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`), func(c *notifier.Config) { c.RatePerMinute = 3 })
	page := rules.Account{Channels: f.pageChannels(rules.MaxRuleChannels)}
	names := make([]string, len(page.Channels))
	for i, c := range page.Channels {
		names[i] = c.Name
	}
	page.Rules = []rules.Rule{{Name: "Everywhere", When: notify.AlertOpened, Channels: names}}
	if err := f.n.SaveSettings(f.ctx, account, page); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		f.open(string(rune('a'+i)), "l1", domain.AlertJam)
	}
	f.pass()
	sent := func() map[string]int {
		n := map[string]int{}
		for _, name := range names {
			for _, no := range f.log(name) {
				if no.State == store.NotificationSent {
					n[name]++
				}
			}
		}
		return n
	}
	for name, n := range sent() {
		if n > 3 {
			t.Errorf("channel %s sent %d in the first minute, over its rate of 3", name, n)
		}
	}
	if got := sent(); len(got) != len(names) {
		t.Errorf("%d of the rule's %d channels sent in the first minute; want each", len(got), len(names))
	}
	f.advance(time.Minute)
	for _, name := range names {
		if n := sent()[name]; n != 5 {
			t.Errorf("channel %s sent %d after a minute; want all 5", name, n)
		}
	}
}
