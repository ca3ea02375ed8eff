package notify

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"

	"washboard/internal/clock"
	"washboard/internal/i18n"
)

// The push kind of channel: Web Push to the phones and browsers of people
// of the account, chosen by what the notification is about rather than by
// address. In a notifications file:
//
//	{"name": "phones", "push": {"to": "staff"}}
//
// A rule with a building_id and this channel pushes to the staff of that
// building; "claim" pushes to whoever holds the claim on the alert;
// "supervisors" suits alert.at_risk. Who is pushed to is decided when the
// notification is sent, from the people and claims of that moment.
func init() {
	RegisterChannelKind(ChannelKind{
		Name:       "push",
		Label:      "Push to phones",
		FileFields: []string{"to"},
		ReadFile: func(o FileObject) (ChannelSettings, error) {
			return &PushSettings{To: PushTarget(o.String("to"))}, nil
		},
		FormFields: []FormField{
			{Name: "push_to", Label: "Push to", Setting: "to", Choices: pushChoices, Hint: pushHint},
		},
		ReadForm: func(form url.Values) (ChannelSettings, error) {
			return &PushSettings{To: PushTarget(strings.TrimSpace(form.Get("push_to")))}, nil
		},
		Load: loadPush,
	})
}

// PushTarget is whom a push channel pushes to.
type PushTarget string

// The people a push channel may push to. Each counts only people whose
// role covers the building the notification is about, and only the
// devices they subscribed on their own page.
const (
	// PushStaff is the people of the building with the role staff or above.
	PushStaff PushTarget = "staff"
	// PushClaim is the person who holds the claim on the alert ("I'm on it").
	PushClaim PushTarget = "claim"
	// PushSupervisors is the people of the building with the role
	// supervisor or above.
	PushSupervisors PushTarget = "supervisors"
)

// pushTarget is a target and its words.
type pushTarget struct {
	to    PushTarget
	label string
}

var pushTargets = []pushTarget{
	{PushStaff, "The staff of the building"},
	{PushClaim, "Whoever holds the claim on the alert"},
	{PushSupervisors, "The supervisors of the building"},
}

// Label is the target in words: "The staff of the building".
func (t PushTarget) Label() string {
	for _, pt := range pushTargets {
		if pt.to == t {
			return pt.label
		}
	}
	return string(t)
}

// LabelIn is the target in the localizer's language.
func (t PushTarget) LabelIn(l *i18n.Localizer) string {
	switch t {
	case PushStaff:
		return l.T("push.to_staff")
	case PushClaim:
		return l.T("push.to_claim")
	case PushSupervisors:
		return l.T("push.to_supervisors")
	}
	return string(t)
}

func pushChoices(l *i18n.Localizer) []Choice {
	out := make([]Choice, 0, len(pushTargets))
	for _, pt := range pushTargets {
		out = append(out, Choice{Value: string(pt.to), Label: pt.to.LabelIn(l)})
	}
	return out
}

func pushHint(l *i18n.Localizer) string { return l.T("push.hint") }

// DescribeIn says whom the channel pushes to, in the localizer's
// language.
func (s PushSettings) DescribeIn(l *i18n.Localizer) string {
	return l.T("push.describe", "to", s.To.LabelIn(l))
}

// PushSettings are a push channel's: whom it pushes to.
type PushSettings struct {
	To PushTarget
}

// Kind is "push".
func (PushSettings) Kind() string { return "push" }

// String says whom the channel pushes to: "push to the staff of the
// building".
func (s PushSettings) String() string { return "push to " + strings.ToLower(s.To.Label()) }

// Validate checks the target.
func (s PushSettings) Validate() error {
	if !slices.ContainsFunc(pushTargets, func(pt pushTarget) bool { return pt.to == s.To }) {
		return fieldError("to", `"to" must be "staff", "claim" or "supervisors", not %s`, quote(string(s.To)))
	}
	return nil
}

// errNoPusher is a push channel's on a server that sends no pushes.
var errNoPusher = errors.New("pushes to phones, and this server sends no pushes")

// Ready reports a server without a Pusher.
func (PushSettings) Ready(env Env) error {
	if env.Pusher == nil {
		return errNoPusher
	}
	return nil
}

// Open makes the channel of the account env names.
func (s PushSettings) Open(env Env) (Channel, error) {
	if env.Pusher == nil {
		return nil, errNoPusher
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	clk := env.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	return &pushChannel{to: s.To, account: env.Account, pusher: env.Pusher, clock: clk, link: env.Link, lang: env.Lang}, nil
}

// Save writes the settings as loadPush reads them.
func (s PushSettings) Save() ([]byte, error) {
	return json.Marshal(map[string]string{"to": string(s.To)})
}

func loadPush(data []byte) (ChannelSettings, error) {
	var saved struct {
		To string `json:"to"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, err
	}
	return &PushSettings{To: PushTarget(saved.To)}, nil
}

// Pusher pushes notifications to the devices people subscribed
// (internal/push).
type Pusher interface {
	// Push makes one attempt to push n to every device of the people of
	// the account that to names, and says in words what happened. Its
	// error is an *Error: transient when a device's push service may take
	// it later, permanent when no device could take it.
	Push(ctx context.Context, account string, to PushTarget, n Notification) (string, error)
}

// pushChannel pushes through the server's Pusher.
type pushChannel struct {
	to      PushTarget
	account string
	pusher  Pusher
	clock   clock.Clock
	link    string
	lang    string
}

func (c *pushChannel) Send(ctx context.Context, n Notification) error {
	_, err := c.pusher.Push(ctx, c.account, c.to, n)
	return err
}

// Test pushes a test notification to the people the channel names; a
// channel to whoever holds a claim has nobody to test with.
func (c *pushChannel) Test(ctx context.Context) (string, error) {
	if c.to == PushClaim {
		err := permanent(0, nil, "a push to whoever holds a claim has nobody to test with; test your own devices on your page (Me)")
		return i18n.From(ctx).T("push.test_claim"), err
	}
	test := NewTest(c.clock.Now(), c.link)
	test.Lang = c.lang
	said, err := c.pusher.Push(ctx, c.account, c.to, test)
	if err != nil {
		return i18n.From(ctx).T("push.test_not_pushed", "reason", NoteIn(i18n.From(ctx), err.Error())), err
	}
	return i18n.From(ctx).T("push.test_pushed", "result", NoteIn(i18n.From(ctx), said)), nil
}
