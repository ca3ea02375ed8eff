package notify

import (
	"crypto/tls"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"washboard/internal/clock"
	"washboard/internal/i18n"
)

// ChannelKind is a way of sending notifications: by e-mail, to a webhook.
// Each kind registers itself, from a file of its own (email_kind.go,
// webhook_kind.go), with RegisterChannelKind; a notifications file
// (internal/rules), the /notifications page and the notifier find it there
// by its name. A new kind is one such file, and, for a form of its own on
// the page rather than one field under the other, one component in views.
type ChannelKind struct {
	// Name names the kind: a channel's field in a notifications file
	// ("email"), the page's choice, the key its settings are kept under.
	Name string
	// Label is the kind in the page's words: "E-mail".
	Label string
	// FileFields are the fields of the kind's object in a notifications
	// file, in the order errors list them.
	FileFields []string
	// ReadFile reads the settings from the kind's object in a
	// notifications file. A value that cannot be read, such as a secret, is
	// a *FieldError naming its field; whether the settings make sense is
	// ChannelSettings.Validate's to say.
	ReadFile func(FileObject) (ChannelSettings, error)
	// FormFields are the fields of the kind's part of the page's form.
	FormFields []FormField
	// ReadForm reads the settings from the page's form. A value that
	// cannot be read is a *FieldError naming the form's field, its message
	// after the field's label ("Port: write a whole number…").
	ReadForm func(url.Values) (ChannelSettings, error)
	// Load reads settings kept as their Save wrote them.
	Load func(data []byte) (ChannelSettings, error)
}

// ChannelSettings are where and how a channel of one kind sends: an
// e-mail channel's recipients and mail server, a webhook's address,
// format and secret. Printing them never shows a secret.
type ChannelSettings interface {
	// Kind is the name of the settings' ChannelKind.
	Kind() string
	// String says where the channel sends, without secrets: "e-mail to
	// desk@example.com", "slack webhook to https://hooks.slack.com/…,
	// signed".
	String() string
	// Validate reports the first problem of the settings as a *FieldError
	// that names its field as a notifications file does within the kind's
	// object ("to[1]", "url").
	Validate() error
	// Ready reports what the server lacks to send through the settings, in
	// words that follow the channel's name ("sends e-mail, and no mail
	// server is set: …"); nil when it lacks nothing.
	Ready(Env) error
	// Open makes the channel that sends through the settings.
	Open(Env) (Channel, error)
	// Save writes the settings to be kept, secrets included, for the
	// kind's Load.
	Save() ([]byte, error)
}

// ShownOnce is settings that hold a secret Washboard made for them, such as
// a webhook's signing secret: shown once, after the channel is added, and
// never again.
type ShownOnce interface {
	// MadeSecret is the secret made for the settings; "" when none was.
	MadeSecret() string
}

// Detailed is settings that the /notifications page describes in more
// words than their String: an e-mail channel's mail server.
type Detailed interface {
	// Details says where the channel sends, and through what, without
	// secrets.
	Details() string
}

// Env is what the server gives every channel it opens.
type Env struct {
	// Guard says which addresses a channel may reach.
	Guard Guard
	// Timeout bounds each attempt; DefaultTimeout when zero.
	Timeout time.Duration
	Clock   clock.Clock // clock.Real when nil
	// Link is the dashboard's address, the link of a test notification.
	Link string
	// SMTP is the server's own mail server and sender (--smtp-url,
	// --mail-from), trusted; nil when it has none.
	SMTP *SMTPSettings
	// SMTPTLS, when set, verifies every mail server instead of the
	// system's roots.
	SMTPTLS *tls.Config
	// Account is the account whose channel is opened: whose people a
	// push channel pushes to.
	Account string
	// Pusher pushes to people's devices; nil where the server sends no
	// pushes.
	Pusher Pusher
	// Lang is the language of the channel opened (i18n.Languages), which
	// its test is in; English when empty.
	Lang string
}

// FileObject is a kind's object in a notifications file, as ReadFile reads
// it. A value of the wrong shape (a number where a string belongs) is
// reported by the file's reader, and read as the zero value.
type FileObject interface {
	// Has reports whether the object gives the field, not null.
	Has(field string) bool
	// String is the field's string; "" when it is left out.
	String(field string) string
	// Strings are the strings of the field's list; none when it is left
	// out.
	Strings(field string) []string
}

// FormField is a field of a kind's part of the page's form.
type FormField struct {
	Name  string // the form's field: "to", "smtp_port"
	Label string // its label: "Recipients"
	// Setting is the field of the settings whose problems (a FieldError
	// of Validate) the form shows at this field: "to" for "to[3]".
	Setting string
	// Secret says that what was typed is never shown again: a password,
	// a secret, an address that often holds one.
	Secret bool
	// Choices are a list's choices, in the localizer's language; nil for
	// a field typed in.
	Choices func(*i18n.Localizer) []Choice
	// Hint, when set, says what to type or choose, in the localizer's
	// language.
	Hint func(*i18n.Localizer) string
}

// Choice is one choice of a form's list.
type Choice struct {
	Value string
	Label string
}

// FieldError is a setting that cannot be used: the field at fault and
// what to change, in words.
type FieldError struct {
	// Field names the field: within the kind's object of a notifications
	// file for Validate and ReadFile ("to[1]"), the form's field for
	// ReadForm ("smtp_port"); "" for the settings as a whole.
	Field string
	Msg   string // in English: the words of the notifications file and the log

	words func(*i18n.Localizer) string // Msg in a language; nil when said in English only
}

func (e *FieldError) Error() string { return e.Msg }

// MsgIn is what to change in l's language, for a page: Msg for a problem
// said in English only.
func (e *FieldError) MsgIn(l *i18n.Localizer) string {
	if e.words == nil {
		return e.Msg
	}
	return e.words(l)
}

// fieldError returns the error of a field, in English only.
func fieldError(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// fieldErrorIn returns the error of a field, in the words of a language:
// one a page can show.
func fieldErrorIn(field string, words func(l *i18n.Localizer) string) *FieldError {
	return &FieldError{Field: field, Msg: words(i18n.For(i18n.Default)), words: words}
}

// FormFieldOf returns the form's field, and its label, that shows the
// problems of a setting ("to[3]"); "" for a setting no field shows.
func (k ChannelKind) FormFieldOf(setting string) (name, label string) {
	base, _, _ := strings.Cut(setting, "[")
	base, _, _ = strings.Cut(base, ".")
	for _, f := range k.FormFields {
		if f.Setting != "" && f.Setting == base {
			return f.Name, f.Label
		}
	}
	return "", ""
}

var (
	kindsMu sync.RWMutex
	kinds   []ChannelKind // by name
)

// RegisterChannelKind makes a kind of channel known. It panics when the
// kind lacks its name, label or functions, or another has its name: kinds
// are registered as the program starts.
func RegisterChannelKind(k ChannelKind) {
	if k.Name == "" || k.Label == "" || k.ReadFile == nil || k.ReadForm == nil || k.Load == nil {
		panic("notify: a channel kind needs a name, a label, ReadFile, ReadForm and Load")
	}
	if k.Name == "name" || strings.ContainsAny(k.Name, " .[]\"") {
		panic(fmt.Sprintf("notify: %q cannot name a channel kind", k.Name))
	}
	kindsMu.Lock()
	defer kindsMu.Unlock()
	i, found := slices.BinarySearchFunc(kinds, k.Name, func(a ChannelKind, name string) int { return strings.Compare(a.Name, name) })
	if found {
		panic(fmt.Sprintf("notify: the channel kind %q is registered twice", k.Name))
	}
	kinds = slices.Insert(kinds, i, k)
}

// ChannelKinds returns the kinds of channel, by name.
func ChannelKinds() []ChannelKind {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	return slices.Clone(kinds)
}

// FindChannelKind returns the kind of channel of the name.
func FindChannelKind(name string) (ChannelKind, bool) {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	for _, k := range kinds {
		if k.Name == name {
			return k, true
		}
	}
	return ChannelKind{}, false
}

// maxQuoted bounds how much of a value a problem repeats, in characters.
const maxQuoted = 80

// quote writes a value for a problem: in double quotes, cut at maxQuoted
// characters.
func quote(s string) string {
	if utf8.RuneCountInString(s) > maxQuoted {
		s = string([]rune(s)[:maxQuoted]) + "…"
	}
	return strconv.Quote(s)
}

// LabelIn is the kind in the localizer's language: "E-Mail"; its Label
// for a kind without words in the catalogs.
func (k ChannelKind) LabelIn(l *i18n.Localizer) string {
	switch k.Name {
	case "email":
		return l.T("notif.kind_email")
	case "webhook":
		return l.T("notif.kind_webhook")
	case "push":
		return l.T("notif.kind_push")
	}
	return k.Label
}

// LabelIn is the field's label in the localizer's language; its Label
// for a field without words in the catalogs.
func (f FormField) LabelIn(l *i18n.Localizer) string {
	switch f.Name {
	case "to":
		return l.T("notif.field_to")
	case "smtp_host":
		return l.T("notif.field_smtp_host")
	case "smtp_port":
		return l.T("notif.field_smtp_port")
	case "smtp_tls":
		return l.T("notif.field_smtp_tls")
	case "smtp_user":
		return l.T("notif.field_smtp_user")
	case "smtp_password":
		return l.T("notif.field_smtp_password")
	case "smtp_from":
		return l.T("notif.field_smtp_from")
	case "url":
		return l.T("notif.field_url")
	case "format":
		return l.T("notif.field_format")
	case "secret":
		return l.T("notif.field_secret")
	case "generate_secret":
		return l.T("notif.field_generate_secret")
	case "push_to":
		return l.T("push.field_to")
	}
	return f.Label
}

// Described is settings that say where the channel sends in a language
// of the interface, for the /notifications page.
type Described interface {
	DescribeIn(l *i18n.Localizer) string
}
