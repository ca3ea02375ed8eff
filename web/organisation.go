package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/views"
	"washboard/web/form"
)

// showOrganisation shows the person's organisation, its accounts and
// people; or, for a person of none, how to make one.
func (s *Server) showOrganisation(c echo.Context) error {
	m, err := s.organisationModel(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.OrganisationView(m))
}

func (s *Server) organisationModel(c echo.Context) (views.OrganisationPage, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	m := views.OrganisationPage{Page: s.page(c, tr(c, "org.heading"), ""), CurrentAccount: ss.AccountName}
	own, err := s.people.DirectMember(ctx, ss.Account, ss.PersonID)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return m, err
	}
	ownsAccount := own.Role == domain.Owner
	p, err := s.people.PortfolioOf(ctx, ss.PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		m.MayCreate = ownsAccount
		return m, nil
	}
	if err != nil {
		return m, err
	}
	m.Name, m.Role, m.Hidden = p.Organisation.Name, p.Role.Role, p.Hidden
	m.MayManage = p.Role.Role >= domain.Admin
	clients := map[string]string{}
	current := false
	for _, a := range p.Accounts {
		m.Accounts = append(m.Accounts, views.OrganisationAccountRow{ID: a.Account, Name: a.Name, Client: a.Client, Region: a.Region})
		clients[a.Account] = a.ClientName()
		current = current || a.Account == ss.Account
	}
	m.MayAddCurrent = m.MayManage && ownsAccount && !current
	for _, pm := range p.People {
		row := views.OrganisationPersonRow{ID: pm.PersonID, Name: pm.Name, Email: pm.Email, Role: pm.Role, Self: pm.PersonID == ss.PersonID,
			Accounts: tr(c, "org.every_account")}
		if len(pm.Accounts) > 0 {
			names := make([]string, 0, len(pm.Accounts))
			for _, id := range pm.Accounts {
				if n, ok := clients[id]; ok {
					names = append(names, n)
				}
			}
			row.Accounts = strings.Join(names, ", ")
			if hidden := len(pm.Accounts) - len(names); hidden > 0 {
				row.Accounts = strings.TrimPrefix(row.Accounts+", "+trn(c, "org.accounts_outside", hidden), ", ")
			}
		}
		m.People = append(m.People, row)
	}
	for _, r := range domain.Roles() {
		if r <= p.Role.Role {
			m.Grantable = append(m.Grantable, r)
		}
	}
	return m, nil
}

// refuseOrganisationChange shows the organisation's page again, saying why
// a change was not made.
func (s *Server) refuseOrganisationChange(c echo.Context, err error) error {
	if errors.Is(err, domain.ErrNotFound) {
		if _, in, _ := s.people.OrganisationOf(c.Request().Context(), sessionOf(c).PersonID); in {
			return errNotFound(tr(c, "org.not_found"))
		}
		return errNoOrganisation(c)
	}
	words := problemIn(c, err)
	if words == "" {
		return err
	}
	m, merr := s.organisationModel(c)
	if merr != nil {
		return merr
	}
	m.Error = words
	status := http.StatusUnprocessableEntity
	if errors.Is(err, domain.ErrForbidden) {
		status = http.StatusForbidden
	}
	return render(c, status, views.OrganisationView(m))
}

// createOrganisation makes an organisation of the session's account, its
// person (an owner of the account) its owner.
func (s *Server) createOrganisation(c echo.Context) error {
	ss := sessionOf(c)
	var name string
	if problem, err := readForm(c, textField(c, "name", tr(c, "org.name"), &name, domain.MaxOrganisationName).Required()); err != nil {
		return err
	} else if problem != nil {
		return s.refuseOrganisationChange(c, domain.Problem(problem.Msg))
	}
	o, err := s.people.CreateOrganisation(c.Request().Context(), ss.member(), name)
	if err != nil {
		return s.refuseOrganisationChange(c, err)
	}
	s.logOf(c).Info("made an organisation", "organisation", o.ID)
	return s.reenterOrganisation(c)
}

// reenterOrganisation marks the session as its person's in an
// organisation (the menu leads to its portfolio) and goes to its page.
// Their role in the account they are in is their own, as it was: they own
// it.
func (s *Server) reenterOrganisation(c echo.Context) error {
	s.markPortfolio(c, true)
	return redirect(c, "/organisation")
}

// markPortfolio says in the session whether its person belongs to an
// organisation.
func (s *Server) markPortfolio(c echo.Context, in bool) {
	ctx := c.Request().Context()
	s.sessions.Put(ctx, keyPortfolio, in)
	s.sessionChanged(ctx)
}

// addOrganisationAccount brings the session's account into the person's
// organisation.
func (s *Server) addOrganisationAccount(c echo.Context) error {
	ss := sessionOf(c)
	if _, err := readForm(c); err != nil {
		return err
	}
	if err := s.people.AddAccount(c.Request().Context(), ss.member()); err != nil {
		return s.refuseOrganisationChange(c, err)
	}
	s.logOf(c).Info("added an account to an organisation", "account", ss.Account)
	return s.reenterOrganisation(c)
}

// labelOrganisationAccount sets an account's client name and region.
func (s *Server) labelOrganisationAccount(c echo.Context) error {
	var client, region string
	if problem, err := readForm(c,
		textField(c, "client", tr(c, "org.client"), &client, domain.MaxClientName),
		textField(c, "region", tr(c, "org.region"), &region, domain.MaxRegion)); err != nil {
		return err
	} else if problem != nil {
		return s.refuseOrganisationChange(c, domain.Problem(problem.Msg))
	}
	err := s.people.LabelAccount(c.Request().Context(), sessionOf(c).PersonID, c.Param("id"), client, region)
	if err != nil {
		return s.refuseOrganisationChange(c, err)
	}
	return redirect(c, "/organisation")
}

// putOrganisationPerson gives a person a role in the organisation, or
// changes theirs; their sessions in its accounts end at once, on every
// replica.
func (s *Server) putOrganisationPerson(c echo.Context) error {
	ss := sessionOf(c)
	var email, roleWord string
	var accounts []string
	if problem, err := readForm(c,
		textField(c, "email", tr(c, "me.email"), &email, domain.MaxEmail).Required(),
		roleField(c, &roleWord),
		form.List("account", tr(c, "org.accounts"), &accounts).MaxChars(200).Says(tr(c, "org.accounts_unknown"))); err != nil {
		return err
	} else if problem != nil {
		return s.refuseOrganisationChange(c, domain.Problem(problem.Msg))
	}
	role, _ := domain.ParseRole(roleWord)
	ended, err := s.people.PutOrganisationPerson(c.Request().Context(), ss.PersonID, email, role, accounts)
	if err != nil {
		return s.refuseOrganisationChange(c, err)
	}
	s.endSessions(c, ended)
	s.logOf(c).Info("gave a role in an organisation", "role", role.String())
	if s.endedOwn(c, ended) {
		return s.endOwnSession(c)
	}
	return redirect(c, "/organisation")
}

// removeOrganisationPerson takes a person out of the organisation (or the
// person themselves leaves); their sessions in its accounts end.
func (s *Server) removeOrganisationPerson(c echo.Context) error {
	ss := sessionOf(c)
	if _, err := readForm(c); err != nil {
		return err
	}
	ended, err := s.people.RemoveOrganisationPerson(c.Request().Context(), ss.PersonID, c.Param("id"))
	if err != nil {
		return s.refuseOrganisationChange(c, err)
	}
	s.endSessions(c, ended)
	if s.endedOwn(c, ended) {
		return s.endOwnSession(c)
	}
	if c.Param("id") == ss.PersonID {
		return s.leftOrganisation(c)
	}
	return redirect(c, "/organisation")
}

// endedOwn reports whether the request's own session is among those
// ended.
func (s *Server) endedOwn(c echo.Context, ended []string) bool {
	token := s.sessions.Token(c.Request().Context())
	for _, t := range ended {
		if token != "" && t == storedToken(token) {
			return true
		}
	}
	return false
}

// leftOrganisation marks the session as its person's in no organisation,
// once they left it; their sessions in its accounts ended, so the account
// the session is in is not one of its, and their role there is their own.
func (s *Server) leftOrganisation(c echo.Context) error {
	s.markPortfolio(c, false)
	return redirect(c, "/accounts")
}
