// Package notify turns a notification Washboard has decided to send into a
// message on a channel, and sends it: a JSON, Slack or Microsoft Teams
// webhook, or an e-mail over SMTP.
//
// A Notification says what happened (its Kind), where, since when, what to
// bring and what to do, with a link to the location's page; a digest lists
// several such items in one message. The formats (FormatJSON, FormatSlack,
// FormatTeams, FormatEmail) are pure functions of it. The channels
// (Webhook, Email) send one notification per call and classify what went
// wrong as permanent or transient in an *Error, whose text is written for a
// delivery log and never holds a secret, a password or a message body.
//
// Each kind of channel (ChannelKind: e-mail, webhook) and each webhook
// Format registers itself from a file of its own (email_kind.go,
// webhook_kind.go; format_json.go, format_slack.go, format_teams.go): the
// notifications file, the /notifications page and the notifier offer and
// read what is registered.
//
// What to notify, when, and how often to try again is decided elsewhere:
// this package makes one attempt per Send.
package notify

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// Kind is what a notification is about.
type Kind string

// The kinds of notification. Alert kinds carry the alert; the others are
// about a device's state, which the service reports without an alert.
const (
	AlertOpened    Kind = "alert.opened"    // an alert was opened
	AlertOverdue   Kind = "alert.overdue"   // an open alert became overdue
	AlertUnclaimed Kind = "alert.unclaimed" // an open alert has had nobody take it on
	AlertAtRisk    Kind = "alert.at_risk"   // an open alert is about to miss its service level target
	ProductOut     Kind = "product.out"     // a compartment's product_out became true
	BatteryLow     Kind = "battery.low"     // a device's battery_state became Low
	DeviceOffline  Kind = "device.offline"  // a device went offline (device_off)
	VisitorReport  Kind = "visitor.report"  // a washroom's visitor reported something wrong, or their reports flood in (docs/visitors.md)
	KindDigest     Kind = "digest"          // several items in one message
	KindTest       Kind = "test"            // the "send a test" button
)

// Kinds are the kinds a rule can notify of, in the order a form lists them.
var Kinds = []Kind{AlertOpened, AlertOverdue, AlertUnclaimed, AlertAtRisk, ProductOut, BatteryLow, DeviceOffline, VisitorReport}

// Label is the kind in English words: "Alert opened".
func (k Kind) Label() string { return wordsIn(i18n.Default).kind(k) }

// LabelIn is the kind in the localizer's language.
func (k Kind) LabelIn(l *i18n.Localizer) string { return words{l}.kind(k) }

// Notification is one message to send: a single item, a digest of
// several (Kind KindDigest, Items), or a test.
type Notification struct {
	// ID is the idempotency key: the same for every attempt to send the
	// same notification. It is the webhook-id of a webhook delivery and
	// the local part of an e-mail's Message-ID.
	ID string
	// At is when Washboard decided to send it: the Date of an e-mail, the
	// "at" of a JSON body. Send uses the time of sending when it is zero.
	At time.Time
	// Zone is the time zone times are written in for people; UTC when nil.
	Zone *time.Location
	// Lang is the code of the language its words are in, the channel's
	// (i18n.Languages); English when empty.
	Lang string `json:",omitempty"`
	// Item is what the notification is about. In a digest, Item.Kind is
	// KindDigest and Item.URL the page that lists the items, if any.
	Item
	// Title names a digest: the rule that collected its items.
	Title string
	// Items are a digest's items, in the order to show them.
	Items []Item
}

// Item is one thing a notification is about.
type Item struct {
	Kind Kind
	// Alert is the alert the item is about; nil when there is none.
	Alert *Alert
	// Where is the location, and the room, floor and building it is in.
	Where Where
	// Since is when the condition began: when the alert was opened, when
	// it became overdue, when the device was last seen. Zero when unknown.
	Since time.Time
	// Bring is what staff should carry there.
	Bring Bring
	// Action is what to do there. When empty, the formats use the spec's
	// recommended action for the alert type (domain.AlertType.Action), or
	// the action of the alert type that matches the kind.
	Action string
	// URL is the location's page, an absolute http or https URL.
	URL string
	// Target is, for AlertAtRisk, the target about to be missed:
	// "claim" or "resolve".
	Target string `json:",omitempty"`
	// Visitor is, for VisitorReport, what the visitor reported: Where
	// names its room, and no location.
	Visitor *Visitor `json:",omitempty"`
}

// Visitor is a visitor's report as a notification carries it: its alert
// id ("v-12"), what is wrong (domain.VisitorFlood for the marker of many
// reports of the room in a minute) and the words they wrote.
type Visitor struct {
	AlertID string
	Kind    domain.VisitorKind
	Text    string `json:",omitempty"`
}

// Alert is an alert as a notification carries it: the typed fields, and
// the alert as GET /alerts rendered it.
type Alert struct {
	domain.Alert
	// JSON is the alert's object as GET /alerts returned it, kept as the
	// service wrote it. When empty, the JSON body writes the typed fields
	// in the same shape.
	JSON json.RawMessage
}

// Where is a device location and the parts of the layout it is in.
type Where struct {
	Building domain.Building
	Floor    domain.Floor
	Room     domain.Room
	Location domain.Location
}

// Place is the location and its room, the smallest first: "Stall 2,
// Men's Restroom 3.12".
func (w Where) Place() string { return joinNames(w.Location.Name, w.Room.Name) }

// Full is the whole path, the smallest first: "Stall 2, Men's Restroom
// 3.12, Level 3, North Tower".
func (w Where) Full() string {
	return joinNames(w.Location.Name, w.Room.Name, w.Floor.Name, w.Building.Name)
}

// Bring is what staff should carry to the location.
type Bring struct {
	Refills     int               // refills of the product, one per compartment out
	Refill      domain.DeviceType // the kind of refill: a tissue roll, a soap refill
	BatterySets int               // sets of fully charged batteries
}

// BringFor is what an alert asks for: its refill_count is a number of
// refills for consumable_out and of battery sets for battery_out, and
// means nothing for other types.
func BringFor(a domain.Alert, t domain.DeviceType) Bring {
	switch a.Type {
	case domain.AlertConsumableOut:
		return Bring{Refills: a.RefillCount, Refill: t}
	case domain.AlertBatteryOut:
		return Bring{BatterySets: a.RefillCount}
	}
	return Bring{}
}

// IsZero reports whether there is nothing to bring.
func (b Bring) IsZero() bool { return b.Refills <= 0 && b.BatterySets <= 0 }

// String is what to bring in English words: "2 tissue rolls and 1
// battery set"; empty when there is nothing.
func (b Bring) String() string { return wordsIn(i18n.Default).bring(b) }

// Headline is what happened in a few English words: "Product out",
// "Jammed, overdue", "Battery low".
func (it Item) Headline() string { return wordsIn(i18n.Default).headline(it) }

// Summary is what and where: "Product out: Stall 2, Men's Restroom 3.12".
func (it Item) Summary() string { return wordsIn(i18n.Default).summary(it) }

// Todo is the action to take: Action, or the recommended action of the
// alert's type, or of the type the kind stands for.
func (it Item) Todo() string { return wordsIn(i18n.Default).todo(it) }

// IsDigest reports whether the notification lists several items.
func (n Notification) IsDigest() bool { return n.Kind == KindDigest }

// Subject is the notification in one line, in its language: an
// e-mail's Subject, a chat message's preview.
func (n Notification) Subject() string { return wordsIn(n.Lang).subject(n) }

// PushLine is what and where in one line, for a push: the subject, with
// what to bring after it.
func (n Notification) PushLine() string {
	w := wordsIn(n.Lang)
	if b := w.bring(n.Bring); b != "" && !n.IsDigest() {
		return w.l.T("push.line", "summary", w.subject(n), "bring", b)
	}
	return w.subject(n)
}

// NewTest returns a test notification, with a fresh key, decided at now,
// linking to the dashboard's page link (which may be empty).
func NewTest(now time.Time, link string) Notification {
	return Notification{ID: "test_" + rand.Text(), At: now, Item: Item{Kind: KindTest, URL: link}}
}

// NewDigest returns a digest of items under a title, with its key,
// decided at now, linking to the page link (which may be empty).
func NewDigest(id string, now time.Time, title, link string, items []Item) Notification {
	return Notification{ID: id, At: now, Title: title, Items: items, Item: Item{Kind: KindDigest, URL: link}}
}

// ErrInvalid marks a notification that cannot be sent as it is: without a
// key, or with a link that is not an absolute http or https URL. Sending
// it again would fail the same way.
var ErrInvalid = errors.New("notification not valid")

// maxIDLen bounds an idempotency key, which travels in a header.
const maxIDLen = 200

// Validate reports what makes the notification impossible to send.
func (n Notification) Validate() error {
	switch {
	case n.ID == "":
		return fmt.Errorf("%w: it has no idempotency key", ErrInvalid)
	case len(n.ID) > maxIDLen:
		return fmt.Errorf("%w: its idempotency key is %d bytes, more than %d", ErrInvalid, len(n.ID), maxIDLen)
	case strings.IndexFunc(n.ID, func(r rune) bool { return r > unicode.MaxASCII || !unicode.IsPrint(r) || r == ' ' }) >= 0:
		return fmt.Errorf("%w: its idempotency key holds a space, a control or a non-ASCII character", ErrInvalid)
	case n.Kind == "":
		return fmt.Errorf("%w: it has no kind", ErrInvalid)
	case n.Kind == KindDigest && len(n.Items) == 0:
		return fmt.Errorf("%w: the digest lists no items", ErrInvalid)
	}
	if err := checkLink(n.URL); err != nil {
		return err
	}
	for i, it := range n.Items {
		if err := checkLink(it.URL); err != nil {
			return fmt.Errorf("item %d: %w", i+1, err)
		}
	}
	return nil
}

func checkLink(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%w: its link is not an absolute http or https URL", ErrInvalid)
	}
	return nil
}

// Channel is a destination that sends notifications: a webhook or an
// e-mail address list.
type Channel interface {
	// Send makes one attempt to deliver n. Its error is an *Error that
	// says in words what went wrong and whether trying again may help.
	Send(ctx context.Context, n Notification) error
	// Test sends a test notification and says in words what happened,
	// whether it succeeded or not; the error is nil when it was delivered.
	Test(ctx context.Context) (string, error)
}

// joinNames joins the names that are not empty with ", ".
func joinNames(names ...string) string {
	kept := names[:0:0]
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, ", ")
}
