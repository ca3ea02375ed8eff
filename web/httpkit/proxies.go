package httpkit

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/labstack/echo/v4"
)

// Proxies are the addresses of the reverse proxies in front of the
// server. X-Forwarded-For (the client's address) and X-Forwarded-Proto
// (https) are believed only from them.
type Proxies []netip.Prefix

// ClientAddress finds the client's address: the peer's, or, when the peer
// is one of the proxies, the last address in X-Forwarded-For that is not
// one of them. Only the proxies configured are trusted: a client cannot
// name its own address by sending the header.
func (proxies Proxies) ClientAddress() echo.IPExtractor {
	if len(proxies) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range proxies {
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// Secure reports whether the request came over TLS, directly or through
// one of the proxies that says so.
func (proxies Proxies) Secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return proxies.from(r) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// from reports whether the request's peer is one of the proxies.
func (proxies Proxies) from(r *http.Request) bool {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap()
	for _, p := range proxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}
