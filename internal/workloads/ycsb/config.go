package ycsb

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The operations of YCSB's CoreWorkload, in its order; dbdyno names them in lower case (its unit names,
// metrics and progress lines), YCSB in upper case (the summary in YCSB's form).
const (
	opRead = iota
	opUpdate
	opInsert
	opScan
	opRMW
	numOps
)

// OpNames are the operations' names in dbdyno's results; YCSBNames YCSB's.
var (
	OpNames   = []string{"read", "update", "insert", "scan", "read_modify_write"}
	YCSBNames = []string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"}
)

// proportionKeys are the operations' proportion properties, in the operations' order.
var proportionKeys = [numOps]string{"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion"}

// Config is a command's YCSB properties, read and checked: CoreWorkload's and YCSB Client's, with YCSB's
// defaults.
type Config struct {
	Table                    string
	RecordCount              int64
	OperationCount           int64
	FieldCount               int
	FieldPrefix              string // fieldnameprefix: the columns are its upper case and the field's number (FIELD0)
	FieldLength, MinFieldLen int
	FieldLengthDist          string // constant, uniform or zipfian
	ReadAll, WriteAll        bool
	Proportions              [numOps]float64
	RequestDist              string // uniform, zipfian, latest, hotspot, sequential, exponential
	HotData, HotOpn          float64
	ExpPercentile, ExpFrac   float64
	Ordered                  bool // insertorder=ordered
	ZeroPadding              int
	MinScan, MaxScan         int
	ScanDist                 string // uniform or zipfian
	InsertStart, InsertCount int64
	KeepGoing                bool // core_workload_insertion_keep_going_on_error
	Threads                  int  // threadcount, 0 when not set
	Target                   float64
	MaxExecution             time.Duration // maxexecutiontime, 0 when not set
	StatusInterval           time.Duration // status.interval, 0 when not set
	Percentiles              []float64
	ExportFile               string
	IntendedLatency          bool  // measurement.interval=intended was asked for
	whole                    whole // before the shard narrowed it (narrow)
}

// handled are the properties dbdyno reads (YCSB's Client's and CoreWorkload's, and the JDBC binding's that it
// refuses unless at their default).
var handled = map[string]bool{
	"workload": true, "table": true, "recordcount": true, "operationcount": true, "fieldcount": true, "fieldnameprefix": true,
	"fieldlength": true, "minfieldlength": true, "fieldlengthdistribution": true, "readallfields": true, "readallfieldsbyname": true,
	"writeallfields": true, "readproportion": true, "updateproportion": true, "insertproportion": true, "scanproportion": true,
	"readmodifywriteproportion": true, "requestdistribution": true, "hotspotdatafraction": true, "hotspotopnfraction": true,
	"exponential.percentile": true, "exponential.frac": true, "insertorder": true, "zeropadding": true, "minscanlength": true,
	"maxscanlength": true, "scanlengthdistribution": true, "insertstart": true, "insertcount": true, "threadcount": true,
	"target": true, "maxexecutiontime": true, "status.interval": true, "hdrhistogram.percentiles": true, "measurementtype": true,
	"measurement.interval": true, "exportfile": true, "exporter": true, "dotransactions": true, "dataintegrity": true,
	"core_workload_insertion_retry_limit": true, "core_workload_insertion_keep_going_on_error": true,
	"hdrhistogram.fileoutput": true, "measurement.histogram.verbose": true,
	"db.driver": true, "db.url": true, "db.user": true, "db.passwd": true, "db.batchsize": true, "jdbc.autocommit": true,
	"jdbc.batchupdateapi": true,
}

// quiet are YCSB's own properties that mean nothing here, said once in a note.
var quiet = map[string]string{
	"status":                                 "dbdyno prints its progress every --interval",
	"label":                                  "dbdyno labels a run with --label KEY=VALUE",
	"db":                                     "dbdyno drives the engine of --target itself",
	"measurement.trackjvm":                   "there is no JVM",
	"reportlatencyforeacherror":              "a failed operation is counted as an error, by its class",
	"latencytrackederrors":                   "a failed operation is counted as an error, by its class",
	"core_workload_insertion_retry_interval": "an insert is retried at once, and only after a deadlock or serialization failure",
	"histogram.buckets":                      "the latencies are HdrHistograms",
	"fieldlengthhistogram":                   "fieldlengthdistribution is not histogram",
	"jdbc.fetchsize":                         "the drivers read a scan's rows as they arrive",
	"hdrhistogram.output.path":               "the histograms are kept in the result",
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// parser reads typed properties, each refusal one line naming the property, where it came from and the fix.
type parser struct {
	p   *Props
	err error
}

func (c *parser) str(k, def string) string {
	if v, ok := c.p.Get(k); ok {
		return strings.TrimSpace(v)
	}
	return def
}

func (c *parser) fail(k, want string) {
	if c.err == nil {
		v, _ := c.p.Get(k)
		c.err = fmt.Errorf("%s=%s (from %s) is not %s", k, v, c.p.From(k), want)
	}
}

func (c *parser) int64(k string, def, lo int64) int64 {
	s, ok := c.p.Get(k)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < lo {
		c.fail(k, fmt.Sprintf("a whole number of at least %d: give e.g. %s=%d", lo, k, max(def, lo)))
		return def
	}
	return n
}

func (c *parser) int(k string, def, lo int) int {
	n := c.int64(k, int64(def), int64(lo))
	if n > math.MaxInt32 {
		c.fail(k, fmt.Sprintf("a whole number below 2^31: give e.g. %s=%d", k, def))
		return def
	}
	return int(n)
}

func (c *parser) float(k string, def, lo, hi float64) float64 {
	s, ok := c.p.Get(k)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < lo || f > hi || math.IsNaN(f) {
		c.fail(k, fmt.Sprintf("a number from %g to %g: give e.g. %s=%g", lo, hi, k, def))
		return def
	}
	return f
}

func (c *parser) bool(k string, def bool) bool {
	s, ok := c.p.Get(k)
	if !ok {
		return def
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true
	case "false":
		return false
	}
	c.fail(k, fmt.Sprintf("true or false: give %s=%v", k, def))
	return def
}

func (c *parser) oneOf(k, def string, allowed ...string) string {
	v := c.str(k, def)
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	c.fail(k, "one of "+strings.Join(allowed, ", ")+": give "+k+"="+def)
	return def
}

// refuse refuses a property dbdyno reads but cannot honour: one line naming it and the fix.
func (c *parser) refuse(k, why string) {
	if c.err == nil {
		c.err = fmt.Errorf("%s (from %s): %s", k, c.p.From(k), why)
	}
}

// Parse reads a command's properties for phase ("load", "run", or "" for a command of neither).
func Parse(p *Props, phase string) (*Config, error) {
	c := &parser{p: p}
	cfg := &Config{}
	if _, ok := p.Get("workload"); !ok {
		return nil, fmt.Errorf("no YCSB workload given: name one with --workload a..f, -P FILE (YCSB's workloads/workloada is dbdyno's copy when there is no such file) or -p workload=site.ycsb.workloads.CoreWorkload")
	}
	switch w := c.str("workload", ""); w {
	case "site.ycsb.workloads.CoreWorkload", "com.yahoo.ycsb.workloads.CoreWorkload":
	default:
		c.refuse("workload", fmt.Sprintf("%s is not YCSB's CoreWorkload, the only workload dbdyno runs: give workload=site.ycsb.workloads.CoreWorkload", w))
	}
	cfg.Table = c.str("table", "usertable")
	if !identRe.MatchString(cfg.Table) || len(cfg.Table) > 60 {
		c.fail("table", "a plain table name (letters, digits and _, at most 60): give table=usertable")
	}
	cfg.RecordCount = c.int64("recordcount", 0, 0)
	if cfg.RecordCount == 0 && c.err == nil {
		return nil, fmt.Errorf("recordcount is 0 or not given (YCSB's default): give the records to load and run on, e.g. -p recordcount=100000")
	}
	cfg.OperationCount = c.int64("operationcount", 0, 0)
	cfg.FieldCount = c.int("fieldcount", 10, 1)
	if cfg.FieldCount > 1000 {
		c.fail("fieldcount", "at most 1000 fields (the engines' columns per table): give e.g. fieldcount=10")
	}
	cfg.FieldPrefix = strings.ToUpper(c.str("fieldnameprefix", "field"))
	if !identRe.MatchString(cfg.FieldPrefix) || len(cfg.FieldPrefix) > 50 {
		c.fail("fieldnameprefix", "a plain column name prefix (letters, digits and _): give fieldnameprefix=field")
	}
	cfg.FieldLength = c.int("fieldlength", 100, 1)
	cfg.MinFieldLen = c.int("minfieldlength", 1, 1)
	cfg.FieldLengthDist = c.str("fieldlengthdistribution", "constant")
	switch cfg.FieldLengthDist {
	case "constant", "uniform", "zipfian":
	case "histogram":
		c.refuse("fieldlengthdistribution", "histogram (field lengths read from fieldlengthhistogram's file) is not supported: use constant, uniform or zipfian")
	default:
		c.fail("fieldlengthdistribution", "one of constant, uniform, zipfian: give fieldlengthdistribution=constant")
	}
	if cfg.FieldLengthDist != "constant" && cfg.MinFieldLen > cfg.FieldLength && c.err == nil {
		c.fail("minfieldlength", fmt.Sprintf("at most fieldlength (%d): give minfieldlength=1", cfg.FieldLength))
	}
	cfg.ReadAll = c.bool("readallfields", true)
	c.bool("readallfieldsbyname", false) // dbdyno's statements always name the columns
	cfg.WriteAll = c.bool("writeallfields", false)
	for op, k := range proportionKeys {
		def := map[int]float64{opRead: 0.95, opUpdate: 0.05}[op]
		cfg.Proportions[op] = c.float(k, def, 0, math.MaxFloat64)
	}
	cfg.RequestDist = c.oneOf("requestdistribution", "uniform", "uniform", "zipfian", "latest", "hotspot", "sequential", "exponential")
	cfg.HotData = c.float("hotspotdatafraction", 0.2, 0, 1)
	cfg.HotOpn = c.float("hotspotopnfraction", 0.8, 0, 1)
	cfg.ExpPercentile = c.float("exponential.percentile", 95, 0, 99.999999)
	cfg.ExpFrac = c.float("exponential.frac", 0.8571428571, 1e-12, math.MaxFloat64)
	cfg.Ordered = c.oneOf("insertorder", "hashed", "hashed", "ordered") == "ordered"
	cfg.ZeroPadding = c.int("zeropadding", 1, 0)
	if cfg.ZeroPadding > 200 {
		c.fail("zeropadding", "at most 200 digits (the key column is 255 characters): give zeropadding=1")
	}
	cfg.MinScan = c.int("minscanlength", 1, 1)
	cfg.MaxScan = c.int("maxscanlength", 1000, 1)
	if cfg.MinScan > cfg.MaxScan && c.err == nil {
		c.fail("minscanlength", fmt.Sprintf("at most maxscanlength (%d): give minscanlength=1", cfg.MaxScan))
	}
	cfg.ScanDist = c.oneOf("scanlengthdistribution", "uniform", "uniform", "zipfian")
	cfg.InsertStart = c.int64("insertstart", 0, 0)
	cfg.InsertCount = c.int64("insertcount", cfg.RecordCount-cfg.InsertStart, 0)
	if c.err == nil && cfg.InsertStart+cfg.InsertCount > cfg.RecordCount {
		return nil, fmt.Errorf("insertstart=%d and insertcount=%d reach past recordcount=%d (YCSB refuses them too): keep insertstart+insertcount at most recordcount",
			cfg.InsertStart, cfg.InsertCount, cfg.RecordCount)
	}
	if c.err == nil && cfg.InsertCount == 0 {
		c.fail("insertcount", "positive: give the records this driver loads or runs on, e.g. insertcount=1000")
	}
	cfg.KeepGoing = c.bool("core_workload_insertion_keep_going_on_error", false)
	if n := c.int("core_workload_insertion_retry_limit", 0, 0); n > 0 {
		c.refuse("core_workload_insertion_retry_limit", "dbdyno retries an insert only after a deadlock or serialization failure (its one retry policy): leave it out, or set it to 0")
	}
	if _, ok := p.Get("threadcount"); ok {
		cfg.Threads = c.int("threadcount", 1, 1)
	}
	cfg.Target = float64(c.int64("target", 0, 0))
	if s := c.int64("maxexecutiontime", 0, 0); s > 0 {
		cfg.MaxExecution = time.Duration(s) * time.Second
	}
	if s := c.int64("status.interval", 10, 1); c.has("status.interval") {
		cfg.StatusInterval = time.Duration(s) * time.Second
	}
	cfg.Percentiles = []float64{50, 95, 99}
	if s, ok := p.Get("hdrhistogram.percentiles"); ok {
		cfg.Percentiles = nil
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || v <= 0 || v > 100 {
				c.fail("hdrhistogram.percentiles", "a list of percentiles above 0 up to 100: give e.g. hdrhistogram.percentiles=50,95,99")
				break
			}
			cfg.Percentiles = append(cfg.Percentiles, v)
		}
	}
	if m := c.str("measurementtype", "hdrhistogram"); m != "hdrhistogram" {
		c.refuse("measurementtype", m+" is not supported: dbdyno keeps an HdrHistogram of every operation's latencies (YCSB's default): leave measurementtype out, or give hdrhistogram")
	}
	switch iv := c.oneOf("measurement.interval", "op", "op", "intended", "both"); {
	case iv == "both":
		c.refuse("measurement.interval", "both is not supported: a run's latencies are counted one way, from the start (op) or, with target, from the intended start (intended): leave it out")
	case iv == "op" && c.has("measurement.interval") && cfg.Target > 0:
		c.refuse("measurement.interval", "op with a target is not supported: dbdyno's open loop (target, --rate) counts each latency from the operation's intended start, as YCSB's intended: give measurement.interval=intended or leave it out")
	case iv == "intended":
		cfg.IntendedLatency = true
	}
	cfg.ExportFile = c.str("exportfile", "")
	switch e := c.str("exporter", "site.ycsb.measurements.exporter.TextMeasurementsExporter"); e {
	case "site.ycsb.measurements.exporter.TextMeasurementsExporter", "com.yahoo.ycsb.measurements.exporter.TextMeasurementsExporter":
	default:
		c.refuse("exporter", e+" is not supported: dbdyno writes YCSB's text summary (to exportfile when given) and its own result as JSON (--result FILE): leave exporter out")
	}
	if c.has("dotransactions") {
		run := c.bool("dotransactions", true)
		if phase != "" && run != (phase == "run") {
			want := map[bool]string{true: "run", false: "load"}[run]
			c.refuse("dotransactions", fmt.Sprintf("asks for YCSB's %s phase, but this is dbdyno ycsb %s: run dbdyno ycsb %s", want, phase, want))
		}
	}
	if c.bool("dataintegrity", false) {
		c.refuse("dataintegrity", "checking every value read against a deterministic one is not supported: leave dataintegrity out")
	}
	if c.bool("hdrhistogram.fileoutput", false) {
		c.refuse("hdrhistogram.fileoutput", "the histograms are kept in the result (--result FILE holds each operation's HdrHistogram): leave hdrhistogram.fileoutput out")
	}
	if c.bool("measurement.histogram.verbose", false) {
		c.refuse("measurement.histogram.verbose", "the histograms are kept in the result (--result FILE): leave it out")
	}
	for _, k := range []string{"db.url", "db.user", "db.passwd", "db.driver"} {
		if c.has(k) {
			c.refuse(k, "the JDBC binding's connection is not read: give the database as --target URL (its password in the URL or in DBDYNO_PASSWORD), and leave db.driver, db.url, db.user and db.passwd out")
		}
	}
	if !c.bool("jdbc.autocommit", true) {
		c.refuse("jdbc.autocommit", "every operation commits on its own, as the JDBC binding's default: leave jdbc.autocommit out")
	}
	if c.int64("db.batchsize", 0, -1) > 0 {
		c.refuse("db.batchsize", "inserts are not batched (one INSERT an operation, as the JDBC binding's default): leave db.batchsize out")
	}
	if c.bool("jdbc.batchupdateapi", false) {
		c.refuse("jdbc.batchupdateapi", "inserts are not batched (one INSERT an operation): leave jdbc.batchupdateapi out")
	}
	if c.err != nil {
		return nil, c.err
	}
	return cfg, cfg.check(phase)
}

func (c *parser) has(k string) bool { _, ok := c.p.Get(k); return ok }

// check refuses settings that cannot run (where YCSB would fail or divide by zero).
func (cfg *Config) check(phase string) error {
	if phase == "run" {
		sum := 0.0
		for _, p := range cfg.Proportions {
			sum += p
		}
		if sum <= 0 {
			return fmt.Errorf("every operation's proportion is 0 (readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion): give at least one a share, e.g. -p readproportion=1")
		}
		if cfg.RequestDist == "hotspot" {
			n := cfg.InsertCount
			hot := int64(float64(n) * cfg.HotData)
			if hot == 0 && cfg.HotOpn > 0 || hot == n && cfg.HotOpn < 1 {
				return fmt.Errorf("hotspotdatafraction=%g of %d records leaves the hot or the cold set empty while hotspotopnfraction=%g sends operations to it: give a fraction that holds at least one record of each", cfg.HotData, n, cfg.HotOpn)
			}
		}
	}
	return nil
}

// Columns are the field columns: FIELD0 .. FIELDn-1.
func (cfg *Config) Columns() []string {
	out := make([]string, cfg.FieldCount)
	for i := range out {
		out[i] = cfg.FieldPrefix + strconv.Itoa(i)
	}
	return out
}

// unknown lists the properties that neither YCSB's core nor dbdyno knows, with where each came from: YCSB
// ignores them, and so does dbdyno, with one warning.
func unknown(p *Props) (unknowns, quiets []string) {
	for _, k := range p.Keys() {
		switch {
		case handled[k]:
		case quiet[k] != "":
			quiets = append(quiets, fmt.Sprintf("%s (%s)", k, quiet[k]))
		default:
			unknowns = append(unknowns, fmt.Sprintf("%s (from %s)", k, p.From(k)))
		}
	}
	sort.Strings(unknowns)
	return unknowns, quiets
}

// Record is the configuration as a run's options record it, under YCSB's property names.
func (cfg *Config) Record(phase string) map[string]any {
	o := map[string]any{"phase": phase, "table": cfg.Table, "recordcount": cfg.RecordCount, "fieldcount": cfg.FieldCount,
		"fieldlength": cfg.FieldLength, "fieldlengthdistribution": cfg.FieldLengthDist, "insertorder": map[bool]string{true: "ordered", false: "hashed"}[cfg.Ordered],
		"zeropadding": cfg.ZeroPadding, "insertstart": cfg.InsertStart, "insertcount": cfg.InsertCount}
	if cfg.FieldLengthDist != "constant" {
		o["minfieldlength"] = cfg.MinFieldLen
	}
	if cfg.FieldPrefix != "FIELD" {
		o["fieldnameprefix"] = cfg.FieldPrefix
	}
	if phase == "load" {
		return o
	}
	o["operationcount"] = cfg.OperationCount
	for op, k := range proportionKeys {
		o[k] = cfg.Proportions[op]
	}
	o["requestdistribution"], o["readallfields"], o["writeallfields"] = cfg.RequestDist, cfg.ReadAll, cfg.WriteAll
	switch cfg.RequestDist {
	case "hotspot":
		o["hotspotdatafraction"], o["hotspotopnfraction"] = cfg.HotData, cfg.HotOpn
	case "exponential":
		o["exponential.percentile"], o["exponential.frac"] = cfg.ExpPercentile, cfg.ExpFrac
	}
	if cfg.Proportions[opScan] > 0 {
		o["minscanlength"], o["maxscanlength"], o["scanlengthdistribution"] = cfg.MinScan, cfg.MaxScan, cfg.ScanDist
	}
	return o
}
