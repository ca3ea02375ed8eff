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
			return problem("name", "another channel, channels[%d], is also named %s; names must differ among an account's channels", j, quote(c.Name)).
				within("channels", i, c.Name)
		}
		channels[c.Name] = i
	}
	rules := make(map[string]int, len(a.Rules))
	for i, r := range a.Rules {
		if e := r.check(); e != nil {
			return e.within("rules", i, r.Name)
		}
		if j, dup := rules[r.Name]; dup {
			return problem("name", "another rule, rules[%d], is also named %s; names must differ among an account's rules", j, quote(r.Name)).
				within("rules", i, r.Name)
		}
		rules[r.Name] = i
		for k, name := range r.Channels {
			if _, ok := channels[name]; !ok {
				return problem(fmt.Sprintf("channels[%d]", k), "names the channel %s, which is not among the account's channels%s", quote(name), channelList(a.Channels)).
					within("rules", i, r.Name)
			}
		}
	}
	return nil
}

// channelList names the account's channels for an error, after a rule
// named one it does not have.
func channelList(cs []Channel) string {
	if len(cs) == 0 {
		return "; the account has none"
	}
	names := make([]string, 0, min(len(cs), 10))
	for _, c := range cs[:min(len(cs), 10)] {
		names = append(names, quote(c.Name))
	}
	if len(cs) > 10 {
		names = append(names, "…")
	}
	return " (" + strings.Join(names, ", ") + ")"
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
	if errors.As(err, &fe) && fe.Field != "" {
		field += "." + fe.Field
	}
	return problem(field, "%s", err.Error())
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
		return problem("when", `needs "when", one of %s`, kindNames())
	}
	if !slices.Contains(notify.Kinds, r.When) {
		return problem("when", `"when" must be one of %s, not %s`, kindNames(), quote(string(r.When)))
	}
	if e := r.checkAlertTypes(); e != nil {
		return e
	}
	if r.FloorID != "" && r.BuildingID == "" {
		return problem("floor_id", `"floor_id" needs "building_id", the building the floor is in`)
	}
	switch {
	case waitsForCondition(r.When) && r.AfterMinutes == 0:
		return problem("after_minutes", `%s needs "after_minutes", how long the condition must last before it notifies: 1 to %d (a week)`, r.When, MaxAfterMinutes)
	case waitsForCondition(r.When) && (r.AfterMinutes < 1 || r.AfterMinutes > MaxAfterMinutes):
		return problem("after_minutes", `"after_minutes" must be from 1 to %d (a week), not %d`, MaxAfterMinutes, r.AfterMinutes)
	case !waitsForCondition(r.When) && r.AfterMinutes != 0:
		return problem("after_minutes", `"after_minutes" applies only to %s and %s; leave it out for %s`, notify.AlertUnclaimed, notify.DeviceOffline, r.When)
	}
	if r.QuietHours != nil {
		if e := r.QuietHours.check(); e != nil {
			return e
		}
	}
	if d := r.DigestMinutes; d != 0 && (d < MinDigestMinutes || d > MaxDigestMinutes) {
		return problem("digest_minutes", `"digest_minutes" must be 0 (no digest) or from %d to %d (a day), not %d`, MinDigestMinutes, MaxDigestMinutes, d)
	}
	switch n := len(r.Channels); {
	case n == 0:
		return problem("channels", `names no channel in "channels"; name 1 to %d of the account's channels`, MaxRuleChannels)
	case n > MaxRuleChannels:
		return problem(fmt.Sprintf("channels[%d]", MaxRuleChannels), `names %d channels; a rule may name at most %d`, n, MaxRuleChannels)
	}
	for i, name := range r.Channels {
		if j := slices.Index(r.Channels[:i], name); j >= 0 {
			return problem(fmt.Sprintf("channels[%d]", i), `names the channel %s twice, also as channels[%d]`, quote(name), j)
		}
	}
	return nil
}

func (r Rule) checkAlertTypes() *Error {
	if len(r.AlertTypes) > 0 && !isAlertKind(r.When) {
		return problem("alert_types", `"alert_types" apply only to %s, %s, %s and %s; leave it out for %s`,
			notify.AlertOpened, notify.AlertOverdue, notify.AlertUnclaimed, notify.AlertAtRisk, r.When)
	}
	for i, t := range r.AlertTypes {
		field := fmt.Sprintf("alert_types[%d]", i)
		if !t.Known() {
			return problem(field, `%s is not an alert type; the types are %s`, quote(string(t)), alertTypeList())
		}
		if j := slices.Index(r.AlertTypes[:i], t); j >= 0 {
			return problem(field, `lists the alert type %s twice, also as alert_types[%d]`, quote(string(t)), j)
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
		return problem("quiet_hours.to", `"from" and "to" are both %s; quiet hours end at a different time than they begin`, FormatTimeOfDay(q.From))
	}
	if q.During != "" && q.During != QuietHold && q.During != QuietDrop {
		return problem("quiet_hours.during", `"during" must be %s or %s, not %s`, QuietHold, QuietDrop, quote(string(q.During)))
	}
	return nil
}

// checkName checks the name of a channel or a rule.
func checkName(name string) *Error {
	switch n := utf8.RuneCountInString(name); {
	case strings.TrimSpace(name) == "":
		return problem("name", `needs a "name", 1 to %d characters`, MaxNameLen)
	case n > MaxNameLen:
		return problem("name", `"name" is %d characters long; it may be at most %d`, n, MaxNameLen)
	case !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0:
		return problem("name", `"name" holds a control character, such as a line break, or is not valid UTF-8`)
	case strings.TrimSpace(name) != name:
		return problem("name", `"name" begins or ends with a space`)
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
