package syncer

import (
	"context"
	"io"
	"net"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/cluster"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/store/postgres/pgtest"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/upstream"
)

func TestFairShare(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ accounts, replicas, want int }{
		{30, 3, 11}, // at most 37 %
		{30, 2, 16},
		{30, 1, 31}, // alone: all of them
		{31, 3, 12},
		{1, 3, 2},
		{0, 2, 1},
		{30, 0, 31}, // not counted yet: alone
	} {
		if got := fairShare(c.accounts, c.replicas); got != c.want {
			t.Errorf("fairShare(%d accounts, %d replicas) = %d, want %d", c.accounts, c.replicas, got, c.want)
		}
	}
}

// cutProxy forwards TCP connections to a server until Cut, which ends them
// all at once and refuses new ones: the server sees the connections of a
// replica whose process was killed.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(p.Cut)
	go p.serve()
	return p
}

func (p *cutProxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(out, in); out.Close() }()
		go func() { _, _ = io.Copy(in, out); in.Close() }()
	}
}

func (p *cutProxy) Cut() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// through returns the database URL dbURL with its host the proxy's.
func (p *cutProxy) through(t *testing.T, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.ln.Addr().String()
	return u.String()
}

// fairReplica is one replica of the fair share's test: an engine with a
// clock and a connection to PostgreSQL of its own.
type fairReplica struct {
	name    string
	clock   *clock.Fake
	engine  *Engine
	cluster *cluster.Replicas
	proxy   *cutProxy
	stop    func()
}

// held is the accounts whose lease the replica holds, sorted.
func (r *fairReplica) held() []string {
	e := r.engine
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, 0, len(e.leased))
	for a := range e.leased {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// TestReplicasShareTheAccountsFairly runs replicas of the sync, each with
// its own connections to one PostgreSQL database, on 30 accounts: one
// alone holds them all; two started late take their share, no replica
// holding more than 40 % of them; once balanced, nothing moves; one killed
// (its connections cut, nothing released), the two others hold all 30
// within two intervals.
func TestReplicasShareTheAccountsFairly(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.NewDatabase(t)
	server, err := url.Parse(dbURL)
	if err != nil || server.Host == "" {
		t.Skipf("the test cuts TCP connections: give WASHBOARD_TEST_POSTGRES a URL with a TCP address, such as %s", pgtest.ExampleURL)
	}
	const accounts = 30
	world := sim.New(sim.Config{Seed: 3, Locations: 3, Accounts: accounts, History: time.Hour, Clock: sim.NewManualClock(start), Zone: time.UTC})
	srv := httptest.NewServer(world.Handler())
	t.Cleanup(srv.Close)
	client, err := upstream.New(upstream.Config{BaseURL: srv.URL, MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var st store.Store
	st, _ = sqlitetest.Open(t)

	now := start
	far := start.Add(365 * 24 * time.Hour)
	startReplica := func(name string) *fairReplica {
		r := &fairReplica{name: name, clock: clock.NewFake(now), proxy: newCutProxy(t, server.Host)}
		r.cluster, err = cluster.OpenReplicas(context.Background(), r.proxy.through(t, dbURL), nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		r.engine = New(ctx, UpstreamSource{Client: client}, st, r.clock, Config{Cluster: r.cluster}, nil)
		r.stop = sync.OnceFunc(func() { cancel(); r.engine.Wait(); r.cluster.Close() })
		t.Cleanup(r.stop)
		for _, a := range world.Accounts() {
			// As every replica holds every connected account.
			r.engine.Hold("connected "+a.ID, a.ID, upstream.Credentials{APIKey: a.APIKey, Authorization: a.Authorization}, far)
		}
		r.clock.BlockUntil(accounts) // every loop waits: for its next round, or to try for its lease again
		return r
	}
	// step moves the replicas' clocks on by a quarter interval, the
	// replicas' tries for leases, and waits for every loop to wait again.
	step := MinInterval / leaseRetryShare
	advance := func(rs ...*fairReplica) {
		now = now.Add(step)
		for _, r := range rs {
			r.clock.Advance(step)
		}
		for _, r := range rs {
			r.clock.BlockUntil(accounts)
		}
	}
	counts := func(rs ...*fairReplica) (sum, most int, each []int) {
		for _, r := range rs {
			n := r.engine.Syncing()
			each = append(each, n)
			sum += n
			most = max(most, n)
		}
		return sum, most, each
	}

	a := startReplica("a")
	if n := a.engine.Syncing(); n != accounts {
		t.Fatalf("one replica alone syncs %d of the %d accounts, want all", n, accounts)
	}

	// Two more start while a holds every account.
	b, c := startReplica("b"), startReplica("c")
	const mostOfThree = accounts * 40 / 100
	var balancedAfter time.Duration
	for took := step; took <= 4*MinInterval; took += step {
		advance(a, b, c)
		if sum, most, _ := counts(a, b, c); sum == accounts && most <= mostOfThree {
			balancedAfter = took
			break
		}
	}
	_, _, each := counts(a, b, c)
	if balancedAfter == 0 {
		t.Fatalf("after 4 intervals the three replicas sync %v of the %d accounts; want all, at most %d each", each, accounts, mostOfThree)
	}
	t.Logf("three replicas: %v accounts each, %s after two joined the first", each, balancedAfter)
	if least := accounts - 2*fairShare(accounts, 3); each[1] < least || each[2] < least {
		t.Errorf("the replicas started late sync %d and %d accounts, want at least %d each", each[1], each[2], least)
	}

	// Balanced, nothing moves: no lease is given back and taken again.
	before := [][]string{a.held(), b.held(), c.held()}
	for range 2 * leaseRetryShare {
		advance(a, b, c)
	}
	for i, r := range []*fairReplica{a, b, c} {
		if got := r.held(); !slices.Equal(got, before[i]) {
			t.Errorf("replica %s's accounts moved over two intervals once balanced: %d held then, %d now", r.name, len(before[i]), len(got))
		}
	}

	// c is killed: its connections end, it releases nothing.
	c.proxy.Cut()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := a.cluster.ReplicasUp(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server still counts %d replicas up 10 s after one's connections were cut", n)
		}
		<-time.After(5 * time.Millisecond)
	}
	c.stop()
	const mostOfTwo = accounts*60/100 + 1
	took := time.Duration(0)
	for took < 2*MinInterval {
		if sum, _, _ := counts(a, b); sum == accounts {
			break
		}
		advance(a, b)
		took += step
	}
	sum, most, each := counts(a, b)
	if sum != accounts {
		t.Fatalf("two intervals after a replica was killed, the two others sync %v of the %d accounts; want all", each, accounts)
	}
	if most > mostOfTwo {
		t.Errorf("after a replica was killed, the two others sync %v accounts; want at most %d each", each, mostOfTwo)
	}
	t.Logf("one of three killed: the two others sync %v accounts, %s later", each, took)
}
