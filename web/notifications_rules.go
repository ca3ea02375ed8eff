package web

import (
	"errors"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/views"
	"washboard/web/form"
)

// The rules of the /notifications page: what the notifications are about.

// addRule adds a rule made with the form.
func (s *Server) addRule(c echo.Context) error {
	in, r, err := s.readRule(c)
	if err == nil {
		err = s.changeSettings(c, func(a *rules.Account) error {
			a.Rules = append(a.Rules, r)
			return nil
		})
	}
	return s.answerChange(c, err, notificationsState{rule: in}, "rule", r.Name, "added")
}

// removeRule removes a rule made on the page.
func (s *Server) removeRule(c echo.Context) error {
	return s.removeNamed(c, "rule", func(a *rules.Account, name string) error {
		sc := s.scopeOf(c)
		i := slices.IndexFunc(a.Rules, func(r rules.Rule) bool { return r.Name == name && r.Within(sc) })
		if i < 0 {
			return errNotFound(tr(c, "notif.no_such_rule"))
		}
		a.Rules = slices.Delete(a.Rules, i, i+1)
		return nil
	})
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
		places, err := s.dash.ScreenScopes(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c))
		if err != nil {
			placesErr = err
			return true
		}
		r.BuildingID, r.FloorID = findPlace(places, where)
		return r.BuildingID != ""
	}
	quiet := &rules.QuietHours{}
	problem, err := readForm(c,
		form.Text("name", tr(c, "notif.col_name"), &in.name).Trim(),
		form.Text("when", tr(c, "notif.col_when"), &in.when),
		form.List("alert_type", tr(c, "notif.col_alert_types"), &in.alertTypes).Check(func(t string) bool { return domain.AlertType(t).Known() }).
			Says(tr(c, "notif.alert_type_unknown")),
		form.Text("where", tr(c, "notif.col_where"), &in.where).Check(whereOf).
			Says(tr(c, "notif.where_unknown")),
		form.Number("after_minutes", tr(c, "notif.after_minutes"), &r.AfterMinutes).Trim().Typed(&in.after).
			Says(tr(c, "notif.after_not_number")),
		form.Number("digest_minutes", tr(c, "notif.digest_label"), &r.DigestMinutes).Trim().Typed(&in.digest).
			Says(tr(c, "notif.digest_not_number")),
		form.Span("quiet", tr(c, "notif.col_quiet"), &quiet.From, &quiet.To).Typed(&in.quietFrom, &in.quietTo),
		form.Text("quiet_during", tr(c, "notif.quiet_during"), &in.during),
		form.List("channel", tr(c, "notif.col_channels"), &in.channels))
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
	case !r.Within(s.scopeOf(c)):
		return in, r, &refusal{"where", tr(c, "notif.where_limited")}
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
			field, label = "name", tr(c, "notif.col_name")
		case f == "when":
			field, label = "when", tr(c, "notif.col_when")
		case strings.HasPrefix(f, "alert_types"):
			field, label = "alert_type", tr(c, "notif.col_alert_types")
		case f == "building_id" || f == "floor_id":
			field, label = "where", tr(c, "notif.col_where")
		case f == "after_minutes":
			field, label = "after_minutes", tr(c, "notif.after_minutes")
		case strings.HasPrefix(f, "quiet_hours"):
			field, label = "quiet", tr(c, "notif.col_quiet")
		case f == "digest_minutes":
			field, label = "digest_minutes", tr(c, "notif.digest_label")
		case strings.HasPrefix(f, "channels"):
			field, label = "channel", tr(c, "notif.col_channels")
		}
		return in, r, &refusal{field, labelled(c, label, re)}
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

// ruleRow is a rule in words, its places by name.
func ruleRow(c echo.Context, r rules.Rule, places []dashboard.BuildingFloors, page bool) views.RuleRow {
	loc := i18n.From(c.Request().Context())
	row := views.RuleRow{Name: r.Name, When: r.When.LabelIn(loc), Where: placeName(c, places, r.BuildingID, r.FloorID), Channels: strings.Join(r.Channels, ", ")}
	var types []string
	for _, t := range r.AlertTypes {
		types = append(types, notify.AlertTypeIn(loc, t))
	}
	row.AlertTypes = strings.Join(types, ", ")
	if len(types) == 0 && slices.Contains([]notify.Kind{notify.AlertOpened, notify.AlertOverdue, notify.AlertUnclaimed, notify.AlertAtRisk}, r.When) {
		row.AlertTypes = tr(c, "notif.all_types")
	}
	if r.AfterMinutes > 0 {
		row.After = tr(c, "notif.minutes", "minutes", loc.Number(r.AfterMinutes))
	}
	if q := r.QuietHours; q != nil {
		span := rules.FormatTimeOfDay(q.From) + "–" + rules.FormatTimeOfDay(q.To)
		row.Quiet = tr(c, "notif.quiet_held", "span", span)
		if q.During == rules.QuietDrop {
			row.Quiet = tr(c, "notif.quiet_dropped", "span", span)
		}
	}
	if r.DigestMinutes > 0 {
		row.Digest = tr(c, "notif.digest_every", "minutes", loc.Number(r.DigestMinutes))
	}
	if page {
		row.RemoveHref = nameHref("rules", r.Name, "remove")
	}
	return row
}

// placeName names a rule's building and floor: "Whole account", "North
// Tower", "North Tower › Level 3"; an id the layout no longer has is
// shown as it is.
func placeName(c echo.Context, places []dashboard.BuildingFloors, building, floor string) string {
	if building == "" {
		return tr(c, "notif.whole_account")
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
		return tr(c, "notif.floor_gone", "building", p.Building.Name, "floor", floor)
	}
	if floor != "" {
		return tr(c, "notif.building_floor_gone", "building", building, "floor", floor)
	}
	return tr(c, "notif.building_gone", "building", building)
}

// ruleForm is the rule form as it was sent, and what is wrong with it,
// offering the places the person sees (the whole account to a person of
// every building) and every channel, the file's too.
func ruleForm(c echo.Context, in ruleInput, problem *refusal, places []dashboard.BuildingFloors, wholeAccount bool, set notifier.Settings) views.RuleForm {
	loc := i18n.From(c.Request().Context())
	f := views.RuleForm{Name: in.name, After: in.after, QuietFrom: in.quietFrom, QuietTo: in.quietTo, QuietDrop: in.during == string(rules.QuietDrop), Digest: in.digest}
	for _, k := range notify.Kinds {
		f.Kinds = append(f.Kinds, views.Option{Value: string(k), Label: k.LabelIn(loc), Selected: in.when == string(k)})
	}
	for _, t := range domain.AlertTypes {
		f.AlertTypes = append(f.AlertTypes, views.Option{Value: string(t), Label: notify.AlertTypeIn(loc, t), Selected: slices.Contains(in.alertTypes, string(t))})
	}
	if wholeAccount {
		f.Places = append(f.Places, views.Option{Value: "", Label: tr(c, "notif.whole_account"), Selected: in.where == ""})
	}
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
		f.Channels = append(f.Channels, views.Option{Value: ch.Name, Label: tr(c, "notif.channel_of_file", "name", ch.Name), Selected: slices.Contains(in.channels, ch.Name)})
	}
	if problem != nil {
		f.Problem, f.Field = problem.msg, problem.field
	}
	return f
}
