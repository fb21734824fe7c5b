package agent

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/beevik/ntp"
)

// NTP as the reference clock (--clock-ref ntp://HOST[:PORT]): where the shards' hosts share an NTP server
// rather than a dbdyno agent. The query and the offset's arithmetic are github.com/beevik/ntp's (RFC 5905's
// on-wire exchange, the same four timestamps as the agent's); the answer is judged fit to set a clock by
// (Response.Validate: a stratum of 1 to 15, a synchronised leap indicator, a fresh reference time, a root
// distance under 16 s) before it is used.

// ntpTimeout bounds each exchange (UDP: an answer lost is a timeout, not an error).
const ntpTimeout = 5 * time.Second

// isNTP says whether a --clock-ref names an NTP server.
func isNTP(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "ntp"
}

// ntpOffset asks the NTP server at raw (ntp://HOST, port 123 unless given) for its time samples times and
// returns the offset of the exchange with the least round trip.
func ntpOffset(ctx context.Context, raw string, samples int) (Offset, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" || u.User != nil || u.RawQuery != "" || (u.Path != "" && u.Path != "/") {
		return Offset{}, fmt.Errorf("--clock-ref %s: give an NTP server as ntp://HOST (or ntp://HOST:PORT), nothing else in the URL", Where(raw))
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "123")
	}
	best := Offset{Ref: "ntp://" + host, RoundTrip: -1}
	for range max(samples, 1) {
		if err := ctx.Err(); err != nil {
			return Offset{}, err
		}
		timeout := ntpTimeout
		if d, ok := ctx.Deadline(); ok && time.Until(d) < timeout {
			timeout = max(time.Until(d), time.Millisecond)
		}
		r, err := ntp.QueryWithOptions(host, ntp.QueryOptions{Timeout: timeout})
		if err != nil {
			return Offset{}, fmt.Errorf("--clock-ref %s: no answer (%v)", best.Ref, err)
		}
		if err := r.Validate(); err != nil {
			return Offset{}, fmt.Errorf("--clock-ref %s answered a time not fit to set a clock by (%v): give a synchronised NTP server", best.Ref, err)
		}
		if best.RoundTrip < 0 || r.RTT < best.RoundTrip {
			best.Offset, best.RoundTrip = r.ClockOffset, max(r.RTT, 0)
		}
	}
	return best, nil
}
