package views

import (
	"context"
	"strings"
	"time"

	"github.com/a-h/templ"
)

// channelFieldsets are the forms of their own of the kinds of channel that
// have one, by the kind's name (ChannelKind.Name): a new kind of channel
// adds its component here, or shows its fields one under the other.
var channelFieldsets = map[string]func(Notifications) templ.Component{
	"email":   emailFields,
	"webhook": webhookFields,
}

// kindFields are the fields of a kind of channel, in its own form when it
// has one.
func kindFields(m Notifications, k ChannelKind) templ.Component {
	if form, ok := channelFieldsets[k.Name]; ok {
		return form(m)
	}
	return plainKindFields(m, k)
}

// describedBy is a field's aria-describedby: its hint, and its problem
// (fieldProblem) when it is the field at fault.
func describedBy(hint, id string, invalid bool) string {
	if invalid {
		return hint + " " + id + "-problem"
	}
	return hint
}

// fieldID is the id of the element of a form's field, by the field's name
// in the form: "channel", "smtp_port" is channel-smtp-port. Empty when the
// problem is about the form as a whole.
func fieldID(form, field string) string {
	if field == "" {
		return ""
	}
	return form + "-" + strings.ReplaceAll(field, "_", "-")
}

// passwordHint says that the mail server's password is never shown, and,
// after a problem, that it must be typed again.
func passwordHint(ctx context.Context, again bool) string {
	if again {
		return tr(ctx, "notif.password_hint_again")
	}
	return tr(ctx, "notif.password_hint")
}

// addressHint says what a webhook's address is, that it is never shown,
// and, after a problem, that it must be pasted again.
func addressHint(ctx context.Context, again bool) string {
	if again {
		return tr(ctx, "notif.url_hint_again")
	}
	return tr(ctx, "notif.url_hint")
}

// stampIn is t in zone as the page's language writes a day and a time,
// with the zone's name: "18 Nov 2026 09:30 UTC".
func stampIn(ctx context.Context, t time.Time, zone *time.Location) string {
	return dateTimeIn(ctx, t, zone) + " " + in(t, zone).Format("MST")
}

// logState says where a notification of a delivery log is, in words.
func logState(ctx context.Context, r LogRow, now time.Time, zone *time.Location) string {
	// A time of today is its time of day; another day's, its date too.
	at := func(t time.Time) string {
		ty, tm, td := in(t, zone).Date()
		ny, nm, nd := in(now, zone).Date()
		if ty == ny && tm == nm && td == nd {
			return timeIn(ctx, t, zone)
		}
		return stampIn(ctx, t, zone)
	}
	switch r.State {
	case "sent":
		if r.Sent.IsZero() {
			return tr(ctx, "notif.state_sent")
		}
		return tr(ctx, "notif.state_sent_at", "time", at(r.Sent))
	case "failed":
		return tr(ctx, "notif.state_failed")
	case "pending":
		switch {
		case r.Attempts > 0:
			return tr(ctx, "notif.state_retry_at", "time", at(r.Due))
		case !r.Due.After(now):
			return tr(ctx, "notif.state_due_now")
		case r.Digest:
			return tr(ctx, "notif.state_collecting", "time", at(r.Due))
		}
		return tr(ctx, "notif.state_held", "time", at(r.Due))
	case "waiting":
		return tr(ctx, "notif.state_waiting", "time", at(r.Due))
	case "dropped":
		return tr(ctx, "notif.state_dropped")
	case "cancelled":
		return tr(ctx, "notif.state_cancelled")
	case "digested":
		return tr(ctx, "notif.state_digested")
	}
	return sentence(r.State)
}

// logStateIcon is the icon beside a notification's state; the words say
// it too.
func logStateIcon(state string) string {
	switch state {
	case "sent", "digested":
		return "ok"
	case "failed":
		return "action"
	case "pending", "waiting":
		return "overdue"
	}
	return "offline"
}
