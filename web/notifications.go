package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/views"
)

// The /notifications page: where the account's notifications go
// (channels) and what they are about (rules). The notifier keeps and
// checks those made on the page; the handlers read the forms into the
// rules' types and show what the rules and the notifier say of them.
// Those of the --notifications file are shown, never changed.

// Notifications keeps the account's channels and rules, tests a channel,
// and keeps the delivery log: the notifier.
type Notifications interface {
	Settings(ctx context.Context, account string) (notifier.Settings, error)
	// ChangeSettings changes the channels and rules made on the page and
	// saves them, none lost to another change at once; a
	// *notifier.SettingsError says what to change.
	ChangeSettings(ctx context.Context, account string, change func(*rules.Account) error) error
	// TestChannel sends the channel a test notification and says in
	// words what happened; the error is nil when it was delivered.
	TestChannel(ctx context.Context, account, name string) (string, error)
	// Log returns the channel's latest notifications, newest first.
	Log(ctx context.Context, account, channel string, limit int) ([]notifier.Delivery, error)
}

// logLength is how many notifications each channel's log shows.
const logLength = 20

// keyNotificationsFlash is the session's value of the message the page
// shows once, after a form was sent without htmx.
const keyNotificationsFlash = "notifications_flash"

// keyNotificationsFlashFailed says the message tells of a failure.
const keyNotificationsFlashFailed = "notifications_flash_failed"

// listNotifications shows the channels and rules, the forms to add them,
// and each channel's delivery log.
func (s *Server) listNotifications(c echo.Context) error {
	return s.showNotifications(c, http.StatusOK, notificationsState{})
}

// refusal is a change to the notification settings that is not made:
// the form's field at fault ("" for the form as a whole) and what to
// change, in words.
type refusal struct{ field, msg string }

func (r *refusal) Error() string { return r.msg }

// changeSettings changes the account's channels and rules made on the page
// and saves them. What the notifier refuses comes back as a *refusal.
func (s *Server) changeSettings(c echo.Context, change func(*rules.Account) error) error {
	err := s.notifier.ChangeSettings(c.Request().Context(), sessionOf(c).Account, change)
	if se := (*notifier.SettingsError)(nil); errors.As(err, &se) {
		return &refusal{msg: se.Msg}
	}
	return err
}

// removeNamed removes a channel or a rule (noun) made on the page, named
// in the path: remove takes it out of the account's settings, or says why
// it stays.
func (s *Server) removeNamed(c echo.Context, noun string, remove func(a *rules.Account, name string) error) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	err = s.changeSettings(c, func(a *rules.Account) error { return remove(a, name) })
	return s.answerChange(c, err, notificationsState{}, noun, name, "removed")
}

// answerChange answers a form that changes the settings, adding or
// removing (done) a channel or a rule (noun) of the name: what was refused
// shows on the page again, 422, beside the form as it was sent (st); an
// error is returned; a change made is logged, and the page says so once.
func (s *Server) answerChange(c echo.Context, err error, st notificationsState, noun, name, done string) error {
	if r := (*refusal)(nil); errors.As(err, &r) {
		switch {
		case done == "removed":
			st.removal = r.msg
		case noun == "channel":
			st.channelProblem = r
		default:
			st.ruleProblem = r
		}
		return s.showNotifications(c, http.StatusUnprocessableEntity, st)
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("notification "+noun+" "+done, noun, name)
	s.audit(c, auditOfChange(noun, done), name)
	return s.flashNotifications(c, changeMade(c, noun, name, done))
}

// changeMade says that a channel or a rule (noun) of the name was added
// or removed (done).
func changeMade(c echo.Context, noun, name, done string) string {
	switch {
	case noun == "channel" && done == "added":
		return tr(c, "notif.flash_channel_added", "name", name)
	case noun == "channel":
		return tr(c, "notif.flash_channel_removed", "name", name)
	case done == "added":
		return tr(c, "notif.flash_rule_added", "name", name)
	}
	return tr(c, "notif.flash_rule_removed", "name", name)
}

// flashNotifications goes back to the page, which shows msg once.
func (s *Server) flashNotifications(c echo.Context, msg string) error {
	return s.flash(c, msg, false)
}

// flashNotificationsFailure goes back to the page, which shows msg once,
// as a failure.
func (s *Server) flashNotificationsFailure(c echo.Context, msg string) error {
	return s.flash(c, msg, true)
}

func (s *Server) flash(c echo.Context, msg string, failed bool) error {
	ctx := c.Request().Context()
	s.sessions.Put(ctx, keyNotificationsFlash, msg)
	s.sessions.Put(ctx, keyNotificationsFlashFailed, failed)
	s.sessionChanged(ctx)
	return redirect(c, "/notifications")
}

// nameParam is the channel's or the rule's name in the path. Echo gives a
// path parameter as the request wrote it when the path holds escapes a
// plain path would not (a "/" written %2F), decoded otherwise.
func nameParam(c echo.Context) (string, error) {
	name := c.Param("name")
	if c.Request().URL.RawPath == "" {
		return name, nil
	}
	name, err := url.PathUnescape(name)
	if err != nil {
		return "", errNotFound(tr(c, "notif.no_such_name"))
	}
	return name, nil
}

// nameHref is the address of a channel's or a rule's action.
func nameHref(list, name, action string) string {
	return "/notifications/" + list + "/" + url.PathEscape(name) + "/" + action
}

// labelled is a problem of the rules, in the page's language, after the
// label of the form's field it is about.
func labelled(c echo.Context, label string, re *rules.Error) string {
	msg := strings.TrimSuffix(re.MsgIn(i18n.From(c.Request().Context())), ".") + "."
	if label == "" {
		first, size := utf8.DecodeRuneInString(msg)
		return string(unicode.ToUpper(first)) + msg[size:]
	}
	return tr(c, "rules.labelled", "field", label, "problem", msg)
}

// notificationsState is what the page shows besides the settings: the
// forms as they were sent and what was wrong with them, a secret to show
// once, a removal refused.
type notificationsState struct {
	channel        channelInput
	channelProblem *refusal
	rule           ruleInput
	ruleProblem    *refusal
	removal        string
	secret         *views.NewChannelSecret
}

// showNotifications renders the page with the status.
func (s *Server) showNotifications(c echo.Context, status int, st notificationsState) error {
	m, err := s.notificationsModel(c, st)
	if err != nil {
		return err
	}
	return render(c, status, views.NotificationsPage(m))
}

func (s *Server) notificationsModel(c echo.Context, st notificationsState) (views.Notifications, error) {
	ctx := c.Request().Context()
	account := sessionOf(c).Account
	m := views.Notifications{Page: s.page(c, tr(c, "notif.title"), "notifications"), Now: s.clock.Now(), NewSecret: st.secret, Problem: st.removal}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: tr(c, "notif.title")}}
	if msg := s.sessions.PopString(ctx, keyNotificationsFlash); msg != "" {
		s.sessionChanged(ctx)
		m.Flash, m.FlashFailed = msg, s.sessions.PopBool(ctx, keyNotificationsFlashFailed)
	}
	set, err := s.notifier.Settings(ctx, account)
	if err != nil {
		return m, err
	}
	places, err := s.dash.ScreenScopes(ctx, account, s.scopeOf(c))
	if err != nil {
		return m, err
	}
	m.DefaultMail, m.AccountID, m.Unreadable = set.DefaultMail, account, set.Unreadable
	for i, ch := range set.Page.Channels {
		m.Channels = append(m.Channels, channelRow(c, fmt.Sprint("channel-", i+1), ch, true))
	}
	for i, ch := range set.File.Channels {
		m.FileChannels = append(m.FileChannels, channelRow(c, fmt.Sprint("file-channel-", i+1), ch, false))
	}
	// A person limited to some buildings sees the rules of theirs alone,
	// and what those rules sent.
	sc, seen := s.scopeOf(c), map[string]bool{}
	for _, r := range set.Page.Rules {
		if r.Within(sc) {
			m.Rules, seen[r.Name] = append(m.Rules, ruleRow(c, r, places, true)), true
		}
	}
	for _, r := range set.File.Rules {
		if r.Within(sc) {
			m.FileRules, seen[r.Name] = append(m.FileRules, ruleRow(c, r, places, false)), true
		}
	}
	for i, ch := range slices.Concat(set.Page.Channels, set.File.Channels) {
		log, err := s.notifier.Log(ctx, account, ch.Name, logLength)
		if err != nil {
			return m, err
		}
		l := views.ChannelLog{ID: fmt.Sprint("log-", i+1), Channel: ch.Name, FromFile: i >= len(set.Page.Channels)}
		for _, n := range log {
			if seen[n.Rule] || !sc.Limited() {
				l.Rows = append(l.Rows, logRow(c, n))
			}
		}
		m.Logs = append(m.Logs, l)
	}
	m.ChannelForm = channelForm(c, st.channel, st.channelProblem)
	m.RuleForm = ruleForm(c, st.rule, st.ruleProblem, places, !sc.Limited(), set)
	return m, nil
}

// logRow is a notification of the delivery log.
func logRow(c echo.Context, n notifier.Delivery) views.LogRow {
	r := views.LogRow{Created: n.Created, What: n.Kind.LabelIn(i18n.From(c.Request().Context())), Rule: n.Rule, State: n.State, Due: n.Due, Sent: n.Sent,
		Attempts: n.Attempts, Note: notify.NoteIn(i18n.From(c.Request().Context()), n.Note), Digest: n.Kind == notify.KindDigest}
	if r.Digest {
		r.What = trn(c, "notif.digest_of", n.Items)
	}
	return r
}

// joinWords joins words as a sentence of the request's language lists
// them: "a", "a and b", "a, b and c".
func joinWords(c echo.Context, words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return tr(c, "notif.and", "first", strings.Join(words[:len(words)-1], ", "), "last", words[len(words)-1])
}

// choiceWords joins words as a sentence of the request's language offers
// them: "a", "a or b", "a, b or c".
func choiceWords(c echo.Context, words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return tr(c, "notif.or", "first", strings.Join(words[:len(words)-1], ", "), "last", words[len(words)-1])
}

// auditOfChange is the audit log's action of a change of the settings: a
// channel or a rule (noun) added or removed (done).
func auditOfChange(noun, done string) domain.AuditAction {
	switch {
	case noun == "channel" && done == "added":
		return domain.AuditChannelAdded
	case noun == "channel":
		return domain.AuditChannelRemoved
	case done == "added":
		return domain.AuditRuleAdded
	}
	return domain.AuditRuleRemoved
}
