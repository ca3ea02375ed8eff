package views

import (
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
func passwordHint(again bool) string {
	if again {
		return "Kept encrypted on the server and never shown: type it again."
	}
	return "Kept encrypted on the server and never shown."
}

// addressHint says what a webhook's address is, that it is never shown,
// and, after a problem, that it must be pasted again.
func addressHint(again bool) string {
	s := "The http or https address to post to, such as a Slack or Teams incoming webhook. Its path often holds a secret, so it is never shown"
	if again {
		return s + ": paste it again."
	}
	return s + "."
}

// logState says where a notification of a delivery log is, in words.
func logState(r LogRow, now time.Time, zone *time.Location) string {
	// A time of today is its time of day; another day's, its date too.
	at := func(t time.Time) string {
		ty, tm, td := in(t, zone).Date()
		ny, nm, nd := in(now, zone).Date()
		if ty == ny && tm == nm && td == nd {
			return clock(t, zone)
		}
		return dateTime(t, zone)
	}
	switch r.State {
	case "sent":
		if r.Sent.IsZero() {
			return "Sent"
		}
		return "Sent at " + at(r.Sent)
	case "failed":
		return "Failed"
	case "pending":
		switch {
		case r.Attempts > 0:
			return "Pending, next attempt at " + at(r.Due)
		case !r.Due.After(now):
			return "Pending, due now"
		case r.Digest:
			return "Collecting items until " + at(r.Due)
		}
		return "Held until " + at(r.Due)
	case "waiting":
		return "Waiting until " + at(r.Due)
	case "dropped":
		return "Dropped"
	case "cancelled":
		return "Cancelled"
	case "digested":
		return "Sent in a digest"
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
