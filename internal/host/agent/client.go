package agent

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/host/sysmetrics"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// TokenEnv holds the agent's token when no --agent-token-file is given.
const TokenEnv = "DBDYNO_AGENT_TOKEN"

// Recorder follows an agent during one run. An agent that cannot be reached, or refuses the token, costs the
// run its server metrics (said in one line), never the run; one that goes away mid-run leaves a gap.
type Recorder struct {
	base    string // scheme://host:port, no credentials
	token   string
	client  *http.Client
	out     io.Writer
	Host    Host
	mu      sync.Mutex
	samples []Sample
	last    time.Time
	away    bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// Where is an agent URL without anything but its scheme, host, port and path, for output and results.
func Where(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(an agent URL that does not parse)"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

// CheckURL refuses an agent URL that is not http(s)://host:port.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--agent %s: give the agent's address as http://HOST:PORT (or https://)", Where(raw))
	}
	if u.User != nil || u.RawQuery != "" {
		return fmt.Errorf("--agent %s: put no credentials in the URL; the token goes in --agent-token-file or %s", Where(raw), TokenEnv)
	}
	return nil
}

// ClientTLS is the TLS configuration for an https agent: the system's roots, or the CA certificates in a
// PEM file.
func ClientTLS(caFile string) (*tls.Config, error) {
	if caFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("--agent-ca: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--agent-ca %s holds no PEM certificate", caFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// Record starts following the agent at raw; nil when it cannot be reached at the start (said on out).
func Record(ctx context.Context, raw, token string, tlsConf *tls.Config, out io.Writer) *Recorder {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsConf
	r := &Recorder{base: Where(raw), token: token, out: out, client: &http.Client{Timeout: 5 * time.Second, Transport: tr}, done: make(chan struct{})}
	if err := r.get(ctx, "/v1/host", &r.Host); err != nil {
		fmt.Fprintf(out, "WARNING: agent %s: %v; the run goes on without the database host's metrics\n", r.base, err)
		return nil
	}
	iv := time.Duration(r.Host.IntervalS * float64(time.Second))
	if iv < 100*time.Millisecond {
		iv = time.Second
	}
	ctx, r.cancel = context.WithCancel(ctx)
	go r.follow(ctx, iv)
	return r
}

func (r *Recorder) get(ctx context.Context, path string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base+path, nil)
	if err != nil {
		return err
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return fmt.Errorf("unreachable (%v)", scrubErr(err, r.token))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return fmt.Errorf("refused the token (HTTP 401): check --agent-token-file or %s", TokenEnv)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("answered HTTP %d", resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(into)
}

// scrubErr keeps the token out of an error's text (a transport error can quote the request).
func scrubErr(err error, token string) string {
	s := err.Error()
	if token != "" {
		s = strings.ReplaceAll(s, token, "xxxxx")
	}
	return s
}

// follow asks for new samples every other interval (the agent keeps an hour of them).
func (r *Recorder) follow(ctx context.Context, iv time.Duration) {
	defer close(r.done)
	t := time.NewTicker(max(2*iv, time.Second))
	defer t.Stop()
	for {
		r.fetch(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (r *Recorder) fetch(ctx context.Context) {
	r.mu.Lock()
	since := r.last
	r.mu.Unlock()
	var got []Sample
	err := r.get(ctx, "/v1/samples?since="+url.QueryEscape(since.Format(time.RFC3339Nano)), &got)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if !r.away && ctx.Err() == nil {
			fmt.Fprintf(r.out, "WARNING: agent %s %v: the database host's metrics will have a gap\n", r.base, err)
			r.away = true
		}
		return
	}
	if r.away {
		fmt.Fprintf(r.out, "agent %s is back\n", r.base)
		r.away = false
	}
	for _, x := range got {
		if x.At.After(r.last) {
			r.samples = append(r.samples, x)
			r.last = x.At
		}
	}
}

// Stop ends following and returns the samples from start to end (T in seconds from start; the measured
// window marked), with the stretches the agent was away as gaps.
func (r *Recorder) Stop(ctx context.Context, start, end, measureFrom, measureTo time.Time) *result.SystemMetrics {
	r.cancel()
	<-r.done
	r.fetch(context.WithoutCancel(ctx)) // what the agent sampled since the last call
	iv := time.Duration(r.Host.IntervalS * float64(time.Second))
	r.mu.Lock()
	defer r.mu.Unlock()
	var window, measured []result.SystemSample
	prev := start
	var gaps []result.Gap
	secs := func(t time.Time) float64 { return float64(t.Sub(start).Round(time.Millisecond)) / 1e9 }
	for _, x := range r.samples {
		if !x.At.After(start) || x.At.After(end.Add(iv/2)) {
			continue
		}
		if x.At.Sub(prev) > iv*3/2+iv/4 {
			gaps = append(gaps, result.Gap{FromS: secs(prev), ToS: secs(x.At)})
		}
		prev = x.At
		s := x.SystemSample
		s.T = secs(x.At)
		window = append(window, s)
		if !x.At.Before(measureFrom) && !x.At.After(measureTo.Add(iv/2)) {
			measured = append(measured, s)
		}
	}
	if end.Sub(prev) > iv*3/2+iv/4 {
		gaps = append(gaps, result.Gap{FromS: secs(prev), ToS: secs(end)})
	}
	m := sysmetrics.Metrics("database host (dbdyno agent)", iv, measured)
	m.Samples = window
	if m.Samples == nil {
		m.Samples = []result.SystemSample{}
	}
	m.Source, m.Gaps = r.base, gaps
	m.MeasureFromS, m.MeasureToS = secs(measureFrom), secs(measureTo)
	return m
}

// Window is the samples (after Stop) whose time falls in [from, to], a measured window inside the run that
// began at start (a stepped run's step), and whose interval lies at least half in it, with their summary: T and the window's edges in seconds
// from start. nil when the agent gave no host (it was never reached).
func (r *Recorder) Window(start, from, to time.Time) *result.SystemMetrics {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Host.IntervalS <= 0 {
		return nil
	}
	iv := time.Duration(r.Host.IntervalS * float64(time.Second))
	secs := func(t time.Time) float64 { return float64(t.Sub(start).Round(time.Millisecond)) / 1e9 }
	var in []result.SystemSample
	for _, x := range r.samples {
		if !x.At.Add(-iv/2).Before(from) && !x.At.After(to) {
			s := x.SystemSample
			s.T = secs(x.At)
			in = append(in, s)
		}
	}
	m := sysmetrics.Metrics("database host (dbdyno agent)", iv, in)
	m.Source = r.base
	m.MeasureFromS, m.MeasureToS = secs(from), secs(to)
	return m
}
