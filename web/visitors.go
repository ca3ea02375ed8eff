package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/visitors"
	"washboard/views"
	"washboard/web/httpkit"
)

// A room's code, /r/{token} (docs/visitors.md), is public: a visitor's
// phone opens it with no session, and none is made for them (no cookie is
// set); a person signed in to Washboard brings theirs. Its form is
// protected against posts from other sites by a token of its own (see
// visitors.FormToken) and by what the browser says of where a post came
// from (Sec-Fetch-Site, Origin).

// sessionIfAny loads the request's session when it brings a session
// cookie, and otherwise none, so that nothing is stored nor set for a
// visitor: their language is the one asked with ?lang=, or their
// browser's.
func (s *Server) sessionIfAny(next echo.HandlerFunc) echo.HandlerFunc {
	withSession := s.loadSession(next)
	return func(c echo.Context) error {
		httpkit.AddVary(c.Response().Header(), "Cookie")
		if ck, err := c.Request().Cookie(sessionCookie); err == nil && ck.Value != "" {
			return withSession(c)
		}
		if code := c.QueryParam(langParam); i18n.Known(code) {
			r := c.Request()
			loc := i18n.For(i18n.Choose(code, r.Header.Get("Accept-Language")))
			c.SetRequest(r.WithContext(i18n.WithLocalizer(r.Context(), loc)))
		}
		return next(c)
	}
}

// openRoomCode answers a room's code: a person of the room's account is
// recorded as there; anyone else gets the visitors' form (as does a
// person who asks for it with ?report).
func (s *Server) openRoomCode(c echo.Context) error {
	ctx := c.Request().Context()
	v := s.dash.Visitors()
	p, err := v.Open(ctx, c.Param("token"))
	if err != nil {
		return s.refuseRoomCode(c, err)
	}
	if _, asVisitor := c.QueryParams()["report"]; !asVisitor {
		if m, ok, err := s.memberOf(c, p.Account); err != nil {
			return err
		} else if ok {
			if crossSite(c) {
				return render(c, http.StatusOK, views.PresencePage(s.presenceView(c, p, true)))
			}
			if done, err := s.recordPresence(c, p, m); done || err != nil {
				return err
			}
		}
	}
	return render(c, http.StatusOK, views.VisitorFormPage(s.visitorForm(c, p)))
}

// recordPresence records that the member was in the place's room and
// says so; false when their role does not count them (they get the
// visitors' form).
func (s *Server) recordPresence(c echo.Context, p visitors.Place, m domain.Member) (bool, error) {
	at, err := s.dash.Visitors().Present(c.Request().Context(), p, m)
	if errors.Is(err, visitors.ErrNotPresent) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	pv := s.presenceView(c, p, false)
	pv.At = at
	return true, render(c, http.StatusOK, views.PresencePage(pv))
}

// reportFromRoom takes a visitor's report (or a person's confirmation
// that they are there) posted to a room's code.
func (s *Server) reportFromRoom(c echo.Context) error {
	ctx := c.Request().Context()
	v := s.dash.Visitors()
	p, err := v.Open(ctx, c.Param("token"))
	if err != nil {
		return s.refuseRoomCode(c, err)
	}
	values, err := httpkit.FormValues(c)
	if err != nil {
		return err
	}
	form := s.visitorForm(c, p)
	text := values.Get("text")
	form.Kind, form.Text = domain.VisitorKind(values.Get("kind")), text
	if r := []rune(text); len(r) > domain.MaxVisitorText {
		form.Text = string(r[:domain.MaxVisitorText]) // shown again cut; checked whole
	}
	if r := strings.TrimSpace(values.Get("rating")); r != "" {
		if form.Rating, err = strconv.Atoi(r); err != nil {
			form.Rating = -1 // not a number: refused as out of range
		}
	}
	if crossSite(c) || !v.CheckFormToken(p, values.Get("form")) {
		form.Error = tr(c, "visitor.error_form")
		return render(c, http.StatusForbidden, views.VisitorFormPage(form))
	}
	if values.Get("here") != "" {
		m, ok, err := s.memberOf(c, p.Account)
		if err != nil {
			return err
		}
		if ok {
			if done, err := s.recordPresence(c, p, m); done || err != nil {
				return err
			}
		}
		return render(c, http.StatusOK, views.VisitorFormPage(form))
	}
	_, err = v.Report(ctx, p, visitors.Report{Kind: form.Kind, Text: text, Rating: form.Rating}, c.RealIP())
	switch {
	case err == nil:
		return render(c, http.StatusOK, views.VisitorNoticePage(views.VisitorNotice{Kind: views.NoticeThanks, Room: p.Room.Name, Again: "/r/" + p.Token + "?report"}))
	case errors.Is(err, visitors.ErrTooMany):
		c.Response().Header().Set("Retry-After", "60")
		return render(c, http.StatusTooManyRequests, views.VisitorNoticePage(views.VisitorNotice{Kind: views.NoticeTooMany, Room: p.Room.Name}))
	}
	if form.Error = reportProblem(c, err); form.Error == "" {
		return err
	}
	return render(c, http.StatusUnprocessableEntity, views.VisitorFormPage(form))
}

// reportProblem is what is wrong with a visitor's report, in the page's
// words; "" for an error that is not the report's.
func reportProblem(c echo.Context, err error) string {
	switch {
	case errors.Is(err, visitors.ErrNothingSaid):
		return tr(c, "visitor.error_nothing")
	case errors.Is(err, visitors.ErrUnknownKind):
		return tr(c, "visitor.error_kind")
	case errors.Is(err, visitors.ErrBadRating):
		return tr(c, "visitor.error_rating")
	case errors.Is(err, visitors.ErrTextTooLong):
		return tr(c, "visitor.error_text_long", "max", domain.MaxVisitorText)
	case errors.Is(err, visitors.ErrTextMissing):
		return tr(c, "visitor.error_text_missing")
	}
	return ""
}

// refuseRoomCode answers a code that opens no room, in words: 404 for a
// code no room has, 410 for one replaced or of a room gone.
func (s *Server) refuseRoomCode(c echo.Context, err error) error {
	n := views.VisitorNotice{Kind: views.NoticeUnknownCode}
	status := http.StatusNotFound
	switch {
	case errors.Is(err, visitors.ErrReplaced):
		n.Kind, status = views.NoticeReplaced, http.StatusGone
	case errors.Is(err, visitors.ErrRoomGone):
		n.Kind, status = views.NoticeRoomGone, http.StatusGone
	case !errors.Is(err, visitors.ErrUnknownCode):
		return err
	}
	return render(c, status, views.VisitorNoticePage(n))
}

// memberOf is the signed-in person of the request as a member of the
// account, if they are one.
func (s *Server) memberOf(c echo.Context, account string) (domain.Member, bool, error) {
	if loaded, _ := c.Get(ctxSessionLoaded).(bool); !loaded {
		return domain.Member{}, false, nil
	}
	ctx := c.Request().Context()
	ss, ok := s.currentSession(ctx)
	if !ok || ss.PersonID == "" {
		return domain.Member{}, false, nil
	}
	m, err := s.people.Member(ctx, account, ss.PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Member{}, false, nil
	}
	return m, err == nil, err
}

// crossSite reports whether the browser says the request came from
// another site: a link or a form elsewhere.
func crossSite(c echo.Context) bool {
	r := c.Request()
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return true
	}
	if origin := r.Header.Get("Origin"); origin != "" && origin != "null" {
		host := strings.TrimPrefix(strings.TrimPrefix(origin, "https://"), "http://")
		return host != r.Host
	}
	return false
}

// visitorForm is the visitors' form of a code's room, empty.
func (s *Server) visitorForm(c echo.Context, p visitors.Place) views.VisitorForm {
	return views.VisitorForm{Room: p.Room.Name, Where: where(p), Action: "/r/" + p.Token, FormToken: s.dash.Visitors().FormToken(p)}
}

func (s *Server) presenceView(c echo.Context, p visitors.Place, confirm bool) views.Presence {
	return views.Presence{Room: p.Room.Name, Where: where(p), Zone: s.cfg.Zone, RoomHref: "/rooms/" + p.Room.ID,
		ReportHref: "/r/" + p.Token + "?report", Confirm: confirm, Action: "/r/" + p.Token, FormToken: s.dash.Visitors().FormToken(p)}
}

// where says where a place's room is: "North Tower › Level 2".
func where(p visitors.Place) string {
	var parts []string
	for _, n := range []string{p.Building.Name, p.Floor.Name} {
		if n != "" {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, " › ")
}
