// Package result owns dbdyno's result format: one JSON document per run, with a versioned, documented schema
// (docs/result-schema.md, and the JSON Schema embedded here), written atomically.
package result

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/dbdyno/dbdyno/internal/lib/outfile"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaVersion is the version of the result format this build writes. Version 1 documents (written before
// results carried their metrics) are read and brought up to version 2 in memory (Upgrade).
const SchemaVersion = 2

// Status of a run.
const (
	StatusOK      = "ok"
	StatusAborted = "aborted"
	StatusFailed  = "failed"
	// StatusIncomplete is a merged result some of whose shards were missing, failed or were aborted (its
	// Error names them; its figures are those of the shards that completed).
	StatusIncomplete = "incomplete"
)

//go:embed schema/result-v1.json
var schemaV1 []byte

//go:embed schema/result-v2.json
var schemaV2 []byte

// Result is one run's document.
type Result struct {
	SchemaVersion int            `json:"schema_version"`
	Tool          Tool           `json:"tool"`
	Workload      string         `json:"workload"`
	Command       []string       `json:"command"`
	Options       map[string]any `json:"options"`
	Target        Target         `json:"target"`
	Status        string         `json:"status"`
	Error         string         `json:"error,omitempty"`
	StartedAt     time.Time      `json:"started_at"`
	EndedAt       time.Time      `json:"ended_at"`
	Measurement   *Measurement   `json:"measurement,omitempty"`
	Figures       map[string]any `json:"figures,omitempty"`
	Checks        []Check        `json:"checks,omitempty"`
	// DatabaseChanges is what the run's start check found changed in the database since its build without
	// stopping the run (an index added, a large table's estimated rows astray): such a run is compared only
	// when asked (Unchanged).
	DatabaseChanges []string       `json:"database_changes,omitempty"`
	Analytic        *Analytic      `json:"analytic,omitempty"`
	IO              *IO            `json:"io,omitempty"`
	Probe           *Probe         `json:"probe,omitempty"`
	Metrics         []Metric       `json:"metrics,omitempty"`
	Parts           []Part         `json:"parts,omitempty"`
	RunID           string         `json:"run_id,omitempty"`
	Labels          map[string]any `json:"labels,omitempty"`
	Group           *Group         `json:"group,omitempty"`
	Environment     *Environment   `json:"environment,omitempty"`
	System          *SystemMetrics `json:"system_metrics,omitempty"`
	// ServerSystem is the database host's own CPU, memory, disks and network, as its dbdyno agent sampled them.
	ServerSystem *SystemMetrics `json:"server_metrics,omitempty"`
	DBCounters   *DBCounters    `json:"db_counters,omitempty"`
	Waits        *Waits         `json:"waits,omitempty"`
	// Published marks a figure imported from elsewhere (dbdyno results import), not measured by dbdyno.
	Published *Published `json:"published,omitempty"`
	// Steps are a stepped run's loads (--steps), in order: each step ran on the same database with its own
	// ramp-up left out of its figures; the result's measurement, figures and metrics are its headline step's.
	Steps []Step `json:"steps,omitempty"`
	// Sides are the run's kinds of users (CH-benCHmark's transactions and analytic queries) each run alone on
	// the same database before they ran together: the result's measurement and figures are all of them
	// together's, and each side's figures beside its own alone say what the other sides cost it.
	Sides []Side `json:"sides,omitempty"`
	// ColdStart is what ran before the run to start it cold (--cold-cmd) and how long the target took to answer.
	ColdStart *ColdStart `json:"cold_start,omitempty"`
	// Digest is "sha256:" and the SHA-256 of the document's canonical content without this field (Canonical),
	// set by Marshal: a document whose content no longer matches it was changed after it was written, and is
	// refused when read.
	Digest string `json:"digest,omitempty"`
	// Undigested marks a result read from a document without a digest (written before results carried one):
	// its content cannot be checked for changes, and Marshal writes it without one.
	Undigested bool `json:"-"`
}

// Group ties the runs of one method together: the repeats of a configuration, the points of a sweep, the
// targets of a multi-target run.
type Group struct {
	ID      string  `json:"id"`
	Repeat  int     `json:"repeat"`            // 1-based index of this run among the repeats of its configuration
	Repeats int     `json:"repeats"`           // repeats of the configuration
	Median  bool    `json:"median"`            // this run is the median of its repeats (by the headline metric)
	Sweep   string  `json:"sweep,omitempty"`   // the swept setting (vus, streams)
	Value   float64 `json:"value,omitempty"`   // its value for this run
	Target  int     `json:"target,omitempty"`  // 1-based index among concurrent targets (0 in their aggregate)
	Targets int     `json:"targets,omitempty"` // targets run at the same time
	// Aggregate marks the result that adds up the targets run at the same time (its Parts name them).
	Aggregate bool `json:"aggregate,omitempty"`
	// Knee is the knee search (--find-peak) whose points the group's runs are, and what it found.
	Knee *Knee `json:"knee,omitempty"`
}

// Knee is what a knee search found: the load (Sweep's setting) beyond which throughput stops growing or the
// SLA breaks, its throughput (units of work per second), and the limiting factor seen there.
type Knee struct {
	By         string  `json:"by"` // the setting raised (vus, rate)
	Found      bool    `json:"found"`
	Value      float64 `json:"value,omitempty"`
	Throughput float64 `json:"throughput_per_s,omitempty"`
	SLA        string  `json:"sla,omitempty"`
	Limit      string  `json:"limit,omitempty"` // the limiting factor seen at and past the knee
	Note       string  `json:"note,omitempty"`  // why the load stopped rising
}

// Configuration names the setting a run repeats: its group, sweep point and target. The repeats of one
// configuration share it; a run without a group is a configuration of its own (its run ID).
func (r *Result) Configuration() string {
	g := r.Group
	if g == nil {
		return r.RunID
	}
	return fmt.Sprintf("%s/%s=%g/t%d", g.ID, g.Sweep, g.Value, g.Target)
}

// IsWarmup says the run is a warm-up run: recorded (label phase=warmup, a group of its own), never measured,
// never a configuration of a comparison or a summary.
func (r *Result) IsWarmup() bool {
	return r.Labels["phase"] == "warmup" || r.Group != nil && strings.HasSuffix(r.Group.ID, "-warmup")
}

// Point names a run's sweep point within its group ("vus=2"), "" when its group swept nothing.
func (g *Group) Point() string {
	if g == nil || g.Sweep == "" {
		return ""
	}
	return fmt.Sprintf("%s=%g", g.Sweep, g.Value)
}

// Metric is one comparable figure of a run, with what compare and report need to treat it: its unit, which
// way is better, whether it is the run's headline, whether it is normalised per database core and per price,
// and how the targets of a multi-target run combine it.
type Metric struct {
	Name      string  `json:"name"`
	Unit      string  `json:"unit,omitempty"`
	Better    Better  `json:"better"`
	Value     float64 `json:"value"`
	Headline  bool    `json:"headline,omitempty"`
	PerCore   bool    `json:"per_core,omitempty"`
	PerPrice  bool    `json:"per_price,omitempty"`
	Aggregate string  `json:"aggregate,omitempty"` // "sum" (rates), "max" (times to complete), "" (not combined)
	// Elapsed marks the time a fixed piece of work took (a set of streams' time to complete): its change is
	// said as the time ratio, "32.14% faster" for 74 s against 56 s (74 / 56 - 1), never as a latency is.
	Elapsed bool `json:"elapsed,omitempty"`
	// Bound says the value is a bound, not a measurement ("at least": the probe's cache held every working set
	// it tried): compare and report show it and never judge a change of it.
	Bound string `json:"bound,omitempty"`
	// Noise names where one run's own noise estimate of the value comes from (NoiseSource), "" for none: its
	// measured intervals (a bootstrap) or a latency histogram (a percentile's interval from its sample count).
	Noise string `json:"noise,omitempty"`
	// Context marks a condition the run ran under (the database host's CPU busy), shown beside its figures and
	// never judged better or worse.
	Context bool `json:"context,omitempty"`
}

// HostCPUMetric is the metric every run with the database host's CPU figures carries: the mean CPU busy % of
// the host over the run (its dbdyno agent's, or this machine's when the database runs here), as the studies
// put it beside their throughput.
const HostCPUMetric = "database host CPU busy"

// HostCPU is the run's HostCPUMetric, when it has the figures: the agent's series of the database host, else
// this machine's when the database is on it.
func HostCPU(r *Result) (Metric, bool) {
	s := r.ServerSystem
	if s == nil && r.Environment != nil && r.Environment.DatabaseLocal {
		s = r.System
	}
	if s == nil {
		return Metric{}, false
	}
	st, ok := s.Summary["cpu_busy_pct"]
	if !ok {
		return Metric{}, false
	}
	return Metric{Name: HostCPUMetric, Unit: "%", Better: Lower, Value: float64(int64(st.Mean*10+0.5)) / 10, Aggregate: "max", Context: true}, true
}

// Better says which way a metric is better.
type Better string

const (
	Higher Better = "higher" // rates
	Lower  Better = "lower"  // times and latencies
)

// Headline is the run's headline metric, if it has one.
func (r *Result) Headline() (Metric, bool) {
	for _, m := range r.Metrics {
		if m.Headline {
			return m, true
		}
	}
	return Metric{}, false
}

// Part is one target of a multi-target run, as its aggregate names it.
type Part struct {
	RunID    string  `json:"run_id"`
	Target   string  `json:"target"`
	Engine   string  `json:"engine"`
	Status   string  `json:"status"`
	Headline float64 `json:"headline,omitempty"`
}

// Step is one load of a stepped run (--steps): the load (By's setting: vus or rate), its measured window's
// throughput (units of work per second) and latency percentiles, its metrics, and whether it is the headline.
type Step struct {
	By             string            `json:"by"`
	Load           float64           `json:"load"`
	Status         string            `json:"status"`
	Error          string            `json:"error,omitempty"`
	StartedAt      time.Time         `json:"started_at"`
	EndedAt        time.Time         `json:"ended_at"`
	RampupS        float64           `json:"rampup_s"`
	MeasuredS      float64           `json:"measured_s"`
	Committed      int64             `json:"committed"`
	Errors         int64             `json:"errors"`
	ThroughputPerS float64           `json:"throughput_per_s"`
	P95Ms          float64           `json:"p95_ms,omitempty"` // the key transaction's p95, else the slowest's
	Transactions   map[string]StepTx `json:"transactions,omitempty"`
	Metrics        []Metric          `json:"metrics,omitempty"`
	Headline       bool              `json:"headline,omitempty"` // the result's figures are this step's
	// CPUBusyPct and ServerCPUBusyPct are the mean CPU busy % over the step's window of this machine (System's)
	// and of the database host (ServerSystem's, with an agent); 0 without samples.
	CPUBusyPct       float64 `json:"cpu_busy_pct,omitempty"`
	ServerCPUBusyPct float64 `json:"server_cpu_busy_pct,omitempty"`
	// The step's own system metrics (the samples within its window), the database host's (with an agent), the
	// database's counters read at its window's edges and the waits sampled between them; a stepped run by
	// rate, whose steps are runs of their own, has each run's.
	System       *SystemMetrics `json:"system_metrics,omitempty"`
	ServerSystem *SystemMetrics `json:"server_metrics,omitempty"`
	DBCounters   *DBCounters    `json:"db_counters,omitempty"`
	Waits        *Waits         `json:"waits,omitempty"`
}

// Side is one kind of a run's users run alone (Result.Sides): its users, when it ran, how it ended, its
// measured window and its figures.
type Side struct {
	Name        string         `json:"name"`
	Users       int            `json:"users"`
	Status      string         `json:"status"`
	Error       string         `json:"error,omitempty"`
	StartedAt   time.Time      `json:"started_at"`
	EndedAt     time.Time      `json:"ended_at"`
	Measurement *Measurement   `json:"measurement,omitempty"`
	Figures     map[string]any `json:"figures,omitempty"`
}

// StepTx is one transaction type over a step's measured window (latencies in microseconds).
type StepTx struct {
	Count   int64   `json:"count"`
	Errors  int64   `json:"errors"`
	Latency Latency `json:"latency_us"`
}

// ColdStart is a run's cold start (--cold-cmd): the command as given (the target's password scrubbed), its
// exit status and time, and how long after it the target answered a query (and in how many attempts).
type ColdStart struct {
	Command    string  `json:"command"`
	ExitStatus int     `json:"exit_status"`
	CommandS   float64 `json:"command_s"`
	ReadyS     float64 `json:"ready_s"`
	Attempts   int     `json:"attempts,omitempty"`
	// WarmedUp says a warm-up run came between the cold start and this measured run (the studies' restart,
	// one warm-up, measure).
	WarmedUp bool `json:"warmed_up,omitempty"`
}

// Environment is the fingerprint of the machine dbdyno ran on and of the database.
type Environment struct {
	Host           string `json:"host"`
	OS             string `json:"os"`
	Platform       string `json:"platform"`
	Kernel         string `json:"kernel"`
	Virtualization string `json:"virtualization"`
	CPUModel       string `json:"cpu_model"`
	Sockets        int    `json:"sockets"`
	Cores          int    `json:"cores"`
	Threads        int    `json:"threads"`
	NUMANodes      int    `json:"numa_nodes"`
	MemoryBytes    uint64 `json:"memory_bytes"`
	DatabaseLocal  bool   `json:"database_local"`
	// DBHostCores are the physical cores of the machine the database runs on, and DBHostCoresSource where
	// that figure came from; 0 when unknown (per-core figures are then left out).
	DBHostCores       int               `json:"db_host_cores,omitempty"`
	DBHostCoresSource string            `json:"db_host_cores_source,omitempty"`
	Storage           *Storage          `json:"storage,omitempty"`
	Engine            string            `json:"engine"`
	EngineVersion     string            `json:"engine_version"`
	Settings          map[string]string `json:"settings"`
	// CPU is this machine's processor fingerprint; DBHost the database host's (this machine's when the
	// database runs here, its agent's when one was given), nil when unknown.
	CPU    *CPU `json:"cpu,omitempty"`
	DBHost *CPU `json:"db_host,omitempty"`
}

// Storage is the filesystem and device under an embedded database's file.
type Storage struct {
	Path       string `json:"path"`
	Mount      string `json:"mount"`
	Filesystem string `json:"filesystem"`
	Device     string `json:"device"`
}

// SystemMetrics are the machine's CPU, memory and disk figures sampled during the run.
type SystemMetrics struct {
	Scope  string `json:"scope"`            // "database and client" when the database runs here, else "client"
	Source string `json:"source,omitempty"` // the agent that sampled a database host's figures
	Gaps   []Gap  `json:"gaps,omitempty"`   // stretches of the run without samples (the agent was away)
	// MeasureFromS and MeasureToS mark the measured window in a database host's series (the summary covers it
	// alone; the samples before it are the ramp-up).
	MeasureFromS float64         `json:"measure_from_s,omitempty"`
	MeasureToS   float64         `json:"measure_to_s,omitempty"`
	IntervalS    float64         `json:"interval_s"`
	Summary      map[string]Stat `json:"summary"`
	Samples      []SystemSample  `json:"samples"`
}

// Gap is a stretch of a run, in seconds from its start, without samples.
type Gap struct {
	FromS float64 `json:"from_s"`
	ToS   float64 `json:"to_s"`
}

// Stat summarises a series.
type Stat struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// SystemSample is one sampling interval.
type SystemSample struct {
	T           float64               `json:"t_s"`
	CPUBusy     float64               `json:"cpu_busy_pct"`
	CPUUser     float64               `json:"cpu_user_pct"`
	CPUSystem   float64               `json:"cpu_system_pct"`
	CPUIowait   float64               `json:"cpu_iowait_pct"`
	CPUSteal    float64               `json:"cpu_steal_pct"`
	PerCoreBusy []float64             `json:"per_core_busy_pct"`
	PerCore     []CoreSample          `json:"per_core,omitempty"` // each core's user, system, iowait and steal
	MemUsed     uint64                `json:"mem_used_bytes"`
	Disks       map[string]DiskSample `json:"disks"`
	Net         map[string]NetSample  `json:"net,omitempty"`
}

// CoreSample is one core's CPU over one interval, in per cent.
type CoreSample struct {
	User   float64 `json:"user"`
	System float64 `json:"system"`
	Iowait float64 `json:"iowait"`
	Steal  float64 `json:"steal"`
}

// NetSample is one network interface over one interval.
type NetSample struct {
	RxMBs float64 `json:"rx_mb_s"`
	TxMBs float64 `json:"tx_mb_s"`
	RxPPS float64 `json:"rx_packets_s"`
	TxPPS float64 `json:"tx_packets_s"`
}

// DiskSample is one device over one interval.
type DiskSample struct {
	IOPS       float64 `json:"iops"`
	ReadMBs    float64 `json:"read_mb_s"`
	WriteMBs   float64 `json:"write_mb_s"`
	LatencyMs  float64 `json:"avg_latency_ms"`
	QueueDepth float64 `json:"queue_depth"`
}

// DBCounters are database-side counters read at the start and end of the run, and their change.
type DBCounters struct {
	Start map[string]float64 `json:"start"`
	End   map[string]float64 `json:"end"`
	Delta map[string]float64 `json:"delta"`
	// IntervalS and Series are the counters' rates per second in each sampling interval of the run.
	IntervalS float64         `json:"interval_s,omitempty"`
	Series    []CounterSample `json:"series,omitempty"`
	Source    string          `json:"source,omitempty"` // "database" or "process" (an embedded engine's IO)
}

// CounterSample is one interval's counter rates (per second), T its end in seconds from the run's start.
type CounterSample struct {
	T     float64            `json:"t_s"`
	Rates map[string]float64 `json:"rates"`
}

// Waits is what the database's active sessions waited on, sampled during the run: each event's share of the
// observations (a session seen active at a sample), dbdyno's own sessions' part in it, and the average
// number of sessions in each of the top events per second.
type Waits struct {
	IntervalMs   float64      `json:"interval_ms"`
	Samples      int          `json:"samples"`
	Observations int64        `json:"observations"`
	Top          []WaitShare  `json:"top"`
	Series       []WaitSecond `json:"series"`
	Note         string       `json:"note,omitempty"` // why sampling stopped or never started
}

// WaitShare is one wait event's part of the observations.
type WaitShare struct {
	Class     string  `json:"class"`
	Event     string  `json:"event"` // "CPU": active, waiting on nothing
	Share     float64 `json:"share"` // of all observations, 0..1
	OwnShare  float64 `json:"own_share"`
	AvgActive float64 `json:"avg_active"` // sessions in it on average
}

// WaitSecond is one second's average active sessions per top event.
type WaitSecond struct {
	T      float64            `json:"t_s"`
	Active map[string]float64 `json:"active"`
}

// Analytic holds a TPC-H-derived run: its tests (power, throughput, plain stream sets, warm-up), each stream's
// per-query times, the refresh functions' times and the metrics computed as the specification defines them.
// The metrics are not comparable with audited TPC-H results (Comparable is always false).
type Analytic struct {
	Scale      float64        `json:"scale"`
	Seed       string         `json:"seed"`
	Refresh    bool           `json:"refresh"`
	Queries    []int          `json:"queries"`
	TimeoutS   float64        `json:"timeout_s"`
	MaxDOP     int            `json:"maxdop,omitempty"` // --maxdop: each query held to this many parallel workers
	Layout     string         `json:"layout,omitempty"` // how the build stored the tables when not as row tables: "columnstore"
	Tests      []AnalyticTest `json:"tests"`
	QphH       *float64       `json:"qphh_at_size"`
	Comparable bool           `json:"comparable"`
	Note       string         `json:"note"`
}

// AnalyticTest is one power test, throughput test, set of concurrent streams, or warm-up stream.
type AnalyticTest struct {
	Kind             string        `json:"kind"` // power, throughput, streams, warmup
	Streams          int           `json:"streams"`
	Seconds          float64       `json:"seconds"` // time to complete the whole test (Ts for throughput)
	Status           string        `json:"status"`  // ok, failed, aborted
	QueryStreams     []QueryStream `json:"query_streams"`
	Refresh          []RefreshPair `json:"refresh"`
	GeomeanSeconds   *float64      `json:"geomean_s"`
	PowerAtSize      *float64      `json:"power_at_size,omitempty"`
	ThroughputAtSize *float64      `json:"throughput_at_size,omitempty"`
	Note             string        `json:"note,omitempty"`
	// StartUnixS is when the test started (Unix seconds, this host's clock): the merge of a throughput test's
	// shards takes Ts from the first start to the last end.
	StartUnixS float64 `json:"start_unix_s,omitempty"`
}

// QueryStream is one stream's run of the queries in its permutation.
type QueryStream struct {
	Stream  int         `json:"stream"`
	Seconds float64     `json:"seconds"`
	Status  string      `json:"status"`
	Queries []QueryTime `json:"queries"`
}

// QueryTime is one query's execution, fetching every row included.
type QueryTime struct {
	Query   int     `json:"query"`
	Seconds float64 `json:"seconds"`
	Rows    int     `json:"rows"`
	Status  string  `json:"status"` // ok, failed, timeout, aborted
	Error   string  `json:"error,omitempty"`
	Params  string  `json:"params"`
}

// RefreshPair is one RF1/RF2 pair.
type RefreshPair struct {
	Pair      int     `json:"pair"`
	UpdateSet int     `json:"update_set,omitempty"` // dbgen's update set: RF1 inserts orders.tbl.uN, RF2 deletes delete.N
	RF1       float64 `json:"rf1_s"`
	RF2       float64 `json:"rf2_s"`
	Orders    int64   `json:"orders"`
	Status    string  `json:"status"`
	Error     string  `json:"error,omitempty"`
}

// Tool names the program that wrote the result.
type Tool struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
}

// Target is the database under test; the URL has its password redacted.
type Target struct {
	URL           string `json:"url"`
	Engine        string `json:"engine"`
	ServerVersion string `json:"server_version"`
}

// Measurement holds the client-counted figures of a timed run.
type Measurement struct {
	VUs            int       `json:"vus"`
	RampupSeconds  float64   `json:"rampup_s"`
	PlannedSeconds float64   `json:"planned_duration_s"`
	MeasuredSecs   float64   `json:"measured_s"`
	MeasureStart   time.Time `json:"measure_start"`
	MeasureEnd     time.Time `json:"measure_end"`
	Committed      int64     `json:"committed"`
	Rollbacks      int64     `json:"rollbacks"`
	Errors         int64     `json:"errors"`
	Retries        int64     `json:"retries"`
	Reconnects     int64     `json:"reconnects"`
	// DisconnectedSecs is the time virtual users spent without a connection during the measured window, summed
	// over them: a gap in the load the figures include.
	DisconnectedSecs float64            `json:"disconnected_s,omitempty"`
	PerMinute        float64            `json:"per_minute"` // all committed transactions per minute (TPM)
	ClientCPU        ClientCPU          `json:"client_cpu"`
	Transactions     map[string]TxStats `json:"transactions"`
	Intervals        []Interval         `json:"intervals"`
	ErrorSamples     []string           `json:"error_samples,omitempty"`
	// KeyTx is the transaction whose rate is the workload's key figure, shown as KeyLabel (new_order, NOPM).
	KeyTx    string `json:"key_transaction,omitempty"`
	KeyLabel string `json:"key_label,omitempty"`
	// PerSecond says the workload's rates are read per second (tpsE, pgbench's tps), not per minute: the
	// report's throughput charts are drawn in that unit.
	PerSecond bool `json:"per_second,omitempty"`
	// KeyAtEdges are the key transactions in flight at the window's edges, which a database's own count read
	// at the edges may hold on the other side from the client's (the cross-checks' margin, taken in the run:
	// not stored).
	KeyAtEdges int64 `json:"-"`
	// ErrorClasses are the measured window's errors by what they mean (schema, read_only, corruption,
	// permission, connection_lost, serialization, constraint, other ...), absent when there were none.
	ErrorClasses map[string]int64 `json:"error_classes,omitempty"`
	// Stall is how the run stalled, absent when it did not.
	Stall *Stall `json:"stall,omitempty"`
	// OpenLoop is the measured window's open-loop figures (an arrival rate, a latency limit), absent for a
	// closed loop without a latency limit.
	OpenLoop *OpenLoop `json:"open_loop,omitempty"`
	// Users are each virtual user's figures of the measured window (who was starved). In a run of terminals
	// (Terminals), a virtual user is a connection of the pool.
	Users *PerUser `json:"users,omitempty"`
	// Terminals is a run of emulated terminals sharing a pool of connections (--terminals, --connections),
	// absent for one of virtual users (each its own connection). VUs then counts the connections.
	Terminals *Terminals `json:"terminals,omitempty"`
}

// Terminals are the figures of a run of emulated terminals over a pool of connections: how long submitted
// transactions waited for a connection, and the keying and think times the terminals took, over the
// transactions counted in the measured window. The transactions' latencies count from the terminal's submit,
// so they hold the wait.
type Terminals struct {
	Terminals   int `json:"terminals"`
	Connections int `json:"connections"`
	// ConnectionWait is pick-up minus submit, in µs: the wait for a free connection.
	ConnectionWait Latency `json:"connection_wait"`
	// Pacing is by transaction: the keying time before it and the think time after it, as the terminals took them.
	Pacing map[string]Pacing `json:"pacing"`
}

// Pacing is a transaction type's measured keying and think times: their count and means in seconds.
type Pacing struct {
	Count       int64   `json:"count"`
	KeyingMeanS float64 `json:"keying_mean_s"`
	ThinkMeanS  float64 `json:"think_mean_s"`
}

// OpenLoop is an open-loop run's schedule and latency limit (pgbench -R and --latency-limit): units of work
// arrive at RatePerS on average over all virtual users, each latency counts from the intended start (queueing
// included), and the lag is how late the work started against its intended start.
type OpenLoop struct {
	RatePerS       float64 `json:"rate_per_s,omitempty"`       // 0: a closed loop (only the latency limit applies)
	WholeRatePerS  float64 `json:"whole_rate_per_s,omitempty"` // a shard's (--shard I/N): the whole run's rate, RatePerS its share
	Started        int64   `json:"started"`                    // units of work started on the schedule (with a rate)
	LagMeanUS      float64 `json:"lag_mean_us"`                // mean start minus intended start
	LagMaxUS       int64   `json:"lag_max_us"`                 // the largest of them
	LatencyLimitUS int64   `json:"latency_limit_us,omitempty"` // 0: none
	Completed      int64   `json:"completed"`                  // units of work that completed (committed or rolled back)
	Skipped        int64   `json:"skipped"`                    // intended starts more than the limit behind when a user was free: never run
	Late           int64   `json:"late"`                       // completed ones that took longer than the limit
}

// PerUser holds each virtual user's measured window, one entry per user in user order (columns, to stay small
// with many users): completed units of work, their rate per minute, errors, and latency p50/p95 in µs.
type PerUser struct {
	Transactions []int64   `json:"transactions"`
	PerMinute    []float64 `json:"per_minute"`
	Errors       []int64   `json:"errors"`
	P50          []int64   `json:"p50_us"`
	P95          []int64   `json:"p95_us"`
}

// P95Millis is the measured window's p95 latency in milliseconds: its key transaction's, else the slowest
// transaction's; ok is false when no transaction completed.
func (m *Measurement) P95Millis() (float64, bool) {
	if st, ok := m.Transactions[m.KeyTx]; ok && st.Count > 0 {
		return float64(st.Latency.P95) / 1000, true
	}
	worst, ok := 0.0, false
	for _, st := range m.Transactions {
		if st.Count > 0 && (!ok || float64(st.Latency.P95)/1000 > worst) {
			worst, ok = float64(st.Latency.P95)/1000, true
		}
	}
	return worst, ok
}

// Stall is a run's work that stopped completing: measured progress intervals in which work was in flight for
// all of the interval and none completed, and work in flight for longer than the limit when the measured window
// ended (it never completed in it).
type Stall struct {
	LimitS        float64 `json:"limit_s"`
	IdleIntervals int     `json:"idle_intervals"`
	InFlight      int     `json:"in_flight"`
	// Disconnected is how many virtual users were without a connection (reconnecting) for more than LimitS
	// when the measured window ended.
	Disconnected int     `json:"disconnected,omitempty"`
	LongestS     float64 `json:"longest_s"`
}

// Describe words a stall in one line.
func (s *Stall) Describe() string {
	var parts []string
	if s.IdleIntervals > 0 {
		parts = append(parts, fmt.Sprintf("%d progress interval(s) with work in flight or users without a connection and none completed", s.IdleIntervals))
	}
	if s.InFlight > 0 {
		parts = append(parts, fmt.Sprintf("%d unit(s) of work in flight for more than %gs when the measured window ended", s.InFlight, s.LimitS))
	}
	if s.Disconnected > 0 {
		parts = append(parts, fmt.Sprintf("%d virtual user(s) without a connection for more than %gs when the measured window ended", s.Disconnected, s.LimitS))
	}
	return fmt.Sprintf("the run stalled: %s (the longest %.1fs without completing)", strings.Join(parts, ", "), s.LongestS)
}

// ClientCPU is the driver process's own CPU time over the measured window (getrusage).
type ClientCPU struct {
	UserSeconds   float64 `json:"user_s"`
	SystemSeconds float64 `json:"system_s"`
	MicrosPerTx   float64 `json:"us_per_tx"`
}

// TxStats summarises one transaction type over the measured window. Latencies in microseconds.
type TxStats struct {
	Count     int64   `json:"count"`
	Rollbacks int64   `json:"rollbacks"`
	Errors    int64   `json:"errors"`
	Retries   int64   `json:"retries"`
	PerMinute float64 `json:"per_minute"`
	Latency   Latency `json:"latency_us"`
	// Histogram is the measured window's latencies in microseconds, lossless: base64 of HdrHistogram's
	// compressed encoding (V2 compressed cookie, hdrhistogram-go Encode). Merging shards decodes and adds them,
	// so the merged percentiles are those of the union of the samples. Absent in results written before it.
	Histogram string `json:"histogram,omitempty"`
}

// Latency percentiles in microseconds.
type Latency struct {
	Min  int64   `json:"min"`
	Mean float64 `json:"mean"`
	P50  int64   `json:"p50"`
	P90  int64   `json:"p90"`
	P95  int64   `json:"p95"`
	P99  int64   `json:"p99"`
	Max  int64   `json:"max"`
}

// Interval is one progress period. Measured is false during ramp-up.
type Interval struct {
	ElapsedSeconds float64                   `json:"elapsed_s"`
	Measured       bool                      `json:"measured"`
	PerMinute      float64                   `json:"per_minute"`
	Errors         int64                     `json:"errors"`
	Transactions   map[string]IntervalTxStat `json:"transactions"`
	// ConnectionWait, in a run of terminals over a pool of connections, is the interval's waits for a connection
	// (count, p50, p95, p99 in µs): part of its transactions' response times, told apart.
	ConnectionWait *IntervalTxStat `json:"connection_wait,omitempty"`
}

// SlowestP95 is the highest p95 (µs) of the interval's transaction types that completed any: what a live view
// shows for the interval.
func (iv Interval) SlowestP95() int64 {
	var p95 int64
	for _, t := range iv.Transactions {
		if t.Count > 0 && t.P95 > p95 {
			p95 = t.P95
		}
	}
	return p95
}

// IntervalTxStat is one transaction type over one interval.
type IntervalTxStat struct {
	Count int64 `json:"count"`
	P50   int64 `json:"p50_us"`
	P95   int64 `json:"p95_us"`
	P99   int64 `json:"p99_us"`
}

// Check is one consistency condition's outcome.
type Check struct {
	Name   string `json:"name"`
	Passed bool   `json:"passed"`
	Detail string `json:"detail,omitempty"`
}

// Marshal encodes the result as indented JSON with its digest (Digest): the SHA-256 of its canonical content.
// A result read from a document without a digest (Undigested) is written without one: what dbdyno did not
// check it does not vouch for (and a version-1 document has none: that version had no digest).
func (r *Result) Marshal() ([]byte, error) {
	c := *r
	c.Digest = ""
	if !r.Undigested && r.SchemaVersion >= 2 {
		b, err := json.Marshal(&c)
		if err != nil {
			return nil, err
		}
		if c.Digest, err = digestOf(b); err != nil {
			return nil, err
		}
	}
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// WriteFile writes the result atomically: a temporary file in the same directory, synced, then renamed.
func (r *Result) WriteFile(path string) error {
	b, err := r.Marshal()
	if err != nil {
		return err
	}
	if err := Validate(b); err != nil {
		return fmt.Errorf("internal error: result does not match its schema: %w", err)
	}
	return outfile.WriteAtomic(path, b)
}

var schemaURL = regexp.MustCompile(`file://\S*?(result-v\d+\.json)`)

var (
	compileOnce sync.Once
	compiled    map[int]*jsonschema.Schema
	compileErr  error
)

func compile() {
	compiled = map[int]*jsonschema.Schema{}
	for v, text := range map[int][]byte{1: schemaV1, 2: schemaV2} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
		if err != nil {
			compileErr = err
			return
		}
		c := jsonschema.NewCompiler()
		name := fmt.Sprintf("result-v%d.json", v)
		if compileErr = c.AddResource(name, doc); compileErr != nil {
			return
		}
		if compiled[v], compileErr = c.Compile(name); compileErr != nil {
			return
		}
	}
}

// Validate checks a result document against the schema of its version (1 or 2), and that its engine is one
// dbdyno knows.
func Validate(doc []byte) error {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("a result is a JSON object")
	}
	ver, _ := m["schema_version"].(float64)
	compileOnce.Do(compile)
	if compileErr != nil {
		return compileErr
	}
	schema, ok := compiled[int(ver)]
	if !ok || ver != float64(int(ver)) {
		return fmt.Errorf("result schema version %v is not supported by this dbdyno (it reads versions 1 and %d)", m["schema_version"], SchemaVersion)
	}
	if err := schema.Validate(v); err != nil {
		// the validator names the schema by a file URL under the working directory that does not exist
		msg := schemaURL.ReplaceAllString(err.Error(), "$1")
		return fmt.Errorf("%s", strings.ReplaceAll(msg, "\n", "; "))
	}
	if t, ok := m["target"].(map[string]any); ok {
		if e, _ := t["engine"].(string); !knownEngine(e) {
			return fmt.Errorf("result target engine %q is not one dbdyno knows", e)
		}
	}
	return nil
}

// knownEngine accepts the engines dbdyno drives, "" (a workload without a database) and "several" (an
// aggregate of targets on different engines).
func knownEngine(name string) bool {
	if name == "" || name == Several {
		return true
	}
	return KnownEngine(name)
}

// Several stands for the engine or version of an aggregate whose targets differ.
const Several = "several"

// upgrade brings a version-1 document's result up to version 2 (the database host's cores come from where the
// database ran, its metrics are derived), and any result up to what its workload records and names now, by its
// Kind (a Kind's Upgrade does nothing to a result that is up to date).
func upgrade(r *Result) {
	if r.SchemaVersion >= SchemaVersion {
		if k, ok := KindOf(r.Workload); ok && k.Upgrade != nil {
			k.Upgrade(r) // its metrics as written: a failed run's none are not derived again
		}
		return
	}
	r.SchemaVersion = SchemaVersion
	if e := r.Environment; e != nil && e.DBHostCores == 0 && e.DatabaseLocal && e.Cores > 0 {
		e.DBHostCores, e.DBHostCoresSource = e.Cores, LocalCores
	}
	upgradeKind(r)
}

// LocalCores is DBHostCoresSource when the database runs on the machine dbdyno ran on.
const LocalCores = "this machine (the database runs here)"

// Read loads and validates a result file; a file whose digest does not match its content is refused
// (ErrChanged), naming the file.
func Read(path string) (*Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, err := Parse(b)
	if errors.Is(err, ErrChanged) {
		return nil, changedFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// Parse validates and decodes a result document, upgrading a version-1 document to version 2. A document
// whose digest does not match its content is refused (ErrChanged); one without a digest (written before
// results carried one) is read and marked Undigested.
func Parse(b []byte) (*Result, error) {
	has, err := Verify(b)
	if err != nil {
		return nil, err
	}
	if err := Validate(b); err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	r.Undigested = !has
	upgrade(&r)
	if err := check(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

// MetricText is the test's headline metric and geometric mean as text ("Power@Size 5293.1", "0.0055"), for
// tables in the terminal and in reports.
func (t *AnalyticTest) MetricText() (metric, geomean string) {
	if t.PowerAtSize != nil {
		metric = fmt.Sprintf("Power@Size %.1f", *t.PowerAtSize)
	}
	if t.ThroughputAtSize != nil {
		metric = fmt.Sprintf("Throughput@Size %.1f", *t.ThroughputAtSize)
	}
	geomean = "-"
	if t.GeomeanSeconds != nil {
		geomean = fmt.Sprintf("%.4f", *t.GeomeanSeconds)
	}
	return metric, geomean
}

// Ended words how a run that did not end ok ended: "run aborted after 5.9s", "run failed: connection lost ...".
func Ended(r *Result) string {
	if strings.HasPrefix(r.Error, "run "+r.Status) {
		return r.Error
	}
	return "run " + r.Status + ": " + r.Error
}
