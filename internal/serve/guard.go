package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
)

// ErrForbiddenAddress is the error of a refused outbound connection.
var ErrForbiddenAddress = errors.New("refusing to connect to a loopback, link-local or private address the operator did not configure")

// dialGuard refuses outbound connections to addresses that are not public
// (loopback, private, link-local, unique-local, unspecified, multicast,
// shared CGNAT space) unless the "host:port" being dialed was configured by
// the operator. Names are resolved here and the checked address is the one
// dialed, so a name cannot resolve to one address for the check and
// another for the connection.
type dialGuard struct {
	allowed  map[string]bool // "host:port", lower case
	resolver *net.Resolver
	dialer   *net.Dialer
	// refused counts refused connections (tests and metrics).
	refused atomic.Int64
	// dialed counts connections made.
	dialed atomic.Int64
}

func newDialGuard(allowed []string) *dialGuard {
	g := &dialGuard{allowed: map[string]bool{}, resolver: net.DefaultResolver, dialer: &net.Dialer{}}
	for _, a := range allowed {
		g.allowed[strings.ToLower(a)] = true
	}
	return g
}

// allowURL adds the host:port of a configured URL to the exceptions.
func (g *dialGuard) allowURL(raw string) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return
	}
	g.allowed[strings.ToLower(hostPort(u))] = true
}

// hostPort is u's host with the scheme's default port added.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "443"
	if u.Scheme == "http" {
		port = "80"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// DialContext is a net.Dialer.DialContext that applies the guard.
func (g *dialGuard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if g.allowed[strings.ToLower(addr)] {
		g.dialed.Add(1)
		return g.dialer.DialContext(ctx, network, addr)
	}
	ips, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for _, ip := range ips {
		if !publicAddress(ip) {
			g.refused.Add(1)
			return nil, fmt.Errorf("%s (%s): %w", addr, ip, ErrForbiddenAddress)
		}
	}
	for _, ip := range ips {
		g.dialed.Add(1)
		c, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

func (g *dialGuard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip.Unmap()}, nil
	}
	addrs, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		out = append(out, a.Unmap())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no addresses for %s", host)
	}
	return out, nil
}

// cgnat is the shared address space of RFC 6598.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// publicAddress reports whether ip is a global unicast address outside the
// private, loopback, link-local and shared ranges.
func publicAddress(ip netip.Addr) bool {
	switch {
	case !ip.IsValid(), ip.IsLoopback(), ip.IsPrivate(), ip.IsLinkLocalUnicast(),
		ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast(), ip.IsMulticast(),
		ip.IsUnspecified(), cgnat.Contains(ip):
		return false
	}
	return ip.IsGlobalUnicast()
}

// guardedTransport returns a clone of base (nil: tfdeps' default transport)
// whose connections go through g and which uses no proxy: a proxy would
// make the address checks meaningless.
func guardedTransport(base *http.Transport, g *dialGuard) *http.Transport {
	var t *http.Transport
	if base != nil {
		t = base.Clone()
	} else {
		t = http.DefaultTransport.(*http.Transport).Clone()
	}
	t.Proxy = nil
	t.DialContext = g.DialContext
	t.DialTLSContext = nil
	t.MaxIdleConnsPerHost = 16
	return t
}
