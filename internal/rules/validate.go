package rules

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notify"
)

// The bounds of a rule's and a channel's fields.
const (
	MaxNameLen       = 80    // characters in a channel's or a rule's name
	MaxRuleChannels  = 10    // channels of a rule
	MaxAfterMinutes  = 10080 // a week
	MinDigestMinutes = 5
	MaxDigestMinutes = 1440 // a day
	maxAccountIDLen  = 200
)

// Validate reports the first problem of the file's accounts, and an
// account listed twice, as an *Error.
func (f File) Validate() error {
	if e := f.check(); e != nil {
		return e
	}
	return nil
}

func (f File) check() *Error {
	seen := make(map[string]int, len(f.Accounts))
	for i, a := range f.Accounts {
		if e := a.check(); e != nil {
			return e.within("accounts", i, a.AccountID)
		}
		if j, dup := seen[a.AccountID]; dup {
			return problem("account_id", "the account %s is listed twice, also as accounts[%d]; list each account once, with all its channels and rules",
				quote(a.AccountID), j).within("accounts", i, a.AccountID)
		}
		seen[a.AccountID] = i
	}
	return nil
}

// Validate reports the first problem of the account, its channels and
// its rules as an *Error: a rule naming a channel the account does not
// have, and two channels or two rules of the same name, included.
func (a Account) Validate() error {
	if e := a.check(); e != nil {
		return e
	}
	return nil
}

func (a Account) check() *Error {
	switch id := a.AccountID; {
	case strings.TrimSpace(id) == "":
		return problem("account_id", `needs an "account_id", the id of the account in the Device Monitoring Service`)
	case len(id) > maxAccountIDLen:
		return problem("account_id", `"account_id" is %d bytes long; it may be at most %d`, len(id), maxAccountIDLen)
	case !utf8.ValidString(id) || strings.IndexFunc(id, unicode.IsControl) >= 0:
		return problem("account_id", `"account_id" holds a control character or is not valid UTF-8`)
	case strings.TrimSpace(id) != id:
		return problem("account_id", `"account_id" begins or ends with a space`)
	}
	channels := make(map[string]int, len(a.Channels))
	for i, c := range a.Channels {
		if e := c.check(); e != nil {
			return e.within("channels", i, c.Name)
		}
		if j, dup := channels[c.Name]; dup {
			name := quote(c.Name)
			return problemIn("name", func(l *i18n.Localizer) string {
				return l.T("rules.channel_twice", "index", j, "name", name)
			}).within("channels", i, c.Name)
		}
		channels[c.Name] = i
	}
	rules := make(map[string]int, len(a.Rules))
	for i, r := range a.Rules {
		if e := r.check(); e != nil {
			return e.within("rules", i, r.Name)
		}
		if j, dup := rules[r.Name]; dup {
			name := quote(r.Name)
			return problemIn("name", func(l *i18n.Localizer) string {
				return l.T("rules.rule_twice", "index", j, "name", name)
			}).within("rules", i, r.Name)
		}
		rules[r.Name] = i
		for k, name := range r.Channels {
			if _, ok := channels[name]; !ok {
				return unknownChannel(k, name, a.Channels).within("rules", i, r.Name)
			}
		}
	}
	return nil
}

// unknownChannel is the error of a rule's channels[k], the channel name
// the account does not have, naming those it has (cs).
func unknownChannel(k int, name string, cs []Channel) *Error {
	field, name := fmt.Sprintf("channels[%d]", k), quote(name)
	if len(cs) == 0 {
		return problemIn(field, func(l *i18n.Localizer) string { return l.T("rules.channel_unknown_none", "name", name) })
	}
	names := make([]string, 0, min(len(cs), 10))
	for _, c := range cs[:min(len(cs), 10)] {
		names = append(names, quote(c.Name))
	}
	if len(cs) > 10 {
		names = append(names, "…")
	}
	list := strings.Join(names, ", ")
	return problemIn(field, func(l *i18n.Localizer) string { return l.T("rules.channel_unknown", "name", name, "channels", list) })
}

// Validate reports the first problem of the channel as an *Error.
func (c Channel) Validate() error {
	if e := c.check(); e != nil {
		return e
	}
	return nil
}

func (c Channel) check() *Error {
	if e := checkName(c.Name); e != nil {
		return e
	}
	if c.Settings == nil {
		return problem("", `needs %s, where to send its notifications`, kindChoice())
	}
	if c.Language != "" && !i18n.Known(c.Language) {
		return problem("language", `%q is not a language Washboard speaks; the languages are %s`, c.Language, strings.Join(i18n.Codes(), ", "))
	}
	err := c.Settings.Validate()
	if err == nil {
		return nil
	}
	field := c.Settings.Kind()
	var fe *notify.FieldError
	if !errors.As(err, &fe) {
		return problem(field, "%s", err.Error())
	}
	if fe.Field != "" {
		field += "." + fe.Field
	}
	return problemIn(field, fe.MsgIn)
}

// kindChoice names the kinds of channel as a choice: `"email" or
// "webhook"`.
func kindChoice() string {
	var names []string
	for _, k := range notify.ChannelKinds() {
		names = append(names, strconv.Quote(k.Name))
	}
	if n := len(names); n > 1 {
		return strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	return strings.Join(names, "")
}

// Validate reports the first problem of the rule as an *Error. It does not
// check that the rule's channels exist: Account.Validate does.
func (r Rule) Validate() error {
	if e := r.check(); e != nil {
		return e
	}
	return nil
}

func (r Rule) check() *Error {
	if e := checkName(r.Name); e != nil {
		return e
	}
	if r.When == "" {
		return problemIn("when", func(l *i18n.Localizer) string { return l.T("rules.when_missing", "kinds", kindNames()) })
	}
	if !slices.Contains(notify.Kinds, r.When) {
		value := quote(string(r.When))
		return problemIn("when", func(l *i18n.Localizer) string { return l.T("rules.when_unknown", "kinds", kindNames(), "value", value) })
	}
	if e := r.checkAlertTypes(); e != nil {
		return e
	}
	if r.FloorID != "" && r.BuildingID == "" {
		return problem("floor_id", `"floor_id" needs "building_id", the building the floor is in`)
	}
	if e := r.checkAfter(); e != nil {
		return e
	}
	if r.QuietHours != nil {
		if e := r.QuietHours.check(); e != nil {
			return e
		}
	}
	if d := r.DigestMinutes; d != 0 && (d < MinDigestMinutes || d > MaxDigestMinutes) {
		return problemIn("digest_minutes", func(l *i18n.Localizer) string {
			return l.T("rules.digest_range", "min", MinDigestMinutes, "max", MaxDigestMinutes, "value", d)
		})
	}
	switch n := len(r.Channels); {
	case n == 0:
		return problemIn("channels", func(l *i18n.Localizer) string { return l.T("rules.channels_none", "max", MaxRuleChannels) })
	case n > MaxRuleChannels:
		return problemIn(fmt.Sprintf("channels[%d]", MaxRuleChannels), func(l *i18n.Localizer) string {
			return l.T("rules.channels_too_many", "n", n, "max", MaxRuleChannels)
		})
	}
	for i, name := range r.Channels {
		if j := slices.Index(r.Channels[:i], name); j >= 0 {
			name := quote(name)
			return problemIn(fmt.Sprintf("channels[%d]", i), func(l *i18n.Localizer) string {
				return l.T("rules.channel_listed_twice", "name", name, "index", j)
			})
		}
	}
	return nil
}

// checkAfter checks how long the rule's condition must last: only for a
// condition that waits, and then from a minute to a week.
func (r Rule) checkAfter() *Error {
	switch after := r.AfterMinutes; {
	case waitsForCondition(r.When) && after == 0:
		return problemIn("after_minutes", func(l *i18n.Localizer) string {
			return l.T("rules.after_missing", "when", r.When, "max", MaxAfterMinutes)
		})
	case waitsForCondition(r.When) && (after < 1 || after > MaxAfterMinutes):
		return problemIn("after_minutes", func(l *i18n.Localizer) string {
			return l.T("rules.after_range", "max", MaxAfterMinutes, "value", after)
		})
	case !waitsForCondition(r.When) && after != 0:
		return problemIn("after_minutes", func(l *i18n.Localizer) string {
			return l.T("rules.after_only", "unclaimed", notify.AlertUnclaimed, "offline", notify.DeviceOffline, "when", r.When)
		})
	}
	return nil
}

func (r Rule) checkAlertTypes() *Error {
	if len(r.AlertTypes) > 0 && !isAlertKind(r.When) {
		return problemIn("alert_types", func(l *i18n.Localizer) string {
			return l.T("rules.alert_types_only", "opened", notify.AlertOpened, "overdue", notify.AlertOverdue,
				"unclaimed", notify.AlertUnclaimed, "at_risk", notify.AlertAtRisk, "when", r.When)
		})
	}
	for i, t := range r.AlertTypes {
		field := fmt.Sprintf("alert_types[%d]", i)
		if !t.Known() {
			return problem(field, `%s is not an alert type; the types are %s`, quote(string(t)), alertTypeList())
		}
		if j := slices.Index(r.AlertTypes[:i], t); j >= 0 {
			value := quote(string(t))
			return problemIn(field, func(l *i18n.Localizer) string {
				return l.T("rules.alert_type_twice", "type", value, "index", j)
			})
		}
	}
	return nil
}

func (q QuietHours) check() *Error {
	const day = 24 * 60
	switch {
	case q.From < 0 || q.From >= day:
		return problem("quiet_hours.from", `"from" must be a time of day from 00:00 to 23:59`)
	case q.To < 0 || q.To >= day:
		return problem("quiet_hours.to", `"to" must be a time of day from 00:00 to 23:59`)
	case q.From == q.To:
		at := FormatTimeOfDay(q.From)
		return problemIn("quiet_hours.to", func(l *i18n.Localizer) string { return l.T("rules.quiet_same", "time", at) })
	}
	if q.During != "" && q.During != QuietHold && q.During != QuietDrop {
		value := quote(string(q.During))
		return problemIn("quiet_hours.during", func(l *i18n.Localizer) string {
			return l.T("rules.quiet_during", "hold", QuietHold, "drop", QuietDrop, "value", value)
		})
	}
	return nil
}

// checkName checks the name of a channel or a rule.
func checkName(name string) *Error {
	switch n := utf8.RuneCountInString(name); {
	case strings.TrimSpace(name) == "":
		return problemIn("name", func(l *i18n.Localizer) string { return l.T("rules.name_missing", "max", MaxNameLen) })
	case n > MaxNameLen:
		return problemIn("name", func(l *i18n.Localizer) string { return l.T("rules.name_too_long", "n", n, "max", MaxNameLen) })
	case !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0:
		return problemIn("name", func(l *i18n.Localizer) string { return l.T("rules.name_control") })
	case strings.TrimSpace(name) != name:
		return problemIn("name", func(l *i18n.Localizer) string { return l.T("rules.name_spaces") })
	}
	return nil
}

func kindNames() string { return joinStrings(notify.Kinds) }

func alertTypeList() string { return joinStrings(domain.AlertTypes) }

func joinStrings[S ~string](xs []S) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = string(x)
	}
	return strings.Join(parts, ", ")
}
