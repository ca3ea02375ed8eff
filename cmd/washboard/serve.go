package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"washboard/internal/clock"
	"washboard/internal/store"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
	"washboard/web"
)

// serveConfig is the configuration of "washboard serve" (and of the
// dashboard half of "washboard demo").
type serveConfig struct {
	Listen           string
	Upstream         string
	Data             string
	Interval         time.Duration
	MetadataInterval time.Duration
	History          time.Duration
	Lookback         time.Duration
	IdleTimeout      time.Duration
	Lifetime         time.Duration
	TrustProxy       bool
	TimeZone         string
}

func (c *serveConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.Listen, "listen", ":8080", "address to serve the dashboard on")
	fs.StringVar(&c.Data, "data", "./data", "directory for the database and the session key")
	c.Interval, c.MetadataInterval = time.Minute, time.Hour
	c.History, c.Lookback = 90*24*time.Hour, 30*24*time.Hour
	c.IdleTimeout, c.Lifetime = 12*time.Hour, 7*24*time.Hour
	fs.Var((*durationValue)(&c.Interval), "interval", "how often devices and alerts are refreshed (at least 1m, the spec's limit)")
	fs.Var((*durationValue)(&c.MetadataInterval), "metadata-interval", "how often the layout is refreshed (at least 1h)")
	fs.Var((*durationValue)(&c.History), "history", "how long closed alerts are kept")
	fs.Var((*durationValue)(&c.Lookback), "lookback", "how far back open alerts are re-read by creation date")
	fs.Var((*durationValue)(&c.IdleTimeout), "idle-timeout", "a session ends after this long without a request")
	fs.Var((*durationValue)(&c.Lifetime), "session-lifetime", "a session ends this long after sign-in, whatever happens")
	fs.BoolVar(&c.TrustProxy, "trust-proxy", false, "trust X-Forwarded-For and X-Forwarded-Proto from a reverse proxy")
	fs.StringVar(&c.TimeZone, "tz", "Local", "time zone the dashboard shows times in")
}

func (c serveConfig) validate() error {
	switch {
	case c.Interval < syncer.MinInterval:
		return usageError{fmt.Sprintf("--interval must be at least %s (the spec's polling limit), got %s", syncer.MinInterval, c.Interval)}
	case c.MetadataInterval < syncer.MinMetadataInterval:
		return usageError{fmt.Sprintf("--metadata-interval must be at least %s, got %s", syncer.MinMetadataInterval, c.MetadataInterval)}
	case c.Lookback <= 0 || c.History <= 0:
		return usageError{"--lookback and --history must be positive"}
	case c.IdleTimeout <= 0 || c.Lifetime <= 0:
		return usageError{"--idle-timeout and --session-lifetime must be positive"}
	}
	return nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	fs := newFlagSet("serve", stderr)
	cfg.flags(fs)
	fs.StringVar(&cfg.Upstream, "upstream", "", "base URL of the Device Monitoring Service (required)")
	if err := parseFlags(fs, args, lookupEnv); err != nil {
		return err
	}
	if cfg.Upstream == "" {
		return usageError{"--upstream is required: the base URL of the Device Monitoring Service"}
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	return serveDashboard(ctx, cfg, dashboardOptions{clock: clock.Real{}}, stdout, log)
}

// dashboardOptions are what the demo changes about the dashboard.
type dashboardOptions struct {
	clock clock.Clock
	demo  *upstream.Credentials
	ready func(url string) // called once the dashboard listens
}

// serveDashboard runs the dashboard until ctx ends.
func serveDashboard(ctx context.Context, cfg serveConfig, opts dashboardOptions, stdout io.Writer, log *slog.Logger) error {
	zone, err := time.LoadLocation(cfg.TimeZone)
	if err != nil {
		return usageError{fmt.Sprintf("--tz %q: %v", cfg.TimeZone, err)}
	}
	if err := os.MkdirAll(cfg.Data, 0o700); err != nil {
		return fmt.Errorf("creating the data directory: %w", err)
	}
	dbPath := filepath.Join(cfg.Data, "washboard.db")
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	sessionDB, err := store.SessionDB(dbPath)
	if err != nil {
		return err
	}
	defer sessionDB.Close()
	key, err := web.LoadSecretKey(os.Getenv("WASHBOARD_SECRET_KEY"), cfg.Data)
	if err != nil {
		return err
	}
	client, err := upstream.New(upstream.Config{BaseURL: cfg.Upstream})
	if err != nil {
		return usageError{fmt.Sprintf("--upstream: %v", err)}
	}

	syncCtx, stopSync := context.WithCancel(context.WithoutCancel(ctx))
	engine := syncer.New(syncCtx, syncer.UpstreamSource{Client: client}, st, opts.clock, syncer.Config{
		Interval: cfg.Interval, MetadataInterval: cfg.MetadataInterval, History: cfg.History, Lookback: cfg.Lookback,
	}, log)
	defer func() { stopSync(); engine.Wait() }()

	app, err := web.New(web.Config{
		Sessions: web.SessionConfig{IdleTimeout: cfg.IdleTimeout, Lifetime: cfg.Lifetime, Key: key},
		Interval: cfg.Interval, Zone: zone, TrustProxy: cfg.TrustProxy, Demo: opts.demo,
	}, web.Deps{Store: st, SessionDB: sessionDB, Sync: engine, Upstream: client, Clock: opts.clock, Log: log})
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	url := "http://" + displayAddr(ln.Addr())
	fmt.Fprintf(stdout, "Washboard is running on %s\n", url)
	if opts.ready != nil {
		opts.ready(url)
	}
	// Requests (server-sent event streams among them) end when shutdown
	// begins, so that clients reconnect elsewhere instead of holding the
	// shutdown up.
	reqCtx, endRequests := context.WithCancel(context.Background())
	defer endRequests()
	srv := &http.Server{
		Handler:           app,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return reqCtx },
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(endRequests)
	return serveUntilDone(ctx, srv, ln, log)
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
