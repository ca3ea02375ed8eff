package views

import "time"

// Notifications is the page where signed-in users choose who is told
// what, and see what was sent: the account's channels and rules made on
// the page, those of the notifications file (read-only), and each
// channel's delivery log.
type Notifications struct {
	Page
	Channels []ChannelRow // made on the page
	Rules    []RuleRow    // made on the page
	// FileChannels and FileRules are those of the --notifications file:
	// shown, never changed here.
	FileChannels []ChannelRow
	FileRules    []RuleRow
	Logs         []ChannelLog // one per channel, the page's then the file's
	// NewSecret is the signing secret Washboard made for a webhook channel
	// just added: shown once, never again.
	NewSecret *NewChannelSecret
	// Problem is why a channel or a rule was not removed, in words.
	Problem     string
	ChannelForm ChannelForm
	RuleForm    RuleForm
	// DefaultMail is the sender of --smtp-url and --mail-from; empty when
	// the server has no mail server of its own.
	DefaultMail string
	// AccountID is the account's id, by which a notifications file names
	// it; shown only there, labelled, beside the account's name.
	AccountID string
	// Unreadable, when set, says why the channels and rules made on the
	// page could not be read.
	Unreadable string
	Now        time.Time
}

// ChannelRow is one channel in a list.
type ChannelRow struct {
	ID   string // for the element ids of the row: "channel-1", "file-channel-2"
	Name string
	// What says where it sends, without secrets: "e-mail to
	// facilities@example.com", "slack webhook to
	// https://hooks.slack.com/…, signed".
	What string
	// Language is the language its messages are in, in its own words:
	// "Deutsch".
	Language   string
	TestHref   string // POST with csrf_token: send a test, answered in words
	RemoveHref string // POST with csrf_token: remove; empty for the file's
}

// RuleRow is one rule in a list, each field in words.
type RuleRow struct {
	Name       string
	When       string // "Alert opened"
	AlertTypes string // "Product out, Jammed"; "All types" or "" where types do not apply
	Where      string // "Whole account", "North Tower", "North Tower › Level 3"
	After      string // "30 min", or "" for the kinds that do not wait
	Quiet      string // "22:00–06:00, held until they end", or "" for none
	Digest     string // "every 30 min", or "" for none
	Channels   string // "ops, desk"
	RemoveHref string // POST with csrf_token: remove; empty for the file's
}

// ChannelLog is the latest notifications of one channel.
type ChannelLog struct {
	ID       string // the element id of its section
	Channel  string
	FromFile bool
	Rows     []LogRow
}

// LogRow is one notification in a delivery log.
type LogRow struct {
	Created time.Time
	What    string // "Alert opened", "Digest of 4 items"
	Digest  bool
	Rule    string
	// State is one of "waiting", "pending", "sent", "failed", "dropped",
	// "cancelled" and "digested".
	State    string
	Due      time.Time // when a waiting one is looked at again, a pending one tried (again)
	Sent     time.Time // when a sent one was accepted
	Attempts int
	Note     string // the last attempt's error, or why it was dropped, cancelled or digested
}

// NewChannelSecret is the signing secret of a webhook channel just added,
// to give its receiver: shown once.
type NewChannelSecret struct {
	Channel string
	Secret  string
}

// ChannelForm adds a channel. Field names: name, language, kind (the name of one of
// Kinds), and the fields of each kind (ChannelKind.Fields): for e-mail to,
// smtp_host, smtp_port, smtp_tls, smtp_user, smtp_password, smtp_from; for
// a webhook url, format, secret and generate_secret. What was typed comes
// back with an error, but for the fields never shown (KindField.Secret):
// the password, the webhook's address and its secret.
type ChannelForm struct {
	Name string
	// Languages are the languages the channel's messages may be in, the
	// one chosen selected: the creator's when nothing was sent.
	Languages []Option
	Kind      string // the kind chosen: "email", "webhook"
	// Kinds are the kinds of channel to choose from, by name.
	Kinds []ChannelKind
	// Values are what was typed in the kinds' fields, by the field's
	// name, but for the secrets.
	Values map[string]string
	// Choices are the choices of the kinds' lists, by the field's name,
	// what was chosen selected.
	Choices map[string][]Option
	// Hints say what to type or choose in a field, by the field's name,
	// where it depends on what the server offers.
	Hints map[string]string
	// Problem says what to change, in words; Field names the field at
	// fault as the form does ("to", "url"), or is empty when it is the
	// form as a whole.
	Problem string
	Field   string
}

// ChannelKind is a kind of channel the form offers: e-mail, a webhook.
type ChannelKind struct {
	Name  string // the form's value: "email"
	Label string // "E-mail"
	// Fields are the kind's fields, which a kind without a form of its own
	// (channelFieldsets) shows one under the other.
	Fields []KindField
}

// KindField is a field of a kind of channel.
type KindField struct {
	Name   string // the form's field: "smtp_host"
	Label  string
	Secret bool // never shown: typed again after a problem
	List   bool // a list of ChannelForm.Choices
}

// RuleForm adds a rule. Field names: name, when, alert_type (repeated
// checkbox), where ("", "building:{id}" or "floor:{id}"), after_minutes,
// quiet_from, quiet_to, quiet_during (hold or drop), digest_minutes,
// channel (repeated checkbox).
type RuleForm struct {
	Name       string
	Kinds      []Option
	AlertTypes []Option
	Places     []Option
	After      string
	QuietFrom  string // "22:00" or ""
	QuietTo    string
	QuietDrop  bool
	Digest     string
	Channels   []Option
	Problem    string // as ChannelForm's
	Field      string
}

// ChannelTest is what became of a test sent to a channel.
type ChannelTest struct {
	Delivered bool
	Message   string // in words
}
