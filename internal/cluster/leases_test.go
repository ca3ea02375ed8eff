package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/store/postgres/pgtest"
)

// What a caller such as the syncer declares, without importing this
// package.
type leaser interface {
	Acquire(ctx context.Context, key string) (interface {
		Lost() <-chan struct{}
		Release()
	}, bool, error)
}

var _ leaser = (*Leases)(nil)

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func openLeases(t testing.TB, url string, cfg LeasesConfig) *Leases {
	t.Helper()
	l, err := OpenLeases(context.Background(), url, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}

func mustAcquire(t testing.TB, l leaser, key string) Lease {
	t.Helper()
	ls, ok, err := l.Acquire(context.Background(), key)
	if err != nil || !ok {
		t.Fatalf("Acquire(%q) = %v, %v; want the lease", key, ok, err)
	}
	return ls
}

func mustNotAcquire(t testing.TB, l leaser, key string) {
	t.Helper()
	if _, ok, err := l.Acquire(context.Background(), key); err != nil || ok {
		t.Fatalf("Acquire(%q) = %v, %v; want false: another holds it", key, ok, err)
	}
}

// lostWithin fails the test unless the lease is lost within d.
func lostWithin(t testing.TB, ls Lease, d time.Duration) {
	t.Helper()
	select {
	case <-ls.Lost():
	case <-time.After(d):
		t.Fatalf("the lease was not lost within %v", d)
	}
}

// Two replicas: only one holds a key at a time, and releasing it lets the
// other take it.
func TestLeasesExclusive(t *testing.T) {
	url := postgresURL(t)
	a := openLeases(t, url, LeasesConfig{})
	b := openLeases(t, url, LeasesConfig{})
	key, other := unique("test acme "), unique("test globex ")

	la := mustAcquire(t, a, key)
	mustNotAcquire(t, b, key)
	mustNotAcquire(t, a, key) // the same replica again: advisory locks nest, leases do not
	lo := mustAcquire(t, b, other)

	la.Release()
	if !closed(la.Lost()) {
		t.Error("Lost is not closed after Release")
	}
	lb := mustAcquire(t, b, key)
	mustNotAcquire(t, a, key)
	la.Release() // again: must not release b's lock
	mustNotAcquire(t, a, key)
	if closed(lb.Lost()) || closed(lo.Lost()) {
		t.Error("a held lease is lost")
	}

	// Close releases every lease of the replica.
	b.Close()
	if !closed(lb.Lost()) || !closed(lo.Lost()) {
		t.Error("Close did not end every lease")
	}
	mustAcquire(t, a, key)
	mustAcquire(t, a, other)
	if _, _, err := b.Acquire(context.Background(), key); !errors.Is(err, ErrClosed) {
		t.Errorf("Acquire after Close: %v, want ErrClosed", err)
	}
}

// When the server ends the session holding the leases, every lease is
// reported lost within a check, and the replica connects again.
func TestLeasesLostWithConnection(t *testing.T) {
	url := postgresURL(t)
	const interval = 100 * time.Millisecond
	a := openLeases(t, url, LeasesConfig{CheckInterval: interval, CheckTimeout: time.Second})
	b := openLeases(t, url, LeasesConfig{})
	keys := []string{unique("test acme "), unique("test globex "), unique("test initech ")}
	var held []Lease
	for _, k := range keys {
		held = append(held, mustAcquire(t, a, k))
	}

	a.mu.Lock()
	pid := a.conn.PgConn().PID()
	a.mu.Unlock()
	start := time.Now()
	terminate(t, admin(t, url), pid)
	for _, ls := range held {
		lostWithin(t, ls, 2*time.Second)
	}
	t.Logf("every lease was reported lost %v after the session ended (checks every %v)", time.Since(start).Round(time.Millisecond), interval)

	// The locks went with the session: another replica takes them now.
	for _, k := range keys {
		mustAcquire(t, b, k)
	}
	// And the replica connects again.
	deadline := time.Now().Add(5 * time.Second)
	key := unique("test umbrella ")
	for {
		_, ok, err := a.Acquire(context.Background(), key)
		if ok {
			break
		}
		if err != nil && !errors.Is(err, ErrDisconnected) {
			t.Fatalf("Acquire after the connection broke: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no lease within 5 s of the connection breaking: %v", err)
		}
		<-time.After(10 * time.Millisecond)
	}
}

// The connection holding the leases asks the server for TCP keepalives, so
// that the leases of a replica whose host went silent are freed.
func TestLeasesKeepalives(t *testing.T) {
	url := postgresURL(t)
	l := openLeases(t, url, LeasesConfig{})
	l.mu.Lock()
	defer l.mu.Unlock()
	var unix bool
	var idle, interval, count, user string
	err := l.conn.QueryRow(context.Background(), `SELECT inet_client_addr() IS NULL,
		current_setting('tcp_keepalives_idle'), current_setting('tcp_keepalives_interval'),
		current_setting('tcp_keepalives_count'), current_setting('tcp_user_timeout')`).
		Scan(&unix, &idle, &interval, &count, &user)
	if err != nil {
		t.Fatal(err)
	}
	if unix {
		t.Skip("connected over a Unix socket, which has no keepalives: give WASHBOARD_TEST_POSTGRES a TCP address, such as " + pgtest.ExampleURL + ", to run this test")
	}
	got := []string{idle, interval, count, user}
	if want := []string{"30", "10", "3", "60000"}; !slices.Equal(got, want) {
		t.Errorf("keepalives idle, interval and count, and user timeout: %q, want %q", got, want)
	}
}

// holdEnv names the lease TestLeaseHolderProcess takes.
const holdEnv = "WASHBOARD_CLUSTER_HOLD"

// TestLeaseHolderProcess is the replica TestLeaseFreedWhenHolderKilled
// kills: it takes a lease, says so, and waits.
func TestLeaseHolderProcess(t *testing.T) {
	key := os.Getenv(holdEnv)
	if key == "" {
		t.Skip("the process TestLeaseFreedWhenHolderKilled starts and kills")
	}
	l := openLeases(t, postgresURL(t), LeasesConfig{})
	mustAcquire(t, l, key)
	fmt.Println("held")
	<-time.After(time.Minute)
	t.Fatal("not killed within a minute")
}

// A replica killed with SIGKILL releases nothing itself; the kernel closes
// its connection, and the server frees its locks. The test measures how
// long another replica waits for the lease.
func TestLeaseFreedWhenHolderKilled(t *testing.T) {
	url := postgresURL(t)
	key := unique("test killed ")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLeaseHolderProcess$", "-test.v")
	cmd.Env = append(os.Environ(), holdEnv+"="+key)
	// The process's output goes through a pipe of the test's own, read to
	// its end, so that the process never blocks writing.
	out, stdout := io.Pipe()
	cmd.Stdout = stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		stdout.Close()
		close(exited)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	held := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := false
		for sc.Scan() {
			if !ok && sc.Text() == "held" {
				ok = true
				held <- true
			}
		}
		if !ok {
			held <- false
		}
	}()
	select {
	case ok := <-held:
		if !ok {
			t.Fatal("the holding process ended without taking the lease")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the holding process did not take the lease within 30 s")
	}

	l := openLeases(t, url, LeasesConfig{})
	mustNotAcquire(t, l, key)
	start := time.Now()
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	for {
		_, ok, err := l.Acquire(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("the lease of a killed process was not free within 30 s")
		}
		<-time.After(5 * time.Millisecond)
	}
	took := time.Since(start)
	t.Logf("the lease of the process killed with SIGKILL was taken over %v later", took.Round(100*time.Microsecond))
	if took > 10*time.Second {
		t.Errorf("takeover took %v, want seconds at most", took)
	}
}

func TestLockID(t *testing.T) {
	if LockID("acme") == LockID("globex") {
		t.Error("two keys have one lock")
	}
	// A lease's lock must not change from one release to the next:
	// replicas of two versions would both hold an account's lease.
	if got, want := LockID("sync acme"), int64(8774796828363473419); got != want {
		t.Errorf("LockID(sync acme) = %d, want %d", got, want)
	}
}

// Every replica whose leases connection is alive is counted up, and one
// whose connection the server ended is not, at once.
func TestReplicasUpCountsLiveLeasesConnections(t *testing.T) {
	url := pgtest.NewDatabase(t)
	a := openLeases(t, url, LeasesConfig{})
	if n, err := a.ReplicasUp(context.Background()); err != nil || n != 1 {
		t.Fatalf("one replica: ReplicasUp = %d, %v; want 1", n, err)
	}
	b := openLeases(t, url, LeasesConfig{})
	c := openLeases(t, url, LeasesConfig{})
	// A connection of another kind to the same database is no replica, nor
	// is a replica of another deployment, whose tables are in another
	// schema.
	admin := admin(t, url)
	if _, err := admin.Exec(context.Background(), "CREATE SCHEMA other"); err != nil {
		t.Fatal(err)
	}
	other := openLeases(t, withSchema(t, url, "other"), LeasesConfig{})
	if n, err := other.ReplicasUp(context.Background()); err != nil || n != 1 {
		t.Fatalf("the replica of another deployment: ReplicasUp = %d, %v; want 1", n, err)
	}
	for _, l := range []*Leases{a, b, c} {
		if n, err := l.ReplicasUp(context.Background()); err != nil || n != 3 {
			t.Fatalf("three replicas: ReplicasUp = %d, %v; want 3", n, err)
		}
	}

	c.Close()
	b.mu.Lock()
	terminate(t, admin, b.conn.PgConn().PID())
	b.mu.Unlock()
	// b's connection ended from the server's side: not up until it
	// connects again (its checks are every 5 s).
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := a.ReplicasUp(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ReplicasUp = %d 10 s after one replica closed and another's session was ended; want 1", n)
		}
		<-time.After(5 * time.Millisecond)
	}
	if _, err := c.ReplicasUp(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("ReplicasUp after Close: %v, want ErrClosed", err)
	}
}

// withSchema returns the database URL dbURL whose connections work in
// schema.
func withSchema(t testing.TB, dbURL, schema string) string {
	t.Helper()
	if !strings.HasPrefix(dbURL, "postgres://") && !strings.HasPrefix(dbURL, "postgresql://") {
		return dbURL + " search_path=" + schema
	}
	u, err := neturl.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
