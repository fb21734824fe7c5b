// Package netproxy puts a TCP proxy between a test's commands and a database server, for network faults: Shopify's
// toxiproxy, run in-process (no toxiproxy server, no API port), on loopback. A test points its command at URL
// instead of the server's own address and then freezes the traffic, thaws it, or stops the proxy for good.
package netproxy

import (
	"context"
	"fmt"
	"net"
	neturl "net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// Proxy forwards connections from a loopback port to a server.
type Proxy struct {
	URL string // the server's URL with the proxy's address in place of the server's

	p      *toxiproxy.Proxy
	mu     sync.Mutex
	frozen bool
}

// Start proxies the server of url (a server engine's target URL) until the test ends.
func Start(t testing.TB, url string) *Proxy {
	t.Helper()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Engine.Embedded {
		t.Fatalf("netproxy: %s is an embedded engine: no server to proxy", tg.Engine.Name)
	}
	upstream := net.JoinHostPort(tg.Host, strconv.Itoa(tg.Port))
	srv := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), zerolog.Nop())
	p := toxiproxy.NewProxy(srv, "dbdyno-test", "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatalf("netproxy: %v", err)
	}
	t.Cleanup(p.Stop)
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.Listen
	return &Proxy{URL: u.String(), p: p}
}

// Freeze stops all traffic both ways on every connection, open and new, without closing any (toxiproxy's timeout
// toxic with timeout 0: what is sent is held back, never delivered): to the client the server stopped answering.
func (x *Proxy) Freeze() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.frozen {
		return nil
	}
	for _, dir := range []string{"upstream", "downstream"} {
		body := fmt.Sprintf(`{"name": "freeze_%s", "type": "timeout", "stream": %q, "toxicity": 1, "attributes": {"timeout": 0}}`, dir, dir)
		if _, err := x.p.Toxics.AddToxicJson(strings.NewReader(body)); err != nil {
			return fmt.Errorf("netproxy: freezing %s: %w", dir, err)
		}
	}
	x.frozen = true
	return nil
}

// Thaw lets traffic pass again. What was sent while frozen was dropped: the connections open then are out of
// step with their server and fail; new ones work.
func (x *Proxy) Thaw() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.frozen {
		return
	}
	x.p.Toxics.ResetToxics(context.Background())
	x.frozen = false
}

// Stop closes the listener and every connection: to the client the server is gone and does not come back.
func (x *Proxy) Stop() { x.p.Stop() }
