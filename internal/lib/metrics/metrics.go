// Package metrics serves a running command's figures in Prometheus's exposition format (--metrics-addr), as
// go-tpc's --metrics-addr and CockroachDB's workload --prometheus-port do: per unit of work its completions by
// outcome, its retries and its latency histogram, the virtual users, the open-loop schedule's lag and the
// phase, each labelled with the run's ID, workload and target (never a credential: the caller gives the URL
// without its password) and an info series with the run's labels. It knows no workload: the runner reports
// to it through workload.Live.
package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/httpauth"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Buckets are the latency histogram's upper bounds in seconds: 0.1 ms to 60 s, about three a decade.
var Buckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// Server is the /metrics endpoint of one command.
type Server struct {
	reg     *prometheus.Registry
	srv     *http.Server
	ln      net.Listener
	done    *prometheus.CounterVec
	retries *prometheus.CounterVec
	latency *prometheus.HistogramVec
	users   *prometheus.GaugeVec
	lag     *prometheus.GaugeVec
	phase   *prometheus.GaugeVec
	info    *prometheus.GaugeVec
}

var runLabels = []string{"run_id", "workload", "target"}

// Listen serves /metrics on addr (HOST:PORT). An address that is not loopback is refused without a token, which
// a scrape then gives as a bearer token (Prometheus's authorization: credentials); on loopback a token is
// taken too when given.
func Listen(addr, token string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %q is not HOST:PORT: give e.g. 127.0.0.1:9464", addr)
	}
	if !httpauth.Loopback(host) && token == "" {
		return nil, fmt.Errorf("--metrics-addr %s is not a loopback address: give a token (--metrics-token-file or %s) that every scrape must send, or serve on 127.0.0.1", addr, TokenEnv)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %s: %v", addr, err)
	}
	s := &Server{reg: prometheus.NewRegistry(), ln: ln}
	with := func(extra ...string) []string { return append(append([]string(nil), runLabels...), extra...) }
	s.done = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dbdyno_units_total",
		Help: "units of work (transactions, calls, script runs) ended, by outcome: committed, rolled_back, or the error's class"}, with("transaction", "outcome", "measured"))
	s.retries = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dbdyno_retries_total",
		Help: "serialization failures and deadlocks retried before a unit of work's outcome"}, with("transaction"))
	s.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "dbdyno_unit_latency_seconds",
		Help: "latency of the units of work that ended, from their intended start", Buckets: Buckets,
		// a native histogram beside the classic buckets (Prometheus 2.40+ with --enable-feature=native-histograms
		// takes it, in the protobuf exposition): buckets 10% wide over any range, at most 160 of them
		NativeHistogramBucketFactor: 1.1, NativeHistogramMaxBucketNumber: 160, NativeHistogramMinResetDuration: time.Hour},
		with("transaction", "measured"))
	s.users = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dbdyno_virtual_users", Help: "virtual users running"}, with())
	s.lag = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dbdyno_schedule_lag_seconds",
		Help: "how late the open-loop schedule's last unit of work started (0 for a closed loop)"}, with())
	s.phase = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dbdyno_phase",
		Help: "the run's phase: 1 for the one it is in (ramp-up, measure, ended)"}, with("phase"))
	s.info = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "dbdyno_run_info",
		Help: "1 for each run of the command, with its labels (key=value, comma-separated)"}, with("labels"))
	for _, c := range []prometheus.Collector{s.done, s.retries, s.latency, s.users, s.lag, s.phase, s.info} {
		s.reg.MustRegister(c)
	}
	h := promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{})
	mux := http.NewServeMux()
	mux.Handle("/metrics", httpauth.Bearer(token, "a bearer token is needed", h.ServeHTTP))
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// TokenEnv holds the token of a --metrics-addr that is not loopback.
const TokenEnv = "DBDYNO_METRICS_TOKEN"

// Addr is the address served (with the port the system chose for :0).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops serving, within a bound.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Run is one run's series.
type Run struct {
	s      *Server
	labels []string // run_id, workload, target
	mu     sync.Mutex
	phase  string
	series sync.Map // unitKey -> *unitSeries: a unit's counter and histogram, found without hashing its labels again
}

type unitKey struct {
	tx, outcome string
	measured    bool
}

type unitSeries struct {
	done    prometheus.Counter
	latency prometheus.Observer
}

// Run starts a run's series: its info, phase ramp-up. target is the URL without its password.
func (s *Server) Run(runID, workload, target string, labels map[string]string) *Run {
	var kv []string
	for k, v := range labels {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	r := &Run{s: s, labels: []string{runID, workload, target}}
	s.info.WithLabelValues(append(r.with(), strings.Join(kv, ","))...).Set(1)
	r.Phase("ramp-up")
	return r
}

func (r *Run) with(extra ...string) []string {
	return append(append([]string(nil), r.labels...), extra...)
}

// Done counts a unit of work that ended: its transaction, latency, outcome and retries.
func (r *Run) Done(tx string, d time.Duration, outcome string, retries int, measured bool) {
	k := unitKey{tx, outcome, measured}
	v, ok := r.series.Load(k)
	if !ok {
		m := "false"
		if measured {
			m = "true"
		}
		v, _ = r.series.LoadOrStore(k, &unitSeries{done: r.s.done.WithLabelValues(r.with(tx, outcome, m)...),
			latency: r.s.latency.WithLabelValues(r.with(tx, m)...)})
	}
	u := v.(*unitSeries)
	u.done.Inc()
	u.latency.Observe(d.Seconds())
	if retries > 0 {
		r.s.retries.WithLabelValues(r.with(tx)...).Add(float64(retries))
	}
}

// Interval: the series count each unit of work; an interval adds nothing to them.
func (r *Run) Interval(time.Duration, float64, int64, float64, bool) {}

// Users sets the virtual users running.
func (r *Run) Users(n int) { r.s.users.WithLabelValues(r.with()...).Set(float64(n)) }

// Lag sets the open-loop schedule's lag.
func (r *Run) Lag(d time.Duration) { r.s.lag.WithLabelValues(r.with()...).Set(d.Seconds()) }

// Phase sets the run's phase: 1 for it, 0 for the one before.
func (r *Run) Phase(p string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.phase != "" {
		r.s.phase.WithLabelValues(r.with(r.phase)...).Set(0)
	}
	r.phase = p
	r.s.phase.WithLabelValues(r.with(p)...).Set(1)
}
