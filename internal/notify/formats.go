package notify

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"washboard/internal/i18n"
)

// Format is the body a webhook receives: Washboard's own JSON, a Slack
// message, a Microsoft Teams card. Each format registers itself, from a
// file of its own (format_json.go, format_slack.go, format_teams.go), with
// registerFormat: a new format is one such file.
type Format string

// format is what a registered format is.
type format struct {
	label string // in words: "Microsoft Teams"
	says  string // what the receiver reads: "a Microsoft Teams card"
	body  func(Notification) ([]byte, error)
}

// formats are the registered formats, by name. They are registered as the
// package is initialized and only read after.
var formats = map[Format]format{}

func registerFormat(f Format, label, says string, body func(Notification) ([]byte, error)) {
	if _, dup := formats[f]; dup || f == "" || body == nil {
		panic(fmt.Sprintf("notify: the webhook format %q is registered twice, or without a name or a body", f))
	}
	formats[f] = format{label: label, says: says, body: body}
}

// Formats returns the webhook formats, by name.
func Formats() []Format {
	out := make([]Format, 0, len(formats))
	for f := range formats {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// ParseFormat reads a format's name.
func ParseFormat(s string) (Format, error) {
	if _, ok := formats[Format(s)]; ok {
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown webhook format %q; the formats are %s", s, formatNames())
}

// formatNames lists the formats' names: "json, slack, teams".
func formatNames() string {
	names := make([]string, 0, len(formats))
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// Label is the format in words; FormatJSON's when empty.
func (f Format) Label() string {
	if spec, ok := formats[cmp.Or(f, FormatJSON)]; ok {
		return spec.label
	}
	return string(f)
}

// Body is the webhook body of n in the format; FormatJSON's when empty.
func (f Format) Body(n Notification) ([]byte, error) {
	spec, ok := formats[cmp.Or(f, FormatJSON)]
	if !ok {
		return nil, fmt.Errorf("unknown webhook format %q", string(f))
	}
	return spec.body(n)
}

// formatChoices are the formats as the page's form offers them: their
// names, which no language translates.
func formatChoices(*i18n.Localizer) []Choice {
	var out []Choice
	for _, f := range Formats() {
		out = append(out, Choice{Value: string(f), Label: formats[f].label})
	}
	return out
}

// formatHint says what the receiver reads in each format: "What the
// receiver reads: Washboard's own JSON, a Slack message, or a Microsoft
// Teams card."
func formatHint(l *i18n.Localizer) string {
	var says []string
	for _, f := range Formats() {
		says = append(says, formatSays(l, f))
	}
	return l.T("notif.format_hint", "formats", orList(l, says))
}

// formatSays is what the receiver of a format reads, in the localizer's
// language: "a Slack message".
func formatSays(l *i18n.Localizer, f Format) string {
	switch f {
	case FormatJSON:
		return l.T("notif.format_json_says")
	case FormatSlack:
		return l.T("notif.format_slack_says")
	case FormatTeams:
		return l.T("notif.format_teams_says")
	}
	return formats[f].says
}

// orList offers words as a sentence does: "a", "a or b", "a, b or c".
func orList(l *i18n.Localizer, words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return l.T("notif.or", "first", strings.Join(words[:len(words)-1], ", "), "last", words[len(words)-1])
}
