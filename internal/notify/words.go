package notify

import (
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// What a notification says, in the language of the channel it goes to
// (Notification.Lang): the messages of internal/i18n, their ids literal so
// that the catalogs' test finds them. Label, Headline, Summary, Subject and
// Bring.String say it in English.

// words says a notification's parts in one language.
type words struct{ l *i18n.Localizer }

// wordsIn are the words of the language code; English's for "" or a code
// Washboard does not speak.
func wordsIn(code string) words { return words{i18n.For(code)} }

// kind is the kind in words.
func (w words) kind(k Kind) string {
	l := w.l
	switch k {
	case AlertOpened:
		return l.T("notif.kind_alert_opened")
	case AlertOverdue:
		return l.T("notif.kind_alert_overdue")
	case AlertUnclaimed:
		return l.T("notif.kind_alert_unclaimed")
	case AlertAtRisk:
		return l.T("notif.kind_alert_at_risk")
	case ProductOut:
		return l.T("notif.kind_product_out")
	case BatteryLow:
		return l.T("notif.kind_battery_low")
	case DeviceOffline:
		return l.T("notif.kind_device_offline")
	case VisitorReport:
		return l.T("vreport.notif_kind")
	case KindDigest:
		return l.T("notif.kind_digest")
	case KindTest:
		return l.T("notif.kind_test")
	}
	return string(k)
}

// alertType is an alert type in words; a type Washboard does not know as
// the domain says it.
func (w words) alertType(t domain.AlertType) string {
	l := w.l
	switch t {
	case domain.AlertConsumableOut:
		return l.T("notif.type_consumable_out")
	case domain.AlertBatteryOut:
		return l.T("notif.type_battery_out")
	case domain.AlertJam:
		return l.T("notif.type_jam_fault")
	case domain.AlertSensor:
		return l.T("notif.type_sensor_fault")
	case domain.AlertSystem:
		return l.T("notif.type_system_fault")
	case domain.AlertIncorrectlyLoaded:
		return l.T("notif.type_incorrectly_loaded")
	case domain.AlertDeviceOff:
		return l.T("notif.type_device_off")
	}
	return t.Label()
}

// action is the recommended action of an alert type.
func (w words) action(t domain.AlertType) string {
	l := w.l
	switch t {
	case domain.AlertConsumableOut:
		return l.T("notif.action_consumable_out")
	case domain.AlertBatteryOut:
		return l.T("notif.action_battery_out")
	case domain.AlertJam:
		return l.T("notif.action_jam_fault")
	case domain.AlertSensor:
		return l.T("notif.action_sensor_fault")
	case domain.AlertSystem:
		return l.T("notif.action_system_fault")
	case domain.AlertIncorrectlyLoaded:
		return l.T("notif.action_incorrectly_loaded")
	case domain.AlertDeviceOff:
		return l.T("notif.action_device_off")
	}
	return l.T("notif.action_unknown")
}

// headline is what happened in a few words: "Product out", "Jammed,
// overdue".
func (w words) headline(it Item) string {
	if v := it.Visitor; v != nil {
		return w.visitorSaid(*v, it.Where.Room.Name)
	}
	label := w.kind(it.Kind)
	if it.Alert != nil {
		label = w.alertType(it.Alert.Type)
	}
	switch it.Kind {
	case AlertOverdue:
		return w.l.T("notif.headline_overdue", "what", label)
	case AlertUnclaimed:
		return w.l.T("notif.headline_unclaimed", "what", label)
	case AlertAtRisk:
		return w.l.T("notif.headline_at_risk", "what", label)
	}
	return label
}

// summary is what and where: "Product out: Stall 2, Men's Restroom 3.12".
func (w words) summary(it Item) string {
	if it.Visitor != nil && it.Visitor.Kind == domain.VisitorFlood {
		return w.headline(it) // names its room already
	}
	if place := it.Where.Place(); place != "" {
		return w.l.T("notif.summary", "what", w.headline(it), "place", place)
	}
	return w.headline(it)
}

// todo is the item's action: its own, or the recommended action of its
// alert's type, or of the type its kind stands for.
func (w words) todo(it Item) string {
	switch {
	case it.Action != "":
		return it.Action
	case it.Visitor != nil:
		return w.l.T("vreport.action")
	case it.Alert != nil:
		return w.action(it.Alert.Type)
	}
	switch it.Kind {
	case ProductOut:
		return w.action(domain.AlertConsumableOut)
	case BatteryLow:
		return w.action(domain.AlertBatteryOut)
	case DeviceOffline:
		return w.action(domain.AlertDeviceOff)
	}
	return ""
}

// bring is what to bring: "2 tissue rolls and 1 battery set"; empty for
// nothing.
func (w words) bring(b Bring) string {
	l := w.l
	var refills, batteries string
	if n := b.Refills; n > 0 {
		switch b.Refill {
		case domain.Tissue:
			refills = l.N("notif.bring_tissue", n)
		case domain.Towel:
			refills = l.N("notif.bring_towel", n)
		case domain.Soap:
			refills = l.N("notif.bring_soap", n)
		case domain.Sanitizer:
			refills = l.N("notif.bring_sanitizer", n)
		default:
			refills = l.N("notif.bring_refill", n)
		}
	}
	if b.BatterySets > 0 {
		batteries = l.N("notif.bring_batteries", b.BatterySets)
	}
	switch {
	case refills != "" && batteries != "":
		return l.T("notif.bring_both", "refills", refills, "batteries", batteries)
	case refills != "":
		return refills
	}
	return batteries
}

// subject is the notification in one line: an e-mail's subject, a chat
// message's preview, a push's line.
func (w words) subject(n Notification) string {
	switch n.Kind {
	case KindDigest:
		count := w.l.N("notif.subject_digest", len(n.Items))
		if n.Title != "" {
			return w.l.T("notif.subject_titled", "title", n.Title, "count", count)
		}
		return count
	case KindTest:
		return w.l.T("notif.subject_test")
	}
	return w.summary(n.Item)
}

// testText is the body of a test notification.
func (w words) testText() string { return w.l.T("notif.test_text") }

// more counts a digest's items left out: "…and 3 more."
func (w words) more(n int) string { return w.l.N("notif.more", n) }

// open is a chat message's button to the location's page.
func (w words) open() string { return w.l.T("notif.open") }

// when writes t for people, in zone (UTC when nil), with the zone's name:
// "22 Nov 2026 09:15 UTC".
func (w words) when(t time.Time, zone *time.Location) string {
	if zone == nil {
		zone = time.UTC
	}
	return w.l.DateTime(t, zone) + " " + t.In(zone).Format("MST")
}

// The titles of an item's facts.
func (w words) where() string      { return w.l.T("notif.fact_where") }
func (w words) since() string      { return w.l.T("notif.fact_since") }
func (w words) bringTitle() string { return w.l.T("notif.fact_bring") }
func (w words) todoTitle() string  { return w.l.T("notif.fact_todo") }
func (w words) alertTitle() string { return w.l.T("notif.fact_alert") }

// titled is a fact's title before its value: "Since:", French "Depuis :".
func (w words) titled(title string) string { return w.l.T("notif.fact_titled", "title", title) }

// alertLine is an alert in one line: "consumable_out 7f0c, opened 22 Nov
// 2026 09:15 UTC, overdue".
func (w words) alertLine(a Alert, zone *time.Location) string {
	parts := []string{string(a.Type) + " " + a.ID}
	if !a.Created.IsZero() {
		parts = append(parts, w.l.T("notif.alert_opened_at", "time", w.when(a.Created, zone)))
	}
	if a.Overdue {
		parts = append(parts, w.l.T("notif.alert_overdue"))
	}
	if !a.Open() {
		parts = append(parts, w.l.T("notif.alert_closed"))
	}
	return strings.Join(parts, ", ")
}

// AlertTypeIn is an alert type in the localizer's language, as
// notifications say it: "Produkt leer".
func AlertTypeIn(l *i18n.Localizer, t domain.AlertType) string { return words{l}.alertType(t) }

// visitorSaid is a visitor's report in a few words: "Out of soap,
// reported by a visitor"; a flood of them, "Many reports from Room 2.14
// in a minute".
func (w words) visitorSaid(v Visitor, room string) string {
	l := w.l
	var what string
	switch v.Kind {
	case domain.VisitorFlood:
		return l.T("vreport.notif_flood", "room", room)
	case domain.VisitorNoPaper:
		what = l.T("vreport.notif_paper")
	case domain.VisitorNoSoap:
		what = l.T("vreport.notif_soap")
	case domain.VisitorNoTowels:
		what = l.T("vreport.notif_towels")
	case domain.VisitorDirty:
		what = l.T("vreport.notif_dirty")
	case domain.VisitorBroken:
		what = l.T("vreport.notif_broken")
	default:
		what = l.T("vreport.notif_other")
	}
	if v.Text != "" {
		return l.T("vreport.notif_said_text", "what", what, "text", v.Text)
	}
	return l.T("vreport.notif_said", "what", what)
}
