// Package notifier decides Washboard's notifications and delivers them.
//
// # Deciding
//
// Every write of alerts or devices records, in its transaction, the facts a
// notification may be about (store.Facts). The notifier reads the facts
// after the last one it decided, matches each against the rules of its
// account (those of the --notifications file and those made on the
// /notifications page) and records what it decided together with the
// last fact's Seq in one transaction (store.Notifications.Decide), which
// also removes the facts it decided. A crash before that commit decides the
// same facts again; one after it does not: no notification is lost or
// invented between a change and its notification.
//
// What it decides, for each matching rule and each of its channels:
//
//   - a notification pending, due now or when the rule's quiet hours end;
//   - or one dropped, for the low-priority kinds during quiet hours that
//     drop them, kept in the delivery log so that people see it was;
//   - or an item added to the rule's open digest for that channel;
//   - or, for alert.unclaimed and device.offline, a notification waiting
//     until the rule's minutes have passed. Then the notifier looks again:
//     an alert claimed or closed, or a device back online, cancels it;
//     otherwise it becomes one of the three above.
//
// An alert's opening is the fact of the alert.unclaimed rules too.
//
// # Delivering
//
// A due notification is sent to its channel (internal/notify), one
// attempt at a time, and the attempt recorded at once: sent, failed for
// good (a permanent error, or a day of trying), or pending again after an
// exponential backoff (30 s, 1 min, 2 min, … at most an hour, or what the
// receiver's Retry-After asks). A channel that fails for a reason that may
// pass pauses until that retry: the other notifications due to it wait too,
// without an attempt each, so that an unreachable receiver is not sent a
// storm. Each channel sends at most RatePerMinute notifications a minute.
// A notification sent and not yet recorded when the process dies is sent
// again after restart with the same idempotency key (the webhook-id, the
// e-mail's Message-ID), so a receiver can tell the duplicate.
//
// # Replicas
//
// The notifier works while it holds the lease "notifications": on one
// replica at a time, so that each notification is delivered by one replica.
// A replica that loses the lease stops at once; the next holder picks up from
// the database.
package notifier

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"washboard/internal/clock"
	"washboard/internal/cluster"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/internal/store"
)

// Defaults of Config.
const (
	DefaultRatePerMinute = 30
	DefaultPoll          = 2 * time.Second
	DefaultRetryFor      = 24 * time.Hour
	// DefaultKeep is how long finished notifications stay in the log.
	DefaultKeep = 7 * 24 * time.Hour
)

// LeaseKey is the lease the notifier works under, unless Config says
// otherwise.
const LeaseKey = "notifications"

const (
	factBatch     = 500 // facts decided per transaction
	dueBatch      = 100 // notifications taken at once
	maxDigestSize = 200 // items in one digest; the next opens another
	firstRetry    = 30 * time.Second
	maxRetry      = time.Hour
)

// Store is what the notifier reads and writes.
type Store interface {
	store.Facts
	store.Notifications
	ActiveClaims(ctx context.Context, account string) (map[string]domain.Claim, error)
	FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error)
	FindDevices(ctx context.Context, f store.DeviceFilter) ([]domain.Device, error)
	Paths(ctx context.Context, account string, ids []string) (map[string]store.Path, error)
	ServiceLevels(ctx context.Context, account string) (map[string]store.ServiceLevel, error)
	FirstClaims(ctx context.Context, account string, ids []string) (map[string]time.Time, error)
	// The visitors' reports, and the places of their rooms.
	VisitorReports(ctx context.Context, account string, f store.VisitorReportFilter) ([]domain.VisitorReport, error)
	Room(ctx context.Context, account, id string) (domain.Room, error)
	Floor(ctx context.Context, account, id string) (domain.Floor, error)
	Building(ctx context.Context, account, id string) (domain.Building, error)
}

// Leases hands out the lease the notifier works under: cluster.Replicas
// on PostgreSQL, cluster.Local in one process.
type Leases interface {
	Acquire(ctx context.Context, key string) (cluster.Lease, bool, error)
}

// Config is the notifier's configuration.
type Config struct {
	// File holds the channels and rules of --notifications.
	File rules.File
	// Link is the dashboard's address as people reach it, such as
	// https://washboard.example.com: the links in the messages.
	Link string
	// SMTP is the mail server and sender of --smtp-url and --mail-from,
	// its To empty; nil when not given: then e-mail channels must name
	// their own.
	SMTP *notify.SMTPSettings
	// SMTPTLS, when set, verifies every mail server with it instead of
	// the system's roots.
	SMTPTLS *tls.Config
	// Guard says which addresses webhooks and the mail servers of channels
	// made on the page may reach; the server of --smtp-url is trusted.
	Guard notify.Guard
	// Pusher pushes to the devices people subscribed, for the channels of
	// kind push; nil where the server sends no pushes.
	Pusher notify.Pusher
	// Zone is the time zone of quiet hours and of the times in messages.
	Zone *time.Location
	// RatePerMinute bounds each channel's notifications a minute;
	// DefaultRatePerMinute when zero.
	RatePerMinute int
	// Poll is how often the notifier looks for new facts and due
	// notifications when nothing wakes it; DefaultPoll when zero.
	Poll time.Duration
	// RetryFor is how long a notification is tried before it is given
	// up; DefaultRetryFor when zero.
	RetryFor time.Duration
	// Timeout bounds each attempt; notify.DefaultTimeout when zero.
	Timeout time.Duration
	// LeaseKey is the lease the notifier works under; LeaseKey when
	// empty. Deployments that share one PostgreSQL database, each in a
	// schema of its own, need keys of their own: advisory locks belong to
	// the database.
	LeaseKey string
}

// Deps are what the notifier works with.
type Deps struct {
	Store  Store
	Leases Leases
	Keys   *keyring.Ring
	Clock  clock.Clock
	Log    *slog.Logger
}

// Notifier decides and delivers notifications.
type Notifier struct {
	cfg  Config
	st   Store
	ls   Leases
	keys *keyring.Ring
	clk  clock.Clock
	log  *slog.Logger
	wake chan struct{}

	// settingsMu makes this replica's changes of page settings one at a
	// time; another replica's are caught by store.ErrChanged.
	settingsMu sync.Mutex

	mu       sync.Mutex
	channels map[string]cachedChannel // by account and channel name
	sends    map[string][]time.Time   // by account and channel: this minute's sends
	paused   map[string]pause         // by account and channel
	pruned   time.Time
}

// pause is a channel's wait after a failure that may pass.
type pause struct {
	until time.Time
	why   string
}

// New returns a notifier; Run starts it. It refuses a file whose rules
// name a channel it lacks, and channels the server lacks something to
// send through (notify.ChannelSettings.Ready), such as e-mail channels
// without a mail server.
func New(cfg Config, deps Deps) (*Notifier, error) {
	if deps.Store == nil || deps.Leases == nil || deps.Keys == nil {
		return nil, errors.New("notifier: a store, leases and keys are required")
	}
	if err := cfg.File.Validate(); err != nil {
		return nil, err
	}
	env := notify.Env{SMTP: cfg.SMTP, SMTPTLS: cfg.SMTPTLS, Guard: cfg.Guard, Pusher: cfg.Pusher}
	for _, a := range cfg.File.Accounts {
		for _, c := range a.Channels {
			if err := c.Settings.Ready(env); err != nil {
				return nil, fmt.Errorf("account %q, channel %q %w", a.AccountID, c.Name, err)
			}
		}
	}
	cfg.RatePerMinute = cmp.Or(cfg.RatePerMinute, DefaultRatePerMinute)
	cfg.Poll = cmp.Or(cfg.Poll, DefaultPoll)
	cfg.RetryFor = cmp.Or(cfg.RetryFor, DefaultRetryFor)
	cfg.Timeout = cmp.Or(cfg.Timeout, notify.DefaultTimeout)
	cfg.Link = strings.TrimRight(cfg.Link, "/")
	cfg.LeaseKey = cmp.Or(cfg.LeaseKey, LeaseKey)
	if cfg.Zone == nil {
		cfg.Zone = time.UTC
	}
	return &Notifier{
		cfg: cfg, st: deps.Store, ls: deps.Leases, keys: deps.Keys,
		clk:      cmp.Or[clock.Clock](deps.Clock, clock.Real{}),
		log:      cmp.Or(deps.Log, slog.New(slog.DiscardHandler)),
		wake:     make(chan struct{}, 1),
		channels: map[string]cachedChannel{}, sends: map[string][]time.Time{}, paused: map[string]pause{},
	}, nil
}

// Wake asks the notifier to look for new facts now rather than at its
// next poll: a change was written.
func (n *Notifier) Wake() {
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// Run decides and delivers until ctx ends, while this process holds the
// lease; it tries for the lease again every few polls when another holds
// it.
func (n *Notifier) Run(ctx context.Context) {
	for ctx.Err() == nil {
		lease, ok, err := n.ls.Acquire(ctx, n.cfg.LeaseKey)
		switch {
		case err != nil && ctx.Err() == nil:
			n.log.Warn("notifications: taking the lease", "error", err.Error())
			fallthrough
		case !ok:
			select {
			case <-ctx.Done():
			case <-time.After(5 * n.cfg.Poll):
			}
			continue
		}
		n.work(ctx, lease)
		lease.Release()
	}
}

// work decides and delivers until ctx ends or the lease is lost.
func (n *Notifier) work(ctx context.Context, lease cluster.Lease) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-lease.Lost():
			cancel()
		case <-ctx.Done():
		}
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.wake:
		case <-timer.C:
		}
		wait := n.Pass(ctx)
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
	}
}

// Pass decides every new fact and delivers every due notification, and
// says how long to wait before the next pass. Run calls it; tests may too.
func (n *Notifier) Pass(ctx context.Context) time.Duration {
	for range 100 { // at most 50,000 facts before delivering
		decided, err := n.decide(ctx)
		if err != nil {
			n.logErr(ctx, "deciding notifications", err)
			break
		}
		if decided < factBatch {
			break
		}
	}
	for range 20 {
		taken, again, err := n.deliver(ctx)
		if err != nil {
			n.logErr(ctx, "delivering notifications", err)
			break
		}
		if taken < dueBatch && !again {
			break
		}
	}
	n.prune(ctx)
	wait := n.cfg.Poll
	if due, ok, err := n.st.NextDue(ctx); err == nil && ok {
		if d := due.Sub(n.clk.Now()); d < wait {
			wait = max(d, 10*time.Millisecond)
		}
	}
	return wait
}

// prune removes, once an hour, the finished notifications older than a
// week.
func (n *Notifier) prune(ctx context.Context) {
	now := n.clk.Now()
	if now.Sub(n.pruned) < time.Hour {
		return
	}
	n.pruned = now
	if _, err := n.st.PruneNotifications(ctx, now.Add(-DefaultKeep)); err != nil {
		n.logErr(ctx, "removing old notifications", err)
	}
}

func (n *Notifier) logErr(ctx context.Context, what string, err error) {
	if ctx.Err() == nil {
		n.log.Warn("notifications: "+what, "error", err.Error())
	}
}

// channelKey names an account's channel in the notifier's maps.
func channelKey(account, channel string) string { return account + "\x00" + channel }
