package tpch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch"
)

func TestMain(m *testing.M) { clitest.Main(m) }

// answersDir is ../shared/tpch/answers/sfX beside the project (never copied into it).
func answersDir(t *testing.T, sf string) string { return testsrv.Shared(t, "tpch", "answers", "sf"+sf) }

// tpchEngines are the servers (the slowest last in testsrv.Servers, first here: the parallel subtests start in
// this order), then DuckDB and SQLite.
func tpchEngines(t *testing.T) []clitest.Engine {
	var out []clitest.Engine
	servers := testsrv.Servers(t)
	for i := range servers {
		u := servers[len(servers)-1-i]
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, clitest.Engine{Name: tg.Engine.Name, URL: tpchDatabase(t, u)})
	}
	return append(out, clitest.Engine{Name: "duckdb", URL: "duckdb://" + filepath.Join(t.TempDir(), "h.duckdb")},
		clitest.Engine{Name: "sqlite", URL: "sqlite://" + filepath.Join(t.TempDir(), "h.db")})
}

// tpchDatabase returns the URL of a database beside the test database, created if missing: TPC-H and TPC-C
// share table names (customer, orders), so each gets its own database.
func tpchDatabase(t *testing.T, url string) string { return testsrv.Beside(t, url, "dbdyno_tpch") }

// builtCopy copies one SF 0.01 build on scheme (duckdb or sqlite; made once per test process, by the first test
// that asks) into a file of the test's own and returns its URL: for the tests that run on a build without testing
// the build itself (a build takes most of such a test's time; a copy, a fraction of a second). The build itself is
// tested on every engine by TestTPCHBuildAndValidateOnEveryEngine.
//
// Tests and subtests that run DuckDB do not run beside others: a command's check that it left no DuckDB handle
// behind (clitest) sees every handle open in the process, a concurrent command's too.
func builtCopy(t *testing.T, scheme string) string {
	t.Helper()
	templates.Lock()
	defer templates.Unlock() // held through the build: a second test asking for it waits for the one build
	if templates.path == nil {
		templates.path, templates.err = map[string]string{}, map[string]error{}
	}
	src, made := templates.path[scheme]
	if !made {
		// beside the tests' results store, in the scratch directory clitest.Main removes
		src = filepath.Join(filepath.Dir(store.DefaultPath), "tpch-template-sf0.01."+scheme)
		if r := clitest.Run(context.Background(), "tpch", "build", "--target", scheme+"://"+src, "--scale", "0.01"); r.Code != 0 {
			templates.err[scheme] = fmt.Errorf("exit %d: %s%s", r.Code, r.Stdout, r.Stderr)
		}
		templates.path[scheme] = src
	}
	if err := templates.err[scheme]; err != nil {
		t.Fatalf("the %s build every copy comes from: %v", scheme, err)
	}
	dst := filepath.Join(t.TempDir(), "h."+scheme)
	for _, suffix := range []string{"", ".wal", "-wal"} { // the build closed the file: a log, if any, goes with it
		b, err := os.ReadFile(src + suffix)
		if suffix != "" && os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return scheme + "://" + dst
}

var templates struct {
	sync.Mutex
	path map[string]string
	err  map[string]error
}

// One build per engine, and what each test asserts of it in subtests of its own, in an order that keeps the
// build usable: the build and validate (with the runs, the refresh functions and the restore), a table gone
// mid-run, --maxdop and connections lost mid-run (PostgreSQL), then the tampered database (rows deleted and put
// back, a primary key dropped), and the drop.
func TestTPCHBuildAndValidateOnEveryEngine(t *testing.T) {
	answers := answersDir(t, "0.01")
	for _, e := range tpchEngines(t) {
		t.Run(e.Name, func(t *testing.T) {
			if e.Name != "duckdb" { // (DuckDB's runs before the others start: see builtCopy)
				t.Parallel() // each engine its own file or server: one waits on its server while another works
			}
			b := clitest.Must(t, "tpch", "build", "--target", e.URL, "--scale", "0.01", "--drop", "--threads", "2")
			if !strings.Contains(b.Stdout, "built 86805 rows") {
				t.Fatalf("build:\n%s", b.Stdout)
			}
			t.Run("validate", func(t *testing.T) {
				keysMade(t, e.URL)
				decimalSumsLoaded(t, e.URL)
				v := clitest.Must(t, "tpch", "validate", "--target", e.URL, "--answers", answers)
				if strings.Count(v.Stdout, " PASS ") != 22 || !strings.Contains(v.Stdout, "22 passed, 0 failed") {
					t.Fatalf("validate:\n%s", v.Stdout)
				}
				clitest.NoPassword(t, e.URL, b.Stdout, v.Stdout)
				powerAndThroughput(t, e.URL, answers)
				updateSetsLeftApplied(t, e.URL, answers)
				if r := clitest.Run(context.Background(), "tpch", "build", "--target", e.URL, "--scale", "0.01"); r.Code == 0 || !strings.Contains(r.Stderr, "--drop") {
					t.Fatalf("build over an existing schema without --drop: %d %s", r.Code, r.Stderr)
				}
			})
			t.Run("schema_gone", func(t *testing.T) { schemaGoneEndsTheRun(t, e) })
			if e.Name == "sqlserver" { // Babelfish in CI: its PostgreSQL's setting on each stream's session, not the ignored hint
				t.Run("maxdop", func(t *testing.T) { maxdopRecorded(t, e.URL) })
			}
			if e.Name == "postgres" {
				t.Run("maxdop", func(t *testing.T) { maxdopRecorded(t, e.URL) })
				t.Run("connections_lost", func(t *testing.T) { connectionsLostMidRun(t, e.URL) })
			}
			t.Run("tampered", func(t *testing.T) { runRefusesATamperedDatabase(t, e) })
			clitest.Must(t, "tpch", "drop", "--target", e.URL)
		})
	}
}

// keysMade: on an engine that makes keys on several connections at once, every table's primary key exists after
// a build: a row copied onto itself is refused.
func keysMade(t *testing.T, url string) {
	tg, _ := engine.Parse(url)
	if !tg.Engine.ConcurrentDDL {
		return
	}
	db, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"INSERT INTO region SELECT * FROM region WHERE r_regionkey = 1",
		"INSERT INTO nation SELECT * FROM nation WHERE n_nationkey = 1",
		"INSERT INTO supplier SELECT * FROM supplier WHERE s_suppkey = 1",
		"INSERT INTO customer SELECT * FROM customer WHERE c_custkey = 1",
		"INSERT INTO part SELECT * FROM part WHERE p_partkey = 1",
		"INSERT INTO partsupp SELECT * FROM partsupp WHERE ps_partkey = 1",
		"INSERT INTO orders SELECT * FROM orders WHERE o_orderkey = 1",
		"INSERT INTO lineitem SELECT * FROM lineitem WHERE l_orderkey = 1"} {
		if _, err := db.Exec(q); err == nil {
			t.Fatalf("%s: no key refused the copy", q)
		}
	}
}

// decimalSumsLoaded: every decimal column holds, summed, what the generator makes at SF 0.01 (the sums
// PostgreSQL's COPY loads): a loader that sends a decimal without its column's scale (SQL Server's bulk copy
// took 17 for l_quantity as 0.17) is caught column by column, not only where a query happens to use it.
func decimalSumsLoaded(t *testing.T, url string) {
	tg, _ := engine.Parse(url)
	db, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		table, column string
		sum           float64
	}{
		{"supplier", "s_acctbal", 400930.00}, {"customer", "c_acctbal", 6681865.59},
		{"part", "p_retailprice", 2800992.00}, {"partsupp", "ps_supplycost", 3957437.38},
		{"orders", "o_totalprice", 2127396830.02}, {"lineitem", "l_quantity", 1536127.00},
		{"lineitem", "l_extendedprice", 2152189760.47}, {"lineitem", "l_discount", 3004.54},
		{"lineitem", "l_tax", 2420.51},
	} {
		var got float64
		if err := db.QueryRow("SELECT SUM(" + c.column + ") FROM " + c.table).Scan(&got); err != nil {
			t.Fatalf("sum of %s: %v", c.column, err)
		}
		if d := got - c.sum; d > 0.005 || d < -0.005 {
			t.Errorf("sum of %s.%s loaded %.2f, want %.2f", c.table, c.column, got, c.sum)
		}
	}
}

// updateSetsLeftApplied: with --no-restore the update sets stay applied, the next run goes on with the following
// set, validate refuses the changed data, and `tpch restore` puts the loaded data back.
func updateSetsLeftApplied(t *testing.T, url, answers string) {
	for set := 1; set <= 2; set++ {
		file := filepath.Join(t.TempDir(), "n.json")
		r := clitest.Must(t, "tpch", "run", "--target", url, "--power", "--refresh", "--queries", "6", "--no-restore", "--result", file)
		res, _ := clitest.ReadResult(t, file)
		p := res.Analytic.Tests[0].Refresh
		if len(p) != 1 || p[0].UpdateSet != set || p[0].Status != "ok" || !strings.Contains(r.Stdout, "left applied (--no-restore)") {
			t.Fatalf("run %d with --no-restore: pairs %+v\n%s", set, p, r.Stdout)
		}
	}
	// a run without the refresh functions refuses the changed data instead of measuring it
	if r := clitest.Run(context.Background(), "tpch", "run", "--target", url, "--streams", "1", "--no-warmup", "--queries", "6"); r.Code == 0 ||
		!strings.Contains(r.Stderr, "update sets 1..2") || !strings.Contains(r.Stderr, "tpch restore") {
		t.Fatalf("run without --refresh on refreshed data: exit %d %s", r.Code, r.Stderr)
	}
	v := clitest.Run(context.Background(), "tpch", "validate", "--target", url, "--answers", answers)
	if v.Code == 0 || !strings.Contains(v.Stderr, "update sets 1..2") || !strings.Contains(v.Stderr, "tpch restore") || strings.Count(v.Stderr, "\n") != 1 {
		t.Fatalf("validate on refreshed data: exit %d\n%s", v.Code, v.Stderr)
	}
	r := clitest.Must(t, "tpch", "restore", "--target", url)
	if !strings.Contains(r.Stdout, "undid update sets 1..2") {
		t.Fatalf("restore: %s", r.Stdout)
	}
	if r := clitest.Must(t, "tpch", "restore", "--target", url); !strings.Contains(r.Stdout, "no update set is applied") {
		t.Fatalf("second restore: %s", r.Stdout)
	}
	// a run finds a set left applied (as an interrupted run leaves it): it undoes it first and starts again at set 1
	clitest.Must(t, "tpch", "run", "--target", url, "--power", "--refresh", "--queries", "6", "--no-restore")
	file := filepath.Join(t.TempDir(), "d.json")
	r = clitest.Must(t, "tpch", "run", "--target", url, "--power", "--refresh", "--queries", "6", "--result", file)
	res, _ := clitest.ReadResult(t, file)
	if p := res.Analytic.Tests[0].Refresh; len(p) != 1 || p[0].UpdateSet != 1 || !strings.Contains(r.Stdout, "undid update set 1 left by an earlier run") ||
		!strings.Contains(r.Stdout, "restored the loaded data") || !strings.Contains(res.Analytic.Note, "restored after the run") {
		t.Fatalf("run after a set was left applied: %+v\n%s", p, r.Stdout)
	}
	clitest.Must(t, "tpch", "validate", "--target", url, "--answers", answers)
}

func powerAndThroughput(t *testing.T, url, answers string) {
	file := filepath.Join(t.TempDir(), "h.json")
	r := clitest.Must(t, "tpch", "run", "--target", url, "--power", "--throughput", "--streams", "2", "--refresh", "--seed", "3", "--result", file)
	res, raw := clitest.ReadResult(t, file)
	clitest.NoPassword(t, url, r.Stdout, raw)
	an := res.Analytic
	if res.Status != result.StatusOK || res.Workload != "tpch" || an == nil || len(an.Tests) != 2 || an.QphH == nil || *an.QphH <= 0 {
		t.Fatalf("status %s, analytic %+v", res.Status, an)
	}
	power, through := an.Tests[0], an.Tests[1]
	if power.Kind != "power" || power.PowerAtSize == nil || len(power.Refresh) != 1 || len(power.QueryStreams) != 1 {
		t.Fatalf("power test %+v", power)
	}
	if through.Kind != "throughput" || through.ThroughputAtSize == nil || len(through.Refresh) != 2 || len(through.QueryStreams) != 2 {
		t.Fatalf("throughput test %+v", through)
	}
	for _, s := range append(power.QueryStreams, through.QueryStreams...) {
		if len(s.Queries) != 22 || s.Status != "ok" {
			t.Fatalf("stream %d: %d queries, %s", s.Stream, len(s.Queries), s.Status)
		}
		// a stream's time to complete is at least the sum of its queries' times
		sum := 0.0
		for _, q := range s.Queries {
			sum += q.Seconds
		}
		if s.Seconds < sum || s.Seconds <= 0 {
			t.Fatalf("stream %d took %vs for queries of %vs", s.Stream, s.Seconds, sum)
		}
		if s.Queries[0].Query != map[int]int{0: 14, 1: 21, 2: 6}[s.Stream] {
			t.Fatalf("stream %d does not follow Appendix A: starts with Q%d", s.Stream, s.Queries[0].Query)
		}
	}
	// pair N of the run uses dbgen's update set N, 10 orders each at SF 0.01 (dbgen's integer arithmetic)
	for i, p := range append(power.Refresh, through.Refresh...) {
		if p.Status != "ok" || p.Orders != 10 || p.UpdateSet != i+1 {
			t.Fatalf("refresh pair %d: %+v", i+1, p)
		}
	}
	// Throughput@Size = S x 22 x 3600 / Ts x SF
	want := 2 * 22 * 3600 / through.Seconds * 0.01
	if d := *through.ThroughputAtSize - want; d > 1e-6 || d < -1e-6 {
		t.Fatalf("Throughput@Size %v, want %v", *through.ThroughputAtSize, want)
	}
	// the refresh functions left the data as it was
	clitest.Must(t, "tpch", "validate", "--target", url, "--answers", answers)

	// a query that times out is a failure, never dropped from an aggregate
	file2 := filepath.Join(t.TempDir(), "t.json")
	r2 := clitest.Run(context.Background(), "tpch", "run", "--target", url, "--streams", "1", "--no-warmup", "--queries", "1,9", "--timeout", "1ns", "--result", file2)
	res2, _ := clitest.ReadResult(t, file2)
	if r2.Code == 0 || res2.Status != result.StatusFailed || res2.Analytic.Tests[0].GeomeanSeconds != nil {
		t.Fatalf("timeouts: exit %d status %s test %+v", r2.Code, res2.Status, res2.Analytic.Tests[0])
	}
	if q := res2.Analytic.Tests[0].QueryStreams[0].Queries; len(q) != 2 || q[0].Status != "timeout" {
		t.Fatalf("timed-out queries %+v", q)
	}
}

func TestTPCHSweepAndSubset(t *testing.T) {
	url := builtCopy(t, "duckdb")
	file := filepath.Join(t.TempDir(), "s.json")
	st := filepath.Join(t.TempDir(), "results.db")
	out := clitest.Must(t, "tpch", "run", "--target", url, "--streams", "1..3", "--queries", "1,6,14", "--result", file, "--store", st)
	// the method sweeps --streams: a warm-up run, then one run per point
	var tests []result.AnalyticTest
	for i := 1; i <= 4; i++ {
		res, _ := clitest.ReadResult(t, clitest.ResultFile(file, i))
		tests = append(tests, res.Analytic.Tests...)
		if g := res.Group; i > 1 && (g.Sweep != "streams" || g.Value != float64(i-1)) {
			t.Fatalf("run %d: group %+v, want the sweep's point streams=%d", i, g, i-1)
		}
	}
	if len(tests) != 4 || tests[0].Kind != "warmup" || tests[3].Streams != 3 || len(tests[3].QueryStreams) != 3 {
		t.Fatalf("sweep tests: %+v", tests)
	}
	for _, s := range tests[3].QueryStreams {
		if len(s.Queries) != 3 {
			t.Fatalf("stream %d ran %d queries, want the subset of 3", s.Stream, len(s.Queries))
		}
	}
	// a subset is marked everywhere: the console summary, every metric's name in the result (and so compare and
	// the report), the store's headline that results list shows
	const mark = "subset Q1,6,14 of 22"
	if !strings.Contains(out.Stdout, "SUBSET: not all 22 queries ran") || !strings.Contains(out.Stdout, "("+mark+")") {
		t.Errorf("console summary does not mark the subset:\n%s", out.Stdout)
	}
	res, _ := clitest.ReadResult(t, clitest.ResultFile(file, 4))
	if len(res.Metrics) == 0 {
		t.Fatal("no metrics")
	}
	for _, m := range res.Metrics {
		if m.Context { // what the run ran under (the host's CPU), not a figure of the queries
			continue
		}
		if !strings.HasSuffix(m.Name, " ("+mark+")") {
			t.Errorf("metric %q is not marked as a subset", m.Name)
		}
	}
	var list strings.Builder
	if err := results.List(context.Background(), &list, st, store.Filter{}); err != nil || strings.Count(list.String(), mark) != 3 { // the warm-up has no metrics
		t.Errorf("results list: %v\n%s", err, list.String())
	}
	// a run of all 22 is not marked
	if a := (&result.Analytic{Queries: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22}}); tpch.Subset(a) != "" {
		t.Errorf("all 22 queries marked %q", tpch.Subset(a))
	}
}

func TestTPCHBadInput(t *testing.T) {
	empty := "duckdb://" + filepath.Join(t.TempDir(), "e.duckdb")
	// an empty database, made by opening it (not by a ping run: the instance DuckDB keeps for a file after a run
	// whose last queries were interrupted can outlive every connection, and the next open of that file in the
	// process then waits on it; engine's open gives up on that wait, see duckdb_held.go)
	tg, err := engine.Parse(empty)
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	missing := filepath.Join(t.TempDir(), "m.duckdb")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tpch", "gen", "--scale", "0", "--out", t.TempDir()}, "--scale 0 is out of range"},
		{[]string{"tpch", "build", "--target", empty, "--scale", "-1"}, "out of range"},
		{[]string{"tpch", "gen", "--scale", "0.01"}, "--out DIR is required"},
		{[]string{"tpch", "gen", "--scale", "0.01", "--out", t.TempDir(), "--format", "xml"}, "--format \"xml\""},
		{[]string{"tpch", "run", "--target", empty}, "run 'dbdyno tpch build"},
		{[]string{"tpch", "validate", "--target", empty}, "run 'dbdyno tpch build"},
		{[]string{"tpch", "run", "--target", empty, "--streams", "two"}, "--streams \"two\""},
		{[]string{"tpch", "run", "--target", empty, "--queries", "1,23"}, "not a query number"},
		{[]string{"tpcc", "run", "--target", empty}, "tpcc workload runs on"},
		{[]string{"tpch", "run", "--target", "duckdb://" + missing}, "no database file at " + missing + ": build first, or check the path"},
		{[]string{"tpch", "validate", "--target", "duckdb://" + missing}, "no database file at " + missing + ": build first, or check the path"},
	} {
		r := clitest.Run(context.Background(), c.args...)
		lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
		if r.Code == 0 || len(lines) != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want one line saying %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
}

func TestTPCHCtrlCWritesAbortedResult(t *testing.T) {
	url := builtCopy(t, "duckdb")
	file := filepath.Join(t.TempDir(), "c.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Ctrl-C follows an event, not the clock: the sweep's second point has finished a query
	out := &cancelOn{cancel: cancel, after: ": 2 concurrent stream(s)", then: "  Q"}
	code, line := method.ExitStatus(method.Invoke(ctx, []string{"tpch", "run", "--target", url, "--streams", "1..40", "--result", file}, out, "test"), nil)
	r := clitest.Result{Code: code, Stdout: out.String(), Stderr: line}
	if r.Code != method.ExitAborted || !strings.Contains(r.Stderr, "run aborted") {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	// the sweep's runs each wrote their result; the last one is the interrupted one
	n := 1
	for ; ; n++ {
		if _, err := os.Stat(clitest.ResultFile(file, n+1)); err != nil {
			break
		}
	}
	res, _ := clitest.ReadResult(t, clitest.ResultFile(file, n))
	if strings.Contains(r.Stderr, "before measuring began") {
		// Ctrl-C landed while a point was being set up: the points before it ended ok, and nothing of it was measured
		if res.Status != result.StatusOK || n < 1 {
			t.Fatalf("cancelled while setting up: last result %s of %d", res.Status, n)
		}
		return
	}
	last := res.Analytic.Tests[len(res.Analytic.Tests)-1]
	if res.Status != result.StatusAborted || n < 2 || last.Status != result.StatusAborted || last.GeomeanSeconds != nil {
		t.Fatalf("status %s, %d results, last test %+v", res.Status, n, last)
	}
}

// A server that drops every connection mid-run (pg_terminate_backend, as a restart does): the failed queries are
// recorded as failures, the streams reconnect and go on, and the run ends failed with its partial figures.
// (A subtest of TestTPCHBuildAndValidateOnEveryEngine's postgres, on its build.)
func connectionsLostMidRun(t *testing.T, url string) {
	file := filepath.Join(t.TempDir(), "k.json")
	done := make(chan clitest.Result)
	go func() {
		done <- clitest.Run(context.Background(), "tpch", "run", "--target", url, "--streams", "2", "--repeat", "1", "--queries", "9,18,21,13",
			"--no-warmup", "--result", file)
	}()
	tg, _ := engine.Parse(url)
	admin, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	killed := 0
	// until the run ends (an event; a hang is go test's -timeout): every 20 ms, the queries running are terminated
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var r clitest.Result
wait:
	for {
		var n int
		admin.QueryRowContext(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = 'dbdyno' AND pid <> pg_backend_pid() AND datname = current_database() AND state = 'active'
			  AND (query ILIKE '%o_orderkey%' OR query ILIKE '%c_custkey%')`).Scan(&n)
		killed += n
		select {
		case r = <-done:
			break wait
		case <-tick.C:
		}
	}
	t.Logf("%d queries terminated", killed)
	if killed == 0 {
		t.Fatal("no query was running when the connections were terminated")
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("no result written (exit %d): %s", r.Code, r.Stderr)
	}
	res, _ := clitest.ReadResult(t, file)
	if r.Code == 0 || res.Status != result.StatusFailed {
		t.Fatalf("exit %d status %s after %d terminated queries", r.Code, res.Status, killed)
	}
	failed, ok := 0, 0
	for _, s := range res.Analytic.Tests[0].QueryStreams {
		for _, q := range s.Queries {
			if q.Status == "failed" {
				failed++
				if q.Error == "" {
					t.Fatal("a failed query must say why")
				}
			} else if q.Status == "ok" {
				ok++
			}
		}
		if len(s.Queries) != 4 {
			t.Fatalf("stream %d stopped after %d queries: it must go on after a lost connection", s.Stream, len(s.Queries))
		}
	}
	if failed == 0 || res.Analytic.Tests[0].GeomeanSeconds != nil {
		t.Fatalf("%d failed, %d ok, geomean %v", failed, ok, res.Analytic.Tests[0].GeomeanSeconds)
	}
}

// The 22 queries at scale factor 1 match the TPC's official answers (shared/tpch/answers/sf1), Q17 included.
func TestTPCHOfficialAnswersAtSF1(t *testing.T) {
	answers := answersDir(t, "1")
	url := "duckdb://" + filepath.Join(t.TempDir(), "sf1.duckdb")
	clitest.Must(t, "tpch", "build", "--target", url, "--scale", "1")
	v := clitest.Must(t, "tpch", "validate", "--target", url, "--answers", answers)
	if !strings.Contains(v.Stdout, "22 passed, 0 failed") {
		t.Fatalf("validate at SF 1:\n%s", v.Stdout)
	}
}

// --streams N alone is one set of N streams: no warm-up run (that is for sweeps), one result.
func TestTPCHOneStreamSetHasNoWarmup(t *testing.T) {
	url := builtCopy(t, "duckdb")
	file := filepath.Join(t.TempDir(), "o.json")
	r := clitest.Must(t, "tpch", "run", "--target", url, "--streams", "2", "--queries", "6", "--result", file, "--store", "")
	res, _ := clitest.ReadResult(t, file)
	if strings.Contains(r.Stdout, "warm-up") || len(res.Analytic.Tests) != 1 || res.Analytic.Tests[0].Kind != "streams" {
		t.Fatalf("tests %+v\n%s", res.Analytic.Tests, r.Stdout)
	}
	if _, err := os.Stat(clitest.ResultFile(file, 2)); err == nil {
		t.Fatal("a second result was written")
	}
}

// --maxdop is recorded and applied the engine's way where it has one; an engine without one, and --columnstore
// on an engine without columnstore indexes, are refused in one line naming the engines that take them.
// (PostgreSQL's --maxdop is a subtest of TestTPCHBuildAndValidateOnEveryEngine, on its build.)
func TestTPCHMaxdopAndColumnstore(t *testing.T) {
	maxdopRecorded(t, builtCopy(t, "duckdb"))
	lite := builtCopy(t, "sqlite")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tpch", "run", "--target", lite, "--power", "--maxdop", "2"}, "--maxdop: SQLite runs each query on one thread here; it applies to duckdb://, postgres://"},
		{[]string{"tpch", "run", "--target", lite, "--power", "--maxdop", "-1"}, "--maxdop must be at least 1"},
		{[]string{"tpch", "build", "--target", lite, "--scale", "0.01", "--drop", "--columnstore"}, "it applies to sqlserver:// targets"},
	} {
		r := clitest.Run(context.Background(), c.args...)
		lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
		if r.Code == 0 || len(lines) != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want one line saying %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
	// the refused --columnstore build left the database as it was
	clitest.Must(t, "tpch", "run", "--target", lite, "--power", "--queries", "6")
}

// maxdopRecorded: --maxdop 1 is recorded and applied on a built database, and the power test runs.
func maxdopRecorded(t *testing.T, url string) {
	file := filepath.Join(t.TempDir(), "m.json")
	clitest.Must(t, "tpch", "run", "--target", url, "--power", "--queries", "1,6", "--maxdop", "1", "--result", file)
	res, _ := clitest.ReadResult(t, file)
	if res.Analytic.MaxDOP != 1 || res.Analytic.Layout != "" || res.Options["maxdop"] != float64(1) {
		t.Errorf("%s: maxdop %d layout %q options %v", url, res.Analytic.MaxDOP, res.Analytic.Layout, res.Options["maxdop"])
	}
	if st := res.Analytic.Tests[0].Status; st != "ok" {
		t.Errorf("%s: power test %s", url, st)
	}
}

// --shapes checks a scale without reference answers against another scale's: columns and the row counts that do
// not depend on the scale. A wrong column count fails it.
func TestTPCHValidateShapes(t *testing.T) {
	url := "duckdb://" + filepath.Join(t.TempDir(), "shape.duckdb")
	clitest.Must(t, "tpch", "build", "--target", url, "--scale", "0.02")
	v := clitest.Must(t, "tpch", "validate", "--target", url, "--answers", answersDir(t, "0.1"), "--shapes")
	if !strings.Contains(v.Stdout, "shapes only") || !strings.Contains(v.Stdout, "22 passed, 0 failed") {
		t.Fatalf("shapes:\n%s", v.Stdout)
	}
	// without --shapes the other scale's answers are refused
	if r := clitest.Run(context.Background(), "tpch", "validate", "--target", url, "--answers", answersDir(t, "0.1")); r.Code == 0 || !strings.Contains(r.Stderr, "scale factor 0.1") {
		t.Fatalf("answers of another scale without --shapes: %d %s", r.Code, r.Stderr)
	}
	// the shape check can fail: answers with a column fewer
	dir := t.TempDir()
	src := answersDir(t, "0.1")
	entries, _ := os.ReadDir(src)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(src, e.Name()))
		os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
	}
	q1 := tpch.AnswerFile(dir, 1)
	b, _ := os.ReadFile(q1)
	lines := strings.Split(string(b), "\n")
	lines[0] = lines[0] + "|extra"
	os.WriteFile(q1, []byte(strings.Join(lines, "\n")), 0o644)
	r := clitest.Run(context.Background(), "tpch", "validate", "--target", url, "--answers", dir, "--shapes")
	if r.Code == 0 || !strings.Contains(r.Stdout, "Q1  FAIL") {
		t.Fatalf("a changed shape passed: %d\n%s", r.Code, r.Stdout)
	}
}

// cancelOn is a command's output that cancels the command once a line holding then follows a line holding
// after.
type cancelOn struct {
	mu          sync.Mutex
	buf         strings.Builder
	after, then string
	cancel      context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	s := c.buf.String()
	if i := strings.Index(s, c.after); i >= 0 && strings.Contains(s[i:], c.then) {
		c.cancel()
	}
	return len(p), nil
}

func (c *cancelOn) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}
