package result

// Probe is a capacity probe's steps (dbdyno probe read|write|cpu|memory; the mixed probe's figures are a
// measurement): one row per table scanned, chunk written, join size or working set, in the order they ran.
type Probe struct {
	Kind string `json:"kind"` // read, write, cpu, memory
	// Rate names the steps' rate: "MB/min" (read, write, memory) or "row pairs/s" (cpu).
	Rate     string      `json:"rate"`
	Steps    []ProbeStep `json:"steps"`
	Warnings []string    `json:"warnings,omitempty"`
	// Plan is the engine's plan of the cpu probe's join, as its EXPLAIN printed it.
	Plan string `json:"plan,omitempty"`
	// Counters says where the steps' counters come from ("engine": the engine's statistics; "process": the
	// embedded engine's process IO, /proc/self/io).
	Counters string `json:"counters,omitempty"`
}

// ProbeStep is one step of a probe.
type ProbeStep struct {
	Name    string  `json:"name"`    // the table, "chunk 3", "N 8000", "512 MB pass 2"
	X       float64 `json:"x"`       // its place on a chart: table or chunk number, join rows N, working set MB
	Seconds float64 `json:"seconds"` // wall time of the step's statement(s)
	Rows    int64   `json:"rows"`    // rows the step read or wrote (cpu: row pairs compared)
	Bytes   int64   `json:"bytes"`   // rows x the row size
	Rate    float64 `json:"rate"`    // in the probe's Rate unit
	// Counters are the engine's storage counters' change over the step (read_bytes, log_bytes, cache_hits ...).
	Counters map[string]float64 `json:"counters,omitempty"`
	// CPUSeconds is the engine's CPU time over the step where dbdyno can know it (an embedded engine's process).
	CPUSeconds float64 `json:"cpu_s,omitempty"`
	// Exceeded marks a cpu step stopped at the limit: its time is the limit, not the query's.
	Exceeded bool `json:"exceeded,omitempty"`
	Pass     int  `json:"pass,omitempty"` // memory: the first (warming) or second (measured) read of a working set
	// Cached is the share of the step's bytes the engine did not read from storage (read, memory), in %.
	Cached *float64 `json:"cached_pct,omitempty"`
}
