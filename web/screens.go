package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
)

// Wall screens are managed at /screens by signed-in users; the dashboard
// keeps their links' hashes and their sealed credentials.

// listScreens shows the account's screens and the form for a new one.
func (s *Server) listScreens(c echo.Context) error {
	m, err := s.screensModel(c, blankScreenForm(), "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ScreensPage(m))
}

// editScreen shows the form filled with a screen.
func (s *Server) editScreen(c echo.Context) error {
	ss := sessionOf(c)
	sc, err := s.dash.Screen(c.Request().Context(), ss.Account, s.scopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	in := screenFormInput{ID: sc.ID, Name: sc.Name, Scope: scopeValue(sc.Scope), Healths: sc.Healths, PageSeconds: sc.PageSeconds,
		DimFrom: sc.DimFrom, DimTo: sc.DimTo, Language: languageCodeOf(sc), Contact: sc.Contact, Rounds: sc.Rounds, Plans: sc.Plans}
	m, err := s.screensModel(c, in, "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ScreensPage(m))
}

// createScreen makes a screen and shows its link, once.
func (s *Server) createScreen(c echo.Context) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	in, problem, err := s.readScreenForm(c, ss.Account)
	if err != nil {
		return err
	}
	if problem != "" {
		return s.screenFormError(c, in, problem)
	}
	sc, token, err := s.dash.CreateScreen(ctx, s.scopeOf(c), in.screen(ss.Account), ss.Cred)
	if le := (*domain.LimitError)(nil); errors.As(err, &le) {
		return s.renderScreenForm(c, http.StatusUnprocessableEntity, in, trn(c, "screens.limit", le.Max))
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("screen created", "screen", sc.ID)
	s.audit(c, domain.AuditScreenAdded, sc.Name)
	return s.showNewLink(c, sc.Name, token)
}

// updateScreen renames, re-scopes or re-configures a screen.
func (s *Server) updateScreen(c echo.Context) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	if _, err := s.dash.Screen(ctx, ss.Account, s.scopeOf(c), c.Param("id")); err != nil {
		return err
	}
	in, problem, err := s.readScreenForm(c, ss.Account)
	if err != nil {
		return err
	}
	in.ID = c.Param("id")
	if problem != "" {
		return s.screenFormError(c, in, problem)
	}
	sc := in.screen(ss.Account)
	sc.ID = in.ID
	if err := s.dash.UpdateScreen(ctx, s.scopeOf(c), sc); err != nil {
		return err
	}
	s.audit(c, domain.AuditScreenChanged, sc.Name)
	return redirect(c, "/screens")
}

// revokeScreen unlinks a screen; it says so within one heartbeat.
func (s *Server) revokeScreen(c echo.Context) error {
	ss := sessionOf(c)
	id := c.Param("id")
	if err := s.dash.RevokeScreen(c.Request().Context(), ss.Account, s.scopeOf(c), id); err != nil {
		return err
	}
	s.sync.Release(screenHolder(id))
	s.logOf(c).Info("screen revoked", "screen", id)
	s.audit(c, domain.AuditScreenRevoked, "screen "+id)
	return redirect(c, "/screens")
}

// removeScreen removes a revoked screen from the list for good, which
// makes room for a new one; a screen still linked is refused in words,
// the list shown as it is.
func (s *Server) removeScreen(c echo.Context) error {
	ss := sessionOf(c)
	id := c.Param("id")
	err := s.dash.RemoveScreen(c.Request().Context(), ss.Account, s.scopeOf(c), id)
	if errors.Is(err, domain.ErrScreenLinked) {
		m, merr := s.screensModel(c, blankScreenForm(), "")
		if merr != nil {
			return merr
		}
		m.Removal = tr(c, "screens.still_linked")
		return render(c, http.StatusUnprocessableEntity, views.ScreensPage(m))
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("screen removed", "screen", id)
	s.audit(c, domain.AuditScreenRemoved, "screen "+id)
	return redirect(c, "/screens")
}

// relinkScreen gives a screen a new link (and the credentials of the user
// asking); the old link and the browser opened with it stop working.
func (s *Server) relinkScreen(c echo.Context) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	sc, token, err := s.dash.RelinkScreen(ctx, ss.Account, s.scopeOf(c), c.Param("id"), ss.Cred)
	if err != nil {
		return err
	}
	s.sync.Release(screenHolder(sc.ID))
	return s.showNewLink(c, sc.Name, token)
}

func (s *Server) showNewLink(c echo.Context, name, token string) error {
	scheme := "http"
	if s.secureRequest(c) {
		scheme = "https"
	}
	m, err := s.screensModel(c, blankScreenForm(), "")
	if err != nil {
		return err
	}
	m.NewLink, m.NewLinkName = scheme+"://"+c.Request().Host+"/s/"+token, name
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, http.StatusOK, views.ScreensPage(m))
}

func (s *Server) screenFormError(c echo.Context, in screenFormInput, problem string) error {
	return s.renderScreenForm(c, http.StatusBadRequest, in, problem)
}

// renderScreenForm shows the screens with the form as typed and what is
// wrong with it.
func (s *Server) renderScreenForm(c echo.Context, status int, in screenFormInput, problem string) error {
	m, err := s.screensModel(c, in, problem)
	if err != nil {
		return err
	}
	return render(c, status, views.ScreensPage(m))
}

func (s *Server) screensModel(c echo.Context, in screenFormInput, problem string) (views.Screens, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	m := views.Screens{Page: s.page(c, tr(c, "nav.screens"), "screens"), Error: problem, Now: s.clock.Now()}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: tr(c, "nav.screens")}}
	screens, err := s.dash.Screens(ctx, ss.Account, s.scopeOf(c))
	if err != nil {
		return m, err
	}
	for _, row := range screens {
		sc := row.Screen
		r := views.ScreenRow{
			ID: sc.ID, Name: sc.Name, Scope: row.ScopeName, Settings: screenSettings(sc), Language: sc.Language, Contact: sc.Contact,
			Created: sc.Created, LastSeen: sc.LastSeen, Revoked: !sc.Revoked.IsZero(), NeedsLink: row.NeedsLink, Rejection: row.Rejection,
			EditHref: "/screens/" + sc.ID + "/edit", RevokeHref: "/screens/" + sc.ID + "/revoke", RelinkHref: "/screens/" + sc.ID + "/relink",
		}
		if row.Removable {
			r.RemoveHref = "/screens/" + sc.ID + "/remove"
		}
		m.Screens = append(m.Screens, r)
	}
	f := views.ScreenForm{Action: "/screens", Name: in.Name, PageSeconds: in.PageSeconds, DimFrom: formatClock(in.DimFrom),
		DimTo: formatClock(in.DimTo), Language: in.Language, Contact: in.Contact, Rounds: in.Rounds}
	if f.Language == "" {
		f.Language = i18n.From(ctx).Lang() // whoever makes a screen reads its form in the language it most likely speaks
	}
	if in.ID != "" {
		f.Action, f.Editing = "/screens/"+in.ID, true
	}
	sc := s.scopeOf(c)
	if !sc.Limited() {
		f.Scopes = append(f.Scopes, views.Option{Value: "account", Label: tr(c, "screens.whole_account"), Selected: in.Scope == "" || in.Scope == "account"})
	}
	places, err := s.dash.ScreenScopes(ctx, ss.Account, sc)
	if err != nil {
		return m, err
	}
	f.Plans = []views.Option{{Value: "", Label: tr(c, "planshow.screen_plans_none"), Selected: in.Plans == ""},
		{Value: domain.ScreenPlansBusy, Label: tr(c, "planshow.screen_plans_busy"), Selected: in.Plans == domain.ScreenPlansBusy}}
	for _, bf := range places {
		b := bf.Building
		f.Scopes = append(f.Scopes, views.Option{Value: "building:" + b.ID, Label: b.Name, Selected: in.Scope == "building:"+b.ID})
		for _, fl := range bf.Floors {
			f.Scopes = append(f.Scopes, views.Option{Value: "floor:" + fl.ID, Label: b.Name + " › " + fl.Name, Selected: in.Scope == "floor:"+fl.ID})
			f.Plans = append(f.Plans, views.Option{Value: fl.ID, Label: tr(c, "planshow.plan_of", "place", b.Name+" › "+fl.Name), Selected: in.Plans == fl.ID})
		}
	}
	for _, h := range domain.Healths {
		sel := false
		for _, x := range in.Healths {
			sel = sel || x == h
		}
		f.Healths = append(f.Healths, views.Option{Value: h.String(), Selected: sel})
	}
	m.Form = f
	return m, nil
}

// screenSettings are how a screen shows what it shows, for the list.
func screenSettings(sc domain.Screen) views.ScreenSettings {
	out := views.ScreenSettings{Healths: sc.Healths, PageSeconds: sc.PageSeconds}
	if sc.DimFrom >= 0 {
		out.DimFrom, out.DimTo = formatClock(sc.DimFrom), formatClock(sc.DimTo)
	}
	return out
}

func screenHolder(id string) string { return "screen:" + id }
