package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/rules"
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
	if msg := s.sessions.PopString(c.Request().Context(), keyMeFlash); msg != "" {
		m.Flash = msg
		s.sessionChanged(c.Request().Context())
	}
	return render(c, http.StatusOK, views.PersonView(m))
}

// meModel is the person's page: who they are, their accounts, the open
// alerts of the current account they are on (claims in their name), and
// the notifications meant for them.
func (s *Server) meModel(c echo.Context) (views.PersonPage, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	m := views.PersonPage{Page: s.page(c, i18n.From(ctx).T("me.title"), "me")}
	p, err := s.people.Person(ctx, ss.PersonID)
	if err != nil {
		return m, err
	}
	m.Name, m.Email, m.Language = p.Name, p.Email, p.Language
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
	devices, err := s.people.EnrolledDevicesOf(ctx, ss.PersonID)
	if err != nil {
		return m, err
	}
	m.Devices = enrolledDeviceRows(devices)
	if m.Push, err = s.pushModel(ctx, ss.PersonID); err != nil {
		return m, err
	}
	page, err := s.dash.Alerts(ctx, s.scopeOf(c), dashboard.AlertsQuery{AlertFilter: dashboard.AlertFilter{Account: ss.Account, Status: domain.AlertOpen}}, maxClaimsShown)
	if err != nil {
		return m, err
	}
	now := s.clock.Now()
	for _, a := range page.Alerts.Alerts {
		if cl, ok := page.Claims[a.ID]; ok && cl.PersonID == ss.PersonID {
			row := alertRow(a, page.Alerts.Locations[a.LocationID], page.Alerts.Places, now)
			m.Claims = append(m.Claims, withClaims([]views.AlertRow{row}, page.Claims, "/me")...)
		}
	}
	m.Notifications, err = s.personNotifications(c, p.Email)
	return m, err
}

// personNotifications are the current account's notification rules that
// send to the person's e-mail address (rules.Account.Reaching), of their
// buildings; those of other buildings or the whole account are counted
// for a person limited to some, not listed.
func (s *Server) personNotifications(c echo.Context, email string) (views.PersonNotifications, error) {
	ss := sessionOf(c)
	n := views.PersonNotifications{Email: email, MayChange: ss.Role >= domain.Admin, Off: s.notifier == nil}
	if n.Off || email == "" {
		return n, nil
	}
	ctx := c.Request().Context()
	set, err := s.notifier.Settings(ctx, ss.Account)
	if err != nil {
		return n, err
	}
	sc := s.scopeOf(c)
	places, err := s.dash.ScreenScopes(ctx, ss.Account, sc)
	if err != nil {
		return n, err
	}
	for _, from := range []rules.Account{set.Page, set.File} {
		for _, r := range from.Reaching(email) {
			if !r.Rule.Within(sc) {
				n.Others++
				continue
			}
			row := ruleRow(c, r.Rule, places, false)
			row.Channels = strings.Join(r.Channels, ", ")
			n.Rules = append(n.Rules, row)
		}
	}
	return n, nil
}

// updateMe changes the person's own name and e-mail address.
func (s *Server) updateMe(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	var name, email string
	problem, err := readForm(c,
		form.Text("name", tr(c, "me.name"), &name).Trim().Required().MaxChars(domain.MaxPersonName),
		form.Text("email", tr(c, "me.email"), &email).Trim().MaxChars(domain.MaxEmail))
	if err != nil {
		return err
	}
	words := ""
	if problem != nil {
		words = problem.Msg
	} else if p, err := s.people.UpdatePerson(ctx, ss.PersonID, name, email); err != nil {
		if words = problemIn(c, err); words == "" {
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
