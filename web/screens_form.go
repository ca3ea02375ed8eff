package web

import (
	"fmt"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/web/form"
)

// The form of a wall screen on the Screens page.

// blankScreenForm is the form for a new screen, as it first shows.
func blankScreenForm() screenFormInput {
	return screenFormInput{Healths: []domain.Health{domain.HealthAction, domain.HealthOffline, domain.HealthAttention}, PageSeconds: 15, DimFrom: -1, DimTo: -1}
}

// screenFormInput is what the screen form holds.
type screenFormInput struct {
	ID          string
	Name        string
	Scope       string // account, building:{id} or floor:{id}
	Healths     []domain.Health
	PageSeconds int
	DimFrom     int // minutes; -1 for none
	DimTo       int
	Language    string // the code of the language the screen speaks
	Contact     string
	// Rounds shows the rounds running in the screen's place.
	Rounds bool
	// Plans is which floor plans it shows: "", domain.ScreenPlansBusy or
	// a floor's id.
	Plans string
	scope domain.ScreenScope
}

func (in screenFormInput) screen(account string) domain.Screen {
	return domain.Screen{Account: account, Name: in.Name, Scope: in.scope, Healths: in.Healths, PageSeconds: in.PageSeconds,
		DimFrom: in.DimFrom, DimTo: in.DimTo, Language: in.Language, Contact: in.Contact, Rounds: in.Rounds, Plans: in.Plans}
}

func scopeValue(sc domain.ScreenScope) string {
	if sc.Kind == "account" {
		return "account"
	}
	return sc.Kind + ":" + sc.ID
}

// readScreenForm reads and checks the screen form; problem says in words
// what is wrong with it.
func (s *Server) readScreenForm(c echo.Context, account string) (screenFormInput, string, error) {
	in := screenFormInput{DimFrom: -1, DimTo: -1}
	var healths []string
	var rounds string
	problem, err := readForm(c,
		form.Text("rounds", "Rounds", &rounds),
		form.Text("plans", "Floor plans", &in.Plans).Trim().MaxChars(100),
		form.Text("name", "Name", &in.Name).Trim().Required().MaxChars(80).Says(tr(c, "screens.problem_name")),
		form.Text("contact", "Contact", &in.Contact).Trim().MaxChars(120).Says(tr(c, "screens.problem_contact")),
		form.List("health", "Health states", &healths).Keep(healthValues()...).Required().Says(tr(c, "screens.problem_healths")),
		form.Number("page_seconds", "Page interval", &in.PageSeconds).Required().Range(5, 300).Says(tr(c, "screens.problem_page_seconds")),
		form.Span("dim", "Night dimming", &in.DimFrom, &in.DimTo).Says(tr(c, "screens.problem_dimming")),
		screenLanguageField(c, &in.Language),
		form.Text("scope", "Shows", &in.Scope))
	for _, v := range healths {
		h, _ := domain.ParseHealth(v)
		in.Healths = append(in.Healths, h)
	}
	in.Rounds = rounds == "on"
	if err != nil || problem != nil {
		return in, problemWords(problem), err
	}
	kind, id, _ := strings.Cut(in.Scope, ":")
	switch kind {
	case "account":
		if s.scopeOf(c).Limited() {
			return in, tr(c, "screens.problem_limited"), nil
		}
		in.scope = domain.ScreenScope{Kind: "account"}
	case "building", "floor":
		sc := dashboard.Scope{Building: id}
		if kind == "floor" {
			sc = dashboard.Scope{Floor: id}
		}
		if missing, err := s.dash.CheckScope(c.Request().Context(), account, s.scopeOf(c), sc); err != nil || missing != "" || id == "" {
			return in, tr(c, "screens.problem_place"), nil
		}
		in.scope = domain.ScreenScope{Kind: kind, ID: id}
	default:
		return in, tr(c, "screens.problem_scope"), nil
	}
	if ok, err := s.screenPlansFit(c, account, in); err != nil || !ok {
		return in, tr(c, "planshow.problem_floor"), err
	}
	return in, "", nil
}

// screenPlansFit reports whether the floor plans a screen is to show are
// none, the busy floors, or a floor of its place the person sees.
func (s *Server) screenPlansFit(c echo.Context, account string, in screenFormInput) (bool, error) {
	if in.Plans == "" || in.Plans == domain.ScreenPlansBusy {
		return true, nil
	}
	places, err := s.dash.ScreenScopes(c.Request().Context(), account, s.scopeOf(c))
	if err != nil {
		return false, err
	}
	for _, bf := range places {
		for _, f := range bf.Floors {
			if f.ID == in.Plans {
				return in.scope.Kind == "account" || in.scope.Kind == "building" && in.scope.ID == bf.Building.ID ||
					in.scope.Kind == "floor" && in.scope.ID == f.ID, nil
			}
		}
	}
	return false, nil
}

// screenLanguageField reads the language a screen speaks, one of those
// Washboard speaks; a form without one (sent by a page of an earlier
// version) keeps English.
func screenLanguageField(c echo.Context, code *string) *form.Field {
	return form.Text("language", "Language", code).OneOf(append([]string{""}, i18n.Codes()...)...).Says(tr(c, "screens.problem_language"))
}

// healthValues are the health states a screen may show, as the form
// names them.
func healthValues() []string {
	var vs []string
	for _, h := range domain.Healths {
		vs = append(vs, h.String())
	}
	return vs
}

func formatClock(m int) string {
	if m < 0 {
		return ""
	}
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}
