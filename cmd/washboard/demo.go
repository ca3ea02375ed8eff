package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/internal/receiver"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/store/readings"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
	"washboard/internal/webhook"
)

// runDemo starts the simulator on a loopback port with a lively fleet and
// the dashboard in front of it, sharing one clock that runs faster than
// real time.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	fs := newFlagSet("demo", stderr)
	cfg.flags(fs)
	// The demo keeps its data in a temporary directory unless told where.
	data := fs.Lookup("data")
	data.Usage = "directory for the database and the session key (default: a temporary directory, removed when the demo stops)"
	data.DefValue, cfg.Data = "", ""
	var devices, accounts int
	var speed float64
	var seed uint64
	history := 14 * 24 * time.Hour
	fs.IntVar(&devices, "devices", 400, "device locations of the demo account")
	fs.IntVar(&accounts, "accounts", 1, fmt.Sprintf("accounts of the demo's portfolio, the demo account first, all connected for the demo's person (at most %d)", maxDemoAccounts))
	fs.Float64Var(&speed, "speed", 60, "how many times faster than real time the demo runs")
	fs.Uint64Var(&seed, "seed", 1, "seed of the simulated fleet")
	fs.Var((*durationValue)(&history), "sim-history", "history simulated before the demo starts")
	if err := parseFlags(fs, args, lookupEnv); err != nil {
		return err
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	if devices < 1 || speed < 1 {
		return usageError{"--devices and --speed must be at least 1"}
	}
	if accounts < 1 || accounts > maxDemoAccounts {
		return usageError{fmt.Sprintf("--accounts must be from 1 to %d, got %d", maxDemoAccounts, accounts)}
	}
	if cfg.Data == "" {
		dir, err := os.MkdirTemp("", "washboard-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg.Data = dir
	}
	log := newLogger(stderr, cfg.LogFormat, slog.LevelWarn)

	clk := clock.NewScaled(speed)
	demo := sim.NewCredentials()
	// At most maxPastReadings of the past, a reading of each location's
	// device an hour: 14 days of 400 locations, 2 days of 10,000.
	span := min(history, cfg.DeviceHistory, time.Duration(maxPastReadings/devices)*pastEvery)
	past := &pastReadings{from: clk.Now().Add(-span), readings: map[string][]store.Reading{}}
	world := sim.New(sim.Config{Seed: seed, Locations: devices, Accounts: max(2, accounts), History: history, Clock: clk, Zone: time.Local,
		Credentials: []sim.Credentials{demo}, Record: past.record, RecordEvery: pastEvery, RecordFrom: past.from})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	simSrv := &http.Server{Handler: world.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go simSrv.Serve(ln)
	defer simSrv.Close()
	defer world.Close() // its webhook deliveries
	cfg.Upstream = "http://" + ln.Addr().String()

	fmt.Fprintf(stdout, "Simulated Device Monitoring Service on %s: %d device locations, %s of history, running %gx real time.\n",
		cfg.Upstream, devices, formatDuration(history), speed)
	if accounts > 1 {
		fmt.Fprintf(stdout, "The demo's person has %d accounts connected, of %d device locations each.\n", accounts, devices)
	}
	creds := upstream.Credentials{APIKey: demo.APIKey, Authorization: demo.Authorization}
	return serveDashboard(ctx, cfg, dashboardOptions{
		clock:      clk,
		clockSpeed: speed,
		demo:       &creds,
		// The cache begins with the demo account's devices' history, as
		// if the dashboard had watched it: charts, heat maps and forecasts
		// show from the start.
		history:   &seededHistory{account: world.Accounts()[0].ID, readings: past.readings},
		portfolio: demoPortfolio(world, accounts, clk),
		plans:     demoPlans(world, accounts, clk),
		// The simulator sends the demo account's events to the dashboard
		// from the start, so that alerts arrive as they happen.
		ready: func(ctx context.Context, url string, events *receiver.Service) error {
			id, secret, err := demoReceiver(ctx, events, world.Accounts()[0].ID, clk.Now())
			if err != nil {
				return fmt.Errorf("making the demo's webhook receiver: %w", err)
			}
			if _, _, err := world.AddWebhook(0, sim.WebhookSpec{URL: url + "/hooks/" + id, Secret: secret}); err != nil {
				return fmt.Errorf("defining the demo's webhook: %w", err)
			}
			fmt.Fprintf(stdout, "Open %s and choose \"Use the demo account\".\n", url)
			return nil
		},
	}, stdout, log)
}

// demoPlans puts the plans the simulator draws on the floors of the
// demo's accounts, with their rooms and locations placed: those of an
// earlier run on the same --data stay as they were left.
func demoPlans(world *sim.World, n int, clk clock.Clock) func(context.Context, store.FloorPlans) error {
	return func(ctx context.Context, st store.FloorPlans) error {
		for _, a := range world.Accounts()[:n] {
			for _, fp := range a.FloorPlans() {
				if _, err := st.FloorPlan(ctx, a.ID, fp.FloorID); !errors.Is(err, domain.ErrNotFound) {
					if err != nil {
						return err
					}
					continue
				}
				p := domain.FloorPlan{FloorID: fp.FloorID, ContentType: "image/svg+xml", Width: fp.Width, Height: fp.Height, Updated: clk.Now()}
				if _, err := st.PutFloorPlan(ctx, a.ID, p, fp.SVG); err != nil {
					return err
				}
				placed := domain.Placements{Locations: map[string]domain.PlanPoint{}, Rooms: map[string][]domain.PlanPoint{}}
				for id, at := range fp.Locations {
					placed.Locations[id] = domain.PlanPoint{X: at[0], Y: at[1]}
				}
				for id, r := range fp.Rooms {
					x, y, w, h := r[0], r[1], r[2], r[3]
					placed.Rooms[id] = []domain.PlanPoint{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x, Y: y + h}}
				}
				if err := st.SavePlacements(ctx, a.ID, fp.FloorID, placed, "", clk.Now()); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// demoSupervisor is the name of the demo's person of a portfolio.
const demoSupervisor = "Demo supervisor"

// maxDemoAccounts bounds the demo's portfolio: its accounts share one
// process, its simulator and its sync.
const maxDemoAccounts = 50

// demoPortfolio connects the first n accounts of the world for one person,
// the demo's, who uses the demo account: nil when n is 1, and whoever uses
// the demo is someone new each time, as without a portfolio.
func demoPortfolio(world *sim.World, n int, clk clock.Clock) func(context.Context, *people.Service) (string, error) {
	if n < 2 {
		return nil
	}
	return func(ctx context.Context, team *people.Service) (string, error) {
		// Started again on the same --data, the demo's person is the one of
		// the run before: the owner of the first account.
		var person string
		members, err := team.Members(ctx, world.Accounts()[0].ID)
		if err != nil {
			return "", err
		}
		for _, m := range members {
			if m.Role == domain.Owner && m.Name == demoSupervisor {
				person = m.PersonID
				break
			}
		}
		for _, a := range world.Accounts()[:n] {
			in := people.CredentialsSignIn{Account: a.ID, Cred: domain.Credentials{APIKey: a.APIKey, Authorization: a.Authorization},
				PersonID: person, Name: demoSupervisor}
			p, _, err := team.SignInWithCredentials(ctx, in)
			if err != nil {
				return "", fmt.Errorf("%s: %w", a.Name, err)
			}
			person = p.ID
		}
		return person, nil
	}
}

// demoReceiver makes the demo account's webhook receiver, for the
// simulator to send its events to. The receivers of an earlier run on the
// same --data go first: the simulator that was given them is gone, and they
// would pile up to the account's limit, one a run.
func demoReceiver(ctx context.Context, events *receiver.Service, account string, now time.Time) (string, webhook.Secret, error) {
	earlier, err := events.List(ctx, account)
	if err != nil {
		return "", webhook.Secret{}, err
	}
	for _, r := range earlier {
		if err := events.Remove(ctx, account, r.ID); err != nil {
			return "", webhook.Secret{}, err
		}
	}
	return events.Create(ctx, account, "", now)
}

// pastEvery is how often the demo's past is read, as a dashboard that
// polled the simulator would have: hourly, the rate of the older days of
// a long history.
const pastEvery = time.Hour

// maxPastReadings bounds the demo's past in memory (about 60 MB), as it
// waits to be written.
const maxPastReadings = 500_000

// pastReadings keeps the demo account's readings of the simulator's past
// from a time on, a reading of a device whenever its state changed, as
// the cache's history records them.
type pastReadings struct {
	from     time.Time
	readings map[string][]store.Reading // by MAC
}

func (p *pastReadings) record(k int, at time.Time, rs []sim.ProductReading) {
	if k != 0 {
		return
	}
	for _, r := range rs {
		next := store.Reading{At: at.UTC().Truncate(time.Second), Levels: slices.Clone(r.Levels), Battery: r.Battery,
			BatteryState: syncer.BatteryState(r.BatteryState), Offline: r.Offline, LastSeen: r.LastSeen}
		held := p.readings[r.MAC]
		if n := len(held); n > 0 && readings.SameState(held[n-1], next) {
			continue
		}
		p.readings[r.MAC] = append(held, next)
	}
}
