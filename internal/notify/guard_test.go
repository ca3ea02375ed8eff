package notify

import (
	"context"
	"errors"
	"net"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// internalTargets are addresses a webhook must not reach, with the words
// the refusal uses.
var internalTargets = []struct{ addr, words string }{
	{"127.0.0.1", "a loopback address"},
	{"127.8.9.10", "a loopback address"},
	{"10.1.2.3", "a private address"},
	{"172.16.0.1", "a private address"},
	{"172.31.255.254", "a private address"},
	{"192.168.1.10", "a private address"},
	{"169.254.169.254", "a link-local address"}, // cloud metadata
	{"0.0.0.0", "an unspecified address"},
	{"224.0.0.1", "a multicast address"},
	{"100.64.1.1", "a shared (carrier-grade NAT) address"},
	{"255.255.255.255", "a reserved address"},
	{"::1", "a loopback address"},
	{"::", "an unspecified address"},
	{"fc00::1", "a private address"},
	{"fd12:3456::1", "a private address"},
	{"fe80::1", "a link-local address"},
	{"ff02::1", "a multicast address"},
	{"::ffff:127.0.0.1", "a loopback address"},
	{"::ffff:10.0.0.1", "a private address"},
	{"64:ff9b::a00:1", "an IPv6 form of 10.0.0.1, a private address"},       // NAT64
	{"2002:c0a8:101::1", "an IPv6 form of 192.168.1.1, a private address"},  // 6to4
	{"2001:0:4136:e378:8000:63bf:f5ff:fffe", "an IPv6 form of 10.0.0.1"},    // Teredo
	{"::127.0.0.1", "an IPv6 form of 127.0.0.1, a loopback address"},        // IPv4-compatible
	{"::ffff:0:a9fe:a9fe", "an IPv6 form of 169.254.169.254, a link-local"}, // IPv4-translated
}

// Internal addresses are refused, IPv4 and IPv6 alike, written in the URL
// (when the webhook is set) or reached by a name (when it connects).
func TestGuardRefusesInternalAddresses(t *testing.T) {
	t.Parallel()
	var g Guard
	for _, c := range internalTargets {
		ip := netip.MustParseAddr(c.addr)
		u := "http://" + netip.AddrPortFrom(ip, 8080).String() + "/hook"
		_, err := NewWebhook(WebhookConfig{URL: u})
		if !errors.Is(err, ErrForbiddenTarget) || !IsPermanent(err) || !strings.Contains(err.Error(), c.words) ||
			!strings.Contains(err.Error(), "Washboard does not send webhooks to loopback, private, link-local, unspecified or multicast addresses") {
			t.Errorf("NewWebhook(%s): %v; want a permanent refusal saying %q", u, err, c.words)
		}
		err = g.control(context.Background(), "tcp", netip.AddrPortFrom(ip, 443).String(), nil)
		if !errors.Is(err, ErrForbiddenTarget) || !strings.Contains(err.Error(), c.words) {
			t.Errorf("connecting to %s: %v; want a refusal saying %q", c.addr, err, c.words)
		}
	}
}

// Public addresses pass, including IPv6 forms of a public IPv4 address.
func TestGuardLetsPublicAddressesThrough(t *testing.T) {
	t.Parallel()
	var g Guard
	for _, addr := range []string{"8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1", "64:ff9b::808:808"} {
		ap := netip.AddrPortFrom(netip.MustParseAddr(addr), 443)
		if err := g.control(context.Background(), "tcp", ap.String(), nil); err != nil {
			t.Errorf("connecting to %s: %v", addr, err)
		}
	}
}

// A name is checked for the address it resolves to when the request is
// made, so a name that points at loopback is refused however the URL
// looks; the receiver gets nothing.
func TestGuardRefusesANameThatResolvesToLoopback(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	port := rcv.Listener.Addr().(*net.TCPAddr).Port
	w, err := NewWebhook(WebhookConfig{URL: "http://localhost:" + strconv.Itoa(port) + "/hook"})
	if err != nil {
		t.Fatalf("a name is resolved when sending, not when set: %v", err)
	}
	e := asError(t, w.Send(context.Background(), productOut()))
	if !e.Permanent || !errors.Is(e, ErrForbiddenTarget) ||
		!strings.HasPrefix(e.Error(), "the webhook's address localhost resolves to ") || !strings.Contains(e.Error(), "a loopback address") {
		t.Errorf("error %q (permanent %v)", e, e.Permanent)
	}
	if len(rcv.requests()) != 0 {
		t.Errorf("the receiver on loopback got the request")
	}
}

// AllowPrivate lets a receiver on the same machine get webhooks.
func TestAllowPrivateReachesALoopbackReceiver(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t, nil)
	port := rcv.Listener.Addr().(*net.TCPAddr).Port
	for _, u := range []string{rcv.URL, "http://localhost:" + strconv.Itoa(port)} {
		w, err := NewWebhook(WebhookConfig{URL: u, Guard: Guard{AllowPrivate: true}})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Send(context.Background(), productOut()); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	if len(rcv.requests()) != 2 {
		t.Errorf("the receiver got %d requests, want 2", len(rcv.requests()))
	}
}

// The dashboard's own address is refused even where private addresses are
// allowed, however it is written: as set, by a name that resolves to it,
// or as one of the machine's addresses when the dashboard listens on all.
func TestGuardRefusesWashboardsOwnAddress(t *testing.T) {
	t.Parallel()
	dash := httptest.NewServer(nil) // stands for the dashboard
	defer dash.Close()
	hostPort := dash.Listener.Addr().String()
	port := strconv.Itoa(dash.Listener.Addr().(*net.TCPAddr).Port)
	for _, c := range []struct {
		own, url string
		whenSet  bool // refused by NewWebhook already, as written
	}{
		{hostPort, "http://" + hostPort + "/hook", true},
		{"washboard.example.com:443", "https://WASHBOARD.example.com/hook", true},
		{hostPort, "http://localhost:" + port + "/hook", false},
		{":" + port, "http://localhost:" + port + "/hook", false},
		{"localhost:" + port, "http://" + hostPort + "/hook", true},
	} {
		w, err := NewWebhook(WebhookConfig{URL: c.url, Guard: Guard{AllowPrivate: true, Own: []string{c.own}}})
		if err == nil {
			if c.whenSet {
				t.Errorf("own %s, URL %s: accepted when set", c.own, c.url)
			}
			err = w.Send(context.Background(), productOut())
		}
		if !errors.Is(err, ErrForbiddenTarget) || !IsPermanent(err) || !strings.Contains(err.Error(), "Washboard's own address: a webhook must not call the dashboard itself") {
			t.Errorf("own %s, URL %s: %v", c.own, c.url, err)
		}
	}
	// Another port of the same machine is not the dashboard.
	rcv := newReceiver(t, nil)
	w, err := NewWebhook(WebhookConfig{URL: rcv.URL, Guard: Guard{AllowPrivate: true, Own: []string{hostPort, ":" + port}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Send(context.Background(), productOut()); err != nil {
		t.Errorf("a receiver on another port: %v", err)
	}
}

// Check refuses a URL by what is written in it.
func TestGuardCheckReadsTheURLAsWritten(t *testing.T) {
	t.Parallel()
	g := Guard{Own: []string{"dash.example.com:8443"}}
	for raw, refused := range map[string]bool{
		"https://dash.example.com:8443/x":  true,
		"https://dash.example.com./x":      false, // port 443
		"http://[::ffff:7f00:1]:80/":       true,
		"https://hooks.slack.com/services": false,
	} {
		u, _ := url.Parse(raw)
		if err := g.Check(u); (err != nil) != refused {
			t.Errorf("Check(%s) = %v, want refused %v", raw, err, refused)
		}
	}
}

// Where private targets are allowed, the unspecified address (0.0.0.0,
// ::) on a port the dashboard listens on, its own or its metrics', is
// refused as its own: a connection to it reaches this machine. On another
// port it is a receiver on this machine, as loopback is.
func TestGuardRefusesTheUnspecifiedAddressOnOwnPorts(t *testing.T) {
	t.Parallel()
	dash, metrics := newReceiver(t, nil), newReceiver(t, nil) // stand for the dashboard's listeners
	g := Guard{AllowPrivate: true, Own: []string{dash.Listener.Addr().String(), metrics.Listener.Addr().String()}}
	for _, own := range []*receiver{dash, metrics} {
		port := strconv.Itoa(own.Listener.Addr().(*net.TCPAddr).Port)
		for _, host := range []string{"0.0.0.0", "[::]"} {
			_, err := NewWebhook(WebhookConfig{URL: "http://" + host + ":" + port + "/hook", Guard: g})
			if !errors.Is(err, ErrForbiddenTarget) || !strings.Contains(err.Error(), "is Washboard's own address: a webhook must not call the dashboard itself") {
				t.Errorf("http://%s:%s/: %v", host, port, err)
			}
			ap := netip.MustParseAddrPort(host + ":" + port)
			if err := g.control(context.Background(), "tcp", ap.String(), nil); !errors.Is(err, ErrForbiddenTarget) {
				t.Errorf("connecting to %s: %v", ap, err)
			}
		}
		set := SMTPSettings{Host: "0.0.0.0", Port: own.Listener.Addr().(*net.TCPAddr).Port, TLS: NoTLS, From: "a@example.com", To: []string{"b@example.com"}}
		if _, err := NewEmail(EmailConfig{SMTP: set, Guard: g}); !errors.Is(err, ErrForbiddenTarget) {
			t.Errorf("a mail server at 0.0.0.0:%s: %v", port, err)
		}
	}
	if n := len(dash.requests()) + len(metrics.requests()); n != 0 {
		t.Errorf("the dashboard got %d requests", n)
	}
	other := newReceiver(t, nil)
	w, err := NewWebhook(WebhookConfig{URL: "http://0.0.0.0:" + strconv.Itoa(other.Listener.Addr().(*net.TCPAddr).Port) + "/hook", Guard: g})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Send(context.Background(), productOut()); err != nil || len(other.requests()) != 1 {
		t.Errorf("a receiver on another port: %v", err)
	}
}
