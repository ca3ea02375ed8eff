package notifier_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notifier"
	"washboard/internal/notify"
)

// BenchmarkBurst decides and delivers a burst of 1,000 alerts opening, one
// webhook each, and compares it with sending the same 1,000 webhooks
// straight through the channel: "overhead" is how many times longer the
// whole way takes (reading the outbox, deciding, recording each attempt)
// than the sends alone, both measured in the same run.
func BenchmarkBurst(b *testing.B) {
	const burst = 1000
	var whole, direct time.Duration
	for i := range b.N {
		f := newFixture(b, oneWebhook(`{"name": "Opened", "when": "alert.opened", "channels": ["ops"]}`), func(c *notifier.Config) { c.RatePerMinute = 1 << 30 })
		var alerts []domain.Alert
		for k := range burst {
			alerts = append(alerts, domain.Alert{ID: fmt.Sprint("burst-", i, "-", k), LocationID: "l1", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: f.clk.Now(), RefillCount: 1})
		}
		f.write(alerts...)
		began := time.Now()
		for len(f.hooks.deliveries()) < burst {
			f.pass()
		}
		whole += time.Since(began)

		ch, err := notify.NewWebhook(notify.WebhookConfig{URL: f.hooks.srv.URL, Guard: notify.Guard{AllowPrivate: true}})
		if err != nil {
			b.Fatal(err)
		}
		began = time.Now()
		for k := range burst {
			n := notify.Notification{ID: fmt.Sprint("direct-", k), At: f.clk.Now(), Item: notify.Item{Kind: notify.AlertOpened, Alert: &notify.Alert{Alert: alerts[k]}, URL: "https://washboard.example.com/locations/l1"}}
			if err := ch.Send(context.Background(), n); err != nil {
				b.Fatal(err)
			}
		}
		direct += time.Since(began)
	}
	b.ReportMetric(float64(burst*b.N)/whole.Seconds(), "notifications/s")
	b.ReportMetric(float64(whole)/float64(direct), "overhead")
}
