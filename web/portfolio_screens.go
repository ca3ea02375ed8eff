package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// An organisation's wall screens are managed at /portfolio/screens by its
// people: supervisors and above make and change them (the route asks for
// a role in the account one is in; dashboard.MayKeepPortfolioScreens the
// organisation's). Their links are the account screens' (/s/{token}).

// portfolioScreenInput is what the form of a portfolio screen holds.
type portfolioScreenInput struct {
	ID          string
	Name        string
	Accounts    []string
	PageSeconds int
	DimFrom     int // minutes; -1 for none
	DimTo       int
	Language    string // the code of the language the screen speaks
	Contact     string
}

func blankPortfolioScreen() portfolioScreenInput {
	return portfolioScreenInput{PageSeconds: 15, DimFrom: -1, DimTo: -1}
}

func (in portfolioScreenInput) screen() domain.Screen {
	return domain.Screen{ID: in.ID, Name: in.Name, Accounts: in.Accounts, PageSeconds: in.PageSeconds, DimFrom: in.DimFrom, DimTo: in.DimTo,
		Language: in.Language, Contact: in.Contact}
}

// errNoPortfolioScreen answers an id of no screen the person's
// organisation shows them, whoever's it is.
func errNoPortfolioScreen(c echo.Context) error {
	return errNotFound(tr(c, "pscreen.not_found"))
}

// organisationActor is the session's person's role in their organisation;
// errNoOrganisation when they belong to none.
func (s *Server) organisationActor(c echo.Context) (domain.OrganisationMember, error) {
	g, in, err := s.people.OrganisationOf(c.Request().Context(), sessionOf(c).PersonID)
	if err == nil && !in {
		err = errNoOrganisation(c)
	}
	return g, err
}

// portfolioScreenProblem answers what the dashboard refused: an unknown
// screen (of another organisation, or beyond the person's role) as 404,
// the rest in words.
func portfolioScreenProblem(c echo.Context, err error) error {
	if errors.Is(err, domain.ErrNotFound) {
		return errNoPortfolioScreen(c)
	}
	if errors.Is(err, dashboard.ErrMayNotKeepScreens) {
		return &httpkit.Error{Code: http.StatusForbidden, Msg: tr(c, "pscreen.who_keeps_only"), Err: err}
	}
	return peopleProblem(err)
}

// listPortfolioScreens shows the organisation's screens and, to those who
// may make one, the form.
func (s *Server) listPortfolioScreens(c echo.Context) error {
	return s.renderPortfolioScreens(c, http.StatusOK, blankPortfolioScreen(), "", nil)
}

// editPortfolioScreen shows the form filled with a screen.
func (s *Server) editPortfolioScreen(c echo.Context) error {
	actor, err := s.organisationActor(c)
	if err != nil {
		return err
	}
	sc, err := s.dash.PortfolioScreen(c.Request().Context(), actor, c.Param("id"))
	if err == nil {
		err = dashboard.MayKeepPortfolioScreens(actor)
	}
	if err != nil {
		return portfolioScreenProblem(c, err)
	}
	in := portfolioScreenInput{ID: sc.ID, Name: sc.Name, Accounts: sc.Accounts, PageSeconds: sc.PageSeconds, DimFrom: sc.DimFrom, DimTo: sc.DimTo,
		Language: languageCodeOf(sc), Contact: sc.Contact}
	return s.renderPortfolioScreens(c, http.StatusOK, in, "", nil)
}

// createPortfolioScreen makes a screen and shows its link, once.
func (s *Server) createPortfolioScreen(c echo.Context) error {
	actor, err := s.organisationActor(c)
	if err != nil {
		return err
	}
	in, problem, err := readPortfolioScreenForm(c)
	if err != nil {
		return err
	}
	if problem != "" {
		return s.renderPortfolioScreens(c, http.StatusBadRequest, in, problem, nil)
	}
	sc, token, err := s.dash.CreatePortfolioScreen(c.Request().Context(), actor, in.screen())
	if err != nil {
		return s.refusePortfolioScreen(c, in, err)
	}
	s.logOf(c).Info("portfolio screen created", "screen", sc.ID, "organisation", actor.Organisation)
	return s.showNewPortfolioLink(c, sc.Name, token)
}

// updatePortfolioScreen renames a screen, chooses its clients anew or
// changes its settings.
func (s *Server) updatePortfolioScreen(c echo.Context) error {
	actor, err := s.organisationActor(c)
	if err != nil {
		return err
	}
	if _, err := s.dash.PortfolioScreen(c.Request().Context(), actor, c.Param("id")); err != nil {
		return portfolioScreenProblem(c, err)
	}
	in, problem, err := readPortfolioScreenForm(c)
	if err != nil {
		return err
	}
	in.ID = c.Param("id")
	if problem != "" {
		return s.renderPortfolioScreens(c, http.StatusBadRequest, in, problem, nil)
	}
	if err := s.dash.UpdatePortfolioScreen(c.Request().Context(), actor, in.screen()); err != nil {
		return s.refusePortfolioScreen(c, in, err)
	}
	return redirect(c, "/portfolio/screens")
}

// refusePortfolioScreen shows the form as typed with why it was not
// saved: an unknown screen is 404, a role too low 403.
func (s *Server) refusePortfolioScreen(c echo.Context, in portfolioScreenInput, err error) error {
	var p domain.Problem
	var l *domain.LimitError
	var clients *dashboard.ScreenClientsError
	switch {
	case errors.As(err, &clients):
		return s.renderPortfolioScreens(c, http.StatusUnprocessableEntity, in, screenClientsWords(c, clients), nil)
	case errors.As(err, &l):
		return s.renderPortfolioScreens(c, http.StatusUnprocessableEntity, in, trn(c, "pscreen.limit", l.Max), nil)
	case errors.As(err, &p):
		return s.renderPortfolioScreens(c, http.StatusUnprocessableEntity, in, string(p), nil)
	}
	return portfolioScreenProblem(c, err)
}

// screenClientsWords says what is wrong with the clients chosen for a
// screen, in the request's language.
func screenClientsWords(c echo.Context, e *dashboard.ScreenClientsError) string {
	switch {
	case e.Chosen > 0:
		return trn(c, "pscreen.too_many_clients", e.Chosen, "max", strconv.Itoa(e.Max))
	case e.None:
		return tr(c, "pscreen.choose_clients")
	}
	return tr(c, "pscreen.not_a_client", "id", e.NotClient)
}

// revokePortfolioScreen unlinks a screen; it says so within one heartbeat.
func (s *Server) revokePortfolioScreen(c echo.Context) error {
	actor, err := s.organisationActor(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	if err := s.dash.RevokePortfolioScreen(c.Request().Context(), actor, id); err != nil {
		return portfolioScreenProblem(c, err)
	}
	s.logOf(c).Info("portfolio screen revoked", "screen", id)
	return redirect(c, "/portfolio/screens")
}

// relinkPortfolioScreen gives a screen a new link, which shows its clients
// as the person asking sees them; the old link stops working.
func (s *Server) relinkPortfolioScreen(c echo.Context) error {
	actor, err := s.organisationActor(c)
	if err != nil {
		return err
	}
	sc, token, err := s.dash.RelinkPortfolioScreen(c.Request().Context(), actor, c.Param("id"))
	if err != nil {
		return portfolioScreenProblem(c, err)
	}
	return s.showNewPortfolioLink(c, sc.Name, token)
}

// removePortfolioScreen removes a revoked screen for good; a linked one is
// refused in words, the list shown as it is.
func (s *Server) removePortfolioScreen(c echo.Context) error {
	actor, err := s.organisationActor(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	err = s.dash.RemovePortfolioScreen(c.Request().Context(), actor, id)
	if errors.Is(err, domain.ErrScreenLinked) {
		return s.renderPortfolioScreens(c, http.StatusUnprocessableEntity, blankPortfolioScreen(), "", func(m *views.PortfolioScreens) {
			m.Removal = tr(c, "screens.still_linked")
		})
	}
	if err != nil {
		return portfolioScreenProblem(c, err)
	}
	s.logOf(c).Info("portfolio screen removed", "screen", id)
	return redirect(c, "/portfolio/screens")
}

func (s *Server) showNewPortfolioLink(c echo.Context, name, token string) error {
	scheme := "http"
	if s.secureRequest(c) {
		scheme = "https"
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return s.renderPortfolioScreens(c, http.StatusOK, blankPortfolioScreen(), "", func(m *views.PortfolioScreens) {
		m.NewLink, m.NewLinkName = scheme+"://"+c.Request().Host+"/s/"+token, name
	})
}

// readPortfolioScreenForm reads and checks the form; problem says in
// words what is wrong with it. The clients are checked by the dashboard.
func readPortfolioScreenForm(c echo.Context) (portfolioScreenInput, string, error) {
	in := portfolioScreenInput{DimFrom: -1, DimTo: -1}
	problem, err := readForm(c,
		form.Text("name", "Name", &in.Name).Trim().Required().MaxChars(80).Says(tr(c, "screens.problem_name")),
		form.Text("contact", "Contact", &in.Contact).Trim().MaxChars(120).Says(tr(c, "screens.problem_contact")),
		form.List("account", "Clients", &in.Accounts),
		form.Number("page_seconds", "Page interval", &in.PageSeconds).Required().Range(5, 300).Says(tr(c, "screens.problem_page_seconds")),
		form.Span("dim", "Night dimming", &in.DimFrom, &in.DimTo).Says(tr(c, "screens.problem_dimming")),
		screenLanguageField(c, &in.Language))
	return in, problemWords(problem), err
}

// renderPortfolioScreens shows the organisation's screens, the form as in
// with what is wrong with it, changed by edit when set.
func (s *Server) renderPortfolioScreens(c echo.Context, status int, in portfolioScreenInput, problem string, edit func(*views.PortfolioScreens)) error {
	ctx := c.Request().Context()
	p, err := s.people.PortfolioOf(ctx, sessionOf(c).PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		return errNoOrganisation(c)
	}
	if err != nil {
		return err
	}
	screens, err := s.dash.PortfolioScreens(ctx, p.Role)
	if err != nil {
		return err
	}
	m := views.PortfolioScreens{Page: s.page(c, tr(c, "pscreen.title"), "portfolio"), Organisation: p.Organisation.Name, Error: problem, Now: s.clock.Now(),
		MayKeep: dashboard.MayKeepPortfolioScreens(p.Role) == nil}
	m.Crumbs = []views.Crumb{{Label: tr(c, "layout.portfolio"), Href: "/portfolio"}, {Label: tr(c, "pscreen.title")}}
	names := map[string]string{}
	for _, a := range p.Accounts {
		names[a.Account] = a.ClientName()
	}
	for _, sc := range screens {
		r := views.ScreenRow{ID: sc.ID, Name: sc.Name, Scope: clientsWords(c, sc.Accounts, names), Settings: screenSettings(sc),
			Language: sc.Language, Contact: sc.Contact, Created: sc.Created, LastSeen: sc.LastSeen, Revoked: !sc.Revoked.IsZero(),
			EditHref: "/portfolio/screens/" + sc.ID + "/edit", RevokeHref: "/portfolio/screens/" + sc.ID + "/revoke",
			RelinkHref: "/portfolio/screens/" + sc.ID + "/relink"}
		if dashboard.ScreenRemovable(sc) {
			r.RemoveHref = "/portfolio/screens/" + sc.ID + "/remove"
		}
		m.Screens = append(m.Screens, r)
	}
	m.Form = portfolioScreenForm(in, p)
	if m.Form.Language == "" {
		m.Form.Language = i18n.From(ctx).Lang() // whoever makes a screen reads its form in the language it most likely speaks
	}
	if edit != nil {
		edit(&m)
	}
	return render(c, status, views.PortfolioScreensPage(m))
}

// portfolioScreenForm is the form as in holds it, offering the clients
// the person's role in the organisation covers.
func portfolioScreenForm(in portfolioScreenInput, p people.Portfolio) views.PortfolioScreenForm {
	f := views.PortfolioScreenForm{Action: "/portfolio/screens", Name: in.Name, PageSeconds: in.PageSeconds, DimFrom: formatClock(in.DimFrom),
		DimTo: formatClock(in.DimTo), Language: in.Language, Contact: in.Contact, EveryClient: p.Role.CoversAll(nil)}
	if in.ID != "" {
		f.Action, f.Editing = "/portfolio/screens/"+in.ID, true
	}
	for _, a := range p.Accounts {
		if !p.Role.Covers(a.Account) {
			continue
		}
		label := a.ClientName()
		if a.Region != "" {
			label += " (" + a.Region + ")"
		}
		f.Clients = append(f.Clients, views.Option{Value: a.Account, Label: label, Selected: slices.Contains(in.Accounts, a.Account)})
	}
	return f
}

// clientsWords says which clients a screen shows: "Every client", or their
// names.
func clientsWords(c echo.Context, accounts []string, names map[string]string) string {
	if len(accounts) == 0 {
		return tr(c, "pscreen.every_client")
	}
	out := make([]string, 0, len(accounts))
	gone := 0
	for _, id := range accounts {
		if n, ok := names[id]; ok {
			out = append(out, n)
		} else {
			gone++
		}
	}
	if gone > 0 {
		out = append(out, trn(c, "pscreen.accounts_gone", gone))
	}
	return strings.Join(out, ", ")
}
