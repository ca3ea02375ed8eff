package notifier_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notifier"
	"washboard/internal/visitors"
)

// visitorsOf is the service that takes the account's visitors' reports,
// over the fixture's store and clock.
func (f *fixture) visitorsOf() *visitors.Service { return visitors.New(f.st, f.keys, f.clk) }

// room is a room of the fixture's layout as a code opens it.
func room(id string) visitors.Place {
	return visitors.Place{Account: account, Room: domain.Room{ID: id}}
}

// A rule of visitor.report notifies of each visitor's report, in words,
// with the room and a link to its page; a rating alone notifies of
// nothing; a flood of a thousand reports on a room in a minute is one
// notification, not a thousand.
func TestVisitorsReportsNotifyAndAFloodOnce(t *testing.T) {
	f := newFixture(t, oneWebhook(`{"name": "Visitors", "when": "visitor.report", "channels": ["ops"]}`))
	v := f.visitorsOf()
	if _, err := v.Report(f.ctx, room("r1"), visitors.Report{Kind: domain.VisitorNoSoap}, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Report(f.ctx, room("r1"), visitors.Report{Rating: 5}, "192.0.2.2"); err != nil {
		t.Fatal(err)
	}
	f.pass()
	got := f.hooks.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries for a report and a rating; want 1: %s", len(got), f.hooks.events())
	}
	body := got[0].body
	said, _ := body["visitor"].(map[string]any)
	if body["event"] != "visitor.report" || body["title"] != "Out of soap, reported by a visitor: Restroom A" || said["kind"] != "soap" ||
		body["url"] != "https://washboard.example.com/rooms/r1" || !strings.HasPrefix(fmt.Sprint(said["alert_id"]), "v-") {
		t.Errorf("the notification of the report = %v", body)
	}

	// A thousand reports on r2 within the minute, each from an address of
	// its own: five taken, the rest refused, and the flood said once.
	for i := range 1000 {
		f.clk.Advance(50 * time.Millisecond)
		_, err := v.Report(f.ctx, room("r2"), visitors.Report{Kind: domain.VisitorDirty}, fmt.Sprintf("198.51.%d.%d", i/250, i%250))
		if err != nil && err != visitors.ErrTooMany {
			t.Fatal(err)
		}
	}
	f.pass()
	f.pass()
	var floods, dirty int
	for _, d := range f.hooks.deliveries() {
		said, _ := d.body["visitor"].(map[string]any)
		switch said["kind"] {
		case "flood":
			floods++
			if d.body["title"] != "Many reports from Restroom B in a minute" {
				t.Errorf("the flood's title = %q", d.body["title"])
			}
		case "dirty":
			dirty++
		}
	}
	if floods != 1 || dirty != visitors.DefaultLimits.PerRoom {
		t.Errorf("a thousand reports on a room in a minute notified %d floods and %d reports; want 1 and %d", floods, dirty, visitors.DefaultLimits.PerRoom)
	}
}

// BenchmarkVisitorReportToPush measures, report after report, the time
// from a visitor's report (what POST /r/{token} calls: checked,
// throttled, kept with its fact) to its push accepted by the push
// service for the staff of the room's building: the outbox read, the
// rule of visitor.report decided, the report and its room read, the
// push encrypted, signed and posted. It reports the 95th percentile.
func BenchmarkVisitorReportToPush(b *testing.B) {
	p := newPushFixture(b, `{"name": "Visitors", "when": "visitor.report", "channels": ["phones"]}`, func(c *notifier.Config) { c.RatePerMinute = 1 << 30 })
	if _, err := p.svc.Subscribe(p.ctx, "p-ana", "Ana's phone", p.srv.NewDevice(b, "Ana's phone").Sub); err != nil {
		b.Fatal(err)
	}
	v := p.visitorsOf()
	var took []time.Duration
	for i := range b.N {
		p.clk.Advance(time.Minute) // a new minute: the room takes reports again
		began := time.Now()
		if _, err := v.Report(p.ctx, room("r2"), visitors.Report{Kind: domain.VisitorNoPaper}, fmt.Sprint("192.0.2.", i%250)); err != nil {
			b.Fatal(err)
		}
		for len(p.srv.Pushes()) <= i {
			p.pass()
		}
		took = append(took, p.srv.Pushes()[i].At.Sub(began))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkVisitorReportToWebhook is BenchmarkVisitorReportToPush to a
// webhook (Washboard's JSON, signed): until the receiver has it.
func BenchmarkVisitorReportToWebhook(b *testing.B) {
	f := newFixture(b, oneWebhook(`{"name": "Visitors", "when": "visitor.report", "channels": ["ops"]}`), func(c *notifier.Config) { c.RatePerMinute = 1 << 30 })
	v := f.visitorsOf()
	var took []time.Duration
	for i := range b.N {
		f.clk.Advance(time.Minute)
		began := time.Now()
		if _, err := v.Report(f.ctx, room("r1"), visitors.Report{Kind: domain.VisitorNoSoap}, fmt.Sprint("192.0.2.", i%250)); err != nil {
			b.Fatal(err)
		}
		for len(f.hooks.deliveries()) <= i {
			f.pass()
		}
		took = append(took, time.Since(began))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}
