package web

import (
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/static"
)

// routes is the route table of the application.
func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	if s.cfg.TrustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	} else {
		e.IPExtractor = echo.ExtractIPDirect()
	}
	e.Pre(s.requestID)
	e.Use(s.logRequests, s.recoverPanics, s.securityHeaders)

	assets, _ := fs.Sub(static.FS, ".")
	e.GET("/static/*", echo.WrapHandler(http.StripPrefix("/static/", staticHandler(assets))))

	app := e.Group("", s.loadSession, s.csrf)
	app.GET("/signin", s.showSignIn)
	app.POST("/signin", s.signIn)
	app.POST("/signin/demo", s.signInDemo)
	app.POST("/signout", s.signOut)

	in := app.Group("", s.requireAccount)
	in.GET("/sync/progress", s.showProgress)
	in.GET("/status", s.showStatus)
	in.GET("/events", s.streamEvents)

	ready := in.Group("", s.requireFirstSync)
	ready.GET("/", s.showOverview)
	ready.GET("/buildings/:id", s.showBuilding)
	ready.GET("/floors/:id", s.showFloor)
	ready.GET("/rooms/:id", s.showRoom)
	ready.GET("/locations/:id", s.showLocation)
	ready.GET("/search", s.searchLocations)
	ready.GET("/alerts", s.listAlerts)
	ready.GET("/alerts.csv", s.exportAlerts)
	ready.GET("/devices.csv", s.exportDevices)

	app.RouteNotFound("/*", func(echo.Context) error { return errNotFound("There is no page at this address.") })
	return e
}
