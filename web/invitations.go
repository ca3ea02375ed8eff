package web

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/form"
)

// showInvitation shows who invites to which account with which role, and
// asks the name of who accepts; or says why the link cannot be used. The
// token is in the address only: the request log redacts it.
func (s *Server) showInvitation(c echo.Context) error {
	m, status, err := s.invitationModel(c, c.Param("token"))
	if err != nil {
		return err
	}
	return render(c, status, views.Invitation(m))
}

// invitationModel is the page of an invitation's token, and its status:
// 404 for a token not known, 410 for one that was used, withdrew or
// expired.
func (s *Server) invitationModel(c echo.Context, token string) (views.InvitationPage, int, error) {
	ctx := c.Request().Context()
	m := views.InvitationPage{Page: s.page(c, tr(c, "invite.title"), "")}
	inv, err := s.people.Invitation(ctx, token)
	if status, ok := invitationStatus(err); ok {
		m.Problem = problemIn(c, err)
		return m, status, nil
	}
	if err != nil {
		return m, 0, err
	}
	m.Token, m.Role, m.MadeBy, m.Expires, m.Email = token, inv.Role, inv.MadeByName, inv.Expires, inv.Email
	if m.Account, err = s.people.AccountName(ctx, inv.Account); err != nil {
		return m, 0, err
	}
	if m.Buildings, err = s.buildingNames(ctx, inv.Account, inv.Buildings); err != nil {
		return m, 0, err
	}
	if ss, ok := s.currentSession(ctx); ok && ss.PersonID != "" {
		m.SignedInAs = ss.PersonName
	}
	return m, http.StatusOK, nil
}

// invitationStatus is the status of a page saying why an invitation
// cannot be used; false for an error that is not one of those.
func invitationStatus(err error) (int, bool) {
	switch {
	case errors.Is(err, domain.ErrInvitationUnknown):
		return http.StatusNotFound, true
	case errors.Is(err, domain.ErrInvitationUsed), errors.Is(err, domain.ErrInvitationExpired), errors.Is(err, domain.ErrInvitationWithdrawn):
		return http.StatusGone, true
	case errors.Is(err, domain.ErrAlreadyMember):
		return http.StatusConflict, true
	}
	return 0, false
}

// buildingNames names the buildings of an account, in the order given; a
// building the cache does not know keeps its id.
func (s *Server) buildingNames(ctx context.Context, account string, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	all, err := s.dash.Buildings(ctx, account, domain.EveryBuilding()) // the invitation's, whoever reads it
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(all))
	for _, b := range all {
		names[b.ID] = b.Name
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if n := names[id]; n != "" {
			out = append(out, n)
		} else {
			out = append(out, id)
		}
	}
	return out, nil
}

// acceptInvitation accepts an invitation: a new person with the name
// given, or the person the browser is signed in as, joins the account,
// and the browser is signed in to it.
func (s *Server) acceptInvitation(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	var name string
	problem, err := readForm(c, textField(c, "name", tr(c, "signin.your_name"), &name, domain.MaxPersonName))
	if err != nil {
		return err
	}
	ss, _ := s.currentSession(ctx)
	in := people.Acceptance{PersonID: ss.PersonID, Name: name}
	if problem == nil && in.PersonID == "" && name == "" {
		problem = &form.Problem{Field: "name", Label: tr(c, "signin.your_name"), Rule: form.Missing, Msg: tr(c, "invite.name_missing")}
	}
	if problem != nil {
		return s.refuseInvitation(c, token, name, problem.Msg)
	}
	p, membership, err := s.people.AcceptInvitation(ctx, token, in)
	var pr domain.Problem
	switch status, ok := invitationStatus(err); {
	case ok:
		m := views.InvitationPage{Page: s.page(c, tr(c, "invite.title"), ""), Problem: problemIn(c, err)}
		return render(c, status, views.Invitation(m))
	case errors.As(err, &pr) && in.PersonID == "" && !errors.Is(err, domain.ErrEmailTaken):
		return s.refuseInvitation(c, token, name, problemIn(c, err))
	case err != nil:
		return peopleProblemIn(c, err)
	}
	cred, err := s.people.Credentials(ctx, membership.Account)
	if err != nil {
		return peopleProblemIn(c, err)
	}
	accountName, err := s.people.AccountName(ctx, membership.Account)
	if err != nil {
		return err
	}
	if err := s.startPersonSession(c, signedInPerson{person: p, membership: membership, accountName: accountName, cred: cred, accounts: s.accountCount(c, p.ID)},
		"with an invitation"); err != nil {
		return err
	}
	s.logOf(c).Info("accepted an invitation", "account", membership.Account, "role", membership.Role.String())
	if s.passkeys != nil {
		return redirect(c, "/me?welcome=1#passkeys") // where they may add a passkey
	}
	return redirect(c, "/")
}

// refuseInvitation shows the invitation again, saying what is wrong with
// the name typed.
func (s *Server) refuseInvitation(c echo.Context, token, name, problem string) error {
	m, status, err := s.invitationModel(c, token)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return render(c, status, views.Invitation(m))
	}
	m.Name, m.NameError = name, problem
	return render(c, http.StatusUnprocessableEntity, views.Invitation(m))
}
