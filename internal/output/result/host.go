package result

// CPU is the processor fingerprint of a machine: what a figure "per physical core" divides by and what a
// leaderboard lists beside it.
type CPU struct {
	Model          string `json:"model"`
	Sockets        int    `json:"sockets"`
	PhysicalCores  int    `json:"physical_cores"`
	ThreadsPerCore int    `json:"threads_per_core"`
	// BaseMHz and MaxMHz are the nominal and the highest clock, 0 when the host does not tell; MHzSource says
	// where they were read (cpufreq, the model name, the kernel's cpu MHz on a host without frequency scaling).
	BaseMHz   float64 `json:"base_mhz,omitempty"`
	MaxMHz    float64 `json:"max_mhz,omitempty"`
	MHzSource string  `json:"mhz_source,omitempty"`
	Host      string  `json:"host,omitempty"`   // the machine's name
	Source    string  `json:"source,omitempty"` // where this fingerprint came from (this machine, a dbdyno agent)
}

// Published marks a result that dbdyno did not measure: a figure published elsewhere (a TPC disclosure, a
// vendor's study), imported so that measured runs rank beside it. Host is the published system's processor.
type Published struct {
	System string `json:"system"`
	Source string `json:"source"`
	Engine string `json:"engine,omitempty"` // the database as published ("SQL Server 2014"), free text
	Host   CPU    `json:"host"`
}

// DBHostCPU is the processor fingerprint of the machine the run's database ran on (a published result's
// system), nil when unknown.
func (r *Result) DBHostCPU() *CPU {
	if r.Published != nil {
		return &r.Published.Host
	}
	if r.Environment != nil {
		return r.Environment.DBHost
	}
	return nil
}
