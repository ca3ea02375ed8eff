package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

var (
	_ leaser      = (*Local)(nil)
	_ broadcaster = (*Local)(nil)
)

func TestLocalLeases(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(0)
	a, ok, err := l.Acquire(ctx, "acme")
	if err != nil || !ok {
		t.Fatalf("Acquire(acme) = %v, %v; want the lease", ok, err)
	}
	if _, ok, err := l.Acquire(ctx, "acme"); err != nil || ok {
		t.Fatalf("Acquire(acme) again = %v, %v; want false while it is held", ok, err)
	}
	other, ok, err := l.Acquire(ctx, "globex")
	if err != nil || !ok {
		t.Fatalf("Acquire(globex) = %v, %v; want the lease: keys are independent", ok, err)
	}
	if closed(a.Lost()) {
		t.Fatal("a held lease is lost")
	}
	a.Release()
	if !closed(a.Lost()) {
		t.Error("Lost is not closed after Release")
	}
	a.Release() // again: nothing happens
	b, ok, err := l.Acquire(ctx, "acme")
	if err != nil || !ok {
		t.Fatalf("Acquire(acme) after Release = %v, %v; want the lease", ok, err)
	}
	a.Release() // a's release must not end b's lease
	if closed(b.Lost()) {
		t.Error("releasing a lease again ended its key's next holder's lease")
	}

	l.Close()
	if !closed(b.Lost()) || !closed(other.Lost()) {
		t.Error("Close did not end every lease")
	}
	if _, _, err := l.Acquire(ctx, "initech"); !errors.Is(err, ErrClosed) {
		t.Errorf("Acquire after Close: %v, want ErrClosed", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := NewLocal(0).Acquire(cctx, "acme"); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire with an ended context: %v, want context.Canceled", err)
	}
}

func TestLocalNotifications(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(0)
	defer l.Close()
	a, stopA := l.Subscribe("sync")
	b, stopB := l.Subscribe("sync")
	other, stopOther := l.Subscribe("screens")
	defer stopOther()
	for _, ch := range []<-chan string{a, b, other} {
		if v := receive(t, ch, time.Second); v != Gap {
			t.Fatalf("first value %q, want Gap", v)
		}
	}
	for _, p := range []string{"acme 1", "acme 2"} {
		if err := l.Publish(ctx, "sync", p); err != nil {
			t.Fatal(err)
		}
	}
	for _, ch := range []<-chan string{a, b} {
		for _, want := range []string{"acme 1", "acme 2"} {
			if v := receive(t, ch, time.Second); v != want {
				t.Fatalf("received %q, want %q", v, want)
			}
		}
	}
	if len(other) != 0 {
		t.Errorf("a subscriber of another channel received %d values", len(other))
	}

	stopA()
	stopA() // again: nothing happens
	if _, ok := <-a; ok {
		t.Error("the channel is open after its subscription ended")
	}
	if err := l.Publish(ctx, "sync", "acme 3"); err != nil {
		t.Fatal(err)
	}
	if v := receive(t, b, time.Second); v != "acme 3" {
		t.Errorf("received %q, want acme 3", v)
	}
	stopB()

	l.Close()
	if _, ok := <-other; ok {
		t.Error("a subscriber's channel is open after Close")
	}
	late, _ := l.Subscribe("sync")
	if _, ok := <-late; ok {
		t.Error("a subscription after Close is open")
	}
}

// A subscriber that does not read misses notifications, is told so, and
// holds nobody up.
func TestLocalSlowSubscriber(t *testing.T) {
	testSlowSubscriber(t, func(buffer int) (broadcaster, *hub) {
		l := NewLocal(buffer)
		t.Cleanup(l.Close)
		return l, l.hub
	})
}

func TestNotificationLimits(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(0)
	defer l.Close()
	for _, c := range []struct {
		name, channel, payload string
		want                   error
	}{
		{"longest payload", "sync", strings.Repeat("x", MaxPayload), nil},
		{"payload of 8000 bytes", "sync", strings.Repeat("x", MaxPayload+1), ErrPayloadTooLarge},
		{"empty payload", "sync", "", ErrInvalid},
		{"payload with NUL", "sync", "a\x00b", ErrInvalid},
		{"payload not UTF-8", "sync", "\xff", ErrInvalid},
		{"longest channel", strings.Repeat("c", MaxChannel), "x", nil},
		{"channel too long", strings.Repeat("c", MaxChannel+1), "x", ErrInvalid},
		{"no channel", "", "x", ErrInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := l.Publish(ctx, c.channel, c.payload)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("Publish: %v, want %v", err, c.want)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("Subscribe to an empty channel name did not panic")
		}
	}()
	l.Subscribe("")
}
