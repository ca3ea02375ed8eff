package web

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/web/httpkit"
)

// route is an entry of the route table: a method and a path pattern, the
// handler that answers them, what the request must bring to reach it, and
// for the routes of a signed-in session, the least role its person needs
// in the account (anyRole for the others).
type route struct {
	method  string
	path    string
	handler echo.HandlerFunc
	access  access
	least   domain.Role
}

// The roles of the table's last column, lowest first: each includes the
// ones before it (see docs/people.md).
const (
	anyRole    = domain.NoRole     // no role asked: not signed in, or signed in to anything
	viewer     = domain.Viewer     // sees everything of the account, changes nothing
	staff      = domain.Staff      // says "I'm on it", ends their own claim
	supervisor = domain.Supervisor // claims for others, shift reports and their settings, screens
	admin      = domain.Admin      // people, notifications, webhooks, the audit log
	owner      = domain.Owner      // the account's credentials, disconnecting it
)

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
	roomCode                    // a room's code, public: the session of a person signed in, if any, and no other
)

// routeTable is every route of the server, as configured: the service's
// events only with a receiver, the notifications only with a notifier,
// single sign-on only with a provider, /metrics only when served here.
func (s *Server) routeTable() []route {
	get, post, noRoute := http.MethodGet, http.MethodPost, echo.RouteNotFound
	table := []route{
		{get, "/static/*", serveAssets(s.assets), anyone, anyRole},
		{get, "/favicon.ico", showFavicon, anyone, anyRole},
		{get, "/manifest.webmanifest", s.showManifest, anyone, anyRole},
		{get, "/sw.js", s.showServiceWorker, anyone, anyRole},
		{get, "/offline", s.showOffline, sessionOnly, anyRole},

		{get, "/healthz", s.showHealth, operations, anyRole},
		{get, "/readyz", s.showReady, operations, anyRole},

		{get, "/s/:token", s.linkScreen, linkToken, anyRole},
		{get, "/screen", s.showScreen, wallScreen, anyRole},
		{get, "/screen/content", s.showScreenContent, wallScreen, anyRole},
		{get, "/screen/events", s.streamScreenEvents, wallScreen, anyRole},
		{get, "/screen/plans/:floor", s.showScreenPlanImage, wallScreen, anyRole},

		// A room's code: visitors' reports, and staff's presence scans.
		{get, "/r/:token", s.openRoomCode, roomCode, anyRole},
		{post, "/r/:token", s.reportFromRoom, roomCode, anyRole},

		{get, "/signin", s.showSignIn, sessionOnly, anyRole},
		{post, "/signin", s.signIn, sessionOnly, anyRole},
		{post, "/signin/demo", s.signInDemo, sessionOnly, anyRole},
		{post, "/signout", s.signOut, sessionOnly, anyRole},
		{get, "/invitations/:token", s.showInvitation, sessionOnly, anyRole},
		{post, "/invitations/:token", s.acceptInvitation, sessionOnly, anyRole},
		{get, "/signin/email", s.showEmailSignIn, sessionOnly, anyRole},
		{post, "/signin/email", s.requestSignInLink, sessionOnly, anyRole},
		{get, "/signin/email/:token", s.showSignInLink, sessionOnly, anyRole},
		{post, "/signin/email/:token", s.useSignInLink, sessionOnly, anyRole},
		{get, "/enrol/:token", s.showEnrolment, sessionOnly, anyRole},
		{post, "/enrol/:token", s.openEnrolment, sessionOnly, anyRole},
		{post, "/signin/passkey/options", s.beginPasskeySignIn, sessionOnly, anyRole},
		{post, "/signin/passkey", s.signInWithPasskey, sessionOnly, anyRole},

		{get, "/sync/progress", s.showProgress, signedIn, viewer},
		{get, "/status", s.showStatus, signedIn, viewer},
		{get, "/events", s.streamEvents, signedIn, viewer},
		{get, "/accounts", s.listAccounts, signedIn, viewer},
		{post, "/accounts/switch", s.switchAccount, signedIn, viewer},
		// The organisation's pages ask for a role in the account one is in;
		// the organisation's own role is checked by internal/people.
		{get, "/organisation", s.showOrganisation, signedIn, viewer},
		{post, "/organisation", s.createOrganisation, signedIn, owner},
		{post, "/organisation/accounts", s.addOrganisationAccount, signedIn, owner},
		{post, "/organisation/accounts/:id", s.labelOrganisationAccount, signedIn, viewer},
		{post, "/organisation/people", s.putOrganisationPerson, signedIn, viewer},
		{post, "/organisation/people/:id/remove", s.removeOrganisationPerson, signedIn, viewer},
		{get, "/portfolio", s.showPortfolio, signedIn, viewer},
		{get, "/portfolio.csv", s.exportPortfolio, signedIn, viewer},
		{get, "/portfolio/search", s.searchPortfolio, signedIn, viewer},
		// Pages of several accounts: the least role of their one-account
		// page, asked also of each account they cover (leastRoleOf).
		{get, "/portfolio/reports/shift", s.showPortfolioShiftReport, signedIn, viewer},
		{get, "/portfolio/reports/shift.csv", s.exportPortfolioShiftReport, signedIn, viewer},
		{get, "/portfolio/trends", s.showPortfolioTrends, signedIn, viewer},
		{get, "/portfolio/trends.csv", s.exportPortfolioTrends, signedIn, viewer},
		// The organisation's wall screens: supervisor in the account one is
		// in, and in the organisation (checked by internal/dashboard).
		{get, "/portfolio/screens", s.listPortfolioScreens, signedIn, viewer},
		{post, "/portfolio/screens", s.createPortfolioScreen, signedIn, supervisor},
		{get, "/portfolio/screens/:id/edit", s.editPortfolioScreen, signedIn, supervisor},
		{post, "/portfolio/screens/:id", s.updatePortfolioScreen, signedIn, supervisor},
		{post, "/portfolio/screens/:id/revoke", s.revokePortfolioScreen, signedIn, supervisor},
		{post, "/portfolio/screens/:id/relink", s.relinkPortfolioScreen, signedIn, supervisor},
		{post, "/portfolio/screens/:id/remove", s.removePortfolioScreen, signedIn, supervisor},
		{get, "/me", s.showMe, firstSynced, viewer},
		{post, "/me", s.updateMe, firstSynced, viewer},
		{post, "/me/language", s.updateMyLanguage, firstSynced, viewer},
		{post, "/me/passkeys/options", s.beginPasskeyRegistration, signedIn, viewer},
		{post, "/me/passkeys", s.addPasskey, signedIn, viewer},
		{post, "/me/passkeys/:id/rename", s.renamePasskey, firstSynced, viewer},
		{post, "/me/passkeys/:id/remove", s.removePasskey, firstSynced, viewer},
		{post, "/me/push", s.subscribePush, firstSynced, viewer},
		{post, "/me/push/test", s.testPush, firstSynced, viewer},
		{post, "/me/push/:id/remove", s.removePush, firstSynced, viewer},
		{get, "/people", s.showPeople, signedIn, admin},
		{post, "/people/invitations", s.invitePerson, signedIn, admin},
		{post, "/people/invitations/:id/withdraw", s.withdrawInvitation, signedIn, admin},
		{post, "/people/:id/role", s.changeRole, signedIn, admin},
		{post, "/people/:id/remove", s.removePerson, signedIn, admin},
		{get, "/people/devices", s.showEnrolledDevices, signedIn, supervisor},
		{post, "/people/devices", s.enrolDevice, signedIn, supervisor},
		{post, "/people/devices/:id/revoke", s.revokeDevice, signedIn, supervisor},
		{post, "/people/devices/:id/remove", s.removeDevice, signedIn, supervisor},
		{post, "/me/devices/:id/revoke", s.revokeOwnDevice, firstSynced, viewer},
		{get, "/audit", s.showAudit, signedIn, admin},
		{get, "/account", s.showAccount, signedIn, owner},
		{post, "/account/credentials", s.replaceCredentials, signedIn, owner},
		{get, "/account/disconnect", s.confirmDisconnect, signedIn, owner},
		{post, "/account/disconnect", s.disconnectAccount, signedIn, owner},
		{get, "/audit.csv", s.exportAudit, signedIn, admin},

		{get, "/", s.showOverview, firstSynced, viewer},
		{get, "/buildings/:id", s.showBuilding, firstSynced, viewer},
		{get, "/floors/:id", s.showFloor, firstSynced, viewer},
		{get, "/floors/:id/codes", s.showFloorCodes, firstSynced, supervisor},
		{post, "/floors/:id/codes", s.replaceRoomCode, firstSynced, supervisor},
		{get, "/rooms/:id", s.showRoom, firstSynced, viewer},
		{get, "/rooms/:id/service", s.showRoomService, firstSynced, viewer},
		{get, "/rooms/:id/service.csv", s.exportRoomService, firstSynced, viewer},
		{get, "/locations/:id", s.showLocation, firstSynced, viewer},
		{get, "/search", s.searchLocations, firstSynced, viewer},
		{get, "/alerts", s.listAlerts, firstSynced, viewer},
		{get, "/alerts.csv", s.exportAlerts, firstSynced, viewer},
		{get, "/alerts/:id/claim", s.showClaim, firstSynced, staff},
		{post, "/alerts/:id/claim", s.claimAlert, firstSynced, staff},
		{post, "/alerts/:id/release", s.releaseClaim, firstSynced, staff},
		{post, "/alerts/:id/close", s.closeVisitorReport, firstSynced, supervisor},
		{get, "/my", s.showMyWork, firstSynced, viewer},
		{post, "/my/alerts/:id/claim", s.claimMyWork, firstSynced, staff},
		{post, "/my/alerts/:id/done", s.markMyWorkDone, firstSynced, staff},
		{get, "/rounds", s.listRounds, firstSynced, viewer},
		{post, "/rounds", s.makeRound, firstSynced, supervisor},
		{get, "/rounds/:id", s.showRound, firstSynced, viewer},
		{post, "/rounds/:id/stops/:n", s.tickRoundStop, firstSynced, staff},
		{post, "/rounds/:id/end", s.endRound, firstSynced, supervisor},
		{post, "/rounds/schedules", s.addRoundSchedule, firstSynced, supervisor},
		{post, "/rounds/schedules/:id/remove", s.removeRoundSchedule, firstSynced, supervisor},
		{get, "/devices.csv", s.exportDevices, firstSynced, viewer},
		{get, "/screens", s.listScreens, firstSynced, viewer},
		{post, "/screens", s.createScreen, firstSynced, supervisor},
		{get, "/screens/:id/edit", s.editScreen, firstSynced, supervisor},
		{post, "/screens/:id", s.updateScreen, firstSynced, supervisor},
		{post, "/screens/:id/revoke", s.revokeScreen, firstSynced, supervisor},
		{post, "/screens/:id/relink", s.relinkScreen, firstSynced, supervisor},
		{post, "/screens/:id/remove", s.removeScreen, firstSynced, supervisor},
		{get, "/reports", showReports, firstSynced, viewer},
		{get, "/reports/shift", s.showShiftReport, firstSynced, viewer},
		{get, "/reports/shift.csv", s.exportShiftReport, firstSynced, viewer},
		{get, "/reports/client", s.showClientReport, firstSynced, supervisor},
		{get, "/reports/client.csv", s.exportClientReport, firstSynced, supervisor},
		{get, "/reports/client.pdf", s.printClientReport, firstSynced, supervisor},
		{get, "/reports/service.csv", s.exportService, firstSynced, supervisor},
		{get, "/reports/settings", s.showReportSettings, firstSynced, supervisor},
		{post, "/reports/settings", s.saveReportSettings, firstSynced, supervisor},
		{get, "/service-levels", s.showServiceLevels, firstSynced, admin},
		{post, "/service-levels", s.saveServiceLevels, firstSynced, admin},
		{get, "/service-levels/buildings/:id", s.showBuildingServiceLevel, firstSynced, admin},
		{post, "/service-levels/buildings/:id", s.saveBuildingServiceLevel, firstSynced, admin},
		{post, "/service-levels/buildings/:id/follow", s.followAccountLevel, firstSynced, admin},
		{get, "/trends", s.showTrends, firstSynced, viewer},
		{get, "/trends.csv", s.exportTrends, firstSynced, viewer},
		{get, "/floors/:id/plan", s.showFloorPlan, firstSynced, supervisor},
		{post, "/floors/:id/plan", s.putFloorPlan, firstSynced, supervisor},
		{post, "/floors/:id/plan/remove", s.removeFloorPlan, firstSynced, supervisor},
		{post, "/floors/:id/plan/placements", s.savePlacements, firstSynced, supervisor},
		{get, "/floors/:id/plan/image", s.showFloorPlanImage, firstSynced, viewer},

		// Addresses of no page are answered 404 after the checks of the
		// part of the site they are in: a screen's, or a session's, so
		// that the page says who is signed in. The overview's address
		// with another method is checked as the overview is.
		{noRoute, "/*", showNoPage, sessionOnly, anyRole},
		{noRoute, "/", showNoPage, firstSynced, viewer},
		{noRoute, "/screen", showNoPage, wallScreen, anyRole},
		{noRoute, "/screen/*", showNoPage, wallScreen, anyRole},
	}
	if s.cfg.ServeMetrics && s.metrics != nil {
		table = append(table, route{get, "/metrics", echo.WrapHandler(s.metrics.Handler()), operations, anyRole})
	}
	if s.receiver != nil {
		table = append(table,
			route{post, "/hooks/:id", s.receiveEvent, hookSignature, anyRole},
			route{get, "/webhooks", s.listWebhooks, firstSynced, admin},
			route{post, "/webhooks", s.createWebhook, firstSynced, admin},
			route{post, "/webhooks/:id/rotate", s.rotateWebhook, firstSynced, admin},
			route{post, "/webhooks/:id/remove", s.removeWebhook, firstSynced, admin})
	}
	if s.reportMail != nil {
		// Admins: a schedule sends the account's figures outside, on and on,
		// after whoever made it has left (docs/service-levels.md).
		table = append(table,
			route{get, "/reports/client/schedules", s.showReportMail, firstSynced, admin},
			route{post, "/reports/client/schedules", s.addReportSchedule, firstSynced, admin},
			route{get, "/reports/client/schedules/:id", s.showReportScheduleForm, firstSynced, admin},
			route{post, "/reports/client/schedules/:id", s.changeReportSchedule, firstSynced, admin},
			route{post, "/reports/client/schedules/:id/remove", s.removeReportSchedule, firstSynced, admin})
	}
	if s.sso != nil {
		table = append(table,
			route{get, "/signin/oidc", s.beginSingleSignOn, sessionOnly, anyRole},
			route{get, "/signin/oidc/callback", s.finishSingleSignOn, sessionOnly, anyRole})
	}
	if s.notifier != nil {
		table = append(table,
			route{get, "/notifications", s.listNotifications, firstSynced, admin},
			route{post, "/notifications/channels", s.addChannel, firstSynced, admin},
			route{post, "/notifications/channels/:name/test", s.testChannel, firstSynced, admin},
			route{post, "/notifications/channels/:name/remove", s.removeChannel, firstSynced, admin},
			route{post, "/notifications/rules", s.addRule, firstSynced, admin},
			route{post, "/notifications/rules/:name/remove", s.removeRule, firstSynced, admin})
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
		httpkit.LogRequests(s.logging()),
		httpkit.RecoverPanics, httpkit.SecurityHeaders(proxies), httpkit.LimitBody(bodyLimit), acceptLanguage,
		// The sign-in form checks its own, and says more about a
		// credential pasted with something around it.
		httpkit.CleanInput("/signin"))
	for _, r := range s.routeTable() {
		e.Add(r.method, r.path, r.handler, s.accessChecks(r.access, r.least)...)
	}
	return e
}

// logging is how requests are logged: the paths whose rest is a token
// (a screen's link, an invitation, an e-mailed sign-in link, a device's
// enrolment link, a room's code) are redacted.
func (s *Server) logging() httpkit.Logging {
	return httpkit.Logging{Log: s.log, SecretPaths: []string{"/s/", "/invitations/", "/signin/email/", "/enrol/", "/r/"}, Observe: s.metrics.ObserveRequest}
}

// accessChecks are the middleware that let through only the requests
// that bring what the access asks, and for a signed-in session, whose
// person holds the least role.
func (s *Server) accessChecks(a access, least domain.Role) []echo.MiddlewareFunc {
	if least != anyRole && a != signedIn && a != firstSynced {
		panic(fmt.Sprintf("web: a route not signed in asks for a role (%s)", least))
	}
	// private: the answer is one person's or one screen's, and no cache
	// may keep it.
	private := httpkit.Private(hxRequest)
	session := []echo.MiddlewareFunc{private, s.loadSession, s.csrf}
	switch a {
	case anyone, operations:
		return nil
	case hookSignature, linkToken:
		return []echo.MiddlewareFunc{private}
	case roomCode:
		return []echo.MiddlewareFunc{private, s.sessionIfAny}
	case wallScreen:
		return []echo.MiddlewareFunc{private, s.requireScreen}
	case sessionOnly:
		return session
	case signedIn:
		return append(session, s.requireAccount, requireRole(max(least, viewer)))
	case firstSynced:
		return append(session, s.requireAccount, requireRole(max(least, viewer)), s.requireFirstSync)
	}
	panic(fmt.Sprintf("web: a route of no access (%d)", a))
}

// showNoPage answers an address of no page.
func showNoPage(c echo.Context) error {
	return errNotFound(i18n.From(c.Request().Context()).T("error.no_page"))
}
