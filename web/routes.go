package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/static"
	"washboard/web/httpkit"
)

// routes is the route table of the application.
func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	proxies := httpkit.Proxies(s.cfg.TrustedProxies)
	e.IPExtractor = proxies.ClientAddress()
	e.Pre(httpkit.RequestID(s.log))
	e.Use(httpkit.Compress,
		httpkit.LogRequests(httpkit.Logging{Log: s.log, SecretPaths: []string{"/s/"}, Observe: s.metrics.ObserveRequest}),
		httpkit.RecoverPanics, httpkit.SecurityHeaders(proxies), httpkit.LimitBody(bodyLimit),
		// The sign-in form checks its own, and says more about a
		// credential pasted with something around it.
		httpkit.CleanInput("/signin"))
	private := httpkit.Private(hxRequest)

	e.GET("/static/*", serveAssets(s.assets))
	// Browsers ask for /favicon.ico where a page names no icon (the JSON
	// of /healthz, a CSV opened in a tab): they are sent to the icon.
	e.GET("/favicon.ico", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "public, max-age=86400")
		return c.Redirect(http.StatusFound, static.URL("icons/favicon.svg"))
	})

	// Operations: not behind sign-in, and saying nothing about accounts.
	e.GET("/healthz", s.showHealth)
	e.GET("/readyz", s.showReady)
	if s.cfg.ServeMetrics && s.metrics != nil {
		e.GET("/metrics", echo.WrapHandler(s.metrics.Handler()))
	}

	// The service's events: checked by their signature, not a session.
	if s.receiver != nil {
		e.POST("/hooks/:id", s.receiveEvent, private)
	}

	// Wall screens: a link opened once, then only the screen's own routes.
	e.GET("/s/:token", s.linkScreen, private)
	screen := e.Group("/screen", private, s.requireScreen)
	screen.GET("", s.showScreen)
	screen.GET("/content", s.showScreenContent)
	screen.GET("/events", s.streamScreenEvents)

	app := e.Group("", private, s.loadSession, s.csrf)
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
	ready.GET("/alerts/:id/claim", s.showClaim)
	ready.POST("/alerts/:id/claim", s.claimAlert)
	ready.POST("/alerts/:id/release", s.releaseClaim)
	ready.GET("/devices.csv", s.exportDevices)
	ready.GET("/screens", s.listScreens)
	ready.POST("/screens", s.createScreen)
	ready.GET("/screens/:id/edit", s.editScreen)
	ready.POST("/screens/:id", s.updateScreen)
	ready.POST("/screens/:id/revoke", s.revokeScreen)
	ready.POST("/screens/:id/relink", s.relinkScreen)
	ready.POST("/screens/:id/remove", s.removeScreen)
	if s.receiver != nil {
		ready.GET("/webhooks", s.listWebhooks)
		ready.POST("/webhooks", s.createWebhook)
		ready.POST("/webhooks/:id/rotate", s.rotateWebhook)
		ready.POST("/webhooks/:id/remove", s.removeWebhook)
	}
	if s.notifier != nil {
		ready.GET("/notifications", s.listNotifications)
		ready.POST("/notifications/channels", s.addChannel)
		ready.POST("/notifications/channels/:name/test", s.testChannel)
		ready.POST("/notifications/channels/:name/remove", s.removeChannel)
		ready.POST("/notifications/rules", s.addRule)
		ready.POST("/notifications/rules/:name/remove", s.removeRule)
	}
	ready.GET("/reports", func(c echo.Context) error { return c.Redirect(http.StatusSeeOther, "/reports/shift") })
	ready.GET("/reports/shift", s.showShiftReport)
	ready.GET("/reports/shift.csv", s.exportShiftReport)
	ready.GET("/reports/settings", s.showReportSettings)
	ready.POST("/reports/settings", s.saveReportSettings)
	ready.GET("/trends", s.showTrends)
	ready.GET("/trends.csv", s.exportTrends)

	app.RouteNotFound("/*", func(echo.Context) error { return errNotFound("There is no page at this address.") })
	return e
}
