// Package rules is the model of Washboard's notification rules: which
// channels a notification goes to, and the decisions of when, read from a
// notifications file or, later, from the rules kept in the database.
//
// # The model
//
// An Account holds Channels and Rules. A Channel is a named destination,
// of one of the kinds of channel internal/notify registers
// (notify.ChannelKinds): e-mail to 1 to 20 recipients, or an outgoing
// webhook (an http or https URL, a body format of json, slack or teams,
// and a secret that signs the deliveries when there is one). A Rule says:
//
//   - when: the kind of thing that happened (a notify.Kind: alert.opened,
//     alert.overdue, alert.unclaimed, alert.at_risk, product.out,
//     battery.low or device.offline);
//   - of which alert types, for the alert kinds (all when none are listed);
//   - where: the whole account, one building, or one floor of a building;
//   - after how long, for alert.unclaimed and device.offline: the condition
//     must still hold AfterMinutes after it began (WaitsUntil);
//   - quiet hours and a digest, both optional (below);
//   - to which channels, by name, 1 to 10 of the account's.
//
// Names of channels and of rules are 1 to 80 characters and unique among
// the account's channels and among its rules. Building and floor ids are
// not checked against the account's layout: this package does no I/O.
//
// # The file
//
// `washboard serve --notifications FILE` reads the channels and rules of
// each account from a JSON file, for teams that keep their configuration in
// version control. ParseFile reads it:
//
//	{"accounts": [{"account_id": "acme-eu",
//	  "channels": [{"name": "ops", "webhook": {"url": "https://hooks.example.com/washboard", "format": "json", "secret": "whsec_…"}},
//	               {"name": "desk", "email": {"to": ["facilities@example.com"]}}],
//	  "rules": [{"name": "Out of product", "when": "alert.opened", "alert_types": ["consumable_out"], "channels": ["ops"],
//	             "building_id": "b1", "floor_id": "f3", "quiet_hours": {"from": "22:00", "to": "06:00", "during": "hold"},
//	             "digest_minutes": 30}]}]}
//
// A channel has its name and one field named after its kind of channel,
// which holds the kind's settings (notify.ChannelKind.FileFields). "format"
// is json when left out, "during" is hold. A field that is left
// out and one written null are the same. The file is at most 1 MB; fields
// it does not know, a field given twice and anything after the object are
// refused. Its first problem is reported as an *Error that says where it
// is (line, column and the element, such as `accounts[0].rules[2] ("Out of
// product")`) and what to change, and that never holds a webhook secret
// or a webhook URL.
//
// # Quiet hours
//
// QuietHours are a time of day From and a time of day To, in the
// dashboard's time zone; when From is later than To they span midnight
// (22:00 to 06:00). They begin the first time the clock shows From and end
// the first time it shows To after that, so on the nights the clocks
// change a quiet period of 22:00 to 06:00 still ends at 06:00, one hour
// shorter or longer; a From or To that the clocks skip that day begins or
// ends the period when the skipped hour ends. During quiet hours a rule
// holds its notifications until they end (QuietHold), or drops those of
// the low-priority kinds battery.low and device.offline and holds the
// others (QuietDrop): an overdue alert is never dropped. Rule.Schedule
// makes that decision.
//
// # Digests
//
// A rule with DigestMinutes collects what it decides into one message per
// channel instead of sending each item alone. A digest opens with its first
// item and is due DigestMinutes later (Rule.DigestDue); when the due time
// falls in quiet hours it is held until they end (Rule.Schedule with
// notify.KindDigest, which is never dropped). Items decided while a digest
// is open, until it is sent, join it; the next item after that opens a new
// one. An item the rule drops, of a low-priority kind decided during quiet
// hours that drop, is not collected either.
//
// # One notification, start to end
//
// For a Fact that a rule Matches: wait until WaitsUntil, check that the
// condition still holds (for alert.unclaimed and device.offline), and
// decide at that time with Schedule: drop it, or send it when Schedule
// says, or, for a rule with a digest, add it to the rule's open digest.
// Each notification to each channel has an idempotency key,
// NotificationID, the same on every attempt to send it.
package rules

import (
	"log/slog"

	"washboard/internal/domain"
	"washboard/internal/notify"
)

// File is a notifications file: the channels and rules of each account.
type File struct {
	Accounts []Account
}

// Account returns the channels and rules of the account with the id.
func (f File) Account(id string) (Account, bool) {
	for _, a := range f.Accounts {
		if a.AccountID == id {
			return a, true
		}
	}
	return Account{}, false
}

// Account is one account's channels and rules.
type Account struct {
	AccountID string
	Channels  []Channel
	Rules     []Rule
}

// Channel returns the account's channel with the name.
func (a Account) Channel(name string) (Channel, bool) {
	for _, c := range a.Channels {
		if c.Name == name {
			return c, true
		}
	}
	return Channel{}, false
}

// Matching returns the account's rules that match f, in the account's
// order.
func (a Account) Matching(f Fact) []Rule {
	var out []Rule
	for _, r := range a.Rules {
		if r.Matches(f) {
			out = append(out, r)
		}
	}
	return out
}

// Reach is a rule that notifies someone, through the channels of it that
// send to them.
type Reach struct {
	Rule     Rule
	Channels []string
}

// Reaching returns the account's rules that notify a channel sending to
// the e-mail address (an e-mail channel with it among its recipients), in
// the account's order. No rule names a person: rules send to channels,
// and a person is notified through a channel with their address.
func (a Account) Reaching(address string) []Reach {
	var out []Reach
	for _, r := range a.Rules {
		var names []string
		for _, name := range r.Channels {
			c, ok := a.Channel(name)
			if to, sends := c.Settings.(interface{ Reaches(string) bool }); ok && sends && to.Reaches(address) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			out = append(out, Reach{Rule: r, Channels: names})
		}
	}
	return out
}

// Channel is a named destination of notifications. String, GoString and
// LogValue leave out its secrets, and the path of a webhook's URL, which
// is often a secret too.
type Channel struct {
	Name string
	// Settings are where and how it sends, of one of the kinds of
	// channel (notify.ChannelKinds): a *notify.EmailSettings, a
	// *notify.WebhookSettings; nil for none.
	Settings notify.ChannelSettings
	// Language is the code of the language its messages are in
	// (i18n.Languages); English when empty. A push to a person who chose
	// a language is in theirs.
	Language string
}

// String describes the channel without secrets: `ops: slack webhook to
// https://hooks.slack.com/…, signed`.
func (c Channel) String() string {
	if c.Settings == nil {
		return c.Name + ": no destination"
	}
	return c.Name + ": " + c.Settings.String()
}

// GoString leaves the secrets out of %#v.
func (c Channel) GoString() string { return "rules.Channel{" + c.String() + "}" }

// LogValue leaves the secrets out of slog.
func (c Channel) LogValue() slog.Value { return slog.StringValue(c.String()) }

// Rule says which notifications to send, when and where to.
type Rule struct {
	// Name names the rule, unique among the account's rules; a digest's
	// title.
	Name string
	// When is the kind of thing that happened, one of notify.Kinds.
	When notify.Kind
	// AlertTypes narrows an alert kind to alerts of these types; every
	// type when empty. Only the alert kinds may have them.
	AlertTypes []domain.AlertType
	// BuildingID narrows the rule to one building, FloorID to one floor of
	// it; the whole account when empty.
	BuildingID string
	FloorID    string
	// AfterMinutes is how long an alert must stay unclaimed, or a device
	// offline, before the rule notifies of it: 1 to 10080 (a week) for
	// alert.unclaimed and device.offline, 0 for the other kinds.
	AfterMinutes int
	// QuietHours, when not nil, hold or drop notifications at night.
	QuietHours *QuietHours
	// DigestMinutes, when not 0, collects notifications into a digest
	// sent this long after its first item: 5 to 1440 (a day).
	DigestMinutes int
	// Channels are the names of the account's channels to notify, 1 to 10.
	Channels []string
}

// Within reports whether the rule tells only of the scope's buildings:
// any rule, for a scope of every building; a rule narrowed to one of its
// buildings, or a floor of one, otherwise. A person whose role is limited
// to some buildings makes, sees and removes only such rules, so that the
// notifications they set up tell of their buildings alone.
func (r Rule) Within(sc domain.BuildingScope) bool {
	return !sc.Limited() || r.BuildingID != "" && sc.Sees(r.BuildingID)
}

// QuietHours are a part of each day, in the dashboard's time zone, when a
// rule holds its notifications, or drops the low-priority ones.
type QuietHours struct {
	// From and To are times of day in minutes after midnight, 0 to 1439;
	// they differ. When From is later than To the quiet hours span
	// midnight.
	From, To int
	// During is what happens to a notification during quiet hours;
	// QuietHold when empty.
	During QuietAction
}

// QuietAction is what happens to a notification during quiet hours.
type QuietAction string

// The quiet actions.
const (
	// QuietHold sends every notification when the quiet hours end.
	QuietHold QuietAction = "hold"
	// QuietDrop does not send the notifications of the low-priority kinds,
	// battery.low and device.offline, at all; the others are held as with
	// QuietHold, so that an overdue alert never goes unsent.
	QuietDrop QuietAction = "drop"
)

// LowPriority reports whether notifications of the kind are dropped
// during quiet hours that drop: battery.low and device.offline.
func LowPriority(k notify.Kind) bool { return k == notify.BatteryLow || k == notify.DeviceOffline }

// isAlertKind reports whether the kind is about an alert, and so may be
// narrowed to alert types.
func isAlertKind(k notify.Kind) bool {
	return k == notify.AlertOpened || k == notify.AlertOverdue || k == notify.AlertUnclaimed || k == notify.AlertAtRisk
}

// waitsForCondition reports whether the kind needs AfterMinutes: the
// condition must last before the rule notifies of it.
func waitsForCondition(k notify.Kind) bool {
	return k == notify.AlertUnclaimed || k == notify.DeviceOffline
}
