package notifier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"washboard/internal/i18n"
	"washboard/internal/keyring"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/internal/store"
)

// Settings are an account's channels and rules, as the /notifications
// page shows them.
type Settings struct {
	// Page holds those made on the page, which it may change.
	Page rules.Account
	// File holds those of the --notifications file, read-only; empty
	// when the file has none for the account.
	File rules.Account
	// DefaultMail is the sender of --smtp-url and --mail-from, when they
	// were given: e-mail channels may then leave the mail server out.
	DefaultMail string
	// Unreadable, when set, says why the page's channels and rules could
	// not be read (Page is empty then): saving new ones replaces them.
	Unreadable string
}

// Settings returns the account's channels and rules.
func (n *Notifier) Settings(ctx context.Context, account string) (Settings, error) {
	sealed, err := n.st.NotificationSettings(ctx, account)
	if err != nil {
		return Settings{}, err
	}
	s := Settings{Page: rules.Account{AccountID: account}}
	if sealed != nil {
		if s.Page, err = n.open(account, sealed); err != nil {
			s.Page = rules.Account{AccountID: account}
			s.Unreadable = i18n.From(ctx).T("notif.settings_unreadable", "reason", err.Error())
		}
	}
	s.File, _ = n.cfg.File.Account(account)
	s.File.AccountID = account
	if n.cfg.SMTP != nil {
		s.DefaultMail = n.cfg.SMTP.From
	}
	return s, nil
}

// SettingsError is a change to the page's settings that cannot be saved,
// in words that say what to change.
type SettingsError struct{ Msg string }

func (e *SettingsError) Error() string { return e.Msg }

// The most channels and rules an account keeps made on the page: enough
// for a large estate, few enough that the page stays readable and every
// decision about a fact stays cheap. Those of the --notifications file are
// not counted.
const (
	MaxChannels = 50
	MaxRules    = 200
)

// SaveSettings replaces the channels and rules made on the page for the
// account with a. It refuses, with a *SettingsError, what could not be
// sent (see ChangeSettings).
func (n *Notifier) SaveSettings(ctx context.Context, account string, a rules.Account) error {
	return n.ChangeSettings(ctx, account, func(page *rules.Account) error {
		*page = a
		return nil
	})
}

// changeAttempts is how many times ChangeSettings reads and changes the
// settings when other replicas change them meanwhile.
const changeAttempts = 10

// ChangeSettings changes the channels and rules made on the page for the
// account with change, and saves them: of two changes at once, each is
// made to what the other saved, and none is lost. It refuses, with a
// *SettingsError, what could not be sent: a rule naming a channel that
// neither the page nor the file has, a name the file uses already, an
// e-mail channel without a mail server, more than MaxChannels channels or
// MaxRules rules (a change that adds none is made, so that an account
// beyond them from before can remove some). Settings that cannot be read
// are replaced, as Settings says. change's own error is returned as it is.
func (n *Notifier) ChangeSettings(ctx context.Context, account string, change func(*rules.Account) error) error {
	n.settingsMu.Lock()
	defer n.settingsMu.Unlock()
	for range changeAttempts {
		previous, err := n.st.NotificationSettings(ctx, account)
		if err != nil {
			return err
		}
		page := rules.Account{AccountID: account}
		if previous != nil {
			if page, err = n.open(account, previous); err != nil {
				page = rules.Account{AccountID: account}
			}
		}
		before := page
		if err := change(&page); err != nil {
			return err
		}
		page.AccountID = account
		if err := checkLimits(i18n.From(ctx), before, page); err != nil {
			return err
		}
		if err := n.check(i18n.From(ctx), account, page); err != nil {
			return err
		}
		kept, err := toSaved(page)
		if err != nil {
			return err
		}
		plain, err := json.Marshal(kept)
		if err != nil {
			return err
		}
		sealed := n.keys.Seal(keyring.NotificationSettings, plain, []byte(account))
		switch err := n.st.SaveNotificationSettings(ctx, account, previous, sealed, n.clk.Now()); {
		case errors.Is(err, store.ErrChanged):
			continue // changed meanwhile: made again on what was saved
		case err != nil:
			return err
		}
		n.Wake()
		return nil
	}
	return fmt.Errorf("the notification settings of account %s changed %d times while a change was made; try again", account, changeAttempts)
}

// checkLimits refuses settings that grow beyond MaxChannels or MaxRules,
// in the words of the localizer of the request that changes them.
func checkLimits(l *i18n.Localizer, before, after rules.Account) error {
	if n := len(after.Channels); n > MaxChannels && n > len(before.Channels) {
		return &SettingsError{l.T("notif.limit_channels", "max", l.Number(MaxChannels), "recipients", l.Number(notify.MaxRecipients))}
	}
	if n := len(after.Rules); n > MaxRules && n > len(before.Rules) {
		return &SettingsError{l.T("notif.limit_rules", "max", l.Number(MaxRules))}
	}
	return nil
}

// check refuses page settings that could not be sent, in the words of
// the localizer of the request that changes them.
func (n *Notifier) check(l *i18n.Localizer, account string, page rules.Account) error {
	file, _ := n.cfg.File.Account(account)
	for _, c := range page.Channels {
		if _, ok := file.Channel(c.Name); ok {
			return &SettingsError{l.T("notif.file_has_channel", "name", strconv.Quote(c.Name))}
		}
		if c.Settings == nil {
			continue // Validate says what is missing
		}
		if err := c.Settings.Ready(n.env()); err != nil {
			return &SettingsError{l.T("notif.channel_not_ready", "name", strconv.Quote(c.Name), "reason", err.Error())}
		}
	}
	for _, r := range page.Rules {
		for _, fr := range file.Rules {
			if fr.Name == r.Name {
				return &SettingsError{l.T("notif.file_has_rule", "name", strconv.Quote(r.Name))}
			}
		}
	}
	merged := merge(file, page)
	if err := merged.Validate(); err != nil {
		var re *rules.Error
		if errors.As(err, &re) {
			return &SettingsError{re.ErrorIn(l)}
		}
		return &SettingsError{err.Error()}
	}
	return nil
}

// merge returns the account's channels and rules of the file and of the
// page together.
func merge(file, page rules.Account) rules.Account {
	a := rules.Account{AccountID: page.AccountID}
	a.Channels = append(append(a.Channels, file.Channels...), page.Channels...)
	a.Rules = append(append(a.Rules, file.Rules...), page.Rules...)
	return a
}

// TestChannel sends a test notification to the account's channel and says
// in words what happened; the error is nil when it was delivered.
func (n *Notifier) TestChannel(ctx context.Context, account, name string) (string, error) {
	accounts, err := n.accounts(ctx)
	if err != nil {
		return "", err
	}
	ch, err := n.channel(accounts[account], name)
	if err != nil {
		return err.Error(), err
	}
	return ch.Test(ctx)
}

// Delivery is a notification as its channel's delivery log shows it.
type Delivery struct {
	Rule  string
	Kind  notify.Kind // notify.KindDigest for a digest
	Items int         // a digest's items; 1 otherwise
	// State is what became of it: waiting, pending, sent, failed, dropped,
	// cancelled or digested (store.NotificationState).
	State       string
	Created     time.Time
	Due         time.Time // when a waiting one is looked at, a pending one sent or tried again
	Attempts    int
	LastAttempt time.Time
	Sent        time.Time
	Note        string // the last attempt's error, or why it was held, dropped, cancelled or digested
}

// Log returns the latest notifications of the account's channel, newest
// first, at most limit.
func (n *Notifier) Log(ctx context.Context, account, channel string, limit int) ([]Delivery, error) {
	log, err := n.st.NotificationLog(ctx, account, channel, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Delivery, len(log))
	for i, no := range log {
		out[i] = Delivery{
			Rule: no.Rule, Kind: notify.Kind(no.Kind), Items: no.ItemCount, State: string(no.State),
			Created: no.Created, Due: no.Due, Attempts: no.Attempts, LastAttempt: no.LastAttempt, Sent: no.Sent, Note: no.Note,
		}
	}
	return out, nil
}

// accounts returns every account's channels and rules, the file's and the
// page's, by account.
func (n *Notifier) accounts(ctx context.Context) (map[string]rules.Account, error) {
	sealed, err := n.st.AllNotificationSettings(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]rules.Account{}
	for _, a := range n.cfg.File.Accounts {
		out[a.AccountID] = a
	}
	for account, s := range sealed {
		page, err := n.open(account, s)
		if err != nil {
			n.log.Warn("notifications: the page's settings of an account cannot be read", "account", account, "error", err.Error())
			continue
		}
		file := out[account]
		file.AccountID = account
		out[account] = merge(file, page)
	}
	return out, nil
}

func (n *Notifier) open(account string, sealed []byte) (rules.Account, error) {
	plain, _, err := n.keys.Open(keyring.NotificationSettings, sealed, []byte(account))
	if err != nil {
		return rules.Account{}, err
	}
	var s saved
	if err := json.Unmarshal(plain, &s); err != nil {
		return rules.Account{}, fmt.Errorf("the saved notification settings do not read: %w", err)
	}
	return s.account(account)
}

// saved is how the page's settings are kept, sealed.
type saved struct {
	Channels []savedChannel `json:"channels"`
	Rules    []rules.Rule   `json:"rules"`
}

// savedChannel is a channel as it is kept: its name, and its settings
// under the name of their kind, as the kind writes them:
// {"name": "desk", "email": {"to": […]}}.
type savedChannel struct {
	Name     string
	Language string // "" for English, and in what was saved before channels had one
	Kind     string
	Settings json.RawMessage
}

func (sc savedChannel) MarshalJSON() ([]byte, error) {
	name, err := json.Marshal(sc.Name)
	if err != nil {
		return nil, err
	}
	kind, err := json.Marshal(sc.Kind)
	if err != nil {
		return nil, err
	}
	lang := ""
	if sc.Language != "" {
		l, err := json.Marshal(sc.Language)
		if err != nil {
			return nil, err
		}
		lang = `"language":` + string(l) + `,`
	}
	return []byte(`{"name":` + string(name) + `,` + lang + string(kind) + `:` + string(sc.Settings) + `}`), nil
}

func (sc *savedChannel) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	if name, ok := fields["name"]; ok {
		if err := json.Unmarshal(name, &sc.Name); err != nil {
			return err
		}
	}
	if lang, ok := fields["language"]; ok {
		if err := json.Unmarshal(lang, &sc.Language); err != nil {
			return err
		}
	}
	for field, value := range fields {
		if field != "name" && field != "language" && string(value) != "null" {
			sc.Kind, sc.Settings = field, value
		}
	}
	return nil
}

func toSaved(a rules.Account) (saved, error) {
	s := saved{Rules: a.Rules, Channels: []savedChannel{}}
	for _, c := range a.Channels {
		settings, err := c.Settings.Save()
		if err != nil {
			return saved{}, fmt.Errorf("channel %q: %w", c.Name, err)
		}
		s.Channels = append(s.Channels, savedChannel{Name: c.Name, Language: c.Language, Kind: c.Settings.Kind(), Settings: settings})
	}
	return s, nil
}

func (s saved) account(id string) (rules.Account, error) {
	a := rules.Account{AccountID: id, Rules: s.Rules}
	for _, sc := range s.Channels {
		c := rules.Channel{Name: sc.Name, Language: sc.Language}
		if sc.Kind != "" {
			kind, ok := notify.FindChannelKind(sc.Kind)
			if !ok {
				return rules.Account{}, fmt.Errorf("channel %q sends by %q, which this Washboard does not know", sc.Name, sc.Kind)
			}
			settings, err := kind.Load(sc.Settings)
			if err != nil {
				return rules.Account{}, fmt.Errorf("channel %q: %w", sc.Name, err)
			}
			c.Settings = settings
		}
		a.Channels = append(a.Channels, c)
	}
	if strings.TrimSpace(id) == "" {
		return rules.Account{}, errors.New("no account")
	}
	return a, nil
}
