package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BroadcasterConfig configures a Broadcaster. Zero values take the
// defaults.
type BroadcasterConfig struct {
	// CheckInterval is how long the listening connection may stay silent
	// before it is checked; default 10 s.
	CheckInterval time.Duration
	// CheckTimeout bounds the check and every statement on the listening
	// connection; default 3 s.
	CheckTimeout time.Duration
	// MaxBackoff is the longest wait between two attempts to connect again;
	// default 10 s.
	MaxBackoff time.Duration
	// Buffer is how many values a subscriber's channel holds; default
	// DefaultBuffer.
	Buffer int
	// PublishConns is how many connections Publish may use at once;
	// default 4.
	PublishConns int32
	Log          *slog.Logger
}

func (c BroadcasterConfig) withDefaults() BroadcasterConfig {
	if c.CheckInterval <= 0 {
		c.CheckInterval = 10 * time.Second
	}
	if c.CheckTimeout <= 0 {
		c.CheckTimeout = 3 * time.Second
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 10 * time.Second
	}
	if c.PublishConns <= 0 {
		c.PublishConns = 4
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return c
}

// Broadcaster publishes announcements with pg_notify and hands those of
// every replica to the local subscribers of their channel, listening on one
// connection of its own that it makes again when it breaks (see the
// package's documentation).
type Broadcaster struct {
	cfg     BroadcasterConfig
	connCfg *pgx.ConnConfig
	pool    *pgxpool.Pool // for Publish
	hub     *hub
	cancel  context.CancelFunc
	done    chan struct{}
	pid     atomic.Uint32 // of the listening connection's session; 0 while disconnected
}

// OpenBroadcaster connects to the server at connString to listen, and
// listens until ctx ends or Close. Publish uses a small pool of its own.
func OpenBroadcaster(ctx context.Context, connString string, cfg BroadcasterConfig) (*Broadcaster, error) {
	cfg = cfg.withDefaults()
	connCfg, err := pgx.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("cluster: broadcaster: %w", err)
	}
	if _, set := connCfg.RuntimeParams["application_name"]; !set {
		connCfg.RuntimeParams["application_name"] = "washboard listen"
	}
	poolCfg, err := pgxpool.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("cluster: broadcaster: %w", err)
	}
	poolCfg.MaxConns = cfg.PublishConns
	poolCfg.MinConns = 0
	if _, set := poolCfg.ConnConfig.RuntimeParams["application_name"]; !set {
		poolCfg.ConnConfig.RuntimeParams["application_name"] = "washboard notify"
	}
	b := &Broadcaster{cfg: cfg, connCfg: connCfg, hub: newHub(cfg.Buffer), done: make(chan struct{})}
	conn, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	if b.pool, err = pgxpool.NewWithConfig(ctx, poolCfg); err != nil {
		_ = conn.Close(ctx)
		return nil, fmt.Errorf("cluster: broadcaster: %w", err)
	}
	ctx, b.cancel = context.WithCancel(ctx)
	go b.run(ctx, conn)
	return b, nil
}

func (b *Broadcaster) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, b.connCfg.Copy())
	if err != nil {
		return nil, fmt.Errorf("cluster: broadcaster: %w", err)
	}
	return conn, nil
}

// Publish sends payload on channel to every replica's subscribers, this
// one's included, at once: it commits as soon as it runs.
func (b *Broadcaster) Publish(ctx context.Context, channel, payload string) error {
	return publish(ctx, b.pool, channel, payload)
}

// PublishTx sends payload on channel when tx commits, and not at all if it
// rolls back. PostgreSQL sends identical announcements of one transaction
// (same channel, same payload) once.
func (b *Broadcaster) PublishTx(ctx context.Context, tx pgx.Tx, channel, payload string) error {
	return publish(ctx, tx, channel, payload)
}

func publish(ctx context.Context, db interface {
	Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
}, channel, payload string) error {
	if err := checkAnnouncement(channel, payload); err != nil {
		return err
	}
	if _, err := db.Exec(ctx, "SELECT pg_notify($1, $2)", channel, payload); err != nil {
		return fmt.Errorf("cluster: publishing on %q: %w", channel, err)
	}
	return nil
}

// Subscribe returns a channel of the payloads published on channel by
// every replica, which receives Gap first once the channel is listened to,
// and the function that ends the subscription. See the package's
// documentation for when else Gap comes. It panics if channel is not a
// valid channel name (see MaxChannel): channels are names in the code.
func (b *Broadcaster) Subscribe(channel string) (<-chan string, func()) {
	if err := checkChannel(channel); err != nil {
		panic(err)
	}
	return b.hub.subscribe(channel)
}

// Close stops listening, ends every subscription and closes the
// connections.
func (b *Broadcaster) Close() {
	b.cancel()
	<-b.done
	b.pool.Close()
}

// run listens on conn until it breaks, then connects again, waiting
// longer after each failed attempt, until ctx ends.
func (b *Broadcaster) run(ctx context.Context, conn *pgx.Conn) {
	defer close(b.done)
	defer b.hub.close()
	var backoff time.Duration
	for {
		if conn != nil {
			listened, err := b.listen(ctx, conn)
			b.pid.Store(0)
			b.hub.disconnected()
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			_ = conn.Close(cctx) // broken already, or ctx ended
			cancel()
			if ctx.Err() != nil {
				return
			}
			b.cfg.Log.Warn("the listening connection broke; subscribers will be told they may have missed announcements", "error", err)
			if listened {
				backoff = 0
			}
		}
		backoff = min(max(2*backoff, 100*time.Millisecond), b.cfg.MaxBackoff)
		// Half the wait, and a random part of the other half: replicas
		// that lost the server together do not come back all at once.
		wait := backoff/2 + rand.N(backoff/2+1)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		cctx, cancel := context.WithTimeout(ctx, connectTimeout)
		var err error
		conn, err = b.connect(cctx)
		cancel()
		if err != nil {
			b.cfg.Log.Warn("connecting to listen", "error", err)
		}
	}
}

// errIdle ends a wait for an announcement that lasted CheckInterval.
var errIdle = errors.New("cluster: the listening connection was silent")

// listen listens to the subscribed channels on conn and hands out their
// announcements until conn breaks or ctx ends. It reports whether it
// listened to every channel at least once: then the connection was good,
// and the next one is made without waiting long.
func (b *Broadcaster) listen(ctx context.Context, conn *pgx.Conn) (listened bool, err error) {
	b.pid.Store(conn.PgConn().PID())
	for {
		if err := b.follow(ctx, conn); err != nil {
			return listened, err
		}
		listened = true

		n, err := b.wait(ctx, conn)
		switch {
		case err == nil:
			b.hub.deliver(n.Channel, n.Payload)
		case ctx.Err() != nil:
			return listened, ctx.Err()
		case conn.IsClosed():
			return listened, err
		case errors.Is(err, errIdle):
			pctx, cancel := context.WithTimeout(ctx, b.cfg.CheckTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return listened, fmt.Errorf("checking the listening connection: %w", err)
			}
		}
		// Otherwise the subscribed channels changed: follow them.
	}
}

// follow brings the channels conn listens to in line with those that have
// subscribers.
func (b *Broadcaster) follow(ctx context.Context, conn *pgx.Conn) error {
	listen, unlisten := b.hub.plan()
	if len(listen) == 0 && len(unlisten) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, b.cfg.CheckTimeout)
	defer cancel()
	for _, ch := range unlisten {
		if _, err := conn.Exec(ctx, "UNLISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return fmt.Errorf("unlisten %q: %w", ch, err)
		}
	}
	for _, ch := range listen {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return fmt.Errorf("listen %q: %w", ch, err)
		}
	}
	b.hub.listening(listen)
	return nil
}

// wait waits for the next announcement on conn, for CheckInterval at
// most (errIdle), and no longer than until the subscribed channels change.
// Interrupting the wait leaves the connection usable: pgx reads on after a
// deadline.
func (b *Broadcaster) wait(ctx context.Context, conn *pgx.Conn) (*pgconn.Notification, error) {
	wctx, cancel := context.WithTimeoutCause(ctx, b.cfg.CheckInterval, errIdle)
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-b.hub.changed:
			cancel()
		case <-stop:
		}
	}()
	n, err := conn.WaitForNotification(wctx)
	if err != nil && errors.Is(context.Cause(wctx), errIdle) {
		return nil, errIdle
	}
	return n, err
}
