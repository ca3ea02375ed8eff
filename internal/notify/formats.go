package notify

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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

// formatChoices are the formats as the page's form offers them.
func formatChoices() []Choice {
	var out []Choice
	for _, f := range Formats() {
		out = append(out, Choice{Value: string(f), Label: formats[f].label})
	}
	return out
}

// formatHint says what the receiver reads in each format: "What the
// receiver reads: Washboard's own JSON, a Slack message, or a Microsoft
// Teams card."
func formatHint() string {
	var says []string
	for _, f := range Formats() {
		says = append(says, formats[f].says)
	}
	if n := len(says); n > 1 {
		says[n-1] = "or " + says[n-1]
	}
	sep := ", "
	if len(says) == 2 {
		sep = " "
	}
	return "What the receiver reads: " + strings.Join(says, sep) + "."
}
