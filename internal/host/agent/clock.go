package agent

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Clock is the agent's answer to GET /v1/time: when it received the request and when it answered (its wall
// clock, RFC 3339 with nanoseconds).
type Clock struct {
	Received time.Time `json:"received"`
	Sent     time.Time `json:"sent"`
}

// handleTime answers the agent's clock. It needs no token: the time of day is no secret, and a shard that
// only reads it (--clock-ref) holds none.
func handleTime(w http.ResponseWriter, _ *http.Request) {
	c := Clock{Received: time.Now().UTC()}
	w.Header().Set("Content-Type", "application/json")
	c.Sent = time.Now().UTC()
	json.NewEncoder(w).Encode(c)
}

// Offset is this host's clock against a reference's: Offset is the reference's time less this host's (add it
// to a time read here to have the reference's), measured as NTP does from the exchange with the least round
// trip.
type Offset struct {
	Ref       string        // the reference, its address only
	Offset    time.Duration // reference − local
	RoundTrip time.Duration // of the exchange it was measured from (the offset's error is at most half of it)
}

// ClockOffset asks the agent at raw for its time samples times and returns the offset of the exchange with the
// least round trip: for each, t0 sent and t3 received here, t1 received and t2 sent there, offset
// ((t1−t0)+(t2−t3))/2 and round trip (t3−t0)−(t2−t1).
func ClockOffset(ctx context.Context, raw string, tlsConf *tls.Config, samples int) (Offset, error) {
	if isNTP(raw) {
		return ntpOffset(ctx, raw, samples)
	}
	if err := checkRef(raw); err != nil {
		return Offset{}, err
	}
	base := Where(raw)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsConf
	client := &http.Client{Timeout: 5 * time.Second, Transport: tr}
	defer tr.CloseIdleConnections()
	best := Offset{Ref: base, RoundTrip: -1}
	for range max(samples, 1) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/time", nil)
		if err != nil {
			return Offset{}, err
		}
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return Offset{}, fmt.Errorf("--clock-ref %s: unreachable (%v)", base, err)
		}
		var c Clock
		err = json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&c)
		resp.Body.Close()
		t3 := time.Now()
		if resp.StatusCode != http.StatusOK || err != nil || c.Received.IsZero() || c.Sent.IsZero() {
			return Offset{}, fmt.Errorf("--clock-ref %s answered no time (HTTP %d): give a dbdyno agent's address", base, resp.StatusCode)
		}
		// wall clocks on both sides (Round(0) drops the monotonic reading, which means nothing to the reference)
		w0, w3 := t0.Round(0), t3.Round(0)
		off := (c.Received.Sub(w0) + c.Sent.Sub(w3)) / 2
		rtt := t3.Sub(t0) - c.Sent.Sub(c.Received) // the monotonic clock here for the round trip
		if best.RoundTrip < 0 || rtt < best.RoundTrip {
			best.Offset, best.RoundTrip = off, max(rtt, 0)
		}
	}
	return best, nil
}

func checkRef(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--clock-ref %s: give a dbdyno agent's address as http://HOST:PORT (or https://), or an NTP server as ntp://HOST", Where(raw))
	}
	if u.User != nil || u.RawQuery != "" {
		return fmt.Errorf("--clock-ref %s: put no credentials in the URL (the agent's time needs none)", Where(raw))
	}
	return nil
}
