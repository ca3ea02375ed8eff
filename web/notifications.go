package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
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

// addChannel adds a channel made with the form. A signing secret
// Washboard made is shown once, now.
func (s *Server) addChannel(c echo.Context) error {
	in, ch, err := readChannel(c)
	if err == nil {
		err = s.changeSettings(c, func(a *rules.Account) error {
			a.Channels = append(a.Channels, ch)
			return nil
		})
	}
	if r := (*refusal)(nil); errors.As(err, &r) {
		return s.showNotifications(c, http.StatusUnprocessableEntity, notificationsState{channel: in, channelProblem: r})
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("notification channel added", "channel", ch.Name)
	if made, ok := ch.Settings.(notify.ShownOnce); ok && made.MadeSecret() != "" {
		c.Response().Header().Set("Cache-Control", "no-store")
		return s.showNotifications(c, http.StatusOK, notificationsState{
			secret: &views.NewChannelSecret{Channel: ch.Name, Secret: made.MadeSecret()}})
	}
	return s.flashNotifications(c, fmt.Sprintf("The channel %q was added.", ch.Name))
}

// removeChannel removes a channel made on the page, unless a rule still
// sends to it.
func (s *Server) removeChannel(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	err = s.changeSettings(c, func(a *rules.Account) error {
		i := slices.IndexFunc(a.Channels, func(ch rules.Channel) bool { return ch.Name == name })
		if i < 0 {
			return errNotFound("There is no channel of that name made on this page.")
		}
		var users []string
		for _, r := range a.Rules {
			if slices.Contains(r.Channels, name) {
				users = append(users, strconv.Quote(r.Name))
			}
		}
		switch len(users) {
		case 0:
		case 1:
			return &refusal{msg: fmt.Sprintf("The channel %q is still used by the rule %s: remove the rule first, then the channel.", name, users[0])}
		default:
			return &refusal{msg: fmt.Sprintf("The channel %q is still used by the rules %s: remove those rules first, then the channel.", name, joinWords(users))}
		}
		a.Channels = slices.Delete(a.Channels, i, i+1)
		return nil
	})
	if r := (*refusal)(nil); errors.As(err, &r) {
		return s.showNotifications(c, http.StatusUnprocessableEntity, notificationsState{removal: r.msg})
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("notification channel removed", "channel", name)
	return s.flashNotifications(c, fmt.Sprintf("The channel %q was removed.", name))
}

// testChannel sends a channel a test notification and says what became
// of it: in place for htmx, on the page once otherwise. A channel that
// fails answers 200 too: the failure is the channel's, said in words.
func (s *Server) testChannel(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	msg, err := s.notifier.TestChannel(c.Request().Context(), sessionOf(c).Account, name)
	if msg == "" && err != nil {
		return err
	}
	s.logOf(c).Info("notification channel tested", "channel", name, "delivered", err == nil)
	result := views.ChannelTest{Delivered: err == nil, Message: msg}
	if isHTMX(c) {
		return render(c, http.StatusOK, views.ChannelTestResult(result))
	}
	if err != nil {
		return s.flashNotificationsFailure(c, fmt.Sprintf("Test to %q: %s", name, msg))
	}
	return s.flashNotifications(c, fmt.Sprintf("Test to %q: %s", name, msg))
}

// addRule adds a rule made with the form.
func (s *Server) addRule(c echo.Context) error {
	in, r, err := s.readRule(c)
	if err == nil {
		err = s.changeSettings(c, func(a *rules.Account) error {
			a.Rules = append(a.Rules, r)
			return nil
		})
	}
	if p := (*refusal)(nil); errors.As(err, &p) {
		return s.showNotifications(c, http.StatusUnprocessableEntity, notificationsState{rule: in, ruleProblem: p})
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("notification rule added", "rule", r.Name)
	return s.flashNotifications(c, fmt.Sprintf("The rule %q was added.", r.Name))
}

// removeRule removes a rule made on the page.
func (s *Server) removeRule(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	err = s.changeSettings(c, func(a *rules.Account) error {
		i := slices.IndexFunc(a.Rules, func(r rules.Rule) bool { return r.Name == name })
		if i < 0 {
			return errNotFound("There is no rule of that name made on this page.")
		}
		a.Rules = slices.Delete(a.Rules, i, i+1)
		return nil
	})
	if r := (*refusal)(nil); errors.As(err, &r) {
		return s.showNotifications(c, http.StatusUnprocessableEntity, notificationsState{removal: r.msg})
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("notification rule removed", "rule", name)
	return s.flashNotifications(c, fmt.Sprintf("The rule %q was removed.", name))
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
		return "", errNotFound("There is no channel or rule of that name.")
	}
	return name, nil
}

// nameHref is the address of a channel's or a rule's action.
func nameHref(list, name, action string) string {
	return "/notifications/" + list + "/" + url.PathEscape(name) + "/" + action
}

// channelInput is what the channel form holds, as typed, but for what a
// kind of channel never shows again (notify.FormField.Secret): a
// password, a webhook's address and its secret.
type channelInput struct {
	name, kind string
	values     map[string]string // by the form's field
}

// readChannel reads the channel form into a channel of the kind chosen
// (notify.ChannelKinds) and checks it. The form's fields are the name, the
// kind, and the fields of every kind; the kind chosen reads its own
// (ChannelKind.ReadForm).
func readChannel(c echo.Context) (channelInput, rules.Channel, error) {
	values, err := httpkit.FormValues(c)
	if err != nil {
		return channelInput{}, rules.Channel{}, err
	}
	in := channelInput{values: map[string]string{}}
	kinds := notify.ChannelKinds()
	var names, labels []string
	for _, k := range kinds {
		first, size := utf8.DecodeRuneInString(k.Label)
		names, labels = append(names, k.Name), append(labels, string(unicode.ToLower(first))+k.Label[size:])
	}
	fields := []*form.Field{
		form.Text("name", "Name", &in.name).Trim(),
		form.Text("kind", "Sends by", &in.kind).Required().OneOf(names...).Says("Sends by: choose " + choiceWords(labels) + "."),
	}
	typed := map[string]*string{} // what a kind's fields show again: not its secrets
	for _, k := range kinds {
		for _, f := range k.FormFields {
			if _, ok := typed[f.Name]; !ok && !f.Secret {
				typed[f.Name] = new(string)
				fields = append(fields, form.Text(f.Name, f.Label, typed[f.Name]))
			}
		}
	}
	problem := form.Read(values, fields...)
	for name, v := range typed {
		if *v != "" {
			in.values[name] = *v
		}
	}
	ch := rules.Channel{Name: in.name}
	if problem != nil {
		return in, ch, &refusal{problem.Field, problem.Msg}
	}
	kind, _ := notify.FindChannelKind(in.kind)
	if ch.Settings, err = kind.ReadForm(values); err != nil {
		var fe *notify.FieldError
		if errors.As(err, &fe) {
			return in, ch, &refusal{fe.Field, fe.Msg}
		}
		return in, ch, err
	}
	var re *rules.Error
	if err := ch.Validate(); errors.As(err, &re) {
		field, label := "", ""
		switch setting, ok := strings.CutPrefix(re.Field, kind.Name+"."); {
		case re.Field == "name":
			field, label = "name", "Name"
		case ok:
			field, label = kind.FormFieldOf(setting)
		}
		return in, ch, &refusal{field, labelled(label, re.Msg)}
	}
	return in, ch, nil
}

// ruleInput is what the rule form holds, as typed.
type ruleInput struct {
	name, when, where, after, quietFrom, quietTo, during, digest string
	alertTypes, channels                                         []string
}

// readRule reads the rule form into a rule and checks it.
func (s *Server) readRule(c echo.Context) (ruleInput, rules.Rule, error) {
	var in ruleInput
	var r rules.Rule
	var placesErr error
	whereOf := func(where string) bool {
		places, err := s.dash.ScreenScopes(c.Request().Context(), sessionOf(c).Account)
		if err != nil {
			placesErr = err
			return true
		}
		r.BuildingID, r.FloorID = findPlace(places, where)
		return r.BuildingID != ""
	}
	quiet := &rules.QuietHours{}
	problem, err := readForm(c,
		form.Text("name", "Name", &in.name).Trim(),
		form.Text("when", "When", &in.when),
		form.List("alert_type", "Alert types", &in.alertTypes).Check(func(t string) bool { return domain.AlertType(t).Known() }).
			Says("Alert types: %q is not an alert type; tick those the form lists."),
		form.Text("where", "Where", &in.where).Check(whereOf).
			Says("Where: choose the whole account, or one of the buildings or floors the list shows."),
		form.Number("after_minutes", "After minutes", &r.AfterMinutes).Trim().Typed(&in.after).
			Says("After minutes: write a whole number of minutes, such as 30, or leave it empty."),
		form.Number("digest_minutes", "Digest minutes", &r.DigestMinutes).Trim().Typed(&in.digest).
			Says("Digest minutes: write a whole number of minutes, such as 30, or leave it empty."),
		form.Span("quiet", "Quiet hours", &quiet.From, &quiet.To).Typed(&in.quietFrom, &in.quietTo),
		form.Text("quiet_during", "During quiet hours", &in.during),
		form.List("channel", "Channels", &in.channels))
	r.Name, r.When, r.Channels = in.name, notify.Kind(in.when), in.channels
	for _, t := range in.alertTypes {
		r.AlertTypes = append(r.AlertTypes, domain.AlertType(t))
	}
	switch {
	case err != nil:
		return in, r, err
	case placesErr != nil:
		return in, r, placesErr
	case problem != nil:
		return in, r, &refusal{problem.Field, problem.Msg}
	}
	if in.quietFrom != "" {
		quiet.During = rules.QuietAction(in.during)
		r.QuietHours = quiet
	}
	var re *rules.Error
	if err := r.Validate(); errors.As(err, &re) {
		field, label := "", ""
		switch f := re.Field; {
		case f == "name":
			field, label = "name", "Name"
		case f == "when":
			field, label = "when", "When"
		case strings.HasPrefix(f, "alert_types"):
			field, label = "alert_type", "Alert types"
		case f == "building_id" || f == "floor_id":
			field, label = "where", "Where"
		case f == "after_minutes":
			field, label = "after_minutes", "After minutes"
		case strings.HasPrefix(f, "quiet_hours"):
			field, label = "quiet", "Quiet hours"
		case f == "digest_minutes":
			field, label = "digest_minutes", "Digest minutes"
		case strings.HasPrefix(f, "channels"):
			field, label = "channel", "Channels"
		}
		return in, r, &refusal{field, labelled(label, re.Msg)}
	}
	return in, r, nil
}

// findPlace finds the building and floor a "building:{id}" or
// "floor:{id}" of the rule form names among the account's places; both
// are empty when it names none of them.
func findPlace(places []dashboard.BuildingFloors, where string) (building, floor string) {
	kind, id, _ := strings.Cut(where, ":")
	for _, p := range places {
		if kind == "building" && p.Building.ID == id {
			return id, ""
		}
		for _, f := range p.Floors {
			if kind == "floor" && f.ID == id {
				return p.Building.ID, id
			}
		}
	}
	return "", ""
}

// labelled is a problem of the rules after the label of the form's field
// it is about.
func labelled(label, msg string) string {
	msg = strings.TrimSuffix(msg, ".") + "."
	if label == "" {
		return strings.ToUpper(msg[:1]) + msg[1:]
	}
	return label + ": " + msg
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
	m := views.Notifications{Page: s.page(c, "Notifications", "notifications"), Now: s.clock.Now(), NewSecret: st.secret, Problem: st.removal}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: "Notifications"}}
	if msg := s.sessions.PopString(ctx, keyNotificationsFlash); msg != "" {
		s.sessionChanged(ctx)
		m.Flash, m.FlashFailed = msg, s.sessions.PopBool(ctx, keyNotificationsFlashFailed)
	}
	set, err := s.notifier.Settings(ctx, account)
	if err != nil {
		return m, err
	}
	places, err := s.dash.ScreenScopes(ctx, account)
	if err != nil {
		return m, err
	}
	m.DefaultMail, m.AccountID, m.Unreadable = set.DefaultMail, account, set.Unreadable
	for i, ch := range set.Page.Channels {
		m.Channels = append(m.Channels, channelRow(fmt.Sprint("channel-", i+1), ch, true))
	}
	for i, ch := range set.File.Channels {
		m.FileChannels = append(m.FileChannels, channelRow(fmt.Sprint("file-channel-", i+1), ch, false))
	}
	for _, r := range set.Page.Rules {
		m.Rules = append(m.Rules, ruleRow(r, places, true))
	}
	for _, r := range set.File.Rules {
		m.FileRules = append(m.FileRules, ruleRow(r, places, false))
	}
	for i, ch := range slices.Concat(set.Page.Channels, set.File.Channels) {
		log, err := s.notifier.Log(ctx, account, ch.Name, logLength)
		if err != nil {
			return m, err
		}
		l := views.ChannelLog{ID: fmt.Sprint("log-", i+1), Channel: ch.Name, FromFile: i >= len(set.Page.Channels)}
		for _, n := range log {
			l.Rows = append(l.Rows, logRow(n))
		}
		m.Logs = append(m.Logs, l)
	}
	m.ChannelForm = channelForm(st.channel, st.channelProblem)
	m.RuleForm = ruleForm(st.rule, st.ruleProblem, places, set)
	return m, nil
}

// channelRow is a channel in words, without its secrets.
func channelRow(id string, ch rules.Channel, page bool) views.ChannelRow {
	what := strings.TrimPrefix(ch.String(), ch.Name+": ")
	if d, ok := ch.Settings.(notify.Detailed); ok {
		what = d.Details()
	}
	r := views.ChannelRow{ID: id, Name: ch.Name, What: what, TestHref: nameHref("channels", ch.Name, "test")}
	if page {
		r.RemoveHref = nameHref("channels", ch.Name, "remove")
	}
	return r
}

// ruleRow is a rule in words, its places by name.
func ruleRow(r rules.Rule, places []dashboard.BuildingFloors, page bool) views.RuleRow {
	row := views.RuleRow{Name: r.Name, When: r.When.Label(), Where: placeName(places, r.BuildingID, r.FloorID), Channels: strings.Join(r.Channels, ", ")}
	var types []string
	for _, t := range r.AlertTypes {
		types = append(types, t.Label())
	}
	row.AlertTypes = strings.Join(types, ", ")
	if len(types) == 0 && slices.Contains([]notify.Kind{notify.AlertOpened, notify.AlertOverdue, notify.AlertUnclaimed}, r.When) {
		row.AlertTypes = "All types"
	}
	if r.AfterMinutes > 0 {
		row.After = fmt.Sprintf("%d min", r.AfterMinutes)
	}
	if q := r.QuietHours; q != nil {
		row.Quiet = rules.FormatTimeOfDay(q.From) + "–" + rules.FormatTimeOfDay(q.To) + ", held until they end"
		if q.During == rules.QuietDrop {
			row.Quiet = rules.FormatTimeOfDay(q.From) + "–" + rules.FormatTimeOfDay(q.To) + `, "Battery low" and "Offline" dropped, the rest held`
		}
	}
	if r.DigestMinutes > 0 {
		row.Digest = fmt.Sprintf("one message %d min after the first item", r.DigestMinutes)
	}
	if page {
		row.RemoveHref = nameHref("rules", r.Name, "remove")
	}
	return row
}

// placeName names a rule's building and floor: "Whole account", "North
// Tower", "North Tower › Level 3"; an id the layout no longer has is
// shown as it is.
func placeName(places []dashboard.BuildingFloors, building, floor string) string {
	if building == "" {
		return "Whole account"
	}
	for _, p := range places {
		if p.Building.ID != building {
			continue
		}
		if floor == "" {
			return p.Building.Name
		}
		for _, f := range p.Floors {
			if f.ID == floor {
				return p.Building.Name + " › " + f.Name
			}
		}
		return p.Building.Name + " › floor " + floor + " (no longer in the layout)"
	}
	if floor != "" {
		return "building " + building + " › floor " + floor + " (no longer in the layout)"
	}
	return "building " + building + " (no longer in the layout)"
}

// logRow is a notification of the delivery log.
func logRow(n notifier.Delivery) views.LogRow {
	r := views.LogRow{Created: n.Created, What: n.Kind.Label(), Rule: n.Rule, State: n.State, Due: n.Due, Sent: n.Sent,
		Attempts: n.Attempts, Note: n.Note, Digest: n.Kind == notify.KindDigest}
	if r.Digest {
		r.What = "Digest of " + plural(n.Items, "item")
	}
	return r
}

// channelForm is the channel form as it was sent, and what is wrong with
// it, offering every kind of channel (notify.ChannelKinds); the defaults
// when nothing was sent.
func channelForm(in channelInput, problem *refusal) views.ChannelForm {
	f := views.ChannelForm{Name: in.name, Kind: in.kind, Values: in.values, Choices: map[string][]views.Option{}, Hints: map[string]string{}}
	kinds := notify.ChannelKinds()
	if _, ok := notify.FindChannelKind(in.kind); !ok && len(kinds) > 0 {
		f.Kind = kinds[0].Name
	}
	for _, k := range kinds {
		kind := views.ChannelKind{Name: k.Name, Label: k.Label}
		for _, field := range k.FormFields {
			kind.Fields = append(kind.Fields, views.KindField{Name: field.Name, Label: field.Label, Secret: field.Secret, List: field.Choices != nil})
			if field.Choices != nil {
				for _, c := range field.Choices() {
					f.Choices[field.Name] = append(f.Choices[field.Name], views.Option{Value: c.Value, Label: c.Label, Selected: in.values[field.Name] == c.Value})
				}
			}
			if field.Hint != nil {
				f.Hints[field.Name] = field.Hint()
			}
		}
		f.Kinds = append(f.Kinds, kind)
	}
	if problem != nil {
		f.Problem, f.Field = problem.msg, problem.field
	}
	return f
}

// ruleForm is the rule form as it was sent, and what is wrong with it,
// offering the account's places and every channel, the file's too.
func ruleForm(in ruleInput, problem *refusal, places []dashboard.BuildingFloors, set notifier.Settings) views.RuleForm {
	f := views.RuleForm{Name: in.name, After: in.after, QuietFrom: in.quietFrom, QuietTo: in.quietTo, QuietDrop: in.during == string(rules.QuietDrop), Digest: in.digest}
	for _, k := range notify.Kinds {
		f.Kinds = append(f.Kinds, views.Option{Value: string(k), Label: k.Label(), Selected: in.when == string(k)})
	}
	for _, t := range domain.AlertTypes {
		f.AlertTypes = append(f.AlertTypes, views.Option{Value: string(t), Label: t.Label(), Selected: slices.Contains(in.alertTypes, string(t))})
	}
	f.Places = append(f.Places, views.Option{Value: "", Label: "Whole account", Selected: in.where == ""})
	for _, p := range places {
		b := p.Building
		f.Places = append(f.Places, views.Option{Value: "building:" + b.ID, Label: b.Name, Selected: in.where == "building:"+b.ID})
		for _, fl := range p.Floors {
			f.Places = append(f.Places, views.Option{Value: "floor:" + fl.ID, Label: b.Name + " › " + fl.Name, Selected: in.where == "floor:"+fl.ID})
		}
	}
	for _, ch := range set.Page.Channels {
		f.Channels = append(f.Channels, views.Option{Value: ch.Name, Label: ch.Name, Selected: slices.Contains(in.channels, ch.Name)})
	}
	for _, ch := range set.File.Channels {
		f.Channels = append(f.Channels, views.Option{Value: ch.Name, Label: ch.Name + " (from the file)", Selected: slices.Contains(in.channels, ch.Name)})
	}
	if problem != nil {
		f.Problem, f.Field = problem.msg, problem.field
	}
	return f
}

// joinWords joins words as a sentence lists them: "a", "a and b",
// "a, b and c".
func joinWords(words []string) string { return listWords(words, " and ") }

// choiceWords joins words as a sentence offers them: "a", "a or b", "a, b
// or c".
func choiceWords(words []string) string { return listWords(words, " or ") }

func listWords(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}
