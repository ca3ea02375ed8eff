package web

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/web/httpkit"
)

// route is an entry of the route table: a method and a path pattern, the
// handler that answers them, and what the request must bring to reach it.
type route struct {
	method  string
	path    string
	handler echo.HandlerFunc
	access  access
}

// access is what a route asks of a request before its handler runs; the
// middleware of each is in one place, accessChecks.
type access int

const (
	_             access = iota // no access: every route says its own
	anyone                      // anyone: assets, the icon
	operations                  // anyone, and the answer says nothing about accounts
	hookSignature               // the service's events: their signature, checked by the handler
	linkToken                   // a wall screen's link, opened once: its token, checked by the handler
	wallScreen                  // a wall screen's own routes: the screen's cookie
	sessionOnly                 // a session, signed in or not, and a form token for a POST
	signedIn                    // a session signed in to an account, whose sync it holds
	firstSynced                 // signedIn, and the account's first sync done
)

// routeTable is every route of the server, as configured: the service's
// events only with a receiver, the notifications only with a notifier,
// /metrics only when served here.
func (s *Server) routeTable() []route {
	get, post, noRoute := http.MethodGet, http.MethodPost, echo.RouteNotFound
	table := []route{
		{get, "/static/*", serveAssets(s.assets), anyone},
		{get, "/favicon.ico", showFavicon, anyone},

		{get, "/healthz", s.showHealth, operations},
		{get, "/readyz", s.showReady, operations},

		{get, "/s/:token", s.linkScreen, linkToken},
		{get, "/screen", s.showScreen, wallScreen},
		{get, "/screen/content", s.showScreenContent, wallScreen},
		{get, "/screen/events", s.streamScreenEvents, wallScreen},

		{get, "/signin", s.showSignIn, sessionOnly},
		{post, "/signin", s.signIn, sessionOnly},
		{post, "/signin/demo", s.signInDemo, sessionOnly},
		{post, "/signout", s.signOut, sessionOnly},

		{get, "/sync/progress", s.showProgress, signedIn},
		{get, "/status", s.showStatus, signedIn},
		{get, "/events", s.streamEvents, signedIn},

		{get, "/", s.showOverview, firstSynced},
		{get, "/buildings/:id", s.showBuilding, firstSynced},
		{get, "/floors/:id", s.showFloor, firstSynced},
		{get, "/rooms/:id", s.showRoom, firstSynced},
		{get, "/locations/:id", s.showLocation, firstSynced},
		{get, "/search", s.searchLocations, firstSynced},
		{get, "/alerts", s.listAlerts, firstSynced},
		{get, "/alerts.csv", s.exportAlerts, firstSynced},
		{get, "/alerts/:id/claim", s.showClaim, firstSynced},
		{post, "/alerts/:id/claim", s.claimAlert, firstSynced},
		{post, "/alerts/:id/release", s.releaseClaim, firstSynced},
		{get, "/devices.csv", s.exportDevices, firstSynced},
		{get, "/screens", s.listScreens, firstSynced},
		{post, "/screens", s.createScreen, firstSynced},
		{get, "/screens/:id/edit", s.editScreen, firstSynced},
		{post, "/screens/:id", s.updateScreen, firstSynced},
		{post, "/screens/:id/revoke", s.revokeScreen, firstSynced},
		{post, "/screens/:id/relink", s.relinkScreen, firstSynced},
		{post, "/screens/:id/remove", s.removeScreen, firstSynced},
		{get, "/reports", showReports, firstSynced},
		{get, "/reports/shift", s.showShiftReport, firstSynced},
		{get, "/reports/shift.csv", s.exportShiftReport, firstSynced},
		{get, "/reports/settings", s.showReportSettings, firstSynced},
		{post, "/reports/settings", s.saveReportSettings, firstSynced},
		{get, "/trends", s.showTrends, firstSynced},
		{get, "/trends.csv", s.exportTrends, firstSynced},

		// Addresses of no page are answered 404 after the checks of the
		// part of the site they are in: a screen's, or a session's, so
		// that the page says who is signed in. The overview's address
		// with another method is checked as the overview is.
		{noRoute, "/*", showNoPage, sessionOnly},
		{noRoute, "/", showNoPage, firstSynced},
		{noRoute, "/screen", showNoPage, wallScreen},
		{noRoute, "/screen/*", showNoPage, wallScreen},
	}
	if s.cfg.ServeMetrics && s.metrics != nil {
		table = append(table, route{get, "/metrics", echo.WrapHandler(s.metrics.Handler()), operations})
	}
	if s.receiver != nil {
		table = append(table,
			route{post, "/hooks/:id", s.receiveEvent, hookSignature},
			route{get, "/webhooks", s.listWebhooks, firstSynced},
			route{post, "/webhooks", s.createWebhook, firstSynced},
			route{post, "/webhooks/:id/rotate", s.rotateWebhook, firstSynced},
			route{post, "/webhooks/:id/remove", s.removeWebhook, firstSynced})
	}
	if s.notifier != nil {
		table = append(table,
			route{get, "/notifications", s.listNotifications, firstSynced},
			route{post, "/notifications/channels", s.addChannel, firstSynced},
			route{post, "/notifications/channels/:name/test", s.testChannel, firstSynced},
			route{post, "/notifications/channels/:name/remove", s.removeChannel, firstSynced},
			route{post, "/notifications/rules", s.addRule, firstSynced},
			route{post, "/notifications/rules/:name/remove", s.removeRule, firstSynced})
	}
	return table
}

// routes builds the application: the middleware every request passes,
// then each route of the table behind the checks of its access.
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
	for _, r := range s.routeTable() {
		e.Add(r.method, r.path, r.handler, s.accessChecks(r.access)...)
	}
	return e
}

// accessChecks are the middleware that let through only the requests
// that bring what the access asks.
func (s *Server) accessChecks(a access) []echo.MiddlewareFunc {
	// private: the answer is one person's or one screen's, and no cache
	// may keep it.
	private := httpkit.Private(hxRequest)
	session := []echo.MiddlewareFunc{private, s.loadSession, s.csrf}
	switch a {
	case anyone, operations:
		return nil
	case hookSignature, linkToken:
		return []echo.MiddlewareFunc{private}
	case wallScreen:
		return []echo.MiddlewareFunc{private, s.requireScreen}
	case sessionOnly:
		return session
	case signedIn:
		return append(session, s.requireAccount)
	case firstSynced:
		return append(session, s.requireAccount, s.requireFirstSync)
	}
	panic(fmt.Sprintf("web: a route of no access (%d)", a))
}

// showNoPage answers an address of no page.
func showNoPage(echo.Context) error { return errNotFound("There is no page at this address.") }
