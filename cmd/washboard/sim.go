package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"washboard/internal/sim"
	"washboard/internal/webhook"
)

// The simulator's size is bounded: its world is held in memory (about
// 2.7 KB a device location with two weeks of history), and it prints six
// lines of credentials for each account at start.
const (
	maxSimAccounts  = 1000
	maxSimLocations = 500_000
)

// simConfig is the configuration of "washboard sim".
type simConfig struct {
	Listen        string
	Seed          uint64
	Devices       int
	Accounts      int
	History       time.Duration
	Speed         float64
	APIKey        string
	Authorization string
	ClientID      string
	ClientSecret  string
	TokenLifetime time.Duration // 0 when not given
	TimeZone      string
	Faults        sim.Faults
	WebhookURL    string
	WebhookSecret string

	tokenLifetimeGiven bool
}

func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := simConfig{History: 14 * 24 * time.Hour}
	fs := newFlagSet("sim", stderr)
	fs.StringVar(&cfg.Listen, "listen", "127.0.0.1:9100", "address to serve the interface on")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the simulated world: the same seed and size give the same fleet")
	fs.IntVar(&cfg.Devices, "devices", 1000, "device locations per account")
	fs.IntVar(&cfg.Accounts, "accounts", 1, "number of accounts, each with its own credentials and fleet")
	fs.Var((*durationValue)(&cfg.History), "history", "history to simulate before now, e.g. 30d")
	fs.Float64Var(&cfg.Speed, "speed", 1, "how many times faster than real time the simulated clock runs")
	fs.StringVar(&cfg.APIKey, "api-key", "", "x-api-key of the first account (random if empty)")
	fs.StringVar(&cfg.Authorization, "authorization", "", "Authorization value of the first account (random if empty)")
	fs.StringVar(&cfg.ClientID, "client-id", "", "OAuth client id of the first account, for POST /oauth/token (random if empty)")
	fs.StringVar(&cfg.ClientSecret, "client-secret", "", "OAuth client secret of the first account (random if empty)")
	fs.Var((*durationValue)(&cfg.TokenLifetime), "token-lifetime", "lifetime of access tokens in simulated time; when given, only access tokens are accepted (default: 1h, and the fixed Authorization value works too)")
	fs.StringVar(&cfg.TimeZone, "tz", "Local", "time zone of the simulated buildings (staff hours, busy hours)")
	fs.Var((*durationValue)(&cfg.Faults.Latency), "latency", "add a random delay up to this to every request")
	fs.Float64Var(&cfg.Faults.ErrorRate, "error-rate", 0, "share of requests answered 500, from 0 to 1")
	fs.Float64Var(&cfg.Faults.RateLimitRate, "rate-limit-rate", 0, "share of requests answered 429 with Retry-After, from 0 to 1")
	fs.Float64Var(&cfg.Faults.TruncateRate, "truncate-rate", 0, "share of answers cut off mid-body, from 0 to 1")
	fs.IntVar(&cfg.Faults.Quota, "quota", 0, "requests per credential per minute before 429 (0: no limit)")
	fs.StringVar(&cfg.WebhookURL, "webhook-url", "", "define a webhook of the first account that sends every event to this URL")
	fs.StringVar(&cfg.WebhookSecret, "webhook-secret", "", "secret (whsec_ + base64) that signs the --webhook-url deliveries (random if empty)")
	fs.Float64Var(&cfg.Faults.WebhookDropRate, "webhook-drop-rate", 0, "share of webhook events lost (never sent), from 0 to 1")
	if err := parseFlags(fs, args, lookupEnv); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { cfg.tokenLifetimeGiven = cfg.tokenLifetimeGiven || f.Name == "token-lifetime" })
	if err := cfg.validate(); err != nil {
		return err
	}
	zone, err := loadZone(cfg.TimeZone)
	if err != nil {
		return usageError{fmt.Sprintf("--tz %q: %v", cfg.TimeZone, err)}
	}
	var secret webhook.Secret
	if cfg.WebhookSecret != "" {
		if secret, err = webhook.ParseSecret(cfg.WebhookSecret); err != nil {
			return usageError{fmt.Sprintf("--webhook-secret: %v", err)}
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	first := sim.NewCredentials()
	madeKey, madeAuth := cfg.APIKey == "", cfg.Authorization == ""
	if !madeKey {
		first.APIKey = cfg.APIKey
	}
	if !madeAuth {
		first.Authorization = cfg.Authorization
	}
	client, madeClient := sim.NewClient(), cfg.ClientID == ""
	if !madeClient {
		client = sim.Client{ID: cfg.ClientID, Secret: cfg.ClientSecret}
	}
	started := time.Now()
	world := sim.New(sim.Config{
		Seed:          cfg.Seed,
		Locations:     cfg.Devices,
		Accounts:      cfg.Accounts,
		History:       cfg.History,
		Clock:         sim.NewScaledClock(cfg.Speed),
		Zone:          zone,
		Credentials:   []sim.Credentials{first},
		Clients:       []sim.Client{client},
		TokenLifetime: cfg.TokenLifetime,
		Webhooks:      sim.WebhookOptions{Log: log},
	})
	defer world.Close()
	world.SetFaults(cfg.Faults)
	var hook sim.Webhook
	if cfg.WebhookURL != "" {
		if hook, secret, err = world.AddWebhook(0, sim.WebhookSpec{URL: cfg.WebhookURL, Secret: secret}); err != nil {
			return fmt.Errorf("--webhook-url: %w", err)
		}
	}

	ln, err := listen("--listen", cfg.Listen)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "Simulated %d account(s) of %d device locations with %s of history in %s.\n",
		cfg.Accounts, cfg.Devices, formatDuration(cfg.History), time.Since(started).Round(time.Millisecond))
	for i, a := range world.Accounts() {
		fmt.Fprintf(stdout, "\nAccount %d: %s\n", i+1, a.Name)
		if i > 0 || madeKey {
			fmt.Fprintf(stdout, "  x-api-key:     %s\n", a.APIKey)
		}
		if (i > 0 || madeAuth) && !cfg.tokenLifetimeGiven {
			fmt.Fprintf(stdout, "  Authorization: %s\n", a.Authorization)
		}
		if c := world.Client(i); i > 0 || madeClient {
			fmt.Fprintf(stdout, "  client_id:     %s\n  client_secret: %s\n", c.ID, c.Secret)
		}
	}
	if cfg.WebhookURL != "" {
		fmt.Fprintf(stdout, "\nWebhook %s of account 1 sends every event to %s\n", hook.ID, hook.URL)
		if cfg.WebhookSecret == "" {
			fmt.Fprintf(stdout, "  secret: %s\n", secret.Text())
		}
	}
	lifetime, fixed := cfg.TokenLifetime, "only access tokens are accepted"
	if !cfg.tokenLifetimeGiven {
		lifetime, fixed = sim.DefaultTokenLifetime, "the fixed Authorization values work too"
	}
	real := max(time.Duration(float64(lifetime)/cfg.Speed).Truncate(time.Second), time.Second)
	fmt.Fprintf(stdout, "\nAccess tokens last %s of simulated time (%s real); %s.\n", formatDuration(lifetime), real, fixed)
	fmt.Fprintf(stdout, "Serving the Device Monitoring Service on %s (GET /alerts, /devices, /metadata; POST %s; webhooks under /admin/webhooks; its OpenAPI document at %s)\n",
		base, sim.TokenPath, sim.OpenAPIPath)
	if a, c := world.Accounts()[0], world.Client(0); madeKey && madeClient && cfg.tokenLifetimeGiven {
		fmt.Fprintf(stdout, "Try: curl -u '%s:%s' -d grant_type=client_credentials %s%s\n", c.ID, c.Secret, base, sim.TokenPath)
		fmt.Fprintf(stdout, " and curl -H 'x-api-key: %s' -H 'Authorization: Bearer ACCESS_TOKEN' %s/alerts\n", a.APIKey, base)
	} else if madeKey && madeAuth {
		fmt.Fprintf(stdout, "Try: curl -H 'x-api-key: %s' -H 'Authorization: %s' %s/alerts\n", a.APIKey, a.Authorization, base)
	}

	srv := &http.Server{
		Handler:           sim.LogRequests(log, world.Handler()),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	return serveUntilDone(ctx, srv, ln, log)
}

func (c simConfig) validate() error {
	switch {
	case c.Devices < 1:
		return usageError{fmt.Sprintf("--devices must be at least 1, got %d", c.Devices)}
	case c.Accounts < 1:
		return usageError{fmt.Sprintf("--accounts must be at least 1, got %d", c.Accounts)}
	case c.Accounts > maxSimAccounts:
		return usageError{fmt.Sprintf("--accounts must be at most %d, got %d", maxSimAccounts, c.Accounts)}
	case c.Devices > maxSimLocations/c.Accounts:
		return usageError{fmt.Sprintf("--accounts times --devices must be at most %d device locations in all, got %d × %d",
			maxSimLocations, c.Accounts, c.Devices)}
	case c.Speed < 1:
		return usageError{fmt.Sprintf("--speed must be at least 1, got %g", c.Speed)}
	case c.tokenLifetimeGiven && c.TokenLifetime <= 0:
		return usageError{fmt.Sprintf("--token-lifetime must be positive, got %s", formatDuration(c.TokenLifetime))}
	case c.ClientSecret != "" && c.ClientID == "":
		return usageError{"--client-secret needs --client-id"}
	case c.ClientID != "" && c.ClientSecret == "":
		return usageError{"--client-id needs --client-secret"}
	case c.tokenLifetimeGiven && c.Authorization != "":
		return usageError{"--authorization cannot be used with --token-lifetime: with a token lifetime only access tokens are accepted"}
	}
	for name, v := range map[string]float64{
		"--error-rate": c.Faults.ErrorRate, "--rate-limit-rate": c.Faults.RateLimitRate, "--truncate-rate": c.Faults.TruncateRate,
		"--webhook-drop-rate": c.Faults.WebhookDropRate,
	} {
		if v < 0 || v > 1 {
			return usageError{fmt.Sprintf("%s must be from 0 to 1, got %g", name, v)}
		}
	}
	if c.Faults.ErrorRate+c.Faults.RateLimitRate > 1 {
		return usageError{"--error-rate and --rate-limit-rate together must not exceed 1"}
	}
	if c.Faults.Quota < 0 {
		return usageError{fmt.Sprintf("--quota must not be negative, got %d", c.Faults.Quota)}
	}
	if c.WebhookURL == "" && c.WebhookSecret != "" {
		return usageError{"--webhook-secret needs --webhook-url"}
	}
	if c.WebhookURL != "" {
		if err := sim.CheckWebhookURL(c.WebhookURL); err != nil {
			return usageError{"--webhook-" + err.(*sim.SpecError).Msg} // "--webhook-url must ..."
		}
	}
	return nil
}

// serveUntilDone serves on ln until ctx is cancelled, then stops accepting
// and gives requests in flight a few seconds to finish.
func serveUntilDone(ctx context.Context, srv *http.Server, ln net.Listener, log *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
