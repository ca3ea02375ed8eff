// Package web is Washboard's HTTP layer: an echo application that renders
// templ views over the cache, with htmx fragments and server-sent events
// for live updates. Echo stays inside this package.
package web

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"washboard/internal/clock"
	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/floorplan"
	"washboard/internal/keyring"
	"washboard/internal/metrics"
	"washboard/internal/passkey"
	"washboard/internal/people"
	"washboard/internal/receiver"
	"washboard/internal/reportmail"
	"washboard/internal/syncer"
	"washboard/internal/version"
	"washboard/web/httpkit"
)

// Config configures the web application.
type Config struct {
	Sessions SessionConfig
	// Zone is the time zone times are shown in; the server's if nil.
	Zone *time.Location
	// TrustedProxies are the addresses of the reverse proxies in front of
	// Washboard. X-Forwarded-For (the client's address, for sign-in
	// limits) and X-Forwarded-Proto (https, for Secure cookies) are
	// believed only from them; none by default.
	TrustedProxies []netip.Prefix
	// Demo, when set, offers these credentials on the sign-in page in one
	// click. They never reach the browser.
	Demo *domain.Credentials
	// DemoPerson, when set, is the person the demo credentials sign in as
	// (when the browser is not signed in as someone already): the demo's
	// person, with the accounts of its portfolio connected.
	DemoPerson string
	// SignInLimit is the failed sign-ins allowed per client address within
	// a minute, and those with one API key from all addresses before the
	// key counts as guessed (see httpkit.FailureLimiter); 10 if zero.
	SignInLimit int
	// ScreenHeartbeat is how often a wall screen's event stream says it is
	// alive; 15 s if zero.
	ScreenHeartbeat time.Duration
	// Version is the version pages and screens are told; the build's if
	// empty. Open screens reload once when it changes.
	Version string
	// ServeMetrics serves Deps.Metrics at /metrics; off when the metrics
	// have a listener of their own.
	ServeMetrics bool
	// PublicURL is the dashboard's address as people reach it
	// (--public-url), such as https://washboard.example.com: the links
	// of the sign-in letters lead there, never to an address a request
	// named. When empty, the address the request reached.
	PublicURL string
	// ClockSpeed, when set, says that Deps.Clock is not the real clock
	// and runs this many times faster than it (the demo's): wall screens
	// then show its time rather than their own.
	ClockSpeed float64
	// SingleSignOnName names the OpenID provider on the sign-in page's
	// button ("Sign in with …"): "single sign-on" when empty.
	SingleSignOnName string
}

// Deps are the services the web application uses.
type Deps struct {
	// Dashboard answers the pages from the cache.
	Dashboard *dashboard.Service
	// Sessions keeps the sessions' sealed data.
	Sessions httpkit.SessionStore
	Sync     *syncer.Engine
	Clock    clock.Clock
	Log      *slog.Logger
	Metrics  *metrics.Metrics // nil records nothing
	// Keys seal sessions, screen cookies and screens' credentials, and
	// sign form tokens.
	Keys *keyring.Ring
	// Receiver takes the service's events at /hooks/; nil answers them 404.
	Receiver *receiver.Service
	// SessionAnnouncements, with SessionConfig.Shared, carries the announcements
	// of sessions written between replicas, so that each may keep
	// sessions in memory.
	SessionAnnouncements httpkit.SessionAnnouncements
	// People keeps the people of the accounts, their roles and their
	// ways in.
	People *people.Service
	// Mail, when set, sends a letter of plain text to one address through
	// the server's mail settings (--smtp-url): invitations, sign-in
	// links. Its error says
	// in words what went wrong. Nil sends none.
	Mail func(ctx context.Context, to, subject, text string) error
	// Notifications keeps the account's notification channels and rules
	// and sends them; nil answers /notifications 404.
	Notifications Notifications
	// SingleSignOn, when set, signs people in through an OpenID provider
	// (/signin/oidc); nil offers no single sign-on.
	SingleSignOn SingleSignOn
	// ReportMail keeps the schedules of the client report by e-mail; nil
	// answers /reports/client/schedules 404.
	ReportMail *reportmail.Service
	// Passkeys registers people's passkeys and signs them in with them,
	// for the site the server is reached at; nil offers no passkeys.
	Passkeys *passkey.Passkeys
	// Push subscribes people's devices to pushes; nil says on /me that
	// the server sends none.
	Push PushDevices
	// AcceptPlan makes an uploaded floor plan safe to keep and serve;
	// nil takes SVG, PNG, JPEG and one-page PDF files as internal/floorplan
	// makes them safe.
	AcceptPlan PlanAccepter
}

// Server is the web application.
type Server struct {
	cfg      Config
	dash     *dashboard.Service
	sync     *syncer.Engine
	clock    clock.Clock
	log      *slog.Logger
	metrics  *metrics.Metrics
	closing  chan struct{} // closed by CloseStreams
	closeOne sync.Once
	sessions *scs.SessionManager
	// sessionStore is the sessions' store as scs uses it: ending a
	// session through it drops it here and on the other replicas.
	sessionStore *httpkit.SessionCache
	people       *people.Service
	streams      sessionStreams
	mail         func(ctx context.Context, to, subject, text string) error
	letters      sync.WaitGroup // sign-in letters being sent (mailSignInLink)
	keys         *keyring.Ring
	receiver     *receiver.Service
	notifier     Notifications
	sso          SingleSignOn
	ssoBegins    *httpkit.FailureLimiter // sign-ins through the provider begun, per address
	passkeys     *passkey.Passkeys
	push         PushDevices
	reportMail   *reportmail.Service
	limiter      *httpkit.FailureLimiter
	echo         *echo.Echo
	version      string
	pages        *httpkit.PageCache[pageKey, *renderedPage] // rendered live regions of pages
	portfolios   keptPortfolios                             // people's portfolios, read lately
	assets       map[string]*asset
	pwa          *pwaFiles // the manifest and the service worker
	acceptPlan   PlanAccepter
}

// New builds the web application.
func New(cfg Config, deps Deps) (*Server, error) {
	if deps.Keys == nil {
		return nil, errors.New("web: no keys to seal sessions with")
	}
	if deps.Dashboard == nil || deps.Sessions == nil || deps.Sync == nil || deps.People == nil {
		return nil, errors.New("web: the dashboard, the session store, the sync engine and the people service are all needed")
	}
	if cfg.Zone == nil {
		cfg.Zone = time.Local
	}
	if cfg.ScreenHeartbeat <= 0 {
		cfg.ScreenHeartbeat = 15 * time.Second
	}
	if deps.Clock == nil {
		deps.Clock = clock.Real{}
	}
	if deps.Log == nil {
		deps.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		cfg: cfg, dash: deps.Dashboard, sync: deps.Sync, clock: deps.Clock, log: deps.Log, metrics: deps.Metrics, closing: make(chan struct{}),
		sessions: newSessionManager(deps.Sessions, cfg.Sessions, deps.Keys, deps.SessionAnnouncements), keys: deps.Keys, receiver: deps.Receiver, notifier: deps.Notifications, limiter: httpkit.NewFailureLimiter(cmp.Or(max(cfg.SignInLimit, 0), 10), time.Minute, deps.Clock), version: cfg.Version,
		pages: httpkit.NewPageCache[pageKey, *renderedPage](pageCacheBytes, deps.Log),
	}
	s.sessionStore = s.sessions.Store.(*httpkit.SessionCache)
	s.sessionStore.Watch(s.sessionHeard)
	s.people, s.mail, s.sso, s.passkeys, s.reportMail = deps.People, deps.Mail, deps.SingleSignOn, deps.Passkeys, deps.ReportMail
	s.push = deps.Push
	s.acceptPlan = deps.AcceptPlan
	if s.acceptPlan == nil {
		s.acceptPlan = acceptPlanWith(floorplan.NewChecker(floorplan.Limits{MaxBytes: domain.MaxPlanBytes, MaxSide: domain.MaxPlanSide}))
	}
	s.ssoBegins = httpkit.NewFailureLimiter(singleSignOnBegins, time.Minute, deps.Clock)
	if s.version == "" {
		s.version = version.String()
	}
	var err error
	if s.assets, err = embeddedAssets(); err != nil {
		return nil, err
	}
	if s.pwa, err = newPWAFiles(s.version); err != nil {
		return nil, err
	}
	s.echo = s.routes()
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// CloseStreams ends every server-sent event stream, now and from now on,
// so that a shutting-down server does not wait for them: browsers and
// screens reconnect by themselves. Other requests are left to finish.
func (s *Server) CloseStreams() { s.closeOne.Do(func() { close(s.closing) }) }

// Close stops the renders of pages that run in the background and waits
// for them; from then on a page is rendered only by the request that asks
// for it. It waits for the sign-in letters being sent, too. Call it once the server has stopped serving, before the cache
// it reads is closed.
func (s *Server) Close() {
	s.pages.Close()
	s.letters.Wait()
}
