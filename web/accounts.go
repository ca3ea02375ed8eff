package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/views"
	"washboard/web/form"
)

// listAccounts lists the signed-in person's accounts, to switch between.
func (s *Server) listAccounts(c echo.Context) error {
	ss := sessionOf(c)
	all, err := s.people.AccountsOf(c.Request().Context(), ss.PersonID)
	if err != nil {
		return err
	}
	_, inOrganisation, err := s.people.OrganisationOf(c.Request().Context(), ss.PersonID)
	if err != nil {
		return err
	}
	m := views.AccountsPage{Page: s.page(c, tr(c, "account.list_heading"), ""), Portfolio: inOrganisation}
	for _, a := range all {
		m.Accounts = append(m.Accounts, views.AccountChoice{ID: a.Account, Name: a.Name, Role: a.Role, Current: a.Account == ss.Account,
			ByOrganisation: a.ByOrganisation})
	}
	return render(c, http.StatusOK, views.AccountsSwitcher(m))
}

// switchAccount moves the session to another of its person's accounts
// (their own, or their organisation's), with their role there, without
// signing in again, and goes to next (the overview by default).
func (s *Server) switchAccount(c echo.Context) error {
	ss := sessionOf(c)
	var account, next string
	if _, err := readForm(c, form.Text("account", tr(c, "org.account"), &account).Trim().Required().MaxChars(200), nextField(&next)); err != nil {
		return err
	}
	if err := s.enterAccount(c, ss, ss.PersonID, account); err != nil {
		return err
	}
	s.logOf(c).Info("switched account", "account", account)
	return redirect(c, returnPath(next, "/"))
}

// enterAccount signs the session's person in to another of their
// accounts: their membership there, and the credentials it is connected
// with. The session's hold on the previous account's sync ends.
func (s *Server) enterAccount(c echo.Context, ss session, personID, account string) error {
	ctx := c.Request().Context()
	m, err := s.people.Member(ctx, account, personID)
	if err != nil {
		return peopleProblemIn(c, err)
	}
	cred, err := s.people.Credentials(ctx, account)
	if err != nil {
		return peopleProblemIn(c, err)
	}
	name, err := s.people.AccountName(ctx, account)
	if err != nil {
		return err
	}
	p, err := s.people.Person(ctx, personID)
	if err != nil {
		return err
	}
	if ss.Holder != "" {
		s.sync.Release(holderID(ss.Holder))
	}
	s.putPerson(c, signedInPerson{person: p, membership: m.Membership, accountName: name, cred: cred, accounts: s.accountCount(c, personID)})
	return nil
}
