package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// Claims: anyone signed in says "I'm on it" for an open alert at
// /alerts/{id}/claim, from the alerts page or a location's page, and can
// release the claim or hand it over. The name is remembered in the
// session for the next claim.

// keyClaimName is the session's value of the name last claimed with.
const keyClaimName = "claim_name"

// showClaim shows an open alert, who is on it, and the claim form.
func (s *Server) showClaim(c echo.Context) error {
	in := claimInput{Name: s.sessions.GetString(c.Request().Context(), keyClaimName), Back: c.QueryParam("back")}
	if ss := sessionOf(c); ss.PersonID != "" && (in.Name == "" || claimsAsThemselves(ss)) {
		in.Name = ss.PersonName
	}
	return s.renderClaim(c, http.StatusOK, in, "")
}

// claimInput is what the claim form holds, and the page to go back to.
type claimInput struct {
	Name, Note, Back string
}

// readClaim reads the claim form. Whether a name and a note will do is the
// dashboard's to say (dashboard.ClaimError).
func readClaim(c echo.Context) (claimInput, error) {
	var in claimInput
	_, err := readForm(c, form.Text("name", "Name", &in.Name), form.Text("note", "Note", &in.Note), backField(&in.Back))
	return in, err
}

// backField is the page to go back to, as the claim page's address or
// form gives it.
func backField(dst *string) *form.Field { return form.Text("back", "Back", dst) }

func (s *Server) renderClaim(c echo.Context, status int, in claimInput, problem string) error {
	ss := sessionOf(c)
	v, err := s.dash.ClaimOf(c.Request().Context(), ss.Account, s.scopeOf(c), c.Param("id"))
	if errors.Is(err, dashboard.ErrNoOpenAlert) {
		return render(c, http.StatusNotFound, views.ClaimGonePage(views.ClaimGone{Page: s.page(c, "Alert closed", "alerts"), Back: claimBack(in.Back)}))
	}
	if err != nil {
		return err
	}
	now := s.clock.Now()
	m := views.Claim{Page: s.page(c, "Who is on it", "alerts"), Back: claimBack(in.Back), Problem: problem, Name: in.Name, Note: in.Note,
		Alert: alertRow(v.Alert, v.Location, v.Places, now)}
	m.Page.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: "Alerts", Href: "/alerts"}, {Label: "Who is on it"}}
	if v.Claim.Name != "" {
		m.Alert.Claim = claimView(v.Claim)
	}
	m.NameFixed = claimsAsThemselves(ss)
	m.MayRelease = v.Claim.Name == "" || mayEndClaim(ss, v.Claim)
	m.Action = "/alerts/" + v.Alert.ID + "/claim"
	m.Release = "/alerts/" + v.Alert.ID + "/release"
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
	if claimsAsThemselves(ss) {
		in.Name = ss.PersonName // a name typed is not theirs to give
	}
	_, err = s.dash.Claim(ctx, ss.Account, s.scopeOf(c), c.Param("id"), in.Name, in.Note)
	var ce dashboard.ClaimError
	switch {
	case errors.As(err, &ce):
		return s.renderClaim(c, http.StatusUnprocessableEntity, in, ce.Error()+".")
	case errors.Is(err, dashboard.ErrNoOpenAlert):
		return s.renderClaim(c, http.StatusNotFound, in, "")
	case err != nil:
		return err
	}
	if name := strings.TrimSpace(in.Name); name != s.sessions.GetString(ctx, keyClaimName) {
		s.sessions.Put(ctx, keyClaimName, name)
		s.sessionChanged(ctx)
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
		return &httpkit.Error{Code: http.StatusForbidden, Msg: "This is " + v.Claim.Name + "'s claim: only they, or a supervisor, admin or owner, can end it."}
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

// claimsAsThemselves reports whether the session's person claims only in
// their own name: a person below supervisor (supervisors claim for
// others). A session of no person types a name, as before people.
func claimsAsThemselves(ss session) bool {
	return ss.PersonID != "" && ss.Role < domain.Supervisor
}

// mayEndClaim reports whether the session may end a claim: its own, or
// anyone's from supervisors up.
func mayEndClaim(ss session, c domain.Claim) bool {
	return ss.PersonID == "" || ss.Role >= domain.Supervisor || c.Name == ss.PersonName
}

// claimBack is the page to go back to: back when it is a path of this
// site (returnPath), else the alerts page.
func claimBack(back string) string { return returnPath(back, "/alerts") }
