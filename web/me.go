package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/views"
	"washboard/web/form"
)

// maxClaimsShown bounds the alerts /me lists: at most this many open
// alerts of the account are looked through.
const maxClaimsShown = 500

// showMe is the signed-in person's own page.
func (s *Server) showMe(c echo.Context) error {
	m, err := s.meModel(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PersonView(m))
}

// meModel is the person's page: who they are, their accounts, and the
// open alerts of the current account they are on.
func (s *Server) meModel(c echo.Context) (views.PersonPage, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	m := views.PersonPage{Page: s.page(c, "Your page", "me")}
	p, err := s.people.Person(ctx, ss.PersonID)
	if err != nil {
		return m, err
	}
	m.Name, m.Email = p.Name, p.Email
	if m.Passkeys, err = s.passkeysModel(c, p.ID); err != nil {
		return m, err
	}
	if c.QueryParam("welcome") != "" {
		m.Passkeys.Welcome = ss.AccountName
	}
	accounts, err := s.people.AccountsOf(ctx, ss.PersonID)
	if err != nil {
		return m, err
	}
	for _, a := range accounts {
		m.Accounts = append(m.Accounts, views.AccountChoice{ID: a.Account, Name: a.Name, Role: a.Role, Current: a.Account == ss.Account})
	}
	page, err := s.dash.Alerts(ctx, s.scopeOf(c), dashboard.AlertsQuery{AlertFilter: dashboard.AlertFilter{Account: ss.Account, Status: domain.AlertOpen}}, maxClaimsShown)
	if err != nil {
		return m, err
	}
	now := s.clock.Now()
	for _, a := range page.Alerts.Alerts {
		if cl, ok := page.Claims[a.ID]; ok && cl.Name == ss.PersonName {
			row := alertRow(a, page.Alerts.Locations[a.LocationID], page.Alerts.Places, now)
			m.Claims = append(m.Claims, withClaims([]views.AlertRow{row}, page.Claims, "/me")...)
		}
	}
	return m, nil
}

// updateMe changes the person's own name and e-mail address.
func (s *Server) updateMe(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	var name, email string
	problem, err := readForm(c,
		form.Text("name", "Name", &name).Trim().Required().MaxChars(domain.MaxPersonName),
		form.Text("email", "E-mail address", &email).Trim().MaxChars(domain.MaxEmail))
	if err != nil {
		return err
	}
	words := ""
	if problem != nil {
		words = problem.Msg
	} else if p, err := s.people.UpdatePerson(ctx, ss.PersonID, name, email); err != nil {
		if words = peopleWords(err); words == "" {
			return err
		}
	} else {
		s.sessions.Put(ctx, keyPersonName, p.Name)
		s.sessionChanged(ctx)
		return redirect(c, "/me")
	}
	m, err := s.meModel(c)
	if err != nil {
		return err
	}
	m.Name, m.Email, m.Error = name, email, words
	return render(c, http.StatusUnprocessableEntity, views.PersonView(m))
}
