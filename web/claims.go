package web

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// Claims: a person says "I'm on it" for an open alert at
// /alerts/{id}/claim, from the alerts page or a location's page, and can
// release the claim or hand it over. A claim belongs to a person: staff
// claim in their own name; supervisors and above put one of the
// account's people who see the alert's building on it, themselves by
// default. (Every request has a person: a session signed in before
// people existed is given one on its first request.)

// showClaim shows an open alert, who is on it, and the claim form.
func (s *Server) showClaim(c echo.Context) error {
	return s.renderClaim(c, http.StatusOK, claimInput{Person: sessionOf(c).PersonID, Back: c.QueryParam("back")}, "")
}

// claimInput is what the claim form holds, and the page to go back to:
// the id of the person chosen, for supervisors and above.
type claimInput struct {
	Person, Note, Back string
}

// readClaim reads the claim form. Whether a note will do is the
// dashboard's to say (dashboard.ClaimError); whether the person chosen
// may be on the alert, the people service's (people.Claimant).
func readClaim(c echo.Context) (claimInput, error) {
	var in claimInput
	_, err := readForm(c, form.Text("person", "Person", &in.Person), form.Text("note", "Note", &in.Note), backField(&in.Back))
	return in, err
}

// backField is the page to go back to, as the claim page's address or
// form gives it.
func backField(dst *string) *form.Field { return form.Text("back", "Back", dst) }

func (s *Server) renderClaim(c echo.Context, status int, in claimInput, problem string) error {
	ss := sessionOf(c)
	v, err := s.dash.ClaimOf(c.Request().Context(), ss.Account, s.scopeOf(c), c.Param("id"))
	if errors.Is(err, dashboard.ErrNoOpenAlert) {
		return render(c, http.StatusNotFound, views.ClaimGonePage(views.ClaimGone{Page: s.page(c, tr(c, "alerts.gone_title"), "alerts"), Back: claimBack(in.Back)}))
	}
	if err != nil {
		return err
	}
	now := s.clock.Now()
	m := views.Claim{Page: s.page(c, tr(c, "format.col_who"), "alerts"), Back: claimBack(in.Back), Problem: problem, Name: ss.PersonName, Note: in.Note,
		Alert: alertRow(v.Alert, v.Location, v.Places, now)}
	m.Alert.Level = levelView(v.Level, v.LevelOK)
	m.Page.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: tr(c, "nav.alerts"), Href: "/alerts"}, {Label: tr(c, "format.col_who")}}
	if v.Claim.Name != "" {
		m.Alert.Claim = claimView(v.Claim)
	}
	m.NameFixed = claimsAsThemselves(ss)
	if claimsForOthers(ss) {
		people, err := s.people.Claimants(c.Request().Context(), ss.Account, v.Building())
		if err != nil {
			return err
		}
		m.People = []views.Option{}
		for _, p := range people {
			m.People = append(m.People, views.Option{Value: p.PersonID, Label: p.Name, Selected: p.PersonID == in.Person})
		}
	}
	if claimsForOthers(ss) && v.Done.Name != "" {
		m.Done, m.DoneContradicted = doneWords(c, v.Done, s.cfg.Zone), v.Contradicted
		if v.Contradicted {
			m.Done = tr(c, "alerts.done_contradicted", "done", m.Done)
		}
	}
	m.MayRelease = v.Claim.Name == "" || mayEndClaim(ss, v.Claim)
	m.Action = "/alerts/" + v.Alert.ID + "/claim"
	m.Release = "/alerts/" + v.Alert.ID + "/release"
	if v.Alert.Visitor != nil && ss.Role >= domain.Supervisor {
		m.CloseReport = "/alerts/" + v.Alert.ID + "/close"
	}
	return render(c, status, views.ClaimPage(m))
}

// claimAlert records who is on an alert, and goes back where the user
// came from.
func (s *Server) claimAlert(c echo.Context) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	in, err := readClaim(c)
	if err != nil {
		return err
	}
	who, err := s.claimant(c, in)
	if words := problemIn(c, err); words != "" {
		return s.renderClaim(c, http.StatusUnprocessableEntity, in, words)
	}
	if errors.Is(err, dashboard.ErrNoOpenAlert) {
		return s.renderClaim(c, http.StatusNotFound, in, "")
	}
	if err != nil {
		return err
	}
	who.Note = in.Note
	_, err = s.dash.Claim(ctx, ss.Account, s.scopeOf(c), c.Param("id"), who)
	var ce dashboard.ClaimError
	switch {
	case errors.As(err, &ce):
		return s.renderClaim(c, http.StatusUnprocessableEntity, in, claimProblem(c, ce))
	case errors.Is(err, dashboard.ErrNoOpenAlert):
		return s.renderClaim(c, http.StatusNotFound, in, "")
	case err != nil:
		return err
	}
	return redirect(c, claimBack(in.Back))
}

// releaseClaim ends the claim on an alert.
func (s *Server) releaseClaim(c echo.Context) error {
	ss := sessionOf(c)
	var in claimInput
	if _, err := readForm(c, backField(&in.Back)); err != nil {
		return err
	}
	sc := s.scopeOf(c)
	if v, err := s.dash.ClaimOf(c.Request().Context(), ss.Account, sc, c.Param("id")); err == nil && v.Claim.Name != "" && !mayEndClaim(ss, v.Claim) {
		return &httpkit.Error{Code: http.StatusForbidden, Msg: tr(c, "alerts.not_yours", "name", v.Claim.Name)}
	}
	err := s.dash.Release(c.Request().Context(), ss.Account, sc, c.Param("id"))
	if errors.Is(err, dashboard.ErrNoOpenAlert) {
		return s.renderClaim(c, http.StatusNotFound, in, "")
	}
	if err != nil {
		return err
	}
	return redirect(c, claimBack(in.Back))
}

// claimProblem says why a claim's name or note cannot be kept, in the
// reader's language.
func claimProblem(c echo.Context, ce dashboard.ClaimError) string {
	note := ce.Field == dashboard.ClaimNote
	switch {
	case ce.Reason == dashboard.ClaimNeeded:
		return tr(c, "alerts.name_needed")
	case ce.Reason == dashboard.ClaimNotText && note:
		return tr(c, "alerts.note_not_text")
	case ce.Reason == dashboard.ClaimNotText:
		return tr(c, "alerts.name_not_text")
	case ce.Reason == dashboard.ClaimControlChars && note:
		return tr(c, "alerts.note_control")
	case ce.Reason == dashboard.ClaimControlChars:
		return tr(c, "alerts.name_control")
	case note && ce.Reason == fmt.Sprintf(dashboard.ClaimTooLong, domain.MaxClaimNote):
		return tr(c, "alerts.note_too_long", "limit", i18n.From(c.Request().Context()).Number(domain.MaxClaimNote))
	case ce.Reason == fmt.Sprintf(dashboard.ClaimTooLong, domain.MaxClaimName):
		return tr(c, "alerts.name_too_long", "limit", i18n.From(c.Request().Context()).Number(domain.MaxClaimName))
	}
	return ce.Error() + "."
}

// claimant is whom the claim form puts on the alert: the session's
// person, for staff (whatever the form says); the person chosen, for
// supervisors and above, when they may be on it (a domain.Problem in
// words otherwise).
func (s *Server) claimant(c echo.Context, in claimInput) (dashboard.NewClaim, error) {
	ss := sessionOf(c)
	if !claimsForOthers(ss) {
		return dashboard.NewClaim{PersonID: ss.PersonID, Name: ss.PersonName}, nil
	}
	ctx := c.Request().Context()
	v, err := s.dash.ClaimOf(ctx, ss.Account, s.scopeOf(c), c.Param("id"))
	if err != nil {
		return dashboard.NewClaim{}, err
	}
	m, err := s.people.Claimant(ctx, ss.Account, in.Person, v.Building())
	return dashboard.NewClaim{PersonID: m.PersonID, Name: m.Name}, err
}

// claimsAsThemselves reports whether the session's person claims only in
// their own name: a person below supervisor.
func claimsAsThemselves(ss session) bool { return !claimsForOthers(ss) }

// claimsForOthers reports whether the session's person puts one of the
// account's people on an alert: supervisors and above.
func claimsForOthers(ss session) bool { return ss.Role >= domain.Supervisor }

// mayEndClaim reports whether the session may end a claim: its own, or
// anyone's from supervisors up. A claim of a name typed (made before
// claims belonged to people) is its own when the name is the person's.
func mayEndClaim(ss session, c domain.Claim) bool {
	switch {
	case ss.Role >= domain.Supervisor:
		return true
	case c.PersonID != "":
		return c.PersonID == ss.PersonID
	}
	return c.Name == ss.PersonName
}

// claimBack is the page to go back to: back when it is a path of this
// site (returnPath), else the alerts page.
func claimBack(back string) string { return returnPath(back, "/alerts") }

// closeVisitorReport closes a visitor's report by hand, a supervisor's
// word that it needs nothing more, and goes back where the user came
// from.
func (s *Server) closeVisitorReport(c echo.Context) error {
	var in claimInput
	if _, err := readForm(c, backField(&in.Back)); err != nil {
		return err
	}
	err := s.dash.CloseVisitorAlert(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c), c.Param("id"))
	if errors.Is(err, dashboard.ErrNoOpenAlert) {
		return s.renderClaim(c, http.StatusNotFound, in, "")
	}
	if err != nil {
		return err
	}
	return redirect(c, claimBack(in.Back))
}
