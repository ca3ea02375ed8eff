package rules

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/webhook"
)

// testSecret signs the ops channel's deliveries; hookPath is the secret
// part of its URL. Neither may appear in an error or a printed value.
const (
	testSecret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	testKey    = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY"
	hookPath   = "T0001/B0002/hushhush"
	hookURL    = "https://hooks.example.com/services/" + hookPath
)

// exampleFile is the package documentation's example, with a second rule
// that waits.
const exampleFile = `{"accounts": [{"account_id": "acme-eu",
  "channels": [{"name": "ops", "webhook": {"url": "` + hookURL + `", "format": "json", "secret": "` + testSecret + `"}},
               {"name": "desk", "email": {"to": ["facilities@example.com", "Night Desk <night@example.com>"]}}],
  "rules": [{"name": "Out of product", "when": "alert.opened", "alert_types": ["consumable_out"], "channels": ["ops"],
             "building_id": "b1", "floor_id": "f3", "quiet_hours": {"from": "22:00", "to": "06:00", "during": "hold"},
             "digest_minutes": 30},
            {"name": "Nobody on it", "when": "alert.unclaimed", "after_minutes": 15, "channels": ["ops", "desk"]}]}]}
`

func exampleModel(t *testing.T) File {
	t.Helper()
	secret, err := webhook.ParseSecret(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return File{Accounts: []Account{{
		AccountID: "acme-eu",
		Channels: []Channel{
			{Name: "ops", Settings: &notify.WebhookSettings{URL: hookURL, Format: notify.FormatJSON, Secret: secret}},
			{Name: "desk", Settings: &notify.EmailSettings{To: []string{"facilities@example.com", "Night Desk <night@example.com>"}}},
		},
		Rules: []Rule{
			{
				Name: "Out of product", When: notify.AlertOpened, AlertTypes: []domain.AlertType{domain.AlertConsumableOut},
				BuildingID: "b1", FloorID: "f3", QuietHours: &QuietHours{From: 22 * 60, To: 6 * 60, During: QuietHold},
				DigestMinutes: 30, Channels: []string{"ops"},
			},
			{Name: "Nobody on it", When: notify.AlertUnclaimed, AfterMinutes: 15, Channels: []string{"ops", "desk"}},
		},
	}}}
}

func TestParseFileReadsTheExample(t *testing.T) {
	got, err := ParseFile([]byte(exampleFile))
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	want := exampleModel(t)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseFile read\n%s\nwant\n%s", describe(got), describe(want))
	}
	acme, ok := got.Account("acme-eu")
	if !ok || len(acme.Rules) != 2 {
		t.Fatalf("Account(acme-eu) = %v, %v; want the account with its two rules", ok, len(acme.Rules))
	}
	if _, ok := got.Account("globex"); ok {
		t.Error("Account(globex) found an account the file does not list")
	}
	if c, ok := acme.Channel("desk"); !ok || c.Settings.Kind() != "email" {
		t.Errorf("Channel(desk) = %v, %v; want the e-mail channel", c, ok)
	}
	if _, ok := acme.Channel("Desk"); ok {
		t.Error("Channel(Desk) found a channel: names are matched exactly")
	}
}

// describe prints a file's rules and channels, secrets left out, for a
// failure message.
func describe(f File) string {
	var b strings.Builder
	for _, a := range f.Accounts {
		fmt.Fprintf(&b, "account %q\n", a.AccountID)
		for _, c := range a.Channels {
			fmt.Fprintf(&b, "  channel %v\n", c)
		}
		for _, r := range a.Rules {
			fmt.Fprintf(&b, "  rule %+v quiet %+v\n", r, r.QuietHours)
		}
	}
	return b.String()
}

func TestParseFileDefaults(t *testing.T) {
	f, err := ParseFile([]byte(`{"accounts": [{"account_id": "acme-eu",
		"channels": [{"name": "ops", "webhook": {"url": "https://hooks.example.com/w", "format": null, "secret": null}}],
		"rules": [{"name": "Night", "when": "battery.low", "channels": ["ops"], "quiet_hours": {"from": "22:00", "to": "06:00"},
		           "building_id": null, "alert_types": null, "digest_minutes": null}]}]}`))
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	w := f.Accounts[0].Channels[0].Settings.(*notify.WebhookSettings)
	if w.Format != notify.FormatJSON || !w.Secret.IsZero() {
		t.Errorf("a webhook without format and secret has format %q and a secret %v; want json and none", w.Format, !w.Secret.IsZero())
	}
	r := f.Accounts[0].Rules[0]
	if r.QuietHours.During != QuietHold {
		t.Errorf("quiet hours without during hold or drop %q; want hold", r.QuietHours.During)
	}
	if r.AlertTypes != nil || r.BuildingID != "" || r.DigestMinutes != 0 {
		t.Errorf("fields written null read as %+v; want them left out", r)
	}
}

func TestParseFileEmptyAccounts(t *testing.T) {
	for _, text := range []string{`{"accounts": []}`, `{"accounts": [{"account_id": "acme-eu"}]}`, "\xef\xbb\xbf" + `{"accounts": []}`} {
		if _, err := ParseFile([]byte(text)); err != nil {
			t.Errorf("ParseFile(%s): %v; want no error", text, err)
		}
	}
}

// oneAccount is a file of one account, acme-eu, with the channels ops (a
// webhook) and desk (e-mail) and the rules, one to a line.
func oneAccount(rules ...string) string {
	return `{"accounts": [{"account_id": "acme-eu",
  "channels": [{"name": "ops", "webhook": {"url": "` + hookURL + `", "secret": "` + testSecret + `"}},
               {"name": "desk", "email": {"to": ["facilities@example.com"]}}],
  "rules": [` + strings.Join(rules, ",\n") + `]}]}`
}

// withChannel is a file of one account with the channel and a rule that
// sends to it.
func withChannel(channel string) string {
	return `{"accounts": [{"account_id": "acme-eu",
  "channels": [` + channel + `],
  "rules": [{"name": "Out of product", "when": "alert.opened", "channels": ["c"]}]}]}`
}

// lineColumn is where the first occurrence of marker is in text.
func lineColumn(t *testing.T, text, marker string) (int, int) {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%q is not in the file", marker)
	}
	lines := strings.Split(text[:i], "\n")
	return len(lines), len([]rune(lines[len(lines)-1])) + 1
}

func TestParseFileErrors(t *testing.T) {
	long := strings.Repeat("x", 81)
	var many []string
	for i := range 11 {
		many = append(many, fmt.Sprintf(`"c%d"`, i))
	}
	tests := []struct {
		name string
		file string
		want []string // parts of the error's text
		at   string   // the text the error points at; "" when it names no line
		// line and column, when given, say where the error points instead.
		line, column int
	}{
		{
			name: "an account listed twice",
			file: `{"accounts": [{"account_id": "acme-eu"}, {"account_id": "globex"}, {"account_id": "acme-eu"}]}`,
			want: []string{`accounts[2] ("acme-eu")`, "listed twice, also as accounts[0]"},
			at:   `"acme-eu"}]}`,
		},
		{
			name: "an empty account_id",
			file: `{"accounts": [{"account_id": ""}]}`,
			want: []string{`accounts[0]: needs an "account_id"`}, at: `""`,
		},
		{
			name: "an account without account_id",
			file: `{"accounts": [{"channels": []}]}`,
			want: []string{`accounts[0]: needs an "account_id"`}, at: `{"channels"`,
		},
		{
			name: "a rule naming an unknown channel",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": ["ops", "opz"]}`),
			want: []string{`accounts[0].rules[0] ("Out of product"): names the channel "opz", which is not among the account's channels ("ops", "desk")`},
			at:   `"opz"`,
		},
		{
			name: "an unknown when",
			file: oneAccount(`{"name": "Out of product", "when": "alert.open", "channels": ["ops"]}`),
			want: []string{`accounts[0].rules[0] ("Out of product"): "when" must be one of alert.opened, alert.overdue, alert.unclaimed, alert.at_risk, product.out, battery.low, device.offline, visitor.report, not "alert.open"`},
			at:   `"alert.open"`,
		},
		{
			name: "a rule without when",
			file: oneAccount(`{"name": "Out of product", "channels": ["ops"]}`),
			want: []string{`needs "when", one of alert.opened`}, at: `{"name": "Out of product"`,
		},
		{
			name: "alert.unclaimed without after_minutes",
			file: oneAccount(`{"name": "Nobody on it", "when": "alert.unclaimed", "channels": ["ops"]}`),
			want: []string{`rules[0] ("Nobody on it"): alert.unclaimed needs "after_minutes"`, "1 to 10080"},
			at:   `{"name": "Nobody on it"`,
		},
		{
			name: "device.offline without after_minutes",
			file: oneAccount(`{"name": "Gone", "when": "device.offline", "after_minutes": 0, "channels": ["ops"]}`),
			want: []string{`device.offline needs "after_minutes"`}, at: "0,",
		},
		{
			name: "after_minutes beyond a week",
			file: oneAccount(`{"name": "Gone", "when": "device.offline", "after_minutes": 10081, "channels": ["ops"]}`),
			want: []string{`"after_minutes" must be from 1 to 10080 (a week), not 10081`}, at: "10081",
		},
		{
			name: "negative after_minutes",
			file: oneAccount(`{"name": "Gone", "when": "device.offline", "after_minutes": -5, "channels": ["ops"]}`),
			want: []string{`not -5`}, at: "-5",
		},
		{
			name: "after_minutes for a kind that does not wait",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "after_minutes": 15, "channels": ["ops"]}`),
			want: []string{`"after_minutes" applies only to alert.unclaimed and device.offline; leave it out for alert.opened`}, at: "15",
		},
		{
			name: "a digest too short",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "digest_minutes": 4, "channels": ["ops"]}`),
			want: []string{`"digest_minutes" must be 0 (no digest) or from 5 to 1440 (a day), not 4`}, at: "4,",
		},
		{
			name: "a digest too long",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "digest_minutes": 1441, "channels": ["ops"]}`),
			want: []string{`not 1441`}, at: "1441",
		},
		{
			name: "a number that is not whole",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "digest_minutes": 7.5, "channels": ["ops"]}`),
			want: []string{`"digest_minutes" must be a whole number, not 7.5`}, at: "7.5",
		},
		{
			name: "a number written as a string",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "digest_minutes": "30", "channels": ["ops"]}`),
			want: []string{`"digest_minutes" must be a whole number, not a string`}, at: `"30"`,
		},
		{
			name: "a rule without channels",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": []}`),
			want: []string{`names no channel in "channels"; name 1 to 10`}, at: "[]",
		},
		{
			name: "a rule with too many channels",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": [` + strings.Join(many, ", ") + `]}`),
			want: []string{`names 11 channels; a rule may name at most 10`}, at: `"c10"`,
		},
		{
			name: "a rule naming a channel twice",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": ["ops", "desk", "ops"]}`),
			want: []string{`names the channel "ops" twice, also as channels[0]`}, at: `"ops"]}`,
		},
		{
			name: "channels written as a string",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": "ops"}`),
			want: []string{`"channels" must be a list […], not a string`}, at: `"ops"}`,
		},
		{
			name: "a channel name that is not a string",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": [7]}`),
			want: []string{`"channels" must list strings in double quotes; channels[0] is a number`}, at: `7]`,
		},
		{
			name: "an unknown alert type",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "alert_types": ["consumable_out", "consumable_outt"], "channels": ["ops"]}`),
			want: []string{`"consumable_outt" is not an alert type; the types are consumable_out, battery_out, jam_fault, sensor_fault, system_fault, incorrectly_loaded, device_off`},
			at:   `"consumable_outt"`,
		},
		{
			name: "an alert type listed twice",
			file: oneAccount(`{"name": "Jams", "when": "alert.overdue", "alert_types": ["jam_fault", "jam_fault"], "channels": ["ops"]}`),
			want: []string{`lists the alert type "jam_fault" twice`}, at: `"jam_fault"]`,
		},
		{
			name: "alert types for a kind that is not an alert",
			file: oneAccount(`{"name": "Batteries", "when": "battery.low", "alert_types": ["battery_out"], "channels": ["ops"]}`),
			want: []string{`"alert_types" apply only to alert.opened, alert.overdue, alert.unclaimed and alert.at_risk; leave it out for battery.low`},
			at:   `["battery_out"]`,
		},
		{
			name: "a floor without its building",
			file: oneAccount(`{"name": "Level 3", "when": "alert.opened", "floor_id": "f3", "channels": ["ops"]}`),
			want: []string{`"floor_id" needs "building_id"`}, at: `"f3"`,
		},
		{
			name: "quiet hours that begin and end at once",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": {"from": "22:00", "to": "22:00"}, "channels": ["ops"]}`),
			want: []string{`"from" and "to" are both 22:00`}, at: `"22:00"}`,
		},
		{
			name: "a time of day past midnight",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": {"from": "24:00", "to": "06:00"}, "channels": ["ops"]}`),
			want: []string{`"from" must be a time of day: "24:00" is not a time of day from 00:00 to 23:59`}, at: `"24:00"`,
		},
		{
			name: "a time of day not written HH:MM",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": {"from": "22:00", "to": "6am"}, "channels": ["ops"]}`),
			want: []string{`"to" must be a time of day: "6am" is not a time of day written HH:MM`}, at: `"6am"`,
		},
		{
			name: "quiet hours without an end",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": {"from": "22:00"}, "channels": ["ops"]}`),
			want: []string{`"quiet_hours" needs "to"`}, at: `{"from"`,
		},
		{
			name: "an unknown quiet action",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": {"from": "22:00", "to": "06:00", "during": "skip"}, "channels": ["ops"]}`),
			want: []string{`"during" must be hold or drop, not "skip"`}, at: `"skip"`,
		},
		{
			name: "an empty quiet action",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": {"from": "22:00", "to": "06:00", "during": ""}, "channels": ["ops"]}`),
			want: []string{`"during" must be hold or drop, not ""`}, at: `""}`,
		},
		{
			name: "quiet hours written as a string",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": "22:00-06:00", "channels": ["ops"]}`),
			want: []string{`"quiet_hours" must be an object {…}, not a string`}, at: `"22:00-06:00"`,
		},
		{
			name: "an unknown field of a rule",
			file: oneAccount(`{"name": "Out of product", "whne": "alert.opened", "channels": ["ops"]}`),
			want: []string{`rules[0] ("Out of product"): unknown field "whne"; the fields of a rule are name, when, alert_types, building_id, floor_id, after_minutes, quiet_hours, digest_minutes, channels`},
			at:   `"whne"`,
		},
		{
			name: "an unknown field of quiet hours",
			file: oneAccount(`{"name": "Night", "when": "alert.opened", "quiet_hours": {"from": "22:00", "to": "06:00", "zone": "Europe/Berlin"}, "channels": ["ops"]}`),
			want: []string{`unknown field "zone"; the fields of "quiet_hours" are from, to, during`}, at: `"zone"`,
		},
		{
			name: "an unknown field of the file",
			file: `{"accounts": [], "version": 2}`,
			want: []string{`unknown field "version"; the fields of the file are accounts`}, at: `"version"`,
		},
		{
			name: "an unknown field of an account",
			file: `{"accounts": [{"account_id": "acme-eu", "rule": []}]}`,
			want: []string{`accounts[0] ("acme-eu"): unknown field "rule"; the fields of an account are account_id, channels, rules`}, at: `"rule"`,
		},
		{
			name: "a field given twice",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "when": "alert.overdue", "channels": ["ops"]}`),
			want: []string{`the field "when" is given twice`}, at: `"when": "alert.overdue"`,
		},
		{
			name: "a rule without a name",
			file: oneAccount(`{"when": "alert.opened", "channels": ["ops"]}`),
			want: []string{`accounts[0].rules[0]: needs a "name", 1 to 80 characters`}, at: `{"when"`,
		},
		{
			name: "a name too long",
			file: oneAccount(`{"name": "` + long + `", "when": "alert.opened", "channels": ["ops"]}`),
			want: []string{`"name" is 81 characters long; it may be at most 80`}, at: `"xxx`,
		},
		{
			name: "a name with a line break",
			file: oneAccount(`{"name": "Out of\nproduct", "when": "alert.opened", "channels": ["ops"]}`),
			want: []string{`"name" holds a control character`}, at: `"Out of`,
		},
		{
			name: "a name that ends with a space",
			file: oneAccount(`{"name": "Out of product ", "when": "alert.opened", "channels": ["ops"]}`),
			want: []string{`"name" begins or ends with a space`}, at: `"Out of product "`,
		},
		{
			name: "two rules of one name",
			file: oneAccount(`{"name": "Out of product", "when": "alert.opened", "channels": ["ops"]}`,
				`{"name": "Out of product", "when": "alert.overdue", "channels": ["desk"]}`),
			want: []string{`accounts[0].rules[1] ("Out of product"): another rule, rules[0], is also named "Out of product"`},
			at:   `"Out of product", "when": "alert.overdue"`,
		},
		{
			name: "two channels of one name",
			file: `{"accounts": [{"account_id": "acme-eu", "channels": [
				{"name": "ops", "email": {"to": ["a@example.com"]}},
				{"name": "ops", "email": {"to": ["b@example.com"]}}]}]}`,
			want: []string{`accounts[0].channels[1] ("ops"): another channel, channels[0], is also named "ops"`},
			at:   `"ops", "email": {"to": ["b@`,
		},
		{
			name: "a channel without a destination",
			file: withChannel(`{"name": "c"}`),
			want: []string{`accounts[0].channels[0] ("c"): needs "email", "push" or "webhook"`}, at: `{"name": "c"}`,
		},
		{
			name: "a channel with two destinations",
			file: withChannel(`{"name": "c", "email": {"to": ["a@example.com"]}, "webhook": {"url": "https://hooks.example.com/w"}}`),
			want: []string{`has both "email" and "webhook"`}, at: `{"url"`,
		},
		{
			name: "a bad address",
			file: withChannel(`{"name": "c", "email": {"to": ["a@example.com", "bob@"]}}`),
			want: []string{`accounts[0].channels[0] ("c"): "bob@" is not an e-mail address`}, at: `"bob@"`,
		},
		{
			name: "no address",
			file: withChannel(`{"name": "c", "email": {"to": []}}`),
			want: []string{`"to" lists no address; list 1 to 20`}, at: `[]`,
		},
		{
			name: "too many addresses",
			file: withChannel(`{"name": "c", "email": {"to": ["a0@example.com"` + addresses(1, 21) + `]}}`),
			want: []string{`"to" lists 21 addresses; it may list at most 20`}, at: `"a20@example.com"`,
		},
		{
			name: "an address listed twice",
			file: withChannel(`{"name": "c", "email": {"to": ["a@example.com", "Ann <A@example.com>"]}}`),
			want: []string{`the address "A@example.com" is also to[0]`}, at: `"Ann`,
		},
		{
			name: "an address that is not a string",
			file: withChannel(`{"name": "c", "email": {"to": [true]}}`),
			want: []string{`"to" must list strings in double quotes; to[0] is true or false`}, at: `true`,
		},
		{
			name: "an unknown field of email",
			file: withChannel(`{"name": "c", "email": {"to": ["a@example.com"], "cc": ["b@example.com"]}}`),
			want: []string{`unknown field "cc"; the fields of "email" are to`}, at: `"cc"`,
		},
		{
			name: "a channel that is not an object",
			file: withChannel(`"ops"`),
			want: []string{`accounts[0].channels[0]: a channel must be an object {…}, not a string`}, at: `"ops"`,
		},
		{
			name: "a webhook without a URL",
			file: withChannel(`{"name": "c", "webhook": {"format": "slack"}}`),
			want: []string{`needs a "url"`}, at: `{"format"`,
		},
		{
			name: "a URL that is not http",
			file: withChannel(`{"name": "c", "webhook": {"url": "ftp://files.example.com/` + hookPath + `"}}`),
			want: []string{`"url" is not an absolute http or https URL`}, at: `"ftp:`,
		},
		{
			name: "a URL without a scheme",
			file: withChannel(`{"name": "c", "webhook": {"url": "hooks.example.com/` + hookPath + `"}}`),
			want: []string{`"url" is not an absolute http or https URL`}, at: `"hooks.`,
		},
		{
			name: "a URL without a host",
			file: withChannel(`{"name": "c", "webhook": {"url": "https:///` + hookPath + `"}}`),
			want: []string{`"url" is not an absolute http or https URL`}, at: `"https:`,
		},
		{
			name: "a URL with a password",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://user:hushhush@hooks.example.com/w"}}`),
			want: []string{`"url" holds a user name or password`}, at: `"https:`,
		},
		{
			name: "a URL too long",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/` + hookPath + strings.Repeat("a", 2048) + `"}}`),
			want: []string{`"url" is 2094 bytes long; it may be at most 2048`}, at: `"https:`,
		},
		{
			name: "an unknown format",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/w", "format": "discord"}}`),
			want: []string{`"format" must be one of json, slack, teams, not "discord"`}, at: `"discord"`,
		},
		{
			name: "a secret too short",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/w", "secret": "whsec_c2hvcnQta2V5"}}`),
			want: []string{`accounts[0].channels[0] ("c"): "secret" is not a whsec_ secret`, "holds a key of 9 bytes; it must be 24 to 64"},
			at:   `"whsec_c2`,
		},
		{
			name: "a secret that is not base64",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/w", "secret": "whsec_` + testKey + `!!"}}`),
			want: []string{`"secret" is not a whsec_ secret`, "not standard base64"}, at: `"whsec_`,
		},
		{
			name: "an empty secret",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/w", "secret": ""}}`),
			want: []string{`"secret" is empty; leave it out`}, at: `""`,
		},
		{
			name: "a secret that is not a string",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/w", "secret": 12}}`),
			want: []string{`"secret" must be a string in double quotes, not a number`}, at: `12`,
		},
		{
			name: "an unknown field of a webhook",
			file: withChannel(`{"name": "c", "webhook": {"url": "https://hooks.example.com/w", "sceret": "` + testSecret + `"}}`),
			want: []string{`unknown field "sceret"; the fields of "webhook" are url, format, secret`}, at: `"sceret"`,
		},
		{
			name: "a secret where a name belongs",
			file: withChannel(`{"name": "` + testSecret + `", "webhook": {"url": "https://hooks.example.com/w", "secret": "short"}}`),
			want: []string{`accounts[0].channels[0] ("whsec_…"): "secret" is not a whsec_ secret`},
			at:   `"short"`,
		},
		{
			name: "accounts that are not a list",
			file: `{"accounts": {"account_id": "acme-eu"}}`,
			want: []string{`"accounts" must be a list […], not an object {…}`}, at: `{"account_id"`,
		},
		{
			name: "a file without accounts",
			file: `{}`,
			want: []string{`the file needs "accounts"`}, at: `{}`,
		},
		{
			name: "a file that is a list",
			file: `[{"accounts": []}]`,
			want: []string{`the file must hold one JSON object: {"accounts": […]}, not a list […]`}, at: `[`,
		},
		{
			name: "an empty file",
			file: " \n",
			want: []string{"the file is empty"},
		},
		{
			name: "a file cut short",
			file: "{\"accounts\": [\n  {\"account_id\": \"acme-eu\"",
			want: []string{`the file ends before its JSON does`}, line: 2, column: 27,
		},
		{
			name: "a second object after the first",
			file: `{"accounts": []}` + "\n" + `{"accounts": []}`,
			want: []string{`this is not valid JSON: invalid character '{' after top-level value`, "nothing after it"},
			line: 2, column: 1,
		},
		{
			name: "a comma too many",
			file: `{"accounts": [{"account_id": "acme-eu",}]}`,
			want: []string{`invalid character '}' looking for beginning of object key string; is there a comma too many before it?`},
			at:   `}]}`,
		},
		{
			name: "a comma too many in a list",
			file: `{"accounts": [{"account_id": "acme-eu"},]}`,
			want: []string{`is there a comma too many before it?`}, at: `]}`,
		},
		{
			name: "single quotes",
			file: `{'accounts': []}`,
			want: []string{`field names are written in double quotes`}, at: `'`,
		},
		{
			name: "a value in single quotes",
			file: `{"accounts": ['acme']}`,
			want: []string{`strings are written in double quotes`}, at: `'`,
		},
		{
			name: "a colon missing",
			file: `{"accounts" []}`,
			want: []string{`a ":" must follow a field's name`}, at: `[`,
		},
		{
			name: "nesting too deep",
			file: `{"accounts": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`,
			want: []string{"the JSON nests more than 32 levels deep"}, line: 1, column: 14 + 32,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile([]byte(tt.file))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("ParseFile = %v; want an *Error", err)
			}
			for _, part := range tt.want {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error\n%s\ndoes not say\n%s", err, part)
				}
			}
			line, column := tt.line, tt.column
			if tt.at != "" {
				line, column = lineColumn(t, tt.file, tt.at)
			}
			if e.Line != line || e.Column != column {
				t.Errorf("error\n%s\nis at line %d, column %d; want line %d, column %d", err, e.Line, e.Column, line, column)
			}
			if line > 0 && !strings.HasPrefix(err.Error(), fmt.Sprintf("line %d, column %d: ", line, column)) {
				t.Errorf("error %q does not begin with its line and column", err)
			}
			for _, secret := range []string{testKey, "hushhush", "c2hvcnQta2V5"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q repeats a secret", err)
				}
			}
		})
	}
}

// addresses lists the addresses a{from}@example.com to a{to-1}@example.com,
// each after a comma.
func addresses(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, `, "a%d@example.com"`, i)
	}
	return b.String()
}

// A syntax error points at the character where the file stops being JSON:
// here the second rule, on line 5, lacks the comma after its name.
func TestParseFileSyntaxErrorLine(t *testing.T) {
	text := `{"accounts": [{"account_id": "acme-eu",
  "channels": [{"name": "desk", "email": {"to": ["facilities@example.com"]}}],
  "rules": [
    {"name": "Out of product", "when": "alert.opened", "channels": ["desk"]},
    {"name": "Overdue" "when": "alert.overdue", "channels": ["desk"]}
  ]}]}`
	_, err := ParseFile([]byte(text))
	want := `line 5, column 24: this is not valid JSON: invalid character '"' after object key:value pair; is a comma missing before it?`
	if err == nil || err.Error() != want {
		t.Errorf("ParseFile = %v; want %s", err, want)
	}
}

// The brief's own layout, with after_minutes on an alert.opened rule, is
// refused at the line of after_minutes.
func TestParseFileValidationErrorLine(t *testing.T) {
	text := `{"accounts": [{"account_id": "acme-eu",
  "channels": [{"name": "ops", "webhook": {"url": "https://hooks.example.com/w", "format": "json"}}],
  "rules": [{"name": "Out of product", "when": "alert.opened", "alert_types": ["consumable_out"], "channels": ["ops"],
             "building_id": "b1", "floor_id": "f3", "quiet_hours": {"from": "22:00", "to": "06:00", "during": "hold"},
             "digest_minutes": 30, "after_minutes": 15}]}]}`
	_, err := ParseFile([]byte(text))
	want := `line 5, column 53: accounts[0].rules[0] ("Out of product"): "after_minutes" applies only to alert.unclaimed and device.offline; leave it out for alert.opened`
	if err == nil || err.Error() != want {
		t.Errorf("ParseFile = %v; want %s", err, want)
	}
}

func TestParseFileRefusesMoreThanOneMegabyte(t *testing.T) {
	small := `{"accounts": []}`
	fits := small + strings.Repeat(" ", MaxFileSize-len(small))
	if _, err := ParseFile([]byte(fits)); err != nil {
		t.Errorf("a file of exactly 1 MB: %v; want it read", err)
	}
	_, err := ParseFile([]byte(fits + " "))
	if err == nil || !strings.Contains(err.Error(), "at most 1 MB") {
		t.Errorf("a file of 1 MB and a byte: %v; want it refused as too large", err)
	}
}

func TestValidateWithoutFile(t *testing.T) {
	r := Rule{Name: "Out of product", When: "alert.open", Channels: []string{"ops"}}
	err := r.Validate()
	var e *Error
	if !errors.As(err, &e) || e.Field != "when" || e.Path != "" || e.Line != 0 {
		t.Fatalf("Rule.Validate = %#v; want an error of the field when, with no path and no line", err)
	}
	if !strings.HasPrefix(err.Error(), `"when" must be one of`) {
		t.Errorf("Rule.Validate = %q; want it to begin with the field", err)
	}

	a := Account{AccountID: "acme-eu", Rules: []Rule{{Name: "Out of product", When: notify.AlertOpened, Channels: []string{"ops"}}}}
	err = a.Validate()
	if !errors.As(err, &e) || e.Path != `rules[0] ("Out of product")` || e.Field != "channels[0]" {
		t.Errorf("Account.Validate = %v (path %q, field %q); want the rule's first channel", err, e.Path, e.Field)
	}
	if !strings.Contains(err.Error(), "the account has none") {
		t.Errorf("Account.Validate = %q; want it to say the account has no channels", err)
	}

	if err := (Channel{Name: "ops", Settings: &notify.WebhookSettings{URL: "https://hooks.example.com/w"}}).Validate(); err == nil ||
		!strings.Contains(err.Error(), `"format" must be one of json, slack, teams, not ""`) {
		t.Errorf("a webhook channel without a format: %v; want the format refused", err)
	}
	good := exampleModel(t)
	for _, check := range []func() error{good.Validate, good.Accounts[0].Validate, good.Accounts[0].Channels[0].Validate, good.Accounts[0].Rules[0].Validate} {
		if err := check(); err != nil {
			t.Errorf("the example: %v; want no error", err)
		}
	}
	quiet := Rule{Name: "Night", When: notify.AlertOpened, Channels: []string{"ops"}, QuietHours: &QuietHours{From: 1440, To: 60}}
	if err := quiet.Validate(); err == nil || !strings.Contains(err.Error(), `"from" must be a time of day from 00:00 to 23:59`) {
		t.Errorf("quiet hours from minute 1440: %v; want them refused", err)
	}
	quiet.QuietHours = &QuietHours{From: 60, To: -1}
	if err := quiet.Validate(); err == nil || !strings.Contains(err.Error(), `"to" must be a time of day`) {
		t.Errorf("quiet hours to minute -1: %v; want them refused", err)
	}
	for _, id := range []string{" acme", "ac\tme", strings.Repeat("a", 201)} {
		if err := (Account{AccountID: id}).Validate(); err == nil || !strings.Contains(err.Error(), `"account_id"`) {
			t.Errorf("account id %q: %v; want it refused", id, err)
		}
	}
	if err := (Channel{Name: "x\xff"}).Validate(); err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("a name that is not UTF-8: %v; want it refused", err)
	}

	twice := File{Accounts: []Account{{AccountID: "acme-eu"}, {AccountID: "acme-eu"}}}
	if err := twice.Validate(); err == nil || err.Error() != `accounts[1] ("acme-eu"): the account "acme-eu" is listed twice, also as accounts[0]; list each account once, with all its channels and rules` {
		t.Errorf("File.Validate of an account listed twice = %v", err)
	}

	var channels []Channel
	for i := range 12 {
		channels = append(channels, Channel{Name: fmt.Sprintf("c%d", i), Settings: &notify.EmailSettings{To: []string{"a@example.com"}}})
	}
	many := Account{AccountID: "acme-eu", Channels: channels, Rules: []Rule{{Name: "r", When: notify.AlertOpened, Channels: []string{"c12"}}}}
	if err := many.Validate(); err == nil || !strings.HasSuffix(err.Error(), `("c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", …)`) {
		t.Errorf("a rule naming a channel an account of 12 does not have: %v; want the first ten listed", err)
	}
}
