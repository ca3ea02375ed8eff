package rules

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notify"
)

// Fact is something that happened, and where: what a rule matches.
type Fact struct {
	Kind notify.Kind
	// AlertType is the type of the alert, for the alert kinds.
	AlertType  domain.AlertType
	BuildingID string
	FloorID    string
	// At is when it happened: when the alert was opened or became overdue,
	// when the device went offline or its battery became low.
	At time.Time
}

// Matches reports whether the rule is about f: of its kind, of one of its
// alert types (any, when it lists none), in its building and on its floor
// when it names them.
func (r Rule) Matches(f Fact) bool {
	switch {
	case f.Kind != r.When:
		return false
	case r.BuildingID != "" && f.BuildingID != r.BuildingID:
		return false
	case r.FloorID != "" && f.FloorID != r.FloorID:
		return false
	}
	return !isAlertKind(r.When) || len(r.AlertTypes) == 0 || slices.Contains(r.AlertTypes, f.AlertType)
}

// WaitsUntil is when the rule decides about f, a fact it matches: for
// alert.unclaimed and device.offline, AfterMinutes after f.At, when the
// alert must still be unclaimed, or the device still offline, for the
// notification to be sent; f.At for the other kinds.
func (r Rule) WaitsUntil(f Fact) time.Time {
	if waitsForCondition(r.When) {
		return f.At.Add(time.Duration(r.AfterMinutes) * time.Minute)
	}
	return f.At
}

// DigestDue is when a digest of the rule whose first item was decided at
// first is due: DigestMinutes later, or first itself when the rule has no
// digest. Quiet hours apply to the due time as to any notification: the
// digest goes out at Schedule(notify.KindDigest, due, zone), and items
// decided until then join it.
func (r Rule) DigestDue(first time.Time) time.Time {
	return first.Add(time.Duration(r.DigestMinutes) * time.Minute)
}

// Schedule decides when a notification of the kind, decided at at, goes
// out: at itself outside the rule's quiet hours, and during them when they
// end, or not at all (drop is true, sendAt the zero time) when the rule
// drops the low-priority kinds, battery.low and device.offline, during
// quiet hours. Every other kind, notify.KindDigest included, is held,
// never dropped. The quiet hours are read in zone, UTC when it is nil.
//
// A quiet period begins the first time the clock shows From and ends the
// first time it then shows To, so a period from 22:00 to 06:00 ends at
// 06:00 on the nights the clocks change too. A time the clocks skip
// (02:30 when they go from 02:00 to 03:00) is taken as the end of the
// skipped hour; a time they show twice, as the first.
func (r Rule) Schedule(kind notify.Kind, at time.Time, zone *time.Location) (sendAt time.Time, drop bool) {
	q := r.QuietHours
	if q == nil {
		return at, false
	}
	end, quiet := q.quietUntil(at, zone)
	switch {
	case !quiet:
		return at, false
	case q.During == QuietDrop && LowPriority(kind):
		return time.Time{}, true
	}
	return end.In(at.Location()), false
}

// quietUntil reports whether at falls in quiet hours, and when they end.
func (q QuietHours) quietUntil(at time.Time, zone *time.Location) (time.Time, bool) {
	if zone == nil {
		zone = time.UTC
	}
	y, m, d := at.In(zone).Date()
	// The period that began the day before may still run; then today's.
	for _, day := range []int{d - 1, d} {
		endDay := day
		if q.From > q.To {
			endDay++
		}
		start, end := wallClock(y, m, day, q.From, zone), wallClock(y, m, endDay, q.To, zone)
		if !at.Before(start) && at.Before(end) {
			return end, true
		}
	}
	return time.Time{}, false
}

// wallClock is the first instant the clock in zone shows the time of day
// (in minutes after midnight) on the date, or, when the clocks skip that
// time on that date, the instant the skipped time ends.
func wallClock(y int, m time.Month, d, minutes int, zone *time.Location) time.Time {
	y, m, d = time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Date()
	t := time.Date(y, m, d, minutes/60, minutes%60, 0, 0, zone)
	want := time.Date(y, m, d, minutes/60, minutes%60, 0, 0, time.UTC)
	got := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	start, end := t.ZoneBounds()
	switch {
	case got.After(want):
		// Skipped, and t lies after the gap: the gap ends where t's zone begins.
		return start
	case got.Before(want):
		// Skipped, and t lies before the gap: it ends where t's zone ends.
		return end
	case start.IsZero():
		return t
	}
	// When the clocks went back as t's zone began, the time may have been
	// shown before too, in the zone before.
	_, offset := t.Zone()
	_, before := start.Add(-time.Nanosecond).Zone()
	if before > offset {
		earlier := t.Add(-time.Duration(before-offset) * time.Second)
		e := earlier.In(zone)
		if earlier.Before(start) && e.Day() == d && e.Hour()*60+e.Minute() == minutes {
			return earlier
		}
	}
	return t
}

// ParseTimeOfDay reads a time of day written HH:MM, 00:00 to 23:59, as
// minutes after midnight.
func ParseTimeOfDay(s string) (int, error) {
	valid := len(s) == 5 && s[2] == ':'
	for _, i := range []int{0, 1, 3, 4} {
		valid = valid && s[i] >= '0' && s[i] <= '9'
	}
	if !valid {
		return 0, fmt.Errorf("%s is not a time of day written HH:MM, such as 06:00", quote(s))
	}
	h, m := int(s[0]-'0')*10+int(s[1]-'0'), int(s[3]-'0')*10+int(s[4]-'0')
	if h > 23 || m > 59 {
		return 0, fmt.Errorf("%s is not a time of day from 00:00 to 23:59", quote(s))
	}
	return h*60 + m, nil
}

// FormatTimeOfDay writes minutes after midnight as HH:MM.
func FormatTimeOfDay(minutes int) string { return fmt.Sprintf("%02d:%02d", minutes/60, minutes%60) }

// idEncoding writes idempotency keys: lower-case base32 without padding.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NotificationID is the idempotency key of the notification of a rule to a
// channel about a subject: "ntf_" and 32 base32 characters of a SHA-256
// hash of the three, the same for every attempt to send it, and different
// when any of the three differs. It is the notification's notify ID.
//
// Rule and channel names are unique within an account only, so subject
// must name the account as well as what the notification is about: the
// account id, the alert id and the kind ("acme-eu/alerts/7f0c/alert.overdue")
// or the device and since when it is offline; for a digest, the account
// and the time its first item was decided. Renaming the rule or the
// channel changes the key.
func NotificationID(ruleName, channelName, subject string) string {
	h := sha256.New()
	for _, s := range []string{"washboard notification", ruleName, channelName, subject} {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	return "ntf_" + idEncoding.EncodeToString(h.Sum(nil)[:20])
}
