package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/i18n"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// The language of a page (see docs/contributing.md, "Words on pages"):
// the one the person chose on /me, else the one this browser asked for
// with ?lang= (remembered in its session), else the one its
// Accept-Language prefers, else English. The request's context carries
// its localizer, which the views and the error pages read.

// keyLanguage is the session's language: the person's, copied in when
// they sign in, or the one a signed-out visitor asked for with ?lang=.
const keyLanguage = "language"

// keyMeFlash is the session's value of the message /me shows once.
const keyMeFlash = "me_flash"

// langParam asks for a page in a language, and remembers the choice.
const langParam = "lang"

// acceptLanguage gives every request the localizer of the language its
// browser prefers; a request with a session gets its remembered one in
// loadSession (rememberLanguage). Pages, which speak it, vary by
// Accept-Language (render, serveKept); files and JSON do not.
func acceptLanguage(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		loc := i18n.For(i18n.Accept(r.Header.Get("Accept-Language")))
		c.SetRequest(r.WithContext(i18n.WithLocalizer(r.Context(), loc)))
		return next(c)
	}
}

// rememberLanguage takes the language a request asks for with ?lang=
// (refusing one Washboard does not speak, in the language the session
// had), keeps it in the session and, for a signed-in person, with them;
// then gives the request the localizer of the session's language, or of
// its browser's.
func (s *Server) rememberLanguage(c echo.Context) error {
	ctx := c.Request().Context()
	chosen := s.sessions.GetString(ctx, keyLanguage)
	speak := func(code string) {
		loc := i18n.For(i18n.Choose(code, c.Request().Header.Get("Accept-Language")))
		c.SetRequest(c.Request().WithContext(i18n.WithLocalizer(ctx, loc)))
	}
	speak(chosen)
	if asked, ok := c.QueryParams()[langParam]; ok {
		code := asked[0]
		if !i18n.Known(code) {
			return &httpkit.Error{Code: http.StatusBadRequest, Msg: i18n.From(c.Request().Context()).T("language.unknown", "code", httpkit.Clip(code), "codes", strings.Join(i18n.Codes(), ", "))}
		}
		if code != chosen {
			if ss, ok := s.currentSession(ctx); ok && ss.PersonID != "" {
				if err := s.people.SetLanguage(ctx, ss.PersonID, code); err != nil {
					return err
				}
			}
			s.sessions.Put(ctx, keyLanguage, code)
			s.sessionChanged(ctx)
			speak(code)
		}
	}
	return nil
}

// personLanguageOnSignIn makes the session speak the person's language
// when they chose one; when they did not, a language this browser chose
// before signing in becomes theirs.
func (s *Server) personLanguageOnSignIn(c echo.Context, personID string) {
	ctx := c.Request().Context()
	p, err := s.people.Person(ctx, personID)
	if err != nil {
		s.logOf(c).Warn("reading a person's language", "error", err.Error())
		return
	}
	if p.Language != "" {
		s.sessions.Put(ctx, keyLanguage, p.Language)
		return
	}
	if chosen := s.sessions.GetString(ctx, keyLanguage); chosen != "" {
		if err := s.people.SetLanguage(ctx, personID, chosen); err != nil {
			s.logOf(c).Warn("keeping the language chosen before signing in", "error", err.Error())
		}
	}
}

// updateMyLanguage records the language the person chose on /me ("" to
// leave it to their browser), for them and this session.
func (s *Server) updateMyLanguage(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	var code string
	offered := append([]string{""}, i18n.Codes()...)
	problem, err := readForm(c, form.Text("language", "Language", &code).OneOf(offered...).Says(i18n.From(ctx).T("me.language_unknown")))
	if err != nil {
		return err
	}
	if problem == nil {
		if err := s.people.SetLanguage(ctx, ss.PersonID, code); err != nil {
			return err
		}
		if code == "" {
			s.sessions.Remove(ctx, keyLanguage)
		} else {
			s.sessions.Put(ctx, keyLanguage, code)
		}
		saved := i18n.For(i18n.Choose(code, c.Request().Header.Get("Accept-Language"))).T("me.language_saved")
		return s.flashTo(c, keyMeFlash, saved, "/me")
	}
	m, err := s.meModel(c)
	if err != nil {
		return err
	}
	m.Error = problem.Msg
	return render(c, http.StatusUnprocessableEntity, views.PersonView(m))
}

// tr is the message id in the language of the request, for what a
// handler says itself (an error, a notice); args are name, value pairs.
func tr(c echo.Context, id string, args ...any) string {
	return i18n.From(c.Request().Context()).T(id, args...)
}

// trn is the message id in the plural form n takes in the request's
// language.
func trn(c echo.Context, id string, n int, args ...any) string {
	return i18n.From(c.Request().Context()).N(id, n, args...)
}
