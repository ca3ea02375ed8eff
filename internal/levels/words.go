package levels

import (
	"strings"
	"time"

	"washboard/internal/i18n"
	"washboard/internal/notify"
	"washboard/internal/servicelevel"
)

// WordsIn is a policy in words in l's language, as a page shows it:
// "Mon-Fri 06:00-22:00 (Europe/Berlin); Product out: claim 15 min,
// resolve 1 h". The week reads as it is typed; Words says the same in
// English for what is kept (the audit log).
func WordsIn(l *i18n.Localizer, p servicelevel.Policy) string {
	week := p.Hours.Week().String()
	if p.Hours.Week().Always() {
		week = l.T("lvwords.always")
	}
	hours := l.T("lvwords.hours", "week", week, "zone", p.Hours.Zone().String())
	if hs := p.Hours.Holidays(); len(hs) > 0 {
		hours = l.T("lvwords.closed_on", "hours", hours, "holidays", servicelevel.FormatHolidays(hs))
	}
	var parts []string
	for _, typ := range p.Targets.Types() {
		target, _ := p.Targets.For(typ)
		var kinds []string
		if target.Claim > 0 {
			kinds = append(kinds, l.T("lvwords.claim", "duration", durationIn(l, target.Claim)))
		}
		if target.Resolve > 0 {
			kinds = append(kinds, l.T("lvwords.resolve", "duration", durationIn(l, target.Resolve)))
		}
		parts = append(parts, l.T("lvwords.type_targets", "type", notify.AlertTypeIn(l, typ), "targets", strings.Join(kinds, ", ")))
	}
	targets := strings.Join(parts, "; ")
	if len(parts) == 0 {
		targets = l.T("lvwords.no_targets")
	}
	return hours + "; " + targets
}

// durationIn writes a target to the minute: "45 min", "1 h 30 min",
// "2 d 3 h".
func durationIn(l *i18n.Localizer, d time.Duration) string {
	m := int(d / time.Minute)
	days, hours, mins := m/(24*60), m/60%24, m%60
	var parts []string
	if days > 0 {
		parts = append(parts, l.N("lvwords.days", days))
	}
	if hours > 0 {
		parts = append(parts, l.N("lvwords.hours_short", hours))
	}
	if mins > 0 && days == 0 || len(parts) == 0 {
		parts = append(parts, l.N("lvwords.minutes", mins))
	}
	return strings.Join(parts, " ")
}
