package web

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
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
			return errNotFound("There is no rule of that name made on this page.")
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
	case !r.Within(s.scopeOf(c)):
		return in, r, &refusal{"where", "Where: your role is limited to some buildings; choose one of them, or a floor of one."}
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

// ruleRow is a rule in words, its places by name.
func ruleRow(r rules.Rule, places []dashboard.BuildingFloors, page bool) views.RuleRow {
	row := views.RuleRow{Name: r.Name, When: r.When.Label(), Where: placeName(places, r.BuildingID, r.FloorID), Channels: strings.Join(r.Channels, ", ")}
	var types []string
	for _, t := range r.AlertTypes {
		types = append(types, t.Label())
	}
	row.AlertTypes = strings.Join(types, ", ")
	if len(types) == 0 && slices.Contains([]notify.Kind{notify.AlertOpened, notify.AlertOverdue, notify.AlertUnclaimed, notify.AlertAtRisk}, r.When) {
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

// ruleForm is the rule form as it was sent, and what is wrong with it,
// offering the places the person sees (the whole account to a person of
// every building) and every channel, the file's too.
func ruleForm(in ruleInput, problem *refusal, places []dashboard.BuildingFloors, wholeAccount bool, set notifier.Settings) views.RuleForm {
	f := views.RuleForm{Name: in.name, After: in.after, QuietFrom: in.quietFrom, QuietTo: in.quietTo, QuietDrop: in.during == string(rules.QuietDrop), Digest: in.digest}
	for _, k := range notify.Kinds {
		f.Kinds = append(f.Kinds, views.Option{Value: string(k), Label: k.Label(), Selected: in.when == string(k)})
	}
	for _, t := range domain.AlertTypes {
		f.AlertTypes = append(f.AlertTypes, views.Option{Value: string(t), Label: t.Label(), Selected: slices.Contains(in.alertTypes, string(t))})
	}
	if wholeAccount {
		f.Places = append(f.Places, views.Option{Value: "", Label: "Whole account", Selected: in.where == ""})
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
		f.Channels = append(f.Channels, views.Option{Value: ch.Name, Label: ch.Name + " (from the file)", Selected: slices.Contains(in.channels, ch.Name)})
	}
	if problem != nil {
		f.Problem, f.Field = problem.msg, problem.field
	}
	return f
}
