package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"washboard/internal/clock"
	"washboard/internal/cluster"
	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/levels"
	"washboard/internal/metrics"
	"washboard/internal/notifier"
	"washboard/internal/passkey"
	"washboard/internal/people"
	"washboard/internal/push"
	"washboard/internal/receiver"
	"washboard/internal/reportmail"
	"washboard/internal/runout"
	"washboard/internal/store"
	"washboard/internal/store/postgres"
	"washboard/internal/store/sqlite"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
	"washboard/web"
	"washboard/web/httpkit"
)

// serveConfig is the configuration of "washboard serve" (and of the
// dashboard half of "washboard demo").
type serveConfig struct {
	Listen           string
	Upstream         string
	TokenURL         string
	Data             string
	Database         string
	Interval         time.Duration
	MetadataInterval time.Duration
	History          time.Duration
	DeviceHistory    time.Duration
	AuditLog         time.Duration
	Lookback         time.Duration
	IdleTimeout      time.Duration
	Lifetime         time.Duration
	TrustedProxies   prefixesValue
	TimeZone         string
	MetricsListen    string
	ShutdownGrace    time.Duration
	LogFormat        string
	PublicURL        string
	// The notifications' settings.
	Notifications        string
	SMTPURL              string
	MailFrom             string
	AllowPrivateWebhooks bool
	NotificationRate     int
	// Single sign-on's settings.
	OIDC oidcFlags
}

func (c *serveConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.Listen, "listen", ":8080", "address to serve the dashboard on")
	fs.StringVar(&c.Data, "data", "./data", "directory for the database and the session key")
	fs.StringVar(&c.Database, "database", "", "a PostgreSQL URL (postgres://…) to keep the cache in, shared by several replicas; SQLite in --data without it")
	c.Interval, c.MetadataInterval = time.Minute, time.Hour
	c.History, c.Lookback = 90*24*time.Hour, 30*24*time.Hour
	c.IdleTimeout, c.Lifetime = 12*time.Hour, 7*24*time.Hour
	fs.Var((*durationValue)(&c.Interval), "interval", "how often devices and alerts are refreshed (at least 1m, the spec's limit)")
	fs.Var((*durationValue)(&c.MetadataInterval), "metadata-interval", "how often the layout is refreshed (at least 1h)")
	fs.Var((*durationValue)(&c.History), "history", "how long closed alerts are kept, and with them rounds and \"done\" reports")
	c.DeviceHistory = 90 * 24 * time.Hour
	c.AuditLog = people.DefaultAuditRetention
	fs.Var((*durationValue)(&c.AuditLog), "audit-log", "how long the audit log keeps each entry (at least 1d)")
	fs.Var((*durationValue)(&c.DeviceHistory), "device-history", "how long each device's levels, battery and online state are kept, for charts and forecasts (0: not kept)")
	fs.Var((*durationValue)(&c.Lookback), "lookback", "how far back open alerts are re-read by creation date")
	fs.Var((*durationValue)(&c.IdleTimeout), "idle-timeout", "a session ends after this long without a request")
	fs.Var((*durationValue)(&c.Lifetime), "session-lifetime", "a session ends this long after sign-in, whatever happens")
	fs.Var(&c.TrustedProxies, "trust-proxy", "addresses of the reverse proxies in front (CIDR ranges, comma-separated): X-Forwarded-For and X-Forwarded-Proto are believed only from them")
	fs.StringVar(&c.TimeZone, "tz", "Local", "time zone the dashboard shows times in")
	fs.StringVar(&c.MetricsListen, "metrics-listen", "", "serve /metrics on this address instead of the dashboard's")
	c.ShutdownGrace = 15 * time.Second
	fs.Var((*durationValue)(&c.ShutdownGrace), "shutdown-grace", "how long a shutdown waits for requests and the sync to finish")
	fs.StringVar(&c.LogFormat, "log-format", "auto", "log format: json, text, or auto (text on a terminal, json otherwise)")
	fs.StringVar(&c.PublicURL, "public-url", "", "the dashboard's address as people reach it, for the links in notifications and e-mailed sign-in links, and the site passkeys are made for (default: the address it listens on)")
	fs.StringVar(&c.Notifications, "notifications", "", "a JSON file of notification channels and rules, shown read-only on /notifications")
	fs.StringVar(&c.SMTPURL, "smtp-url", "", "the mail server e-mail notifications go through unless a channel names its own: smtp://user:password@host:587 (STARTTLS) or smtps://…")
	fs.StringVar(&c.MailFrom, "mail-from", "", "the sender of e-mail notifications, such as \"Washboard <alerts@example.com>\"")
	fs.IntVar(&c.NotificationRate, "notification-rate", notifier.DefaultRatePerMinute, "the most notifications each channel sends a minute")
	fs.BoolVar(&c.AllowPrivateWebhooks, "allow-private-webhooks", false, "let outgoing webhooks, and the mail servers of channels made on the page, reach loopback and private addresses (a receiver or relay on this machine or network)")
	c.OIDC.flags(fs)
}

func (c serveConfig) validate() error {
	switch {
	case c.Interval < syncer.MinInterval:
		return usageError{fmt.Sprintf("--interval must be at least %s (the spec's polling limit), got %s", syncer.MinInterval, c.Interval)}
	case c.MetadataInterval < syncer.MinMetadataInterval:
		return usageError{fmt.Sprintf("--metadata-interval must be at least %s, got %s", syncer.MinMetadataInterval, c.MetadataInterval)}
	case c.Lookback <= 0 || c.History <= 0:
		return usageError{"--lookback and --history must be positive"}
	case c.DeviceHistory < 0:
		return usageError{"--device-history must be 0 (not kept) or positive"}
	case c.AuditLog < 24*time.Hour:
		return usageError{fmt.Sprintf("--audit-log must be at least 1d, got %s", c.AuditLog)}
	case c.IdleTimeout <= 0 || c.Lifetime <= 0:
		return usageError{"--idle-timeout and --session-lifetime must be positive"}
	case c.NotificationRate < 1:
		return usageError{fmt.Sprintf("--notification-rate must be at least 1 a minute, got %d", c.NotificationRate)}
	case c.ShutdownGrace <= 0:
		return usageError{"--shutdown-grace must be positive"}
	case c.LogFormat != "auto" && c.LogFormat != "json" && c.LogFormat != "text":
		return usageError{fmt.Sprintf("--log-format must be json, text or auto, not %q", c.LogFormat)}
	case c.Database != "" && !strings.HasPrefix(c.Database, "postgres://") && !strings.HasPrefix(c.Database, "postgresql://"):
		return usageError{"--database must be a PostgreSQL URL such as postgres://washboard@db/washboard (the URL is not repeated here: it may hold a password)"}
	case c.PublicURL != "" && !strings.HasPrefix(c.PublicURL, "http://") && !strings.HasPrefix(c.PublicURL, "https://"):
		return usageError{fmt.Sprintf("--public-url must be an http or https URL such as https://washboard.example.com, not %q", c.PublicURL)}
	case c.Database != "" && os.Getenv("WASHBOARD_SECRET_KEY") == "":
		return usageError{"with --database, WASHBOARD_SECRET_KEY is required: every replica must seal sessions and screens' credentials with the same key, and a key file in --data belongs to one machine"}
	}
	return nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	fs := newFlagSet("serve", stderr)
	cfg.flags(fs)
	fs.StringVar(&cfg.Upstream, "upstream", "", "base URL of the Device Monitoring Service (required)")
	fs.StringVar(&cfg.TokenURL, "token-url", "", "where access tokens are obtained for a client ID and secret (default: the upstream's /oauth/token)")
	if err := parseFlags(fs, args, lookupEnv); err != nil {
		return err
	}
	if cfg.Upstream == "" {
		return usageError{"--upstream is required: the base URL of the Device Monitoring Service"}
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogFormat, slog.LevelInfo)
	return serveDashboard(ctx, cfg, dashboardOptions{clock: clock.Real{}}, stdout, log)
}

// newLogger logs as JSON, or as text for a person at a terminal.
func newLogger(w io.Writer, format string, level slog.Level) *slog.Logger {
	if format == "auto" {
		format = "json"
		if f, ok := w.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				format = "text"
			}
		}
	}
	opts := &slog.HandlerOptions{Level: level}
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// dashboardOptions are what the demo changes about the dashboard.
type dashboardOptions struct {
	clock      clock.Clock
	clockSpeed float64 // set when clock is not the real clock: how fast it runs
	demo       *upstream.Credentials
	// ready is called once the dashboard listens, with its address and
	// the receiver of the service's events.
	ready func(ctx context.Context, url string, events *receiver.Service) error
	// history, when set, is an account's device history before the
	// dashboard starts, written into the cache when it keeps history.
	history *seededHistory
	// portfolio, when set, connects the demo's accounts for the demo's
	// person before the dashboard listens, and returns the person's id.
	portfolio func(ctx context.Context, team *people.Service) (string, error)
	// plans, when set, puts plans on floors that have none, before the
	// dashboard listens.
	plans func(ctx context.Context, st store.FloorPlans) error
}

// seededHistory is an account's device history, by MAC.
type seededHistory struct {
	account  string
	readings map[string][]store.Reading
}

// seedHistory writes h into a cache that keeps history and holds none of
// the account's devices yet: a cache kept from an earlier run goes on
// with the history it holds.
func seedHistory(ctx context.Context, st store.Store, h *seededHistory, keep bool) error {
	if h == nil || !keep {
		return nil
	}
	held, err := st.DeviceStates(ctx, h.account)
	if err != nil || len(held) > 0 {
		return err
	}
	return st.SeedHistory(ctx, h.account, h.readings)
}

// serveDashboard runs the dashboard until ctx ends.
func serveDashboard(ctx context.Context, cfg serveConfig, opts dashboardOptions, stdout io.Writer, log *slog.Logger) error {
	zone, err := loadZone(cfg.TimeZone)
	if err != nil {
		return usageError{fmt.Sprintf("--tz %q: %v", cfg.TimeZone, err)}
	}
	notifierCfg, err := notifierConfig(cfg)
	if err != nil {
		return err
	}
	ssoCfg, err := cfg.OIDC.config(cfg.PublicURL)
	if err != nil {
		return err
	}
	m := metrics.New()
	client, err := upstream.New(upstream.Config{BaseURL: cfg.Upstream, TokenURL: cfg.TokenURL, HTTPClient: &http.Client{Transport: m.Transport(nil)}})
	if err != nil {
		return upstreamFlagError(err)
	}
	defer client.Close() // stops renewing access tokens
	// The addresses first: one in use stops the start before anything is
	// written. The servers close them when they stop; the deferred calls
	// cover the early returns.
	ln, err := listen("--listen", cfg.Listen)
	if err != nil {
		return err
	}
	defer ln.Close()
	var mln net.Listener // /metrics on an address of its own
	if cfg.MetricsListen != "" {
		if mln, err = listen("--metrics-listen", cfg.MetricsListen); err != nil {
			return err
		}
		defer mln.Close()
	}
	st, shared, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	st.MeasureWith(levels.Measure) // the alerts the sync sees close, against their service levels
	defer func() {
		if shared != nil {
			shared.Close()
		}
	}()
	keys, err := loadKeys(cfg.Data)
	if err != nil {
		return err
	}
	if err := checkKeys(ctx, keys, st, log); err != nil {
		return err
	}
	team := people.New(st, keys, opts.clock, people.Config{AuditRetention: cfg.AuditLog})
	if err := upgradePeople(ctx, team, keys, log); err != nil {
		return fmt.Errorf("connecting the accounts signed in before people existed: %w", err)
	}
	var demoPerson string
	if opts.portfolio != nil {
		if demoPerson, err = opts.portfolio(ctx, team); err != nil {
			return fmt.Errorf("connecting the demo's accounts: %w", err)
		}
	}
	if err := seedHistory(ctx, st, opts.history, cfg.DeviceHistory > 0); err != nil {
		return fmt.Errorf("writing the device history before the start: %w", err)
	}
	opts.history = nil // written: not kept for the dashboard's life
	if opts.plans != nil {
		if err := opts.plans(ctx, st); err != nil {
			return fmt.Errorf("drawing the demo's floor plans: %w", err)
		}
	}
	m.Gauge("washboard_sessions_active", "Sessions that have not expired.", func() float64 {
		n, _ := st.CountSessions(context.Background())
		return float64(n)
	})
	m.Gauge("washboard_screens_active", "Linked wall screens that checked in within the last five minutes.", func() float64 {
		n, _ := st.CountActiveScreens(context.Background(), opts.clock.Now().Add(-5*time.Minute))
		return float64(n)
	})

	url := "http://" + displayAddr(ln.Addr())
	// Notifications are decided and delivered by one replica at a time.
	var leases notifier.Leases = cluster.NewLocal(cluster.DefaultBuffer)
	if shared != nil {
		leases = shared
	}
	notifierCfg.Link = cmp.Or(cfg.PublicURL, url)
	// Webhooks and channels' mail servers must not reach the dashboard:
	// every address it listens on, and the one it is reached at.
	notifierCfg.Guard.Own = []string{ln.Addr().String()}
	if mln != nil {
		notifierCfg.Guard.Own = append(notifierCfg.Guard.Own, mln.Addr().String())
	}
	if own := hostPort(notifierCfg.Link); own != "" {
		notifierCfg.Guard.Own = append(notifierCfg.Guard.Own, own)
	}
	notifierCfg.Zone = zone
	sso, err := singleSignOn(ssoCfg, notifierCfg.Guard.Own)
	if err != nil {
		return err
	}
	if sso != nil {
		log.Info("single sign-on", "issuer", ssoCfg.Issuer, "group_mappings", len(ssoCfg.Mappings), "callback", ssoCfg.RedirectURL)
	}
	// Pushes to people's phones, through the guard of webhooks: the VAPID
	// keys are made on the first start and kept, sealed, in the database.
	contact := ""
	if notifierCfg.SMTP != nil {
		contact = notifierCfg.SMTP.From
	}
	pusher, err := push.New(ctx, push.Config{Link: notifierCfg.Link, Contact: contact, Guard: notifierCfg.Guard},
		push.Deps{Store: st, Keys: keys, Clock: opts.clock, Log: log})
	if err != nil {
		return err
	}
	notifierCfg.Pusher = pusher
	notifications, err := notifier.New(notifierCfg, notifier.Deps{Store: st, Leases: leases, Keys: keys, Clock: opts.clock, Log: log})
	if err != nil {
		return usageError{"--notifications: " + err.Error()}
	}

	// When dispensers run out, estimated after each change to an account.
	st.KeepHistory(cfg.DeviceHistory > 0)
	forecasts := runout.New(st, opts.clock, zone, log)

	// nil interfaces, not nil pointers, on an engine of its own
	var others syncer.Cluster
	var sessionAnnouncements httpkit.SessionAnnouncements
	if shared != nil {
		others, sessionAnnouncements = shared, shared
	}
	syncCtx, stopSync := context.WithCancel(context.WithoutCancel(ctx))
	engine := syncer.New(syncCtx, syncer.UpstreamSource{Client: client}, st, opts.clock, syncer.Config{
		Interval: cfg.Interval, MetadataInterval: cfg.MetadataInterval, History: cfg.History, Lookback: cfg.Lookback,
		Observe: func(res domain.Resource, d time.Duration, c domain.Change, err error) {
			m.ObserveRefresh(string(res), d, c.Added, c.Changed, c.Removed, err)
		},
		ObserveLag: func(_ string, lag time.Duration) { m.ObserveLag(lag) },
		Cluster:    others,
		// A change to the cache may be something to notify of, and moves
		// the estimates of when dispensers run out.
		Changed: func(account string) {
			notifications.Wake()
			forecasts.Touch(account)
		},
	}, log)
	m.SyncLeases(engine.Syncing)
	// Expired sessions and old device history are removed every half
	// hour, until the sync stops.
	go housekeeping(syncCtx, st, team, opts.clock, cfg.DeviceHistory, housekeepingEvery, log)
	// Connected accounts sync with nobody signed in, until the sync stops.
	go holdConnected(syncCtx, team, engine, opts.clock, log)
	// The service's events are applied by the receiver's worker until the
	// sync stops.
	events := receiver.New(st, keys, engine, receiver.Config{}, log)
	eventsDone := make(chan struct{})
	go func() { events.Run(syncCtx); close(eventsDone) }()
	m.Gauge("washboard_events_queued", "Events of the service received and waiting to be applied.", func() float64 {
		return float64(events.Queued())
	})
	notifyDone := make(chan struct{})
	go func() { notifications.Run(syncCtx); close(notifyDone) }()
	forecastsDone := make(chan struct{})
	go func() { forecasts.Run(syncCtx); close(forecastsDone) }()
	// The rounds of the schedules, on every replica: each shift start is
	// taken by one of them (internal/dashboard, docs/rounds.md).
	dash := dashboard.New(dashboard.Deps{Store: st, Sync: engine, Upstream: client, Clock: opts.clock, Keys: keys, Forecasts: forecasts, Log: log})
	roundsDone := make(chan struct{})
	go func() { dash.RunRoundSchedules(syncCtx, zone, log); close(roundsDone) }()
	// The client reports by e-mail, on every replica: each period's sending
	// is taken by one of them (internal/reportmail).
	reports := reportmail.New(st, reportmail.Config{Reports: dash, SMTP: notifierCfg.SMTP, Zone: zone, Link: notifierCfg.Link}, opts.clock, log)
	reportsDone := make(chan struct{})
	go func() { reports.Run(syncCtx); close(reportsDone) }()
	// Stops the sync, the receiver's worker and the notifications and
	// waits for them; shutdownGracefully calls it within the grace period,
	// and the deferred call covers the early returns.
	stopEngine := sync.OnceFunc(func() {
		stopSync()
		engine.Wait()
		<-eventsDone
		<-notifyDone
		<-forecastsDone
		<-reportsDone
		<-roundsDone
	})
	defer stopEngine()

	passkeys, err := passkeysFor(cmp.Or(cfg.PublicURL, url), opts.clock, log)
	if err != nil {
		return err
	}
	app, err := web.New(web.Config{
		Sessions: web.SessionConfig{IdleTimeout: cfg.IdleTimeout, Lifetime: cfg.Lifetime, Shared: shared != nil},
		Zone:     zone, TrustedProxies: cfg.TrustedProxies, Demo: opts.demo, DemoPerson: demoPerson,
		ServeMetrics: cfg.MetricsListen == "", ClockSpeed: opts.clockSpeed, SingleSignOnName: cfg.OIDC.Name, PublicURL: notifierCfg.Link,
	}, web.Deps{
		Dashboard: dash,
		Sessions:  st, Sync: engine, Clock: opts.clock, Log: log, Metrics: m, Keys: keys, Receiver: events,
		SessionAnnouncements: sessionAnnouncements, Notifications: notifications, People: team, Mail: letters(notifierCfg.SMTP, opts.clock),
		SingleSignOn: webSingleSignOn(sso), Passkeys: passkeys, ReportMail: reports, Push: pusher,
	})
	if err != nil {
		return err
	}
	// Pages rendered in the background read the cache: they end before it
	// closes, once the requests have.
	defer app.Close()

	servers := []served{{httpkit.NewServer(app, slog.NewLogLogger(log.Handler(), slog.LevelWarn)), ln}}
	// Event streams end when shutdown begins, so that browsers and screens
	// reconnect (to the next server) instead of holding the shutdown up;
	// other requests are left to finish.
	servers[0].srv.RegisterOnShutdown(app.CloseStreams)
	if mln != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", m.Handler())
		servers = append(servers, served{&http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, mln})
	}
	fmt.Fprintf(stdout, "Washboard is running on %s\n", url)
	if opts.ready != nil {
		if err := opts.ready(ctx, url, events); err != nil {
			return err
		}
	}
	return shutdownGracefully(ctx, cfg.ShutdownGrace, servers, stopEngine, log)
}

// upstreamFlagError names the flag of a URL the service's client refuses,
// and only that one.
func upstreamFlagError(err error) error {
	var bad *upstream.URLError
	if !errors.As(err, &bad) {
		return err
	}
	name := "--upstream"
	if bad.Field == "TokenURL" {
		name = "--token-url"
	}
	return usageError{name + " " + bad.Reason}
}

// served is a server and the listener it serves on.
type served struct {
	srv *http.Server
	ln  net.Listener
}

// shutdownGracefully serves until ctx ends (SIGTERM, SIGINT), then stops
// accepting, lets the requests in flight finish, closes event streams,
// stops the sync (whose current transaction commits or rolls back whole),
// and returns, all within grace. What is still running then is cut off.
func shutdownGracefully(ctx context.Context, grace time.Duration, servers []served, stopSync func(), log *slog.Logger) error {
	errc := make(chan error, len(servers))
	for _, s := range servers {
		go func() { errc <- s.srv.Serve(s.ln) }()
	}
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", grace.String())
	deadline, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	var errs []error
	for _, s := range servers {
		if err := s.srv.Shutdown(deadline); err != nil {
			errs = append(errs, fmt.Errorf("requests still running after the grace period: %w", err))
			s.srv.Close()
		}
	}
	synced := make(chan struct{})
	go func() { stopSync(); close(synced) }()
	select {
	case <-synced:
	case <-deadline.Done():
		errs = append(errs, errors.New("the sync did not stop within the grace period"))
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		errs = append(errs, serveErr)
	}
	if len(errs) == 0 {
		log.Info("stopped")
	}
	return errors.Join(errs...)
}

// listen listens on the address a flag names; an address in use says
// which flag changes it.
func listen(flagName, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	var op *net.OpError
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("%s %s: the address is already in use; choose another with %s", flagName, addr, flagName)
	case errors.As(err, &op):
		return nil, fmt.Errorf("%s %s: %w", flagName, addr, op.Err)
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", flagName, addr, err)
	}
	return ln, nil
}

// displayAddr turns a listening address into one a browser can open.
func displayAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// passkeysFor is the passkeys of a dashboard reached at publicURL: a
// passkey works for the host name people reach it at. Browsers accept no
// passkey for an IP address: a dashboard reached at one offers none.
func passkeysFor(publicURL string, clk clock.Clock, log *slog.Logger) (*passkey.Passkeys, error) {
	cfg, err := passkey.ConfigFor(publicURL)
	if err != nil {
		return nil, usageError{"--public-url: " + err.Error()}
	}
	if net.ParseIP(cfg.RPID) != nil {
		log.Warn("passkeys are not offered: browsers accept them only for a host name; set --public-url to the address people reach the dashboard at, such as https://washboard.example.com",
			"address", publicURL)
		return nil, nil
	}
	cfg.Clock = clk
	return passkey.New(cfg)
}

// housekeepingEvery is how often expired sessions, old device history,
// old measures of alerts and old audit log entries are removed.
const housekeepingEvery = 30 * time.Minute

// auditPrunesPerRound bounds the audit log's removals in one round of
// housekeeping, each of at most people.AuditPruneBatch entries: a log
// that grew faster waits for the next round.
const auditPrunesPerRound = 10

// housekeeping removes, every so often until ctx ends, the expired
// sessions, the audit log's entries older than its retention, the
// measures of alerts closed longer ago than dashboard.MeasureRetention,
// the records of client reports mailed longer ago than reportmail.Keep,
// and, when
// deviceHistory is positive, the device history older than that (the
// readings that still tell each device's state then stay).
func housekeeping(ctx context.Context, st interface {
	DeleteExpiredSessions(context.Context) error
	PruneHistory(context.Context, time.Time) error
	PruneAlertMeasures(context.Context, time.Time) (int, error)
	PruneReportSendings(context.Context, time.Time) (int, error)
}, audit interface {
	PruneAudit(context.Context) (int, error)
}, clk clock.Clock, deviceHistory, every time.Duration, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
			if err := st.DeleteExpiredSessions(ctx); err != nil && ctx.Err() == nil {
				log.Warn("removing expired sessions", "error", err.Error())
			}
			if deviceHistory > 0 {
				if err := st.PruneHistory(ctx, clk.Now().Add(-deviceHistory)); err != nil && ctx.Err() == nil {
					log.Warn("removing old device history", "error", err.Error())
				}
			}
			if _, err := st.PruneAlertMeasures(ctx, clk.Now().Add(-dashboard.MeasureRetention)); err != nil && ctx.Err() == nil {
				log.Warn("removing old measures of alerts", "error", err.Error())
			}
			if _, err := st.PruneReportSendings(ctx, clk.Now().Add(-reportmail.Keep)); err != nil && ctx.Err() == nil {
				log.Warn("removing old records of client reports mailed", "error", err.Error())
			}
			for range auditPrunesPerRound {
				n, err := audit.PruneAudit(ctx)
				if err != nil && ctx.Err() == nil {
					log.Warn("removing old audit log entries", "error", err.Error())
				}
				if err != nil || n < people.AuditPruneBatch {
					break
				}
			}
		}
	}
}

// openStore opens the cache: on PostgreSQL with --database, shared with
// other replicas (and then the leases and notifications they share too),
// else SQLite in the data directory.
func openStore(ctx context.Context, cfg serveConfig, log *slog.Logger) (store.Store, *cluster.Replicas, error) {
	if cfg.Database == "" {
		if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
			return nil, nil, fmt.Errorf("creating the data directory: %w", err)
		}
		st, err := sqlite.Open(ctx, filepath.Join(cfg.Data, "washboard.db"))
		return st, nil, err
	}
	st, err := postgres.Open(ctx, cfg.Database)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the PostgreSQL database: %w", err)
	}
	reps, err := cluster.OpenReplicas(ctx, cfg.Database, log)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	log.Info("cache on PostgreSQL, shared with any other replica")
	return st, reps, nil
}

// hostPort is the host and port of an http or https URL, its scheme's
// port when it names none.
func hostPort(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}
