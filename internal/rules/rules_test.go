package rules

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/notify"
)

// Printing or logging a file, an account or a channel never shows a
// webhook's secret or the path of its URL.
func TestPrintingHidesSecrets(t *testing.T) {
	f := exampleModel(t)
	ops := f.Accounts[0].Channels[0]
	var logged bytes.Buffer
	text := slog.New(slog.NewTextHandler(&logged, nil))
	text.Info("channel", "channel", ops, "webhook", ops.Settings, "pointer", &ops)
	jsonLog := slog.New(slog.NewJSONHandler(&logged, nil))
	jsonLog.Info("channel", "channel", ops, "webhook", *ops.Settings.(*notify.WebhookSettings))

	outputs := map[string]string{"slog": logged.String()}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		for name, v := range map[string]any{"file": f, "account": f.Accounts[0], "channel": ops, "*channel": &ops, "webhook": ops.Settings, "channels": f.Accounts[0].Channels} {
			outputs[verb+" of the "+name] = fmt.Sprintf(verb, v)
		}
	}
	for what, out := range outputs {
		for _, secret := range []string{testKey, testSecret, hookPath, "hushhush"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s shows a secret:\n%s", what, out)
			}
		}
	}
	if !strings.Contains(outputs["%v of the channel"], "https://hooks.example.com/…") {
		t.Errorf("%%v of the channel = %q; want it to name the webhook's host", outputs["%v of the channel"])
	}
}

func TestChannelString(t *testing.T) {
	tests := []struct {
		channel Channel
		want    string
	}{
		{Channel{Name: "ops", Settings: &notify.WebhookSettings{URL: hookURL, Format: notify.FormatSlack}}, "ops: slack webhook to https://hooks.example.com/…, unsigned"},
		{Channel{Name: "ops", Settings: &notify.WebhookSettings{URL: "https://hooks.example.com"}}, "ops: json webhook to https://hooks.example.com, unsigned"},
		{Channel{Name: "ops", Settings: &notify.WebhookSettings{URL: "https://hooks.example.com/"}}, "ops: json webhook to https://hooks.example.com, unsigned"},
		{Channel{Name: "ops", Settings: &notify.WebhookSettings{URL: "https://hooks.example.com?token=abc"}}, "ops: json webhook to https://hooks.example.com/…, unsigned"},
		{Channel{Name: "ops", Settings: &notify.WebhookSettings{URL: "https://u:p@hooks.example.com"}}, "ops: json webhook to https://hooks.example.com/…, unsigned"},
		{Channel{Name: "ops", Settings: &notify.WebhookSettings{URL: "mailto:a@example.com"}}, "ops: json webhook to a URL that is not valid, unsigned"},
		{Channel{Name: "desk", Settings: &notify.EmailSettings{To: []string{"a@example.com", "b@example.com"}}}, "desk: e-mail to a@example.com, b@example.com"},
		{Channel{Name: "empty"}, "empty: no destination"},
	}
	for _, tt := range tests {
		if got := tt.channel.String(); got != tt.want {
			t.Errorf("String() = %q; want %q", got, tt.want)
		}
	}
	signed := exampleModel(t).Accounts[0].Channels[0]
	if got := signed.GoString(); got != "rules.Channel{ops: json webhook to https://hooks.example.com/…, signed}" {
		t.Errorf("GoString() = %q", got)
	}
}

func TestAccountMatching(t *testing.T) {
	a := Account{Rules: []Rule{
		{Name: "All opened", When: notify.AlertOpened},
		{Name: "Jams", When: notify.AlertOpened, AlertTypes: []domain.AlertType{domain.AlertJam}},
		{Name: "Overdue", When: notify.AlertOverdue},
	}}
	var names []string
	for _, r := range a.Matching(Fact{Kind: notify.AlertOpened, AlertType: "consumable_out"}) {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "All opened" {
		t.Errorf("Matching an opened consumable_out alert = %v; want only All opened", names)
	}
}

// A person limited to some buildings makes and sees the rules of one of
// their buildings, or a floor of one; a rule of the whole account or of
// another building tells of more than they may know.
func TestRulesWithinAScope(t *testing.T) {
	north := domain.OnlyBuildings("b1")
	for _, c := range []struct {
		r          Rule
		every, one bool
	}{
		{Rule{}, true, false},
		{Rule{BuildingID: "b1"}, true, true},
		{Rule{BuildingID: "b1", FloorID: "f1"}, true, true},
		{Rule{BuildingID: "b2"}, true, false},
		{Rule{BuildingID: "b2", FloorID: "f9"}, true, false},
	} {
		if got := c.r.Within(domain.EveryBuilding()); got != c.every {
			t.Errorf("%+v within every building: %v, want %v", c.r, got, c.every)
		}
		if got := c.r.Within(north); got != c.one {
			t.Errorf("%+v within building b1: %v, want %v", c.r, got, c.one)
		}
	}
}

// The rules reaching an address are those that notify an e-mail channel
// with it among its recipients, whatever its case, alone or with a name;
// a webhook reaches no address.
func TestReaching(t *testing.T) {
	a := Account{
		Channels: []Channel{
			{Name: "desk", Settings: &notify.EmailSettings{To: []string{"Ana Pereira <ana@Example.com>", "bob@example.com"}}},
			{Name: "ops", Settings: &notify.WebhookSettings{URL: "https://hooks.example.com/x", Format: "json"}},
			{Name: "night", Settings: &notify.EmailSettings{To: []string{"carl@example.com"}}},
			{Name: "empty"},
		},
		Rules: []Rule{
			{Name: "Out of product", Channels: []string{"ops", "desk"}},
			{Name: "Jams", Channels: []string{"ops", "empty"}},
			{Name: "Overnight", Channels: []string{"night", "desk"}},
			{Name: "Gone", Channels: []string{"removed"}},
		},
	}
	for _, c := range []struct {
		address string
		want    string
	}{
		{"ANA@example.com", "Out of product by desk; Overnight by desk"},
		{"carl@example.com", "Overnight by night"},
		{"ana", ""},
		{"", ""},
	} {
		var got []string
		for _, r := range a.Reaching(c.address) {
			got = append(got, r.Rule.Name+" by "+strings.Join(r.Channels, ", "))
		}
		if s := strings.Join(got, "; "); s != c.want {
			t.Errorf("rules reaching %q: %q; want %q", c.address, s, c.want)
		}
	}
}
