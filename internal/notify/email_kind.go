package notify

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strconv"
	"strings"

	"washboard/internal/i18n"
)

// The e-mail kind of channel: e-mail to 1 to MaxRecipients recipients,
// through the server's mail server (--smtp-url) or, for a channel made on
// the /notifications page, one of its own. In a notifications file:
//
//	{"name": "desk", "email": {"to": ["facilities@example.com", "Night Desk <night@example.com>"]}}
func init() {
	RegisterChannelKind(ChannelKind{
		Name:       "email",
		Label:      "E-mail",
		FileFields: []string{"to"},
		ReadFile: func(o FileObject) (ChannelSettings, error) {
			return &EmailSettings{To: o.Strings("to")}, nil
		},
		FormFields: []FormField{
			{Name: "to", Label: "Recipients", Setting: "to"},
			{Name: "smtp_host", Label: "Host"},
			{Name: "smtp_port", Label: "Port"},
			{Name: "smtp_tls", Label: "Encryption", Choices: func(l *i18n.Localizer) []Choice {
				return []Choice{
					{string(StartTLS), l.T("notif.tls_starttls")},
					{string(ImplicitTLS), l.T("notif.tls_implicit")},
					{string(NoTLS), l.T("notif.tls_none")},
				}
			}},
			{Name: "smtp_user", Label: "User name"},
			{Name: "smtp_password", Label: "Password", Secret: true},
			{Name: "smtp_from", Label: "Sender"},
		},
		ReadForm: readEmailForm,
		Load:     loadEmail,
	})
}

// MaxRecipients bounds the addresses of an e-mail channel.
const MaxRecipients = 20

// EmailSettings are an e-mail channel's: its recipients, each an address
// alone or with a name ("Facilities <facilities@example.com>"), and the
// mail server of a channel made on the page. String, GoString and
// LogValue leave the mail server's password out.
type EmailSettings struct {
	To []string
	// SMTP is the mail server of a channel made on the /notifications
	// page, its To left empty; nil for the server and sender of
	// --smtp-url and --mail-from. A notifications file has no way to set
	// it: a password does not belong in version control.
	SMTP *SMTPSettings
}

// Kind is "email".
func (EmailSettings) Kind() string { return "email" }

// Reaches reports whether the channel sends to the address: whether it is
// among the recipients, whatever its case, alone or with a name.
func (s EmailSettings) Reaches(address string) bool {
	want := strings.TrimSpace(address)
	if want == "" {
		return false
	}
	for _, to := range s.To {
		if a, err := mail.ParseAddress(to); err == nil && strings.EqualFold(a.Address, want) {
			return true
		}
	}
	return false
}

// String names the recipients: "e-mail to a@example.com, b@example.com".
func (s EmailSettings) String() string { return "e-mail to " + strings.Join(s.To, ", ") }

// Details names the recipients and the mail server: "e-mail to
// a@example.com, through smtp://alerts@mail.example.com:587 (STARTTLS)",
// or "…, through the server's mail server".
func (s EmailSettings) Details() string {
	if s.SMTP != nil {
		return s.String() + ", through " + s.SMTP.String()
	}
	return s.String() + ", through the server's mail server"
}

// DescribeIn names the recipients and the mail server in the localizer's
// language.
func (s EmailSettings) DescribeIn(l *i18n.Localizer) string {
	to := strings.Join(s.To, ", ")
	if s.SMTP != nil {
		return l.T("mail.describe_own", "to", to, "server", s.SMTP.String())
	}
	return l.T("mail.describe", "to", to)
}

// GoString leaves the password out of %#v.
func (s EmailSettings) GoString() string { return "notify.EmailSettings{" + s.String() + "}" }

// LogValue leaves the password out of slog.
func (s EmailSettings) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Validate checks the recipients, and the channel's own mail server.
func (s EmailSettings) Validate() error {
	switch n := len(s.To); {
	case n == 0:
		return fieldErrorIn("to", func(l *i18n.Localizer) string { return l.T("rules.email_to_none", "max", MaxRecipients) })
	case n > MaxRecipients:
		return fieldErrorIn(fmt.Sprintf("to[%d]", MaxRecipients), func(l *i18n.Localizer) string {
			return l.T("rules.email_to_many", "n", n, "max", MaxRecipients)
		})
	}
	seen := make(map[string]int, len(s.To))
	for i, to := range s.To {
		field := fmt.Sprintf("to[%d]", i)
		addr, err := mail.ParseAddress(to)
		if err != nil || strings.ContainsAny(to, "\r\n") {
			value := quote(to)
			return fieldErrorIn(field, func(l *i18n.Localizer) string { return l.T("rules.email_to_invalid", "value", value) })
		}
		key := strings.ToLower(addr.Address)
		if j, dup := seen[key]; dup {
			value := quote(addr.Address)
			return fieldErrorIn(field, func(l *i18n.Localizer) string { return l.T("rules.email_to_twice", "value", value, "index", j) })
		}
		seen[key] = i
	}
	if s.SMTP != nil {
		set := *s.SMTP
		set.To = s.To
		if err := set.Validate(); err != nil {
			return &FieldError{Field: "smtp", Msg: err.Error()}
		}
	}
	return nil
}

// errNoMailServer is an e-mail channel's when neither it nor the server
// has a mail server.
var errNoMailServer = errors.New("sends e-mail, and no mail server is set: start Washboard with --smtp-url and --mail-from " +
	"(a channel made on the /notifications page may have one of its own)")

// Ready reports a channel without a mail server when the server has none.
func (s EmailSettings) Ready(env Env) error {
	if s.SMTP == nil && env.SMTP == nil {
		return errNoMailServer
	}
	return nil
}

// Open makes the channel. Its own mail server, typed in on the page, is
// held to the guard; the operator's (--smtp-url) is trusted.
func (s EmailSettings) Open(env Env) (Channel, error) {
	var (
		set     SMTPSettings
		trusted bool
	)
	switch {
	case s.SMTP != nil:
		set = *s.SMTP
	case env.SMTP != nil:
		set, trusted = *env.SMTP, true
	default:
		return nil, errNoMailServer
	}
	set.To = s.To
	set.Timeout = env.Timeout
	if env.SMTPTLS != nil {
		set.TLSConfig = env.SMTPTLS
	}
	e, err := NewEmail(EmailConfig{SMTP: set, Guard: env.Guard, Trusted: trusted, Clock: env.Clock, Link: env.Link, Lang: env.Lang})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// savedEmail is how an e-mail channel's settings are kept (sealed, the
// password with them).
type savedEmail struct {
	To   []string   `json:"to"`
	SMTP *savedSMTP `json:"smtp,omitempty"`
}

type savedSMTP struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	TLS      string `json:"tls"`
	User     string `json:"user"`
	Password string `json:"password"`
	From     string `json:"from"`
}

// Save writes the settings as loadEmail reads them.
func (s EmailSettings) Save() ([]byte, error) {
	saved := savedEmail{To: s.To}
	if m := s.SMTP; m != nil {
		saved.SMTP = &savedSMTP{Host: m.Host, Port: m.Port, TLS: string(m.TLS), User: m.User, Password: m.Password, From: m.From}
	}
	return json.Marshal(saved)
}

func loadEmail(data []byte) (ChannelSettings, error) {
	var saved savedEmail
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, err
	}
	s := &EmailSettings{To: saved.To}
	if m := saved.SMTP; m != nil {
		s.SMTP = &SMTPSettings{Host: m.Host, Port: m.Port, TLS: TLSMode(m.TLS), User: m.User, Password: m.Password, From: m.From}
	}
	return s, nil
}

// readEmailForm reads the recipients, typed one a line or separated by
// commas, and the channel's own mail server, when any of its fields is
// filled in.
func readEmailForm(form url.Values) (ChannelSettings, error) {
	s := &EmailSettings{To: splitAddresses(form.Get("to"))}
	host, port, user, from := strings.TrimSpace(form.Get("smtp_host")), strings.TrimSpace(form.Get("smtp_port")),
		strings.TrimSpace(form.Get("smtp_user")), strings.TrimSpace(form.Get("smtp_from"))
	password := form.Get("smtp_password")
	if host == "" && port == "" && user == "" && password == "" && from == "" {
		return s, nil
	}
	n := 0
	if port != "" {
		var err error
		if n, err = strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return s, fieldErrorIn("smtp_port", func(l *i18n.Localizer) string { return l.T("rules.smtp_port") })
		}
	}
	s.SMTP = &SMTPSettings{Host: host, Port: n, TLS: TLSMode(form.Get("smtp_tls")), User: user, Password: password, From: from}
	return s, nil
}

// splitAddresses reads the recipients typed one a line or separated by
// commas.
func splitAddresses(s string) []string {
	var out []string
	for _, a := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' || r == ';' }) {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}
