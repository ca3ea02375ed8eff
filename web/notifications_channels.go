package web

import (
	"cmp"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// The channels of the /notifications page: where the notifications go.

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
	if made, ok := ch.Settings.(notify.ShownOnce); err == nil && ok && made.MadeSecret() != "" {
		s.logOf(c).Info("notification channel added", "channel", ch.Name)
		s.audit(c, domain.AuditChannelAdded, ch.Name)
		c.Response().Header().Set("Cache-Control", "no-store")
		return s.showNotifications(c, http.StatusOK, notificationsState{
			secret: &views.NewChannelSecret{Channel: ch.Name, Secret: made.MadeSecret()}})
	}
	return s.answerChange(c, err, notificationsState{channel: in}, "channel", ch.Name, "added")
}

// removeChannel removes a channel made on the page, unless a rule still
// sends to it.
func (s *Server) removeChannel(c echo.Context) error {
	return s.removeNamed(c, "channel", func(a *rules.Account, name string) error {
		i := slices.IndexFunc(a.Channels, func(ch rules.Channel) bool { return ch.Name == name })
		if i < 0 {
			return errNotFound(tr(c, "notif.no_such_channel"))
		}
		var users []string
		for _, r := range a.Rules {
			if slices.Contains(r.Channels, name) {
				users = append(users, strconv.Quote(r.Name))
			}
		}
		if len(users) > 0 {
			return &refusal{msg: trn(c, "notif.channel_in_use", len(users), "name", strconv.Quote(name), "rules", joinWords(c, users))}
		}
		a.Channels = slices.Delete(a.Channels, i, i+1)
		return nil
	})
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
		return s.flashNotificationsFailure(c, tr(c, "notif.flash_test", "name", strconv.Quote(name), "result", msg))
	}
	return s.flashNotifications(c, tr(c, "notif.flash_test", "name", strconv.Quote(name), "result", msg))
}

// channelInput is what the channel form holds, as typed, but for what a
// kind of channel never shows again (notify.FormField.Secret): a
// password, a webhook's address and its secret.
type channelInput struct {
	name, kind, language string
	values               map[string]string // by the form's field
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
	loc := i18n.From(c.Request().Context())
	in := channelInput{values: map[string]string{}}
	kinds := notify.ChannelKinds()
	var names, labels []string
	for _, k := range kinds {
		names, labels = append(names, k.Name), append(labels, inSentence(loc, k.LabelIn(loc)))
	}
	fields := []*form.Field{
		form.Text("name", tr(c, "notif.col_name"), &in.name).Trim(),
		form.Text("language", tr(c, "notif.channel_language"), &in.language).OneOf(i18n.Codes()...).
			Says(tr(c, "notif.language_choose", "languages", choiceWords(c, languageNames()))),
		form.Text("kind", tr(c, "notif.sends_by"), &in.kind).Required().OneOf(names...).
			Says(tr(c, "notif.kind_choose", "kinds", choiceWords(c, labels))),
	}
	typed := map[string]*string{} // what a kind's fields show again: not its secrets
	for _, k := range kinds {
		for _, f := range k.FormFields {
			if _, ok := typed[f.Name]; !ok && !f.Secret {
				typed[f.Name] = new(string)
				fields = append(fields, form.Text(f.Name, f.LabelIn(loc), typed[f.Name]))
			}
		}
	}
	problem := form.ReadIn(loc, values, fields...)
	for name, v := range typed {
		if *v != "" {
			in.values[name] = *v
		}
	}
	// A form sent without a language makes a channel in its creator's.
	ch := rules.Channel{Name: in.name, Language: cmp.Or(in.language, loc.Lang())}
	if problem != nil {
		return in, ch, &refusal{problem.Field, problem.Msg}
	}
	kind, _ := notify.FindChannelKind(in.kind)
	if ch.Settings, err = kind.ReadForm(values); err != nil {
		var fe *notify.FieldError
		if errors.As(err, &fe) {
			return in, ch, &refusal{fe.Field, fe.MsgIn(loc)}
		}
		return in, ch, err
	}
	var re *rules.Error
	if err := ch.Validate(); errors.As(err, &re) {
		field, label := "", ""
		switch setting, ok := strings.CutPrefix(re.Field, kind.Name+"."); {
		case re.Field == "name":
			field, label = "name", tr(c, "notif.col_name")
		case re.Field == "language":
			field, label = "language", tr(c, "notif.channel_language")
		case ok:
			field, label = kind.FormFieldOf(setting)
			if f := slices.IndexFunc(kind.FormFields, func(ff notify.FormField) bool { return ff.Name == field }); f >= 0 {
				label = kind.FormFields[f].LabelIn(loc)
			}
		}
		return in, ch, &refusal{field, labelled(c, label, re)}
	}
	return in, ch, nil
}

// channelRow is a channel in words, without its secrets.
func channelRow(c echo.Context, id string, ch rules.Channel, page bool) views.ChannelRow {
	what := strings.TrimPrefix(ch.String(), ch.Name+": ")
	if d, ok := ch.Settings.(notify.Detailed); ok {
		what = d.Details()
	}
	if d, ok := ch.Settings.(notify.Described); ok {
		what = d.DescribeIn(i18n.From(c.Request().Context()))
	}
	r := views.ChannelRow{ID: id, Name: ch.Name, What: what, Language: languageName(ch.Language), TestHref: nameHref("channels", ch.Name, "test")}
	if page {
		r.RemoveHref = nameHref("channels", ch.Name, "remove")
	}
	return r
}

// channelForm is the channel form as it was sent, and what is wrong with
// it, offering every kind of channel (notify.ChannelKinds); the defaults
// when nothing was sent.
func channelForm(c echo.Context, in channelInput, problem *refusal) views.ChannelForm {
	loc := i18n.From(c.Request().Context())
	f := views.ChannelForm{Name: in.name, Kind: in.kind, Values: in.values, Choices: map[string][]views.Option{}, Hints: map[string]string{}}
	// The creator's language, unless they sent another.
	language := cmp.Or(in.language, loc.Lang())
	for _, l := range i18n.Languages {
		f.Languages = append(f.Languages, views.Option{Value: l.Code, Label: l.Name, Selected: l.Code == language})
	}
	kinds := notify.ChannelKinds()
	if _, ok := notify.FindChannelKind(in.kind); !ok && len(kinds) > 0 {
		f.Kind = kinds[0].Name
	}
	for _, k := range kinds {
		kind := views.ChannelKind{Name: k.Name, Label: k.LabelIn(loc)}
		for _, field := range k.FormFields {
			kind.Fields = append(kind.Fields, views.KindField{Name: field.Name, Label: field.LabelIn(loc), Secret: field.Secret, List: field.Choices != nil})
			if field.Choices != nil {
				for _, ch := range field.Choices(loc) {
					f.Choices[field.Name] = append(f.Choices[field.Name], views.Option{Value: ch.Value, Label: ch.Label, Selected: in.values[field.Name] == ch.Value})
				}
			}
			if field.Hint != nil {
				f.Hints[field.Name] = field.Hint(loc)
			}
		}
		f.Kinds = append(f.Kinds, kind)
	}
	if problem != nil {
		f.Problem, f.Field = problem.msg, problem.field
	}
	return f
}

// languageName is a language in its own words, "Deutsch"; English's for
// a channel that has none.
func languageName(code string) string {
	for _, l := range i18n.Languages {
		if l.Code == code {
			return l.Name
		}
	}
	return i18n.Languages[0].Name
}

// languageNames are the languages Washboard speaks, each in its own words.
func languageNames() []string {
	var out []string
	for _, l := range i18n.Languages {
		out = append(out, l.Name)
	}
	return out
}

// inSentence is a label as a sentence says it: "e-mail", "push to
// phones"; German, which writes its nouns with a capital, as it is.
func inSentence(loc *i18n.Localizer, label string) string {
	if loc.Lang() == "de" {
		return label
	}
	first, size := utf8.DecodeRuneInString(label)
	return string(unicode.ToLower(first)) + label[size:]
}
