package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/views"
)

// Claims: anyone signed in says "I'm on it" for an open alert at
// /alerts/{id}/claim, from the alerts page or a location's page, and can
// release the claim or hand it over. The name is remembered in the
// session for the next claim.

// keyClaimName is the session's value of the name last claimed with.
const keyClaimName = "claim_name"

// showClaim shows an open alert, who is on it, and the claim form.
func (s *Server) showClaim(c echo.Context) error {
	return s.renderClaim(c, http.StatusOK, claimInput{Name: s.sessions.GetString(c.Request().Context(), keyClaimName)}, "")
}

// claimInput is what the claim form holds.
type claimInput struct {
	Name, Note string
}

func (s *Server) renderClaim(c echo.Context, status int, in claimInput, problem string) error {
	ss := sessionOf(c)
	v, err := s.dash.ClaimOf(c.Request().Context(), ss.Account, c.Param("id"))
	if errors.Is(err, dashboard.ErrNoOpenAlert) {
		return render(c, http.StatusNotFound, views.ClaimGonePage(views.ClaimGone{Page: s.page(c, "Alert closed", "alerts"), Back: claimBack(c)}))
	}
	if err != nil {
		return err
	}
	now := s.clock.Now()
	m := views.Claim{Page: s.page(c, "Who is on it", "alerts"), Back: claimBack(c), Problem: problem, Name: in.Name, Note: in.Note,
		Alert: alertRow(v.Alert, v.Location, v.Places, now)}
	m.Page.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: "Alerts", Href: "/alerts"}, {Label: "Who is on it"}}
	if v.Claim.Name != "" {
		m.Alert.Claim = claimView(v.Claim)
	}
	m.Action = "/alerts/" + v.Alert.ID + "/claim"
	m.Release = "/alerts/" + v.Alert.ID + "/release"
	return render(c, status, views.ClaimPage(m))
}

// claimAlert records who is on an alert, and goes back where the user
// came from.
func (s *Server) claimAlert(c echo.Context) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	in := claimInput{Name: c.FormValue("name"), Note: c.FormValue("note")}
	_, err := s.dash.Claim(ctx, ss.Account, c.Param("id"), in.Name, in.Note)
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
	return redirect(c, claimBack(c))
}

// releaseClaim ends the claim on an alert.
func (s *Server) releaseClaim(c echo.Context) error {
	ss := sessionOf(c)
	err := s.dash.Release(c.Request().Context(), ss.Account, c.Param("id"))
	if errors.Is(err, dashboard.ErrNoOpenAlert) {
		return s.renderClaim(c, http.StatusNotFound, claimInput{}, "")
	}
	if err != nil {
		return err
	}
	return redirect(c, claimBack(c))
}

// claimBack is the page to go back to: the back parameter when it is a
// path of this site (returnPath), else the alerts page.
func claimBack(c echo.Context) string {
	back := c.FormValue("back")
	if back == "" {
		back = c.QueryParam("back")
	}
	return returnPath(back, "/alerts")
}
