package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// LeasesConfig configures Leases. Zero values take the defaults.
type LeasesConfig struct {
	// CheckInterval is how often the connection is checked; default 5 s.
	CheckInterval time.Duration
	// CheckTimeout bounds the check and every statement on the connection;
	// default 3 s.
	CheckTimeout time.Duration
	// MaxBackoff is the longest wait between two attempts to connect again;
	// default 15 s.
	MaxBackoff time.Duration
	Log        *slog.Logger
}

func (c LeasesConfig) withDefaults() LeasesConfig {
	if c.CheckInterval <= 0 {
		c.CheckInterval = 5 * time.Second
	}
	if c.CheckTimeout <= 0 {
		c.CheckTimeout = 3 * time.Second
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 15 * time.Second
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return c
}

// connectTimeout bounds an attempt to connect again.
const connectTimeout = 10 * time.Second

// keepalives are asked of the server for the connection holding the
// leases, unless the connection string sets them: a replica whose host
// goes silent loses its locks about 30 + 3×10 s later, or 60 s after the
// server's last unacknowledged answer to it (without tcp_user_timeout,
// the kernel retransmits that one for a quarter of an hour).
var keepalives = map[string]string{
	"tcp_keepalives_idle":     "30",
	"tcp_keepalives_interval": "10",
	"tcp_keepalives_count":    "3",
	"tcp_user_timeout":        "60000", // milliseconds
}

// Leases are a replica's leases, held as session-level advisory locks on
// one connection of its own (see the package's documentation).
type Leases struct {
	connCfg *pgx.ConnConfig
	cfg     LeasesConfig
	cancel  context.CancelFunc
	done    chan struct{}
	wake    chan struct{} // the connection broke: connect again now

	mu       sync.Mutex // held while the connection is in use
	conn     *pgx.Conn  // nil while disconnected
	presence int64      // the first key of conn's lock that says the replica is up
	lastErr  error      // why the last connection broke or could not be made
	held     map[string]*pgLease
	closed   bool
}

// OpenLeases connects to the server at connString for the leases, and
// keeps the connection checked until ctx ends or Close.
func OpenLeases(ctx context.Context, connString string, cfg LeasesConfig) (*Leases, error) {
	connCfg, err := pgx.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("cluster: leases: %w", err)
	}
	for k, v := range keepalives {
		if _, set := connCfg.RuntimeParams[k]; !set {
			connCfg.RuntimeParams[k] = v
		}
	}
	if _, set := connCfg.RuntimeParams["application_name"]; !set {
		connCfg.RuntimeParams["application_name"] = "washboard leases"
	}
	l := &Leases{
		connCfg: connCfg,
		cfg:     cfg.withDefaults(),
		done:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		held:    map[string]*pgLease{},
	}
	if l.conn, l.presence, err = l.connect(ctx); err != nil {
		return nil, err
	}
	ctx, l.cancel = context.WithCancel(ctx)
	go l.run(ctx)
	return l, nil
}

// presenceKey is the first key of the advisory lock each replica's leases
// connection holds, with its backend's pid as the second, for as long as
// it lives: the replicas up are the holders of such locks (see
// ReplicasUp). It is a 31-bit hash of the schema the deployment's tables
// are in, so that deployments in two schemas of one database (tests, as a
// rule) count their replicas apart. The two-key form of the lock never
// meets a lease's key, which has one.
func presenceKey(schema string) int64 {
	h := sha256.Sum256([]byte("washboard replicas " + schema))
	return int64(binary.BigEndian.Uint32(h[:4]) & 0x7fffffff)
}

func (l *Leases) connect(ctx context.Context) (*pgx.Conn, int64, error) {
	conn, err := pgx.ConnectConfig(ctx, l.connCfg.Copy())
	if err != nil {
		return nil, 0, fmt.Errorf("cluster: leases: %w", err)
	}
	var schema *string // none when no schema of the search path exists
	err = conn.QueryRow(ctx, "SELECT current_schema()").Scan(&schema)
	key := presenceKey("")
	if schema != nil {
		key = presenceKey(*schema)
	}
	if err == nil {
		// A backend's pid is unique among the sessions alive, and its
		// locks are gone before the pid is used again: the lock is free.
		_, err = conn.Exec(ctx, "SELECT pg_advisory_lock($1, pg_backend_pid())", key)
	}
	if err != nil {
		_ = conn.Close(ctx)
		return nil, 0, fmt.Errorf("cluster: leases: saying this replica is up: %w", err)
	}
	return conn, key, nil
}

// ReplicasUp counts the replicas whose leases connection is alive on the
// database, this one's included: those that can hold a lease now. A
// replica killed is no longer counted once the server has ended its
// session (see the package's documentation for how soon). It fails with
// ErrDisconnected while the connection is being made again.
func (l *Leases) ReplicasUp(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return 0, ErrClosed
	case l.conn == nil:
		return 0, fmt.Errorf("%w: %v", ErrDisconnected, l.lastErr)
	}
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.cfg.CheckTimeout)
	defer cancel()
	var n int
	if err := l.conn.QueryRow(qctx, countReplicas, l.presence).Scan(&n); err != nil {
		err = fmt.Errorf("cluster: counting the replicas up: %w", err)
		l.breakLocked(err)
		return 0, err
	}
	return n, nil
}

// countReplicas counts the locks that say a replica of this deployment is
// up (advisory locks are the database's, not the server's).
const countReplicas = `SELECT count(*) FROM pg_locks
	WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::int8 = $1
	AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`

// Acquire takes the lease named key if no session holds it. It reports
// false, without an error, when the key is held, by this replica or
// another; it fails with ErrDisconnected while the connection is being
// made again.
//
// The statement runs to its end or CheckTimeout whatever becomes of ctx:
// interrupting it would close the connection, losing every lease.
func (l *Leases) Acquire(ctx context.Context, key string) (Lease, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, false, ErrClosed
	case l.held[key] != nil:
		return nil, false, nil // the lock would be taken again: advisory locks nest
	case l.conn == nil:
		return nil, false, fmt.Errorf("%w: %v", ErrDisconnected, l.lastErr)
	}
	id := LockID(key)
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.cfg.CheckTimeout)
	defer cancel()
	var ok bool
	if err := l.conn.QueryRow(qctx, "SELECT pg_try_advisory_lock($1)", id).Scan(&ok); err != nil {
		err = fmt.Errorf("cluster: acquiring lease %q: %w", key, err)
		l.breakLocked(err)
		return nil, false, err
	}
	if !ok {
		return nil, false, nil
	}
	ls := &pgLease{l: l, key: key, id: id, lost: make(chan struct{})}
	l.held[key] = ls
	return ls, true, nil
}

type pgLease struct {
	l    *Leases
	key  string
	id   int64
	lost chan struct{}
}

func (ls *pgLease) Lost() <-chan struct{} { return ls.lost }

// Release unlocks the lease's key. If the statement fails the connection
// is closed, which releases it too, with every other lease.
func (ls *pgLease) Release() {
	l := ls.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[ls.key] != ls {
		return // released already, or lost
	}
	delete(l.held, ls.key)
	defer close(ls.lost)
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.CheckTimeout)
	defer cancel()
	var ok bool
	if err := l.conn.QueryRow(ctx, "SELECT pg_advisory_unlock($1)", ls.id).Scan(&ok); err != nil {
		l.breakLocked(fmt.Errorf("cluster: releasing lease %q: %w", ls.key, err))
		return
	}
	if !ok {
		l.cfg.Log.Warn("a lease was not held by its connection when it was released", "lease", ls.key)
	}
}

// breakLocked closes the connection and reports every lease lost: the
// server releases them with the session. The caller holds l.mu.
func (l *Leases) breakLocked(err error) {
	if l.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = l.conn.Close(ctx) // the error is the one already in hand, or a Terminate that could not be sent
	l.conn = nil
	l.lastErr = err
	if len(l.held) > 0 && err != ErrClosed {
		l.cfg.Log.Warn("the connection holding the leases broke: every lease is lost", "leases", len(l.held), "error", err)
	}
	for key, ls := range l.held {
		delete(l.held, key)
		close(ls.lost)
	}
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// run checks the connection every CheckInterval and connects again, with
// a growing wait between attempts, when it broke.
func (l *Leases) run(ctx context.Context) {
	defer close(l.done)
	backoff := time.Duration(0)
	timer := time.NewTimer(l.cfg.CheckInterval)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			l.shutdown()
			return
		case <-l.wake:
			timer.Stop()
		case <-timer.C:
		}
		next := l.cfg.CheckInterval
		if l.check() {
			backoff = 0
		} else if err := l.reconnect(ctx); err != nil {
			if ctx.Err() != nil {
				continue
			}
			backoff = min(max(2*backoff, 250*time.Millisecond), l.cfg.MaxBackoff)
			next = backoff
			l.cfg.Log.Warn("connecting for the leases", "error", err, "retry in", backoff)
		}
		timer.Reset(next)
	}
}

// check reports whether the connection is there and answers.
func (l *Leases) check() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.CheckTimeout)
	defer cancel()
	if err := l.conn.Ping(ctx); err != nil {
		l.breakLocked(fmt.Errorf("cluster: checking the connection holding the leases: %w", err))
		return false
	}
	return true
}

func (l *Leases) reconnect(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	conn, presence, err := l.connect(cctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.lastErr = err
		return err
	}
	if l.closed || l.conn != nil {
		_ = conn.Close(ctx)
		return nil
	}
	l.conn, l.presence, l.lastErr = conn, presence, nil
	l.cfg.Log.Info("connected again for the leases")
	return nil
}

// shutdown releases every lease and closes the connection. It unlocks
// first: the server ends a closed session a moment after Close returns,
// and another replica should not find the locks still held then.
func (l *Leases) shutdown() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.conn != nil && len(l.held) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), l.cfg.CheckTimeout)
		defer cancel()
		if _, err := l.conn.Exec(ctx, "SELECT pg_advisory_unlock_all()"); err != nil {
			l.cfg.Log.Warn("releasing the leases", "error", err)
		}
	}
	l.breakLocked(ErrClosed)
}

// Close releases every lease, closes the connection and waits for the
// checks to stop. The leases are free for others when it returns, unless
// the connection had broken.
func (l *Leases) Close() {
	l.cancel()
	<-l.done
}
