package notify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Guard keeps the connections a person chooses the address of, webhooks
// and the mail servers of e-mail channels made on the page, from reaching
// what they should not: the services on Washboard's own network (a request
// forgery through an address someone typed in) and the dashboard itself.
//
// It checks the address each connection is about to be made to, after the
// name was resolved, in the dialer (net.Dialer.ControlContext): a name
// that resolved to a public address when the URL was saved and resolves to
// a private one now (DNS rebinding) is refused all the same. Requests go
// to the receiver directly, never through a proxy from the environment,
// whose own address is all the guard would see.
type Guard struct {
	// AllowPrivate lets webhooks and channels' mail servers reach loopback,
	// private, link-local and other internal addresses: for a receiver or
	// a relay on the same machine or network. Washboard's own addresses
	// stay refused.
	AllowPrivate bool
	// Own are the dashboard's own addresses, "host:port": every address it
	// listens on (the dashboard's and the metrics' listeners; ":8080" or
	// "0.0.0.0:8080" stands for every address of the machine on that port)
	// and the public address it is reached at. An unspecified address
	// (0.0.0.0, ::) on one of their ports is the machine itself, so it is
	// refused too.
	Own []string
	// Resolver resolves the host names of Own; net.DefaultResolver when nil.
	Resolver *net.Resolver
}

// targetError is a connection the guard refused.
type targetError struct {
	addr   netip.AddrPort
	reason string // "a private address", "Washboard's own address"
}

func (e *targetError) Error() string {
	return fmt.Sprintf("%s is %s", e.addr.Addr(), e.reason)
}

func (e *targetError) Is(target error) bool { return target == ErrForbiddenTarget }

// Check reports whether the guard refuses to send to u before anything is
// resolved: an address written in the URL, or one of the dashboard's own.
func (g *Guard) Check(u *url.URL) error {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return g.checkHost(u.Hostname(), port)
}

// CheckResolved reports whether the guard refuses to send to u: Check,
// then each address its host resolves to now. A name that does not
// resolve is not refused here; connecting to it fails later. The dialer
// checks again as each connection is made.
func (g *Guard) CheckResolved(ctx context.Context, u *url.URL) error {
	if err := g.Check(u); err != nil {
		return err
	}
	host := u.Hostname()
	if _, err := netip.ParseAddr(host); err == nil {
		return nil
	}
	r := g.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	ips, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	port, _ := strconv.ParseUint(cmpPort(u), 10, 16)
	for _, ip := range ips {
		if err := g.check(ctx, netip.AddrPortFrom(ip, uint16(port))); err != nil {
			return err
		}
	}
	return nil
}

// cmpPort is u's port, or its scheme's.
func cmpPort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return map[string]string{"http": "80", "https": "443"}[u.Scheme]
}

// checkHost reports whether the guard refuses host:port as written: an
// address, or one of the dashboard's own names.
func (g *Guard) checkHost(host, port string) error {
	for _, own := range g.Own {
		oh, op, err := net.SplitHostPort(own)
		if err == nil && op == port && oh != "" && strings.EqualFold(strings.TrimSuffix(oh, "."), strings.TrimSuffix(host, ".")) {
			return &targetError{addrPort(host, port), ownReason}
		}
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		p, _ := strconv.ParseUint(port, 10, 16)
		return g.check(context.Background(), netip.AddrPortFrom(ip, uint16(p)))
	}
	return nil
}

// addrPort is host:port as an AddrPort, for an error's text; the zero
// address when host is a name.
func addrPort(host, port string) netip.AddrPort {
	ip, _ := netip.ParseAddr(host)
	p, _ := strconv.ParseUint(port, 10, 16)
	return netip.AddrPortFrom(ip, uint16(p))
}

// control is the dialer's ControlContext: it refuses a connection to an
// address the guard does not allow.
func (g *Guard) control(ctx context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dialing %q, which is not an IP address and port", address)
	}
	return g.check(ctx, ap)
}

func (g *Guard) check(ctx context.Context, ap netip.AddrPort) error {
	ip := ap.Addr().Unmap()
	ap = netip.AddrPortFrom(ip, ap.Port())
	if g.isOwn(ctx, ap) {
		return &targetError{ap, ownReason}
	}
	if g.AllowPrivate {
		return nil
	}
	if reason := internalAddress(ip); reason != "" {
		return &targetError{ap, reason}
	}
	return nil
}

// isOwn reports whether ap is one of the dashboard's own addresses: one
// it listens on or is reached at, or the unspecified address (which
// reaches this machine) on one of their ports.
func (g *Guard) isOwn(ctx context.Context, ap netip.AddrPort) bool {
	for _, own := range g.Own {
		host, port, err := net.SplitHostPort(own)
		if err != nil || port != strconv.Itoa(int(ap.Port())) {
			continue
		}
		if ap.Addr().IsUnspecified() {
			return true
		}
		if ip, err := netip.ParseAddr(host); err == nil && !ip.IsUnspecified() {
			if ip.Unmap() == ap.Addr() {
				return true
			}
			continue
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			if machineAddress(ap.Addr()) {
				return true
			}
			continue
		}
		r := g.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		ips, _ := r.LookupNetIP(ctx, "ip", host) // a name that does not resolve names no address
		for _, ip := range ips {
			if ip.Unmap() == ap.Addr() {
				return true
			}
		}
	}
	return false
}

// machineAddress reports whether ip is an address of this machine: a
// loopback address or one of its interfaces'.
func machineAddress(ip netip.Addr) bool {
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, _ := net.InterfaceAddrs() // without the list, loopback is all that is known
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && p.Addr().Unmap() == ip {
			return true
		}
	}
	return false
}

// Ranges refused besides those netip names: they are not on the public
// internet, or they carry an IPv4 address inside an IPv6 one.
var (
	thisNetwork = netip.MustParsePrefix("0.0.0.0/8")       // "this network" (RFC 791)
	sharedSpace = netip.MustParsePrefix("100.64.0.0/10")   // carrier-grade NAT (RFC 6598)
	ietfV4      = netip.MustParsePrefix("192.0.0.0/24")    // IETF protocol assignments (RFC 6890)
	benchmark   = netip.MustParsePrefix("198.18.0.0/15")   // benchmarking (RFC 2544)
	reservedV4  = netip.MustParsePrefix("240.0.0.0/4")     // reserved, and the broadcast address
	v4Compat    = netip.MustParsePrefix("::/96")           // IPv4-compatible (deprecated)
	translated  = netip.MustParsePrefix("::ffff:0:0:0/96") // IPv4-translated (RFC 2765)
	nat64       = netip.MustParsePrefix("64:ff9b::/96")    // NAT64 well-known prefix (RFC 6052)
	nat64Local  = netip.MustParsePrefix("64:ff9b:1::/48")  // local-use NAT64 (RFC 8215)
	discardV6   = netip.MustParsePrefix("100::/64")        // discard-only (RFC 6666)
	teredo      = netip.MustParsePrefix("2001::/32")       // Teredo: the client's IPv4 address, inverted, ends it
	ietfV6      = netip.MustParsePrefix("2001::/23")       // IETF protocol assignments
	documentV6  = netip.MustParsePrefix("2001:db8::/32")   // documentation
	sixToFour   = netip.MustParsePrefix("2002::/16")       // 6to4: an IPv4 address follows the prefix
	siteLocal   = netip.MustParsePrefix("fec0::/10")       // site-local (deprecated)
)

// internalAddress says what kind of internal address ip is, in words
// ("a private address"); empty for a public one. An IPv4 address written
// inside an IPv6 one (IPv4-mapped, NAT64, 6to4, Teredo) is judged as the
// IPv4 address.
func internalAddress(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid():
		return "not an address"
	case ip.IsUnspecified():
		return "an unspecified address"
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsPrivate():
		return "a private address"
	case ip.IsLinkLocalUnicast():
		return "a link-local address"
	case ip.IsMulticast():
		return "a multicast address"
	case sharedSpace.Contains(ip):
		return "a shared (carrier-grade NAT) address"
	case thisNetwork.Contains(ip), ietfV4.Contains(ip), benchmark.Contains(ip), reservedV4.Contains(ip),
		discardV6.Contains(ip), documentV6.Contains(ip), siteLocal.Contains(ip), nat64Local.Contains(ip):
		return "a reserved address"
	case v4Compat.Contains(ip), translated.Contains(ip), nat64.Contains(ip):
		return embedded(ip, 12, false)
	case sixToFour.Contains(ip):
		return embedded(ip, 2, false)
	case teredo.Contains(ip):
		return embedded(ip, 12, true)
	case ietfV6.Contains(ip):
		return "a reserved address"
	}
	return ""
}

// embedded judges the IPv4 address held in ip from byte at, inverted
// when invert.
func embedded(ip netip.Addr, at int, invert bool) string {
	b := ip.As16()
	v4 := [4]byte(b[at : at+4])
	if invert {
		for i := range v4 {
			v4[i] = ^v4[i]
		}
	}
	addr := netip.AddrFrom4(v4)
	if r := internalAddress(addr); r != "" {
		return "an IPv6 form of " + addr.String() + ", " + r
	}
	return ""
}

// ownReason is the reason a refusal of one of the dashboard's own
// addresses gives.
const ownReason = "Washboard's own address"

// guarded is what the guard refuses a connection of, in the words of a
// refusal.
type guarded struct {
	what    string // "the webhook's address"
	private string // why an internal address is refused
	own     string // why the dashboard's own address is
}

var (
	webhookTarget = guarded{
		what: "the webhook's address",
		private: "Washboard does not send webhooks to loopback, private, link-local, unspecified or multicast addresses " +
			"(a guard against requests forged to reach its own network) unless private targets are allowed",
		own: "a webhook must not call the dashboard itself",
	}
	mailServerTarget = guarded{
		what: "the mail server's address",
		private: "Washboard does not connect to a channel's mail server at a loopback, private, link-local, unspecified or multicast address " +
			"(a guard against requests forged to reach its own network) unless private targets are allowed",
		own: "the dashboard is not a mail server",
	}
)

// refusal is the words for a refusal of the guard, err, of a connection
// to host.
func (t guarded) refusal(host string, err error) *Error {
	var te *targetError
	if !errors.As(err, &te) {
		return permanent(0, err, fmt.Sprintf("%s %s could not be checked: %v", t.what, host, err))
	}
	subject := host + " is"
	if ip := te.addr.Addr(); ip.IsValid() && ip.String() != host {
		subject = host + " resolves to " + ip.String() + ","
	}
	note := t.private
	if te.reason == ownReason {
		note = t.own
	}
	return permanent(0, te, fmt.Sprintf("%s %s %s: %s", t.what, subject, te.reason, note))
}

// dialer connects within timeout to the addresses the guard allows, each
// checked as the connection is made.
func (g Guard) dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{Timeout: timeout, KeepAlive: -1, Resolver: g.Resolver, ControlContext: g.control}
}

// Dialer is the guard's dialer for other outgoing connections to an
// address an operator or a person gave (an OpenID provider's): it connects
// within timeout to the addresses the guard allows, each checked as the
// connection is made, and refuses the others with an error that
// errors.Is ErrForbiddenTarget and names the address and why.
func (g Guard) Dialer(timeout time.Duration) *net.Dialer { return g.dialer(timeout) }
