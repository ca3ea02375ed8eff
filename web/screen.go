package web

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/keyring"
	"washboard/views"
	"washboard/web/httpkit"
)

// screenCookie holds, sealed with the server's key, which screen a browser
// is and the token it was linked with: the token itself never sits in a
// cookie in clear.
const screenCookie = "washboard_screen"

// screenHold is how long a screen's check-in keeps its account's sync
// running.
const screenHold = 5 * time.Minute

// linkScreen opens a screen link once: it sets the screen's cookie and
// sends the browser to /screen, so that the token leaves the address bar
// and the history.
func (s *Server) linkScreen(c echo.Context) error {
	token := c.Param("token")
	sc, err := s.dash.ScreenOfLink(c.Request().Context(), token)
	if errors.Is(err, domain.ErrNotFound) {
		return &httpkit.Error{Code: http.StatusNotFound, Msg: tr(c, "screen.link_invalid")}
	}
	if err != nil {
		return err
	}
	s.setScreenCookie(c, sc.ID, token)
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	return c.Redirect(http.StatusSeeOther, "/screen")
}

// setScreenCookie gives the browser the screen's cookie: its id and link
// token, sealed with the current key.
func (s *Server) setScreenCookie(c echo.Context, id, token string) {
	sealed := s.keys.Seal(keyring.ScreenCookies, []byte(id+"\x00"+token), nil)
	c.SetCookie(&http.Cookie{
		Name: screenCookie, Value: base64.RawURLEncoding.EncodeToString(sealed), Path: "/screen",
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureRequest(c),
		MaxAge: 400 * 24 * 60 * 60, // the longest browsers keep a cookie
	})
}

// screenCtx is what a screen request knows of its screen.
type screenCtx struct {
	screen  domain.Screen
	cred    domain.Credentials
	stopped views.ScreenStop // why the screen shows no data, if it does not
	// token is the link token of a cookie sealed with a key the server's
	// keys replace: the cookie is sealed again with the current key.
	renewToken string
}

const ctxScreen = "screen"

// requireScreen lets through browsers linked to a screen, and only to the
// screen's own routes, which speak the screen's language, whatever its
// browser's (a TV's browser is often English).
func (s *Server) requireScreen(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		sc, err := s.screenOf(c)
		if err != nil {
			return err
		}
		if sc.renewToken != "" {
			s.setScreenCookie(c, sc.screen.ID, sc.renewToken)
		}
		if sc.screen.ID != "" {
			r := c.Request()
			c.SetRequest(r.WithContext(i18n.WithLocalizer(r.Context(), i18n.For(languageCodeOf(sc.screen)))))
		}
		c.Set(ctxScreen, sc)
		return next(c)
	}
}

// languageCodeOf is the code of the language a screen speaks: English for
// one made before screens had one.
func languageCodeOf(sc domain.Screen) string {
	if sc.Language == "" {
		return i18n.Default
	}
	return sc.Language
}

// errNoScreen answers a browser linked to no screen.
func errNoScreen(c echo.Context) error {
	return &httpkit.Error{Code: http.StatusForbidden, Msg: tr(c, "screen.not_linked")}
}

// screenOf finds the request's screen from its cookie. A screen whose
// cookie or stored credentials the server's keys cannot open (the key
// changed) needs a new link, and says so rather than failing.
func (s *Server) screenOf(c echo.Context) (screenCtx, error) {
	ck, err := c.Cookie(screenCookie)
	if err != nil {
		return screenCtx{}, errNoScreen(c)
	}
	raw, err := base64.RawURLEncoding.DecodeString(ck.Value)
	if err != nil || len(raw) <= keyring.Overhead {
		return screenCtx{}, errNoScreen(c)
	}
	plain, stale, err := s.keys.Open(keyring.ScreenCookies, raw, nil)
	if err != nil {
		return screenCtx{stopped: views.StopNeedsLink}, nil
	}
	id, token, ok := bytes.Cut(plain, []byte{0})
	if !ok {
		return screenCtx{}, errNoScreen(c)
	}
	ls, err := s.dash.LinkedScreen(c.Request().Context(), string(id), string(token))
	if err != nil {
		return screenCtx{}, err
	}
	out := screenCtx{screen: ls.Screen, cred: ls.Cred}
	switch ls.State {
	case dashboard.Unlinked:
		out.stopped = views.StopUnlinked
	case dashboard.NeedsLink:
		out.stopped = views.StopNeedsLink
	default:
		if stale {
			out.renewToken = string(token)
		}
	}
	return out, nil
}

// checkIn keeps the screen's account syncing and records that the screen
// is alive.
func (s *Server) checkIn(c echo.Context, sc screenCtx) {
	now := s.clock.Now()
	if !sc.screen.Portfolio() { // a portfolio screen's accounts are held by their connections
		s.sync.Hold(screenHolder(sc.screen.ID), sc.screen.Account, sc.cred, now.Add(screenHold))
	}
	if err := s.dash.TouchScreen(c.Request().Context(), sc.screen, now); err != nil {
		s.logOf(c).Warn("recording a screen's check-in", "screen", sc.screen.ID, "error", err.Error())
	}
}

func (s *Server) showScreen(c echo.Context) error {
	sc := c.Get(ctxScreen).(screenCtx)
	m, err := s.screenView(c, sc)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return render(c, http.StatusOK, views.ScreenPage(m))
}

func (s *Server) showScreenContent(c echo.Context) error {
	sc := c.Get(ctxScreen).(screenCtx)
	m, err := s.screenView(c, sc)
	if err != nil {
		return err
	}
	if !m.Stopped.IsZero() {
		c.Response().Header().Set(hxRefresh, "true")
	}
	return render(c, http.StatusOK, views.ScreenContent(m))
}

// screenView builds what a screen shows: what needs doing first, grouped
// by floor and room.
func (s *Server) screenView(c echo.Context, sc screenCtx) (views.ScreenView, error) {
	ctx := c.Request().Context()
	m := views.ScreenView{Name: sc.screen.Name, Zone: s.cfg.Zone, Now: s.clock.Now(), Version: s.version, ClockSpeed: s.cfg.ClockSpeed,
		PageSeconds: sc.screen.PageSeconds, DimFrom: formatClock(sc.screen.DimFrom), DimTo: formatClock(sc.screen.DimTo),
		Contact: sc.screen.Contact}
	if !sc.stopped.IsZero() {
		m.Stopped = sc.stopped
		return m, nil
	}
	s.checkIn(c, sc)
	if sc.screen.Portfolio() {
		return s.portfolioScreenView(c, sc, m)
	}
	m.Freshness = s.freshness(ctx, session{Account: sc.screen.Account, Cred: sc.cred})
	v, err := s.dash.ScreenView(ctx, sc.screen)
	if err != nil {
		return m, err
	}
	m.ScopeName = v.ScopeName
	m.Counts, m.OpenAlerts, m.OverdueAlerts = v.Rollup.Counts, v.Rollup.OpenAlerts, v.Rollup.OverdueAlerts
	m.Groups, m.Attention = screenGroups(v.Action), screenGroups(v.Attention)
	for _, r := range v.RunningOut {
		m.RunningOut = append(m.RunningOut, views.ScreenRunningOut{Where: r.Where, Dispensers: r.Dispensers, Before: v.RunsOutBy})
	}
	if v.Levels.Set {
		m.Levels = &views.LevelCounts{AtRisk: v.Levels.AtRisk, Missed: v.Levels.Missed}
	}
	m.Rounds = screenRounds(v.Rounds)
	for _, p := range v.Plans {
		sp := views.ScreenPlan{FloorID: p.Plan.FloorID, Width: p.Plan.Width, Height: p.Plan.Height, Where: p.Building + " › " + p.Floor,
			ImageHref: "/screen/plans/" + p.Plan.FloorID + "?v=" + strconv.FormatInt(p.Plan.Updated.UnixMilli(), 36)}
		for _, mk := range p.Marks {
			sp.Marks = append(sp.Marks, views.ScreenMark{Name: mk.Name, At: mk.At, Health: mk.Health, Open: mk.Open, Overdue: mk.Overdue})
		}
		m.Plans = append(m.Plans, sp)
	}
	m.AllClear = len(m.Groups) == 0 && len(m.Attention) == 0
	return m, nil
}

func screenGroups(groups []dashboard.ScreenGroup) []views.ScreenGroup {
	out := make([]views.ScreenGroup, 0, len(groups))
	for _, g := range groups {
		vg := views.ScreenGroup{Where: g.Where, Items: make([]views.ScreenItem, 0, len(g.Items))}
		for _, it := range g.Items {
			vi := views.ScreenItem{Location: it.Location, Problem: it.Problem, What: it.What, Severity: it.Severity, Since: it.Since, Overdue: it.Overdue,
				ClaimedBy: it.ClaimedBy, ClaimedAt: it.ClaimedAt}
			if it.Level != nil {
				vi.Level = levelView(*it.Level, true)
			}
			vg.Items = append(vg.Items, vi)
		}
		out = append(out, vg)
	}
	return out
}

// screenBeat is what a screen's event stream sends every screenHeartbeat.
