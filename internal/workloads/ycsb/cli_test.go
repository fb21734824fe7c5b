package ycsb_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) {
	clitest.AtLeastParallel(4)
	clitest.Main(m)
}

type target struct{ name, url string }

// engines are the embedded defaults SQLite and DuckDB in scratch files and, where the servers run (always in
// CI), PostgreSQL, MariaDB and SQL Server (when testsrv.MSSQLEnv names one), each in a database of its own.
func engines(t *testing.T, database string) []target {
	dir := t.TempDir()
	out := []target{{"sqlite", "sqlite://" + filepath.Join(dir, "y.db")}, {"duckdb", "duckdb://" + filepath.Join(dir, "y.duckdb")}}
	for _, u := range testsrv.Servers(t) {
		u = beside(t, u, database)
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, target{tg.Engine.Name, u})
	}
	return out
}

// besideMu makes this package's databases one at a time (Babelfish refuses two CREATE DATABASE at once).
var besideMu sync.Mutex

func beside(t *testing.T, url, name string) string {
	t.Helper()
	besideMu.Lock()
	defer besideMu.Unlock()
	return testsrv.Beside(t, url, name)
}

// records counts the rows of YCSB's table, on a connection of the test's own closed at once.
func records(t *testing.T, url, table string) int64 {
	t.Helper()
	_, db := testsrv.Open(t, url)
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatalf("counting %s: %v", table, err)
	}
	return n
}

// ycsbLine is a line of YCSB's summary: [SECTION], MEASUREMENT, VALUE.
func ycsbLine(t *testing.T, out, section, measurement string) (float64, bool) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(section) + `\], ` + regexp.QuoteMeta(measurement) + `, ([0-9.E-]+)$`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatalf("[%s], %s: %q", section, measurement, m[1])
	}
	return v, true
}

func mustLine(t *testing.T, out, section, measurement string) float64 {
	t.Helper()
	v, ok := ycsbLine(t, out, section, measurement)
	if !ok {
		t.Fatalf("no line [%s], %s in:\n%s", section, measurement, out)
	}
	return v
}

// YCSB's load and workloads A-F on every engine: the load inserts every record once, each run does exactly its
// operationcount in the workload's operations, the inserts of D and E add to the table and go on where the
// last run stopped, the summary has YCSB's lines, the check passes and the drop removes the table.
func TestYCSBWorkloadsOnEveryEngine(t *testing.T) {
	t.Parallel()
	for _, e := range engines(t, "dbdyno_ycsb") {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			res := filepath.Join(dir, "load.json")
			l := clitest.Must(t, "ycsb", "load", "--target", e.url, "--workload", "a", "-p", "recordcount=300", "--threads", "3", "--drop",
				"--store", "", "--result", res, "--seed", "5")
			clitest.NoPassword(t, e.url, l.Stdout, l.Stderr)
			if n := mustLine(t, l.Stdout, "INSERT", "Operations"); n != 300 {
				t.Fatalf("load: [INSERT] Operations %v, want 300\n%s", n, l.Stdout)
			}
			if mustLine(t, l.Stdout, "OVERALL", "Throughput(ops/sec)") <= 0 || !strings.Contains(l.Stdout, "YCSB's table usertable holds all 300 records") {
				t.Fatalf("load:\n%s", l.Stdout)
			}
			r, _ := clitest.ReadResult(t, res)
			if r.Measurement.Committed != 300 || r.Measurement.Errors != 0 || r.Options["phase"] != "load" || r.Options["threadcount"] != 3.0 {
				t.Fatalf("load result: %d committed, %d errors, options %v", r.Measurement.Committed, r.Measurement.Errors, r.Options)
			}
			if h, ok := r.Headline(); !ok || h.Name != "throughput" || h.Value <= 0 {
				t.Fatalf("load headline %+v", h)
			}
			if n := records(t, e.url, "usertable"); n != 300 {
				t.Fatalf("the table holds %d records after the load, want 300", n)
			}
			inserted := int64(0)
			for _, w := range []struct {
				letter string
				ops    []string // the operations its summary has
			}{{"a", []string{"READ", "UPDATE"}}, {"b", []string{"READ", "UPDATE"}}, {"c", []string{"READ"}}, {"d", []string{"READ", "INSERT"}},
				{"e", []string{"SCAN", "INSERT"}}, {"f", []string{"READ", "READ-MODIFY-WRITE"}}} {
				res := filepath.Join(dir, "run-"+w.letter+".json")
				out := clitest.Must(t, "ycsb", "run", "--target", e.url, "--workload", w.letter, "-p", "recordcount=300", "-p", "operationcount=200",
					"--threads", "2", "--store", "", "--result", res, "--seed", "7")
				clitest.NoPassword(t, e.url, out.Stdout, out.Stderr)
				r, _ := clitest.ReadResult(t, res)
				m := r.Measurement
				if m.Committed != 200 || m.Errors != 0 {
					t.Fatalf("workload %s: %d operations, %d errors (%v), want 200 and 0\n%s", w.letter, m.Committed, m.Errors, m.ErrorSamples, out.Stdout)
				}
				sum := 0.0
				for _, op := range w.ops {
					n := mustLine(t, out.Stdout, op, "Operations")
					sum += n
					mustLine(t, out.Stdout, op, "95thPercentileLatency(us)")
					if ok := mustLine(t, out.Stdout, op, "Return=OK"); ok != n {
						t.Fatalf("workload %s: [%s] Return=OK %v of %v", w.letter, op, ok, n)
					}
				}
				if sum != 200 || len(m.Transactions) != len(w.ops) {
					t.Fatalf("workload %s: its operations add up to %v of 200 (%d kinds)\n%s", w.letter, sum, len(m.Transactions), out.Stdout)
				}
				if w.letter == "a" || w.letter == "f" {
					// zipfian over 300 records: both kinds happen in 200 operations
					if m.Transactions["read"].Count == 0 {
						t.Fatalf("workload %s did no read", w.letter)
					}
				}
				inserted += m.Transactions["insert"].Count
			}
			if inserted == 0 {
				t.Fatal("workloads d and e inserted nothing in 400 operations")
			}
			if n := records(t, e.url, "usertable"); n != 300+inserted {
				t.Fatalf("the table holds %d records, want the 300 loaded and the %d the runs inserted", n, inserted)
			}
			c := clitest.Must(t, "ycsb", "check", "--target", e.url)
			if strings.Count(c.Stdout, "consistency PASS") != 3 {
				t.Fatalf("check:\n%s", c.Stdout)
			}
			d := clitest.Must(t, "ycsb", "drop", "--target", e.url)
			if !strings.Contains(d.Stdout, "dropped dbdyno's YCSB tables") {
				t.Fatalf("drop:\n%s", d.Stdout)
			}
			if r := clitest.Run(t.Context(), "ycsb", "run", "--target", e.url, "--workload", "a", "-p", "recordcount=300"); r.Code == 0 || !strings.Contains(r.Stderr, "no YCSB table usertable") {
				t.Fatalf("a run after the drop: exit %d\n%s", r.Code, r.Stderr)
			}
		})
	}
}

// A load from two drivers, each its range (insertstart, insertcount): the table is ready once both finished,
// a run before is refused, a range loaded twice is refused.
func TestYCSBLoadFromTwoDrivers(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.Join(t.TempDir(), "two.db")
	common := []string{"--target", url, "--workload", "c", "-p", "recordcount=200", "--store", ""}
	first := clitest.Must(t, append([]string{"ycsb", "load", "-p", "insertstart=0", "-p", "insertcount=120", "--threads", "2"}, common...)...)
	if !strings.Contains(first.Stdout, "loaded records 0..119; the loads so far hold 0..119 of 200") || mustLine(t, first.Stdout, "INSERT", "Operations") != 120 {
		t.Fatalf("first load:\n%s", first.Stdout)
	}
	r := clitest.Run(t.Context(), append([]string{"ycsb", "run"}, common...)...)
	if r.Code == 0 || !strings.Contains(r.Stderr, "holds only the records loads finished (0..119 of 200)") {
		t.Fatalf("a run before the second load: exit %d\n%s", r.Code, r.Stderr)
	}
	r = clitest.Run(t.Context(), append([]string{"ycsb", "load", "-p", "insertstart=100", "-p", "insertcount=100"}, common...)...)
	if r.Code == 0 || !strings.Contains(r.Stderr, "already holds records 100..119") {
		t.Fatalf("an overlapping load: exit %d\n%s", r.Code, r.Stderr)
	}
	second := clitest.Must(t, append([]string{"ycsb", "load", "-p", "insertstart=120", "-p", "insertcount=80"}, common...)...)
	if !strings.Contains(second.Stdout, "YCSB's table usertable holds all 200 records") || mustLine(t, second.Stdout, "INSERT", "Operations") != 80 {
		t.Fatalf("second load:\n%s", second.Stdout)
	}
	if n := records(t, url, "usertable"); n != 200 {
		t.Fatalf("%d records after both loads, want 200", n)
	}
	run := clitest.Must(t, append([]string{"ycsb", "run", "-p", "operationcount=100"}, common...)...)
	if mustLine(t, run.Stdout, "READ", "Operations") != 100 {
		t.Fatalf("run:\n%s", run.Stdout)
	}
}

// What a run cannot do is refused in one line that names it and the fix: properties that differ from the
// load's, a load over a loaded table, a connection property (its value never repeated), both ends of a run;
// unknown properties are warned of once however many runs; YCSB's own command line after -- is taken;
// exportfile gets YCSB's summary; target is the open-loop rate.
func TestYCSBPropertiesAndRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "r.db")
	clitest.Must(t, "ycsb", "load", "--target", url, "--workload", "b", "-p", "recordcount=100", "-p", "fieldcount=4", "-p", "fieldlength=20", "--store", "")
	b := []string{"--target", url, "--store", "", "--workload", "b"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-p", "recordcount=100", "-p", "fieldcount=5"}, "fieldcount=5, but YCSB's table usertable was loaded with fieldcount=4: give -p fieldcount=4"},
		{[]string{"run", "-p", "recordcount=150", "-p", "fieldcount=4"}, "recordcount=150, but YCSB's table usertable was loaded with recordcount=100"},
		{[]string{"load", "-p", "recordcount=100", "-p", "fieldcount=4"}, "already holds records 0..99 of YCSB's table usertable"},
		{[]string{"run", "-p", "recordcount=100", "-p", "fieldcount=4", "-p", "db.passwd=hunter2"}, "db.passwd (from -p): the JDBC binding's connection is not read"},
		{[]string{"run", "-p", "recordcount=100", "-p", "fieldcount=4", "-p", "maxexecutiontime=10"}, "operationcount=1000 and maxexecutiontime=10 both end the run"},
		{[]string{"load", "-p", "recordcount=100", "-p", "fieldcount=4", "--duration", "10s"}, "--duration: a load inserts its records"},
		{[]string{"run", "-p", "recordcount=100", "--", "-load"}, "YCSB's -load asks for its load phase, but this is dbdyno ycsb run"},
	} {
		args := append(append([]string{"ycsb", c.args[0]}, b...), c.args[1:]...)
		r := clitest.Run(t.Context(), args...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 || strings.Contains(r.Stdout+r.Stderr, "hunter2") {
			t.Errorf("%v: exit %d, want one line with %q:\n%s%s", c.args, r.Code, c.want, r.Stdout, r.Stderr)
		}
	}
	// a table of YCSB's name that dbdyno did not make is never touched, --drop or not
	foreign := "sqlite://" + filepath.Join(dir, "foreign.db")
	testsrv.Exec(t, foreign, "CREATE TABLE usertable (id int)", "INSERT INTO usertable VALUES (1)")
	for _, extra := range [][]string{nil, {"--drop"}} {
		r := clitest.Run(t.Context(), append([]string{"ycsb", "load", "--target", foreign, "--workload", "a", "--store", ""}, extra...)...)
		if r.Code == 0 || !strings.Contains(r.Stderr, "has a table usertable that dbdyno did not create: refusing to touch it") {
			t.Errorf("load %v over a user's usertable: exit %d\n%s%s", extra, r.Code, r.Stdout, r.Stderr)
		}
	}
	if n := records(t, foreign, "usertable"); n != 1 {
		t.Fatalf("the user's table holds %d rows, want its 1", n)
	}
	// YCSB's command line after --, a property file of one's own, an unknown property warned of once over two
	// repeats, exportfile
	props := filepath.Join(dir, "my.properties")
	export := filepath.Join(dir, "ycsb.txt")
	os.WriteFile(props, []byte("fieldcount=4\nrecordcount=100\noperationcount=60\nmongodb.url=mongodb://x\nexportfile="+export+"\n"), 0o644)
	res := filepath.Join(dir, "args.json")
	out := clitest.Must(t, "ycsb", "run", "--target", url, "--store", "", "--result", res, "--repeat", "2", "--", "run", "jdbc", "-P", "workloads/workloadb", "-P", props,
		"-threads", "2", "-s", "-p", "readallfields=false")
	if n := strings.Count(out.Stdout, "mongodb.url (from "+props+")"); n != 1 {
		t.Errorf("the unknown property is warned of %d times over two repeats, want once:\n%s", n, out.Stdout)
	}
	if !strings.Contains(out.Stdout, `binding "jdbc"`) {
		t.Errorf("the binding on YCSB's command line is not noted:\n%s", out.Stdout)
	}
	for i := 1; i <= 2; i++ {
		r, _ := clitest.ReadResult(t, clitest.ResultFile(res, i))
		if r.Measurement.Committed != 60 || r.Options["threadcount"] != 2.0 || r.Options["readallfields"] != false {
			t.Fatalf("repeat %d: %d operations, options %v", i, r.Measurement.Committed, r.Options)
		}
	}
	text, err := os.ReadFile(export)
	if err != nil || !strings.Contains(string(text), "[OVERALL], RunTime(ms), ") || !strings.Contains(string(text), "[READ], Operations, ") {
		t.Fatalf("exportfile: %v\n%s", err, text)
	}
	// -p target is the open loop's rate
	res = filepath.Join(dir, "target.json")
	clitest.Must(t, "ycsb", "run", "--target", url, "--workload", "c", "-p", "recordcount=100", "-p", "fieldcount=4", "-p", "operationcount=40", "-p", "target=400",
		"--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	if o := r.Measurement.OpenLoop; o == nil || o.RatePerS != 400 || o.Started != 40 || r.Options["rate"] != 400.0 {
		t.Fatalf("target=400: open loop %+v, options rate %v", r.Measurement.OpenLoop, r.Options["rate"])
	}
}

// A run's inserts go on after the last run's; when that run was cut short before it recorded where its inserts
// stopped, the next run finds its records in the table and goes on after them, with no duplicate key.
func TestYCSBInsertsGoOnAfterARunCutShort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "cut.db")
	common := []string{"--target", url, "--workload", "d", "-p", "recordcount=100", "-p", "operationcount=400", "-p", "insertproportion=0.5",
		"-p", "readproportion=0.5", "--store", ""}
	clitest.Must(t, append([]string{"ycsb", "load"}, common...)...)
	inserted := int64(0)
	for i := 0; i < 3; i++ {
		res := filepath.Join(dir, "r"+strconv.Itoa(i)+".json")
		out := clitest.Must(t, append([]string{"ycsb", "run", "--result", res}, common...)...)
		r, _ := clitest.ReadResult(t, res)
		if r.Measurement.Errors != 0 || r.Measurement.Committed != 400 {
			t.Fatalf("run %d: %d operations, %d errors %v", i, r.Measurement.Committed, r.Measurement.Errors, r.Measurement.ErrorSamples)
		}
		if i == 2 && !strings.Contains(out.Stdout, "inserted without recording it (one cut short): this run's inserts go on from key number "+strconv.FormatInt(100+inserted, 10)) {
			t.Fatalf("run after one cut short:\n%s", out.Stdout)
		}
		inserted += r.Measurement.Transactions["insert"].Count
		if i == 1 { // as if this run had been killed before it recorded where its inserts stopped
			testsrv.Exec(t, url, "DELETE FROM dbdyno_ycsb_meta WHERE k = 'next_insert'")
		}
	}
	if n := records(t, url, "usertable"); n != 100+inserted || inserted < 300 {
		t.Fatalf("%d records, want the 100 loaded and the %d inserted", n, inserted)
	}
}
