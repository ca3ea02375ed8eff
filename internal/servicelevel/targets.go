package servicelevel

import (
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
)

// MaxTarget is the longest target: a month of service time.
const MaxTarget = 31 * 24 * time.Hour

// Target is what a client was promised for alerts of one type: a time to
// claim (someone says "I'm on it") and a time to resolve (the alert
// closes), each counted in service time from when the alert opened. Zero
// means no target of that kind.
type Target struct {
	Claim, Resolve time.Duration
}

// Targets is the targets of a client by alert type; a type with none is
// not measured. The zero Targets measures nothing.
type Targets struct {
	by map[domain.AlertType]Target
}

// NewTargets checks targets by alert type: each a whole number of minutes,
// longer than zero and at most MaxTarget, at least one of the two set, and
// the time to resolve not shorter than the time to claim.
func NewTargets(by map[domain.AlertType]Target) (Targets, error) {
	out := Targets{by: make(map[domain.AlertType]Target, len(by))}
	for _, typ := range sortedTypes(by) {
		t := by[typ]
		if !typ.Known() {
			return Targets{}, invalid("", "%q is not an alert type: give one of %s.", string(typ), knownTypes())
		}
		name := typ.Label()
		if t.Claim == 0 && t.Resolve == 0 {
			return Targets{}, invalid("", "%s has neither a time to claim nor a time to resolve: give one, or no target for the type.", name)
		}
		if err := checkTarget(name, "time to claim", t.Claim); err != nil {
			return Targets{}, err
		}
		if err := checkTarget(name, "time to resolve", t.Resolve); err != nil {
			return Targets{}, err
		}
		if t.Claim > 0 && t.Resolve > 0 && t.Resolve < t.Claim {
			return Targets{}, invalid(ResolveShorter, "%s: the time to resolve (%s) is shorter than the time to claim (%s); an alert is claimed before it is resolved, so give a time to resolve at least as long.", name, words(t.Resolve), words(t.Claim))
		}
		out.by[typ] = t
	}
	return out, nil
}

func checkTarget(name, what string, d time.Duration) error {
	switch {
	case d < 0:
		return invalid("", "%s: the %s is negative (%s); give a time after the alert opens, such as 15 min.", name, what, words(d))
	case d > MaxTarget:
		return invalid("", "%s: the %s (%s) is longer than %s, the longest target.", name, what, words(d), words(MaxTarget))
	case d%time.Minute != 0:
		return invalid("", "%s: the %s (%s) is not a whole number of minutes.", name, what, d)
	}
	return nil
}

// ParseTargetTime reads a target as a manager types it in a form: minutes
// ("15"), or a number with units h, m or d ("90m", "1h30m", "2d"). The
// empty text is no target; zero, a negative time, or anything else is an
// error that says so.
func ParseTargetTime(text string) (time.Duration, error) {
	text = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(text), " ", ""))
	if text == "" {
		return 0, nil
	}
	if strings.HasPrefix(text, "-") {
		return 0, invalid(TargetNegative, "%q is negative: a target is a time after the alert opens, such as 15 min.", text)
	}
	if len(text) > 20 {
		return 0, invalid(NotATime, "%q is not a time: write minutes, such as 15, or hours and minutes, such as 1h30m.", text)
	}
	var d time.Duration
	if n := digits(text); n >= 0 {
		d = time.Duration(n) * time.Minute
	} else if days, rest, ok := strings.Cut(text, "d"); ok && digits(days) >= 0 {
		d = time.Duration(digits(days)) * 24 * time.Hour
		if rest != "" {
			more, err := time.ParseDuration(rest)
			if err != nil || more < 0 {
				return 0, invalid(NotATime, "%q is not a time: write minutes, such as 15, or hours and minutes, such as 1h30m.", text)
			}
			d += more
		}
	} else {
		var err error
		if d, err = time.ParseDuration(text); err != nil {
			return 0, invalid(NotATime, "%q is not a time: write minutes, such as 15, or hours and minutes, such as 1h30m.", text)
		}
	}
	switch {
	case d < 0:
		return 0, invalid(TargetNegative, "%q is negative: a target is a time after the alert opens, such as 15 min.", text)
	case d == 0:
		return 0, invalid(TargetZero, "%q is no time at all: a target must be longer than zero (leave it empty for no target).", text)
	case d > MaxTarget:
		return 0, invalid(TargetTooLong, "%q is longer than %s, the longest target.", text, words(MaxTarget))
	case d%time.Minute != 0:
		return 0, invalid(NotWholeMinutes, "%q is not a whole number of minutes.", text)
	}
	return d, nil
}

// For is the target of an alert type; false when it has none.
func (t Targets) For(typ domain.AlertType) (Target, bool) {
	target, ok := t.by[typ]
	return target, ok
}

// Types is the alert types that have a target, in the domain's order.
func (t Targets) Types() []domain.AlertType { return sortedTypes(t.by) }

// String writes the targets in words, in the domain's order of types:
// "Product out: claim 15 min, resolve 1 h; Jammed: resolve 4 h".
func (t Targets) String() string {
	var parts []string
	for _, typ := range t.Types() {
		target := t.by[typ]
		var kinds []string
		if target.Claim > 0 {
			kinds = append(kinds, "claim "+words(target.Claim))
		}
		if target.Resolve > 0 {
			kinds = append(kinds, "resolve "+words(target.Resolve))
		}
		parts = append(parts, typ.Label()+": "+strings.Join(kinds, ", "))
	}
	if len(parts) == 0 {
		return "no targets"
	}
	return strings.Join(parts, "; ")
}

// sortedTypes is the keys of a map of types in the domain's order, types
// it does not know after, by name.
func sortedTypes[V any](m map[domain.AlertType]V) []domain.AlertType {
	out := make([]domain.AlertType, 0, len(m))
	for typ := range m {
		out = append(out, typ)
	}
	rank := func(t domain.AlertType) int {
		if i := slices.Index(domain.AlertTypes, t); i >= 0 {
			return i
		}
		return len(domain.AlertTypes)
	}
	slices.SortFunc(out, func(a, b domain.AlertType) int {
		if c := rank(a) - rank(b); c != 0 {
			return c
		}
		return strings.Compare(string(a), string(b))
	})
	return out
}

func knownTypes() string {
	names := make([]string, len(domain.AlertTypes))
	for i, t := range domain.AlertTypes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}
