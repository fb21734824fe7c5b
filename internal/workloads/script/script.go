// Package script runs pgbench-compatible script files on any engine: \set with pgbench's expressions and
// random functions, \sleep, \if/\elif/\else/\endif, :variable substitution, several scripts with weights, -D
// variables and the :client_id and :scale built-ins; `script init` builds pgbench's tables so that pgbench's
// built-in scripts (shipped as --builtin) run unchanged. Where it differs from pgbench: docs/script.md.
package script

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

//go:embed sql
var sqlFS embed.FS

//go:embed builtin
var builtinFS embed.FS

// Builtins are pgbench's built-in scripts by the names `--builtin` takes.
var Builtins = []string{"tpcb-like", "simple-update", "select-only"}

// Files are the workload's statements on an engine (dbdyno sql).
func Files(e *engine.Engine) ([]*sqlfile.File, error) {
	return sqlfile.OverlayFiles(sqlFS, e.Name, []string{"init.sql", "tx.sql", "scale.sql"}, e.Placeholder)
}

var (
	tps       = workload.MetricDesc{Name: "TPS", Unit: "tx/s", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum", Noise: result.IntervalsNoise()}
	txP95     = workload.MetricDesc{Name: "<script> p95 latency", Unit: "ms", Better: result.Lower}
	cpuPerTx  = workload.MetricDesc{Name: "client CPU per transaction", Unit: "µs", Better: result.Lower}
	errShare  = workload.MetricDesc{Name: "transactions failed", Unit: "%", Better: result.Lower}
	pgbenchLn = "pgbench-compatible scripts"
)

func init() {
	workload.Register(&workload.Meta{
		Name:  "script",
		Short: "run pgbench-compatible script files (\\set, \\sleep, \\if, :variables, weights) on any engine",
		Long: "dbdyno script run FILE.sql[@WEIGHT] ... runs " + pgbenchLn + " with virtual users: each transaction is one\n" +
			"run of a script drawn by weight; \\set evaluates pgbench's expressions (random, random_gaussian,\n" +
			"random_exponential, random_zipfian, arithmetic, functions), \\sleep waits, \\if chooses, :name puts a\n" +
			"variable into a statement (a bind parameter in --query-mode prepared, the default; its text in simple).\n" +
			"dbdyno script init --pgbench-scale S builds pgbench's tables on any engine; --builtin tpcb-like,\n" +
			"simple-update or select-only runs pgbench's own scripts. Differences from pgbench: docs/script.md.",
		DefaultTarget: "sqlite://dbdyno-script.db",
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{tps, txP95, cpuPerTx, errShare},
		SQL:           Files,
		Derive:        runner.Measured(metrics),
		Work: func(r *result.Result) string {
			o := r.Options
			return fmt.Sprintf("scripts %v, scale %v, defines %v, query mode %v", o["scripts"], o["scale"], o["defines"], o["query_mode"])
		},
		Commands: []*workload.Command{
			workload.NewCommand(workload.Command{Name: "init", Short: "create pgbench's tables (accounts, branches, tellers, history) at a pgbench scale",
				Target: workload.OneTarget}, &InitFlags{}, initCommand),
			workload.NewMeasured(workload.Command{Name: "run", Positional: "script",
				Short:  "run script files (FILE.sql[@WEIGHT] ..., or --builtin NAME) with virtual users and report TPS and latency per script",
				Target: workload.ManyTargets, Existing: true,
				Example: "  dbdyno script run --target postgres://bench@db1/pgbench -c 4 -j 2 -T 60 -P 5 -b tpcb-like\n" +
					"  dbdyno script run --target sqlite://s.db read.sql@9 write.sql@1 --vus 1,2,4 --duration 30s\n" +
					"  dbdyno script run --target postgres://bench@db1/pgbench -M prepared -R 500 -L 50 -b select-only"}, &RunFlags{}, runner.VU[RunFlags]{
				Check: func(o *RunFlags) error { _, err := o.scripts(); return err },
				Open:  open,
			}),
		},
	})
}

// RunFlags are `script run`'s options.
//
// pgbench's users keep their habits: -c, -T (seconds), -R, -L (milliseconds), -P (seconds), -M, -f, -b, -D, -j
// and -n mean what they mean to pgbench, and a run has no ramp-up unless asked (pgbench has none).
type RunFlags struct {
	runner.Users `vus.help:"virtual users (pgbench's clients, one connection each; -c); a list 1,2,4 or a range 1..8 sweeps them" vus.short:"c" duration.short:"T" duration.bare:"s" duration.help:"measured time (-T: a bare number is seconds, as pgbench's)" rate.short:"R" latency-limit.short:"L" latency-limit.bare:"ms" interval.short:"P" interval.bare:"s" interval.help:"progress line interval (-P: a bare number is seconds)" rampup.default:"0s" rampup.help:"time before measuring starts (none by default, as pgbench has none)"`
	Script       []string `flag:"script" short:"f" help:"a script file, FILE.sql or FILE.sql@WEIGHT (repeatable, -f; the command's arguments are scripts too)"`
	Builtin      []string `flag:"builtin" short:"b" help:"pgbench's built-in script: tpcb-like, simple-update or select-only, with @WEIGHT if wanted (repeatable, -b)"`
	Define       []string `flag:"define" short:"D" help:"a variable every script starts with, NAME=VALUE (repeatable), as pgbench's -D"`
	Scale        int      `flag:"scale" min:"0" help:"the value of :scale (0: the rows of pgbench_branches where that table exists, else 1, as pgbench reads it)"`
	MaxTries     int      `flag:"max-tries" default:"1" min:"1" help:"runs of a transaction that fails with a serialization failure or deadlock, the first included, as pgbench's --max-tries (1: no retry)"`
	QueryMode    string   `flag:"query-mode" short:"M" default:"simple" help:"simple (the variables' text put into the statement, as pgbench's default -M simple) or prepared (each statement prepared once per connection, :variables sent as bind parameters)"`
	Jobs         int      `flag:"jobs" short:"j" default:"1" min:"1" help:"pgbench's worker threads (-j): taken, and the virtual users run on every core whatever it says (each is a goroutine, Go's scheduler spreads them)"`
	NoVacuum     bool     `flag:"no-vacuum" short:"n" help:"pgbench's -n: taken; dbdyno never vacuums before a run"`
}

// scripts reads the scripts the options name, with their weights, and checks them all.
func (o *RunFlags) scripts() ([]*Script, error) {
	if o.QueryMode != "prepared" && o.QueryMode != "simple" {
		return nil, fmt.Errorf("--query-mode %q is not known: use prepared or simple", o.QueryMode)
	}
	defs, err := o.defines()
	if err != nil {
		return nil, err
	}
	var out []*Script
	add := func(spec string, builtin bool) error {
		name, weight := spec, 1
		if i := strings.LastIndex(spec, "@"); i > 0 {
			w, err := strconv.Atoi(spec[i+1:])
			if err != nil || w < 0 {
				return fmt.Errorf("script %q: the weight after @ must be a whole number of 0 or more", spec)
			}
			name, weight = spec[:i], w
		}
		var text []byte
		var err error
		file := name
		if builtin {
			if !contains(Builtins, name) {
				return fmt.Errorf("--builtin %q is not known: use %s", name, strings.Join(Builtins, ", "))
			}
			text, err = builtinFS.ReadFile("builtin/" + name + ".sql")
			file = "builtin " + name
		} else {
			text, err = os.ReadFile(name)
		}
		if err != nil {
			return fmt.Errorf("script %s: %w", name, err)
		}
		s, err := Parse(file, string(text))
		if err != nil {
			return err
		}
		s.Weight = weight
		s.Name = txName(name)
		out = append(out, s)
		return nil
	}
	for _, b := range o.Builtin {
		if err := add(b, true); err != nil {
			return nil, err
		}
	}
	for _, f := range o.Script {
		if err := add(f, false); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no script to run: give script files (dbdyno script run FILE.sql[@WEIGHT] ...) or --builtin tpcb-like")
	}
	total := 0
	seen := map[string]int{}
	for _, s := range out {
		total += s.Weight
		if n := seen[s.Name]; n > 0 {
			s.Name = fmt.Sprintf("%s_%d", s.Name, n+1)
		}
		seen[s.Name]++
		if err := s.checkVars(defs); err != nil {
			return nil, err
		}
	}
	if total == 0 {
		return nil, fmt.Errorf("every script has weight 0: give one a positive weight")
	}
	return out, nil
}

// builtinVars are the variables every client has (pgbench's :client_id, :scale, :random_seed, :default_seed).
var builtinVars = []string{"client_id", "scale", "random_seed", "default_seed"}

// defaultSeed is pgbench's :default_seed, the seed of hash() and permute() when a script gives none: under
// pgbench -c CLIENTS --random-seed SEED, the draw after the clients' own of PostgreSQL's generator seeded by
// SEED; so a script's hashes and permutations match pgbench's at the same seed and clients.
func defaultSeed(seed uint64, clients int) int64 {
	p := newPgPrng(seed)
	for range clients {
		p.uint64()
	}
	return int64(p.uint64())
}

// checkVars refuses a variable the script reads and nothing sets: no \set of it, no -D, no built-in (a script
// with \gset may set any, so it is left to run time).
func (s *Script) checkVars(defs map[string]value) error {
	for _, c := range s.cmds {
		if c.gset {
			return nil
		}
	}
	names := make([]string, 0, len(s.reads))
	for n := range s.reads {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return s.reads[names[i]] < s.reads[names[j]] })
	for _, n := range names {
		if _, ok := defs[n]; ok || s.sets[n] || contains(builtinVars, n) {
			continue
		}
		return errAt(s.File, s.reads[n], "undefined variable :%s (set it with \\set %s ..., -D %s=VALUE or a \\gset)", n, n, n)
	}
	return nil
}

func (o *RunFlags) defines() (map[string]value, error) {
	out := map[string]value{}
	for _, d := range o.Define {
		k, v, ok := strings.Cut(d, "=")
		if !ok || !validName(k) {
			return nil, fmt.Errorf("-D %q: give NAME=VALUE, the name of letters, digits and _", d)
		}
		out[k] = parseText(v)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// txName is a script's transaction name in results: its file's base name, lower case, [a-z0-9_].
func txName(file string) string {
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	n := strings.Trim(b.String(), "_")
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		n = "s_" + n
	}
	return n
}

// --- the run ---

type session struct {
	setup   *runner.Setup
	o       *RunFlags
	db      *sql.DB
	eng     *engine.Engine
	version string
	scripts []*Script
	names   []string
	cum     []int // cumulative weights
	defs    map[string]value
	scale   int64
	scaleBy string
	tx      sqlfile.Set
	// errors of the measured window per script and command (a figure: "FILE:LINE N; ...")
	stmtErrs [][]atomic.Int64
}

func open(ctx context.Context, setup *runner.Setup, o *RunFlags) (runner.Session, error) {
	scripts, err := o.scripts()
	if err != nil {
		return nil, err
	}
	defs, _ := o.defines()
	t := setup.Target
	fs, err := Files(t.Engine)
	if err != nil {
		return nil, err
	}
	all := sqlfile.Merge(fs)
	db, err := t.Open(ctx)
	if err != nil {
		return nil, err
	}
	s := &session{setup: setup, o: o, db: db, eng: t.Engine, scripts: scripts, defs: defs, tx: all}
	s.version = t.Engine.ServerVersion(ctx, db)
	s.scale, s.scaleBy = int64(o.Scale), "--scale"
	if v, ok := defs["scale"]; ok {
		n, err := v.toInt("-D scale")
		if err != nil {
			db.Close()
			return nil, err
		}
		s.scale, s.scaleBy = n, "-D scale"
	} else if o.Scale == 0 {
		s.scale, s.scaleBy = 1, "default: no pgbench_branches table"
		var n int64
		if err := db.QueryRowContext(ctx, all["scale"].SQL).Scan(&n); err == nil && n > 0 {
			s.scale, s.scaleBy = n, "rows of pgbench_branches"
		}
	}
	total := 0
	for _, sc := range scripts {
		total += sc.Weight
		s.cum = append(s.cum, total)
		s.names = append(s.names, sc.Name)
		s.stmtErrs = append(s.stmtErrs, make([]atomic.Int64, len(sc.cmds)))
	}
	var list []string
	for _, sc := range scripts {
		list = append(list, fmt.Sprintf("%s@%d", sc.File, sc.Weight))
	}
	fmt.Fprintf(setup.Out, "dbdyno script on %s (%s): %s; scale %d (%s); %d VUs, query mode %s, seed %d\n",
		s.version, t, strings.Join(list, ", "), s.scale, s.scaleBy, o.VUs, o.QueryMode, o.Seed)
	return s, nil
}

func (s *session) ServerVersion() string { return s.version }

func (s *session) Options() map[string]any {
	out := s.setup.Options()
	var list []string
	for _, sc := range s.scripts {
		list = append(list, fmt.Sprintf("%s@%d", sc.File, sc.Weight))
	}
	defs := append([]string(nil), s.o.Define...)
	sort.Strings(defs)
	out["scripts"], out["scale"], out["defines"], out["query_mode"] = strings.Join(list, " "), s.scale, strings.Join(defs, " "), s.o.QueryMode
	return out
}

func (s *session) Configure(cfg *runner.Config) {
	cfg.KeyTx, cfg.RateLabel, cfg.PerSecond = -1, "TPS", true
}

func (s *session) Figures(m *result.Measurement) map[string]any {
	done := m.Committed + m.Rollbacks
	fig := map[string]any{"tps": 0.0, "transactions": done}
	if m.MeasuredSecs > 0 {
		fig["tps"] = runner.Round(float64(done)/m.MeasuredSecs, 1)
	}
	if done > 0 {
		fig["client_cpu_us_per_tx"] = runner.Round((m.ClientCPU.UserSeconds+m.ClientCPU.SystemSeconds)*1e6/float64(done), 1)
	}
	if done+m.Errors > 0 {
		fig["failed_pct"] = runner.Round(100*float64(m.Errors)/float64(done+m.Errors), 2)
	}
	var errs []string
	for i, sc := range s.scripts {
		for j := range sc.cmds {
			if n := s.stmtErrs[i][j].Load(); n > 0 {
				errs = append(errs, fmt.Sprintf("%s:%d %d", sc.File, sc.cmds[j].line, n))
			}
		}
	}
	if len(errs) > 0 {
		fig["statement_errors"] = strings.Join(errs, "; ")
	}
	return fig
}

func (s *session) Finish(_ context.Context, res *result.Result) {
	w, m := s.setup.Out, res.Measurement
	fmt.Fprintf(w, "\n%s after %.1fs measured: TPS %v (%v transactions, %d failed)\n", strings.ToUpper(res.Status), m.MeasuredSecs,
		res.Figures["tps"], res.Figures["transactions"], m.Errors)
	runner.PrintTable(w, m, "script", s.names)
	if errs, ok := res.Figures["statement_errors"].(string); ok {
		for _, e := range strings.Split(errs, "; ") {
			at, n, _ := strings.Cut(e, " ")
			fmt.Fprintf(w, "errors at %s: %s\n", at, n)
		}
	}
	if v, ok := res.Figures["client_cpu_us_per_tx"]; ok {
		fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system = %v µs per transaction; reconnects %d\n",
			m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, v, m.Reconnects)
	}
	s.pgbenchLines(w, m)
	runner.PrintErrors(w, res)
}

// pgbenchLines are the measured window's figures in the lines pgbench ends its run with, for a pgbench user's
// eye and scripts. Its latency average is the mean of the measured transactions' latencies (pgbench prints that
// with -P, -R or -L; without them it derives one from the duration and the clients).
func (s *session) pgbenchLines(w io.Writer, m *result.Measurement) {
	var done, failed int64
	var sum float64
	for _, n := range s.names {
		t := m.Transactions[n]
		done, failed = done+t.Count, failed+t.Errors
		sum += t.Latency.Mean * float64(t.Count)
	}
	var types []string
	for _, sc := range s.scripts {
		types = append(types, sc.File)
	}
	fmt.Fprintf(w, "\nas pgbench prints it:\ntransaction type: %s\nscaling factor: %d\nquery mode: %s\nnumber of clients: %d\nnumber of threads: %d\nmaximum number of tries: %d\n",
		strings.Join(types, ", "), s.scale, s.o.QueryMode, s.o.VUs, s.o.Jobs, s.o.MaxTries)
	if s.o.Transactions > 0 {
		fmt.Fprintf(w, "number of transactions (all clients): %d\n", s.o.Transactions)
	} else {
		fmt.Fprintf(w, "duration: %.0f s\n", m.PlannedSeconds)
	}
	pct := 0.0
	if done+failed > 0 {
		pct = 100 * float64(failed) / float64(done+failed)
	}
	fmt.Fprintf(w, "number of transactions actually processed: %d\nnumber of failed transactions: %d (%.3f%%)\n", done, failed, pct)
	if done > 0 {
		fmt.Fprintf(w, "latency average = %.3f ms\n", sum/float64(done)/1000)
	}
	if m.MeasuredSecs > 0 {
		fmt.Fprintf(w, "tps = %f (without initial connection time)\n", float64(done)/m.MeasuredSecs)
	}
}

func (s *session) Close() { s.db.Close() }

func (s *session) Transactions() []string { return s.names }

func (s *session) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	w := &worker{s: s, vu: vu, rand: newRand(s.o.Seed, uint64(vu)+1), vars: map[string]value{}}
	for k, v := range s.defs {
		w.vars[k] = v
	}
	w.vars["client_id"], w.vars["random_seed"] = intv(int64(vu)), intv(int64(s.o.Seed))
	if _, ok := s.defs["default_seed"]; !ok {
		w.vars["default_seed"] = intv(defaultSeed(s.o.Seed, s.o.VUs))
	}
	if _, ok := s.defs["scale"]; !ok {
		w.vars["scale"] = intv(s.scale)
	}
	return w, w.Reconnect(ctx)
}

func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	out := runner.FigureMetric(nil, tps, r, "tps")
	var names []string
	for n := range m.Transactions {
		names = append(names, n)
	}
	sort.Strings(names)
	out = runner.P95Metrics(out, txP95, m, names)
	out = runner.FigureMetric(out, cpuPerTx, r, "client_cpu_us_per_tx")
	return runner.FigureMetric(out, errShare, r, "failed_pct")
}
