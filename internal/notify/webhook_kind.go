package notify

import (
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"

	"washboard/internal/i18n"
	"washboard/internal/webhook"
)

// The webhook kind of channel: a POST to an http or https URL, in one of
// the Formats, signed with a secret when there is one. In a notifications
// file ("format" is json when left out):
//
//	{"name": "ops", "webhook": {"url": "https://hooks.example.com/washboard", "format": "slack", "secret": "whsec_…"}}
func init() {
	RegisterChannelKind(ChannelKind{
		Name:       "webhook",
		Label:      "Webhook",
		FileFields: []string{"url", "format", "secret"},
		ReadFile:   readWebhookFile,
		FormFields: []FormField{
			{Name: "url", Label: "Address", Setting: "url", Secret: true},
			{Name: "format", Label: "Format", Setting: "format", Choices: formatChoices, Hint: formatHint},
			{Name: "secret", Label: "Signing secret", Setting: "secret", Secret: true},
			{Name: "generate_secret", Label: "Make a signing secret"},
		},
		ReadForm: readWebhookForm,
		Load:     loadWebhook,
	})
}

// MaxURLLen bounds a webhook's URL, in bytes.
const MaxURLLen = 2048

// WebhookSettings are a webhook channel's: where to post, in which
// format, signed with Secret unless it is the zero Secret. String,
// GoString and LogValue leave out the secret and the path of the URL,
// which is often a secret too.
type WebhookSettings struct {
	URL    string
	Format Format // FormatJSON when empty, for String
	Secret webhook.Secret
	made   bool // Secret was made for the channel just now
}

// Kind is "webhook".
func (WebhookSettings) Kind() string { return "webhook" }

// String describes the webhook without its secret and with only the
// scheme and host of its URL: `slack webhook to https://hooks.slack.com/…,
// signed`.
func (s WebhookSettings) String() string {
	format := s.Format
	if format == "" {
		format = FormatJSON
	}
	signed := "unsigned"
	if !s.Secret.IsZero() {
		signed = "signed"
	}
	return string(format) + " webhook to " + redactURL(s.URL) + ", " + signed
}

// DescribeIn says where the webhook posts, in what format and whether
// signed, in the localizer's language, without its secrets.
func (s WebhookSettings) DescribeIn(l *i18n.Localizer) string {
	format := s.Format
	if format == "" {
		format = FormatJSON
	}
	if !s.Secret.IsZero() {
		return l.T("notif.describe_webhook_signed", "format", string(format), "url", redactURL(s.URL))
	}
	return l.T("notif.describe_webhook", "format", string(format), "url", redactURL(s.URL))
}

// GoString leaves the secrets out of %#v.
func (s WebhookSettings) GoString() string { return "notify.WebhookSettings{" + s.String() + "}" }

// LogValue leaves the secrets out of slog.
func (s WebhookSettings) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MadeSecret is the secret Washboard made for the channel when it was
// read from the page's form with the box ticked.
func (s WebhookSettings) MadeSecret() string {
	if !s.made {
		return ""
	}
	return s.Secret.Text()
}

// redactURL is the scheme and host of a URL, then "/…" when it has more.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "a URL that is not valid"
	}
	out := u.Scheme + "://" + u.Host
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		out += "/…"
	}
	return out
}

// Validate checks the URL and the format. Its problems do not repeat the
// URL, whose path is often a secret.
func (s WebhookSettings) Validate() error {
	const field = "url"
	switch u, err := url.Parse(s.URL); {
	case s.URL == "":
		return fieldErrorIn(field, func(l *i18n.Localizer) string { return l.T("rules.url_missing") })
	case len(s.URL) > MaxURLLen:
		n := len(s.URL)
		return fieldErrorIn(field, func(l *i18n.Localizer) string { return l.T("rules.url_too_long", "n", n, "max", MaxURLLen) })
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.Hostname() == "":
		return fieldErrorIn(field, func(l *i18n.Localizer) string { return l.T("rules.url_not_absolute") })
	case u.User != nil:
		return fieldErrorIn(field, func(l *i18n.Localizer) string { return l.T("rules.url_user") })
	}
	if _, err := ParseFormat(string(s.Format)); err != nil {
		return fieldError("format", `"format" must be one of %s, not %s`, formatNames(), quote(string(s.Format)))
	}
	return nil
}

// Ready lacks nothing: a webhook needs no more of the server.
func (WebhookSettings) Ready(Env) error { return nil }

// Open makes the channel.
func (s WebhookSettings) Open(env Env) (Channel, error) {
	w, err := NewWebhook(WebhookConfig{
		URL: s.URL, Format: s.Format, Secret: s.Secret,
		Guard: env.Guard, Timeout: env.Timeout, Clock: env.Clock, Link: env.Link, Lang: env.Lang,
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// savedWebhook is how a webhook channel's settings are kept (sealed, the
// secret with them).
type savedWebhook struct {
	URL    string `json:"url"`
	Format string `json:"format"`
	Secret string `json:"secret,omitempty"`
}

// Save writes the settings as loadWebhook reads them.
func (s WebhookSettings) Save() ([]byte, error) {
	saved := savedWebhook{URL: s.URL, Format: string(s.Format)}
	if !s.Secret.IsZero() {
		saved.Secret = s.Secret.Text()
	}
	return json.Marshal(saved)
}

func loadWebhook(data []byte) (ChannelSettings, error) {
	var saved savedWebhook
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, err
	}
	s := &WebhookSettings{URL: saved.URL, Format: Format(saved.Format)}
	if saved.Secret != "" {
		secret, err := webhook.ParseSecret(saved.Secret)
		if err != nil {
			return nil, err
		}
		s.Secret = secret
	}
	return s, nil
}

// readWebhookFile reads a webhook of a notifications file. Its problems
// never repeat the secret.
func readWebhookFile(o FileObject) (ChannelSettings, error) {
	s := &WebhookSettings{URL: o.String("url"), Format: FormatJSON}
	if o.Has("format") {
		s.Format = Format(o.String("format"))
	}
	if !o.Has("secret") {
		return s, nil
	}
	text := o.String("secret")
	if strings.TrimSpace(text) == "" {
		return s, fieldError("secret", `"secret" is empty; leave it out for deliveries that are not signed`)
	}
	secret, err := webhook.ParseSecret(text)
	if err != nil {
		return s, &FieldError{Field: "secret", Msg: `"secret" is not a whsec_ secret (whsec_ and a key of 24 to 64 bytes in base64): the ` + err.Error()}
	}
	s.Secret = secret
	return s, nil
}

// readWebhookForm reads a webhook of the page's form: its secret pasted,
// or made by Washboard when the box is ticked.
func readWebhookForm(form url.Values) (ChannelSettings, error) {
	s := &WebhookSettings{URL: strings.TrimSpace(form.Get("url")), Format: Format(form.Get("format"))}
	generate := form.Get("generate_secret") != ""
	switch pasted := strings.TrimSpace(form.Get("secret")); {
	case pasted != "" && generate:
		return s, fieldErrorIn("secret", func(l *i18n.Localizer) string { return l.T("rules.secret_both") })
	case pasted != "":
		secret, err := webhook.ParseSecret(pasted)
		if err != nil {
			return s, &FieldError{Field: "secret", Msg: "Signing secret: the " + err.Error() + "."}
		}
		s.Secret = secret
	case generate:
		s.Secret, s.made = webhook.NewSecret(), true
	}
	return s, nil
}
