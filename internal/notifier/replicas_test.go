package notifier_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"washboard/internal/cluster"
	"washboard/internal/domain"
	"washboard/internal/notifier"
	"washboard/internal/store/postgres"
	"washboard/internal/store/postgres/pgtest"
)

// Two replicas on one PostgreSQL database, each with its own leases:
// every notification is delivered, by one of them, once; when the one
// delivering stops, the other goes on.
func TestReplicasOnPostgreSQLDeliverEachNotificationOnce(t *testing.T) {
	t.Parallel()
	schema, url, _ := pgtest.NewSchema(t)
	ctx := context.Background()
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := newFixtureOn(t, st, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`), func(c *notifier.Config) {
		c.RatePerMinute = 1 << 20
		c.Poll = 50 * time.Millisecond
		// Other tests' replicas may run on the same database meanwhile.
		c.LeaseKey = "notifications " + schema
	})
	type replica struct {
		stop func()
		done chan struct{}
	}
	start := func() replica {
		reps, err := cluster.OpenReplicas(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := notifier.New(f.cfg, notifier.Deps{Store: st, Leases: reps, Keys: f.keys, Clock: f.clk})
		if err != nil {
			t.Fatal(err)
		}
		runCtx, cancel := context.WithCancel(ctx)
		r := replica{done: make(chan struct{})}
		go func() { n.Run(runCtx); close(r.done) }()
		r.stop = func() { cancel(); <-r.done; reps.Close() }
		return r
	}
	one, two := start(), start()
	defer two.stop()
	burst := func(from, n int) {
		for i := range n {
			f.open(fmt.Sprint("a", from+i), "l1", domain.AlertJam)
		}
	}
	wait := func(n int) {
		for deadline := time.Now().Add(20 * time.Second); len(f.hooks.deliveries()) < n && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // time for a second delivery, if there were one
	}
	burst(0, 40)
	wait(40)
	one.stop()
	burst(40, 40)
	wait(80)
	keys := map[string]int{}
	for _, d := range f.hooks.deliveries() {
		keys[d.header.Get("webhook-id")]++
	}
	if len(keys) != 80 || len(f.hooks.deliveries()) != 80 {
		t.Errorf("%d deliveries of %d notifications, want 80 of 80", len(f.hooks.deliveries()), len(keys))
	}
}
