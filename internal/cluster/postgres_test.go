package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"washboard/internal/store/postgres/pgtest"
)

// postgresURL returns the URL of the PostgreSQL server the tests use, or
// skips the test without one (fails it when they are required).
func postgresURL(t testing.TB) string {
	t.Helper()
	return pgtest.ServerURL(t)
}

// unique returns prefix and a random suffix: names that no other test
// run against the same server uses.
func unique(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// admin is a connection of the test's own, to look at and break the
// connections under test.
func admin(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// terminate ends the session pid from the server's side, as a restart or
// an operator would.
func terminate(t testing.TB, conn *pgx.Conn, pid uint32) {
	t.Helper()
	var ok bool
	if err := conn.QueryRow(context.Background(), "SELECT pg_terminate_backend($1)", int32(pid)).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend(%d) = %v, %v", pid, ok, err)
	}
}

// receive returns the next value of ch, failing the test if none comes
// within d or ch is closed.
func receive(t testing.TB, ch <-chan string, d time.Duration) string {
	t.Helper()
	select {
	case v, ok := <-ch:
		if !ok {
			t.Fatal("the subscription ended")
		}
		return v
	case <-time.After(d):
		t.Fatalf("nothing received within %v", d)
	}
	return ""
}

// percentile is the nearest-rank q-quantile of sorted durations.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted))-1e-9)) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func TestPercentile(t *testing.T) {
	d := make([]time.Duration, 100)
	for i := range d {
		d[i] = time.Duration(i+1) * time.Millisecond
	}
	slices.Reverse(d)
	slices.Sort(d)
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 50 * time.Millisecond}, {0.95, 95 * time.Millisecond}, {0.99, 99 * time.Millisecond}, {1, 100 * time.Millisecond}} {
		if got := percentile(d, c.q); got != c.want {
			t.Errorf("percentile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
}
