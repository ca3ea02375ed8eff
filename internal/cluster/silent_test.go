//go:build unix

package cluster

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// freeze stops the server process serving the session pid with SIGSTOP
// until the test ends: the session neither answers nor closes, as when the
// server hangs or the network drops everything. The test is skipped unless
// that process is a PostgreSQL backend on this machine that the test may
// signal.
func freeze(t *testing.T, pid uint32) {
	t.Helper()
	cmdline, err := os.ReadFile("/proc/" + strconv.FormatUint(uint64(pid), 10) + "/cmdline")
	if err != nil || !strings.HasPrefix(string(cmdline), "postgres: ") {
		t.Skip("the server's processes are not on this machine: the test stops one with SIGSTOP")
	}
	if err := syscall.Kill(int(pid), syscall.SIGSTOP); err != nil {
		t.Skipf("cannot stop the server's process: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Kill(int(pid), syscall.SIGCONT) })
}

// When the session holding the leases stops answering, the check notices
// within CheckInterval and CheckTimeout and reports every lease lost. The
// server keeps the locks until it ends the session, so that no other
// replica holds them meanwhile.
func TestLeasesLostWhenSilent(t *testing.T) {
	url := postgresURL(t)
	const interval, timeout = 100 * time.Millisecond, 300 * time.Millisecond
	a := openLeases(t, url, LeasesConfig{CheckInterval: interval, CheckTimeout: timeout})
	b := openLeases(t, url, LeasesConfig{})
	key := unique("test acme ")
	ls := mustAcquire(t, a, key)
	a.mu.Lock()
	pid := a.conn.PgConn().PID()
	a.mu.Unlock()

	start := time.Now()
	freeze(t, pid)
	lostWithin(t, ls, 2*time.Second)
	t.Logf("the lease was reported lost %v after its session stopped answering (checks every %v, within %v)",
		time.Since(start).Round(time.Millisecond), interval, timeout)
	mustNotAcquire(t, b, key) // the stopped session still holds the lock

	// The stopped session reads that its client left as soon as it runs
	// again, and ends, freeing the lock.
	if err := syscall.Kill(int(pid), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, ok, err := b.Acquire(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lock was not freed within 5 s of the session running again")
		}
		<-time.After(10 * time.Millisecond)
	}
}

// When the listening session stops answering, the check of the silent
// connection notices; the Broadcaster connects again and tells its
// subscribers that they may have missed notifications.
func TestNotifyReconnectsWhenSilent(t *testing.T) {
	url := postgresURL(t)
	ctx := context.Background()
	a := openBroadcaster(t, url, BroadcasterConfig{})
	const interval, timeout = 100 * time.Millisecond, 300 * time.Millisecond
	b := openBroadcaster(t, url, BroadcasterConfig{CheckInterval: interval, CheckTimeout: timeout})
	channel := unique("wbtest_silent_")
	ch, _ := subscribe(t, b, channel)

	start := time.Now()
	freeze(t, b.pid.Load())
	if v := receive(t, ch, 5*time.Second); v != Gap {
		t.Fatalf("after the session stopped answering, received %q, want Gap", v)
	}
	t.Logf("subscribers were told of a gap %v after the session stopped answering (checks after %v of silence, within %v)",
		time.Since(start).Round(time.Millisecond), interval, timeout)
	if err := a.Publish(ctx, channel, "after"); err != nil {
		t.Fatal(err)
	}
	if v := receive(t, ch, time.Second); v != "after" {
		t.Errorf("received %q, want after", v)
	}
}
