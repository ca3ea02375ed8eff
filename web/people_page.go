package web

import (
	"errors"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/form"
)

// keyPeopleFlash is the session's value of the message /people shows
// once, after a change.
const keyPeopleFlash = "people_flash"

// showPeople lists the account's people and open invitations, with the
// invite form.
func (s *Server) showPeople(c echo.Context) error {
	m, err := s.peopleModel(c)
	if err != nil {
		return err
	}
	if msg := s.sessions.PopString(c.Request().Context(), keyPeopleFlash); msg != "" {
		m.Flash = msg
		s.sessionChanged(c.Request().Context())
	}
	return render(c, http.StatusOK, views.PeopleView(m))
}

// peopleModel is the people page of the session's account, as its person
// may change it.
func (s *Server) peopleModel(c echo.Context) (views.PeoplePage, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	m := views.PeoplePage{Page: s.page(c, tr(c, "nav.people"), "people"), Invite: views.InviteForm{Role: domain.Staff}}
	members, err := s.people.Members(ctx, ss.Account)
	if err != nil {
		return m, err
	}
	for _, p := range members {
		names, err := s.buildingNames(ctx, ss.Account, p.Buildings)
		if err != nil {
			return m, err
		}
		m.Members = append(m.Members, views.PersonRow{ID: p.PersonID, Name: p.Name, Email: p.Email, Role: p.Role, Buildings: names,
			LastSeen: p.LastSeen, Self: p.PersonID == ss.PersonID})
	}
	invitations, err := s.people.Invitations(ctx, ss.Account)
	if err != nil {
		return m, err
	}
	for _, i := range invitations {
		names, err := s.buildingNames(ctx, ss.Account, i.Buildings)
		if err != nil {
			return m, err
		}
		m.Invitations = append(m.Invitations, views.InvitationRow{ID: i.ID, To: i.Email, Role: i.Role, Buildings: names, MadeBy: i.MadeByName, Expires: i.Expires})
	}
	for _, r := range domain.Roles() {
		if people.MayGrant(ss.member().Membership, r, ss.Buildings) == nil {
			m.Grantable = append(m.Grantable, r)
		}
	}
	buildings, err := s.dash.Buildings(ctx, ss.Account, s.scopeOf(c)) // none beyond the maker's own
	if err != nil {
		return m, err
	}
	for _, b := range buildings {
		if len(ss.Buildings) == 0 || slices.Contains(ss.Buildings, b.ID) {
			m.Buildings = append(m.Buildings, views.BuildingChoice{ID: b.ID, Name: b.Name})
		}
	}
	return m, nil
}

// invitePerson makes an invitation and shows its link once, with a QR
// code; it is e-mailed too when an address is given and the server can
// send mail.
func (s *Server) invitePerson(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	var email, roleWord string
	var buildings []string
	problem, err := readForm(c,
		textField(c, "email", tr(c, "me.email"), &email, domain.MaxEmail),
		roleField(c, &roleWord),
		form.List("buildings", tr(c, "people.buildings"), &buildings).MaxChars(200).Says(tr(c, "people.buildings_unknown")))
	if err != nil {
		return err
	}
	m, err := s.peopleModel(c)
	if err != nil {
		return err
	}
	role, _ := domain.ParseRole(roleWord)
	m.Invite = views.InviteForm{Email: email, Role: role}
	for i, b := range m.Buildings {
		m.Buildings[i].Checked = slices.Contains(buildings, b.ID)
	}
	if problem != nil {
		m.Invite.Error = problem.Msg
		return render(c, http.StatusUnprocessableEntity, views.PeopleView(m))
	}
	inv, token, err := s.people.Invite(ctx, ss.member(), people.Invite{Role: role, Buildings: buildings, Email: email})
	if refused := problemIn(c, err); refused != "" {
		m.Invite.Error = refused
		return render(c, http.StatusUnprocessableEntity, views.PeopleView(m))
	}
	if err != nil {
		return err
	}
	m.NewLink = s.absoluteURL(c, "/invitations/"+token)
	if m.NewLinkQR, err = qrCode(m.NewLink); err != nil {
		return err
	}
	if inv.Email != "" {
		m.Mailed, m.MailError = s.mailInvitation(c, inv, ss, m.NewLink)
	}
	// The list shows the new invitation; the form starts afresh.
	fresh, err := s.peopleModel(c)
	if err != nil {
		return err
	}
	m.Invitations, m.Invite = fresh.Invitations, fresh.Invite
	for i := range m.Buildings {
		m.Buildings[i].Checked = false
	}
	s.logOf(c).Info("invited someone", "invitation", inv.ID, "role", inv.Role.String())
	return render(c, http.StatusOK, views.PeopleView(m))
}

// absoluteURL is the address of a path of this server, as the browser
// reached it.
func (s *Server) absoluteURL(c echo.Context, path string) string {
	scheme := "http"
	if s.secureRequest(c) {
		scheme = "https"
	}
	return scheme + "://" + c.Request().Host + path
}

// peopleWords is the words of an error of the people service a page shows
// as they are: a problem, a limit, a refusal; "" for any other error.
func peopleWords(err error) string {
	var p domain.Problem
	var l *domain.LimitError
	var f *domain.ForbiddenError
	switch {
	case errors.As(err, &f):
		return f.Why
	case errors.As(err, &l):
		return l.Error()
	case errors.As(err, &p):
		return string(p)
	}
	return ""
}

// withdrawInvitation withdraws an open invitation.
func (s *Server) withdrawInvitation(c echo.Context) error {
	err := s.people.WithdrawInvitation(c.Request().Context(), sessionOf(c).member(), c.Param("id"))
	if errors.Is(err, domain.ErrNotFound) {
		return errNotFound(tr(c, "people.invitation_not_found"))
	}
	if err != nil {
		return s.refusePeopleChange(c, err)
	}
	return s.flashPeople(c, tr(c, "people.invitation_withdrawn"))
}

// changeRole changes a member's role, keeping the buildings it is limited
// to; the member's sessions in the account end at once, on every replica.
func (s *Server) changeRole(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	var roleWord string
	if problem, err := readForm(c, roleField(c, &roleWord)); err != nil {
		return err
	} else if problem != nil {
		return s.refusePeopleChange(c, domain.Problem(problem.Msg))
	}
	role, _ := domain.ParseRole(roleWord)
	member, err := s.people.DirectMember(ctx, ss.Account, c.Param("id"))
	if err != nil {
		return err
	}
	ended, err := s.people.ChangeRole(ctx, ss.member(), member.PersonID, role, member.Buildings)
	if err != nil {
		return s.refusePeopleChange(c, err)
	}
	s.endSessions(c, ended)
	s.logOf(c).Info("changed a role", "person", member.PersonID, "role", role.String())
	if member.PersonID == ss.PersonID {
		return s.endOwnSession(c)
	}
	return s.flashPeople(c, roleChangedWords(c, member.Name, role))
}

// removePerson removes a member from the account; their sessions in it
// end at once, on every replica.
func (s *Server) removePerson(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	member, err := s.people.DirectMember(ctx, ss.Account, c.Param("id"))
	if err != nil {
		return err
	}
	ended, err := s.people.RemoveMember(ctx, ss.member(), member.PersonID)
	if err != nil {
		return s.refusePeopleChange(c, err)
	}
	s.endSessions(c, ended)
	s.logOf(c).Info("removed a person", "person", member.PersonID)
	if member.PersonID == ss.PersonID {
		return s.endOwnSession(c)
	}
	return s.flashPeople(c, tr(c, "people.removed", "name", member.Name))
}

// refusePeopleChange shows the people page again, saying why a change was
// not made.
func (s *Server) refusePeopleChange(c echo.Context, err error) error {
	words := problemIn(c, err)
	if words == "" {
		return err
	}
	m, merr := s.peopleModel(c)
	if merr != nil {
		return merr
	}
	m.Error = words
	return render(c, refusedStatus(err), views.PeopleView(m))
}

// refusedStatus is the status of a page that says why the rules of people
// refused a change: 403 when the person may not make it, 422 otherwise.
func refusedStatus(err error) int {
	if errors.Is(err, domain.ErrForbidden) {
		return http.StatusForbidden
	}
	return http.StatusUnprocessableEntity
}

// flashPeople goes back to the people page, which shows msg once.
func (s *Server) flashPeople(c echo.Context, msg string) error {
	return s.flashTo(c, keyPeopleFlash, msg, "/people")
}

// flashTo goes back to the page at path, which shows msg, kept in the
// session under key, once.
func (s *Server) flashTo(c echo.Context, key, msg, path string) error {
	ctx := c.Request().Context()
	s.sessions.Put(ctx, key, msg)
	s.sessionChanged(ctx)
	return redirect(c, path)
}

// endOwnSession ends the request's own session, which a change of its
// person ended in the store already (written back, it would come back),
// and sends the browser to sign in.
func (s *Server) endOwnSession(c echo.Context) error {
	ctx := c.Request().Context()
	if ss, ok := s.currentSession(ctx); ok {
		s.sync.Release(holderID(ss.Holder))
	}
	if token := s.sessions.Token(ctx); token != "" {
		s.streams.end(storedToken(token))
	}
	if err := s.sessions.Destroy(ctx); err != nil {
		return err
	}
	s.renewAnonymousToken(c)
	return redirect(c, "/signin")
}

// mailInvitation e-mails an invitation's link, in the language of the
// request (the one who invites: the invited have chosen none yet); it
// returns to whom it was sent, or why it was not.
func (s *Server) mailInvitation(c echo.Context, inv domain.Invitation, ss session, link string) (sent, why string) {
	if s.mail == nil {
		return "", tr(c, "people.invitation_no_mail")
	}
	loc := i18n.From(c.Request().Context())
	subject := loc.T("invite.mail_subject", "by", ss.PersonName, "account", ss.AccountName)
	body := loc.T("invite.mail_body", "by", ss.PersonName, "account", ss.AccountName, "role", roleIn(c, inv.Role),
		"until", loc.DateTime(inv.Expires, s.cfg.Zone), "link", link)
	if err := s.mail(c.Request().Context(), inv.Email, subject, body); err != nil {
		return "", err.Error()
	}
	return inv.Email, ""
}

// roleIn is a role's word in the request's language: "staff", "Aufsicht".
func roleIn(c echo.Context, r domain.Role) string {
	switch r {
	case domain.Viewer:
		return tr(c, "role.viewer")
	case domain.Staff:
		return tr(c, "role.staff")
	case domain.Supervisor:
		return tr(c, "role.supervisor")
	case domain.Admin:
		return tr(c, "role.admin")
	case domain.Owner:
		return tr(c, "role.owner")
	}
	return r.String()
}

// roleChangedWords says that a person's role was changed, and that their
// sessions ended: "Sid Staff is now a viewer. …".
func roleChangedWords(c echo.Context, name string, r domain.Role) string {
	switch r {
	case domain.Viewer:
		return tr(c, "people.now_viewer", "name", name)
	case domain.Staff:
		return tr(c, "people.now_staff", "name", name)
	case domain.Supervisor:
		return tr(c, "people.now_supervisor", "name", name)
	case domain.Admin:
		return tr(c, "people.now_admin", "name", name)
	}
	return tr(c, "people.now_owner", "name", name)
}
