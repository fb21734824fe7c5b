package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// The command line itself: the commands built from the registries, their flags, one-line errors and exit
// statuses. What the commands do is tested in their packages (internal/workloads/tpcc, internal/workloads/tpch, internal/method).

func TestMain(m *testing.M) { clitest.Main(m) }

type cliResult struct {
	code           int
	stdout, stderr string
}

func cli(ctx context.Context, args ...string) cliResult {
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb, args: append([]string{"dbdyno"}, args...)}
	code := a.run(ctx, args)
	return cliResult{code, out.String(), errb.String()}
}

func TestBadInputGivesOneLineErrors(t *testing.T) {
	dir := t.TempDir()
	empty := "sqlite://" + filepath.Join(dir, "empty.db")
	if err := os.WriteFile(filepath.Join(dir, "empty.db"), nil, 0o644); err != nil { // an empty SQLite database
		t.Fatal(err)
	}
	missing := "sqlite://" + filepath.Join(dir, "missing.db")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tpcc", "build", "--target", "oracle://x/y"}, "unknown target scheme"},
		{[]string{"tpcc", "build", "--target", empty, "--warehouses", "0"}, "--warehouses must be at least 1"},
		{[]string{"tpcc", "run", "--target", empty, "--vus", "0"}, "--vus must be at least 1"},
		{[]string{"tpcc", "run", "--target", empty, "--mode", "fast"}, "--mode \"fast\" is not known"},
		{[]string{"tpcc", "run", "--target", empty, "--duration", "soon"}, `--duration "soon" is not a duration: write it with its unit, e.g. 30s, 5m, 1h30m`},
		{[]string{"tpcc", "run", "--target", empty, "--duration", "30"}, "dbdyno: --duration 30 has no unit: write 30s, 30m or 30h\n"},
		{[]string{"tpcc", "run", "--target", empty}, "run 'dbdyno tpcc build"},
		{[]string{"tpcc", "check", "--target", empty}, "run 'dbdyno tpcc build"},
		{[]string{"tpcc", "run", "--target", missing}, "no database file at"},
		{[]string{"tpcc", "run", "--target", "postgres://u:topsecret@127.0.0.1:1/d"}, "connection refused: is the server running"},
		{[]string{"tpcc", "run", "--target", "mysql://u:topsecret@127.0.0.1:1/d"}, "connection refused: is the server running"},
		{[]string{"tpcc", "run", "--target", empty, "--result", "/nonexistent-dir/r.json"}, "cannot write --result"},
		{[]string{"tpcc", "gen", "--warehouses", "1"}, "--out DIR is required"},
		{[]string{"tpcc", "run", "--target", empty, "--interval", "0s"}, "--interval must be positive"},
		{[]string{"tpcc", "run", "--target", empty, "--interval", "-1s"}, "--interval must be positive"},
		{[]string{"tpcc", "run", "--target", empty, "--reconnect-timeout", "-1s"}, "--reconnect-timeout must be positive"},
		{[]string{"tpcc", "run", "--target", empty, "--target", empty}, "is given twice"},
		{[]string{"ping", "--target", empty, "--interval", "0s"}, "--interval must be positive"},
		{[]string{"webstore", "run", "--target", empty, "--new-customers", "0.2"}, "dbdyno: --new-customers 0.2 is ambiguous: write 0.2% or 20%\n"},
		{[]string{"probe", "mixed", "--target", empty, "--hot", "0.9"}, "dbdyno: --hot 0.9 is ambiguous: write 0.9% or 90%\n"},
		{[]string{"tpcc", "run", "--target", empty, "--max-error-rate", "0.5"}, "--max-error-rate 0.5 is ambiguous: write 0.5% or 50%"},
		{[]string{"tpcc", "run", "--target", empty, "--label", "system=" + strings.Repeat("x", 100000)}, "a label's key may hold 64 characters and its value 256"},
		{[]string{"tpcc", "build", "--target", "sqlite://" + filepath.Join(dir, "huge.db"), "--warehouses", "100000"}, "this build needs about 9.7 TiB"},
		{[]string{"tpch", "build", "--target", "duckdb://" + filepath.Join(dir, "huge.duckdb"), "--scale", "100000"}, "choose another disk"},
	}
	if pg := os.Getenv("DBDYNO_TEST_PG"); pg != "" {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"tpcc", "run", "--target", strings.Replace(pg, clitest.PasswordOf(pg), "wrong-topsecret", 1)}, "authentication failed"})
	}
	if my := os.Getenv("DBDYNO_TEST_MYSQL"); my != "" {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"tpcc", "run", "--target", strings.Replace(my, clitest.PasswordOf(my), "wrong-topsecret", 1)}, "access denied"})
	}
	defer func() {
		if _, err := os.Stat(filepath.Join(dir, "huge.db")); err == nil {
			t.Error("a refused build left its database file")
		}
	}()
	for _, c := range cases {
		r := cli(context.Background(), c.args...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code == 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "dbdyno: ") || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want one line saying %q", engine.RedactArgs(c.args), r.code, r.stderr, c.want)
		}
		if strings.Contains(r.stderr+r.stdout, "topsecret") || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("%v: password or stack trace in output: %s", engine.RedactArgs(c.args), r.stderr)
		}
	}
}

// Every workload and shortcut of the registries is a command, with its declared flags; a measured command has
// the method's flags too.
func TestCommandsComeFromTheRegistries(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"tpcc", "run", "--help"}, []string{"--vus", "--warmup", "--repeat", "--label", "--store", "--metrics-interval", "--result", "--target"}},
		{[]string{"tpch", "run", "--help"}, []string{"--streams", "--no-restore", "--repeat", "--metrics-interval"}},
		{[]string{"ping", "--help"}, []string{"--vus", "--duration", "--repeat", "--target"}},
		{[]string{"tpcc", "build", "--help"}, []string{"--warehouses", "--threads", "--drop", "--seed", "--target"}},
		{[]string{"quickstart", "--help"}, []string{"--target", "--result", "--store"}},
	} {
		r := cli(context.Background(), c.args...)
		for _, w := range c.want {
			if r.code != 0 || !strings.Contains(r.stdout, w) {
				t.Errorf("%v: exit %d, no %s in:\n%s", c.args, r.code, w, r.stdout)
			}
		}
	}
	if r := cli(context.Background(), "tpcc", "build", "--help"); strings.Contains(r.stdout, "--repeat") {
		t.Error("a plain command has no method flags")
	}
}

// Ctrl-C ends a run with exit status 130, through the command line as through any other caller.
func TestCtrlCExitStatus(t *testing.T) {
	url := "sqlite://" + filepath.Join(t.TempDir(), "c.db")
	clitest.TPCCBuiltAt(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(2*time.Second, cancel)
	r := cli(ctx, "tpcc", "run", "--target", url, "--vus", "1", "--rampup", "0s", "--duration", "5m", "--store", "")
	if r.code != method.ExitAborted || !strings.Contains(r.stderr, "run aborted") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}

// dbdyno sql prints what runs; its output for every workload and engine is kept in internal/method/testdata.
func TestSQLCommand(t *testing.T) {
	r := cli(context.Background(), "sql", "--workload", "tpcc", "--engine", "postgres")
	if r.code != 0 || !strings.Contains(r.stdout, "-- name: no_stock(w_id, i_id, d_id)  -- from sql/postgres/tx.sql") ||
		!strings.Contains(r.stdout, "CAST($3 AS int)") {
		t.Fatalf("exit %d:\n%s", r.code, r.stdout)
	}
	if r := cli(context.Background(), "sql", "--engine", "oracle"); r.code == 0 || !strings.Contains(r.stderr, "unknown engine \"oracle\"") {
		t.Fatalf("unknown engine: %d %s", r.code, r.stderr)
	}
	if r := cli(context.Background(), "sql", "--workload", "tpcd", "--engine", "sqlite"); r.code == 0 || r.stdout != "" ||
		!strings.Contains(r.stderr, "unknown workload \"tpcd\"") {
		t.Fatalf("unknown workload: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}

// quickstart replaces TPC-C tables only in its own file; pointed at another database that holds them, it
// refuses as build does.
func TestQuickstartRefusesTablesItDidNotBuild(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.db")
	url := "sqlite://" + path
	clitest.TPCCBuiltAt(t, url) // a build of another command's: a copy of the one this test process makes
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := fileSum(t, path)
	r := cli(context.Background(), "quickstart", "--target", url, "--result", filepath.Join(dir, "q.json"), "--store", "")
	if r.code == 0 || !strings.Contains(r.stderr, "already has TPC-C tables") || !strings.Contains(r.stderr, "--drop") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	// the build is still there, untouched: not one byte of its file written
	if after, err := os.Stat(path); err != nil || !after.ModTime().Equal(before.ModTime()) || fileSum(t, path) != sum {
		t.Fatalf("quickstart wrote to the database it refused (%v)", err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		if fi, _ := os.Stat(path + "-wal"); fi.Size() > 0 {
			t.Fatalf("quickstart wrote %d bytes to the refused database's write-ahead log", fi.Size())
		}
	}
	if r := clitest.Must(t, "tpcc", "run", "--target", url, "--rampup", "0s", "--transactions", "100", "--store", "", "--result", filepath.Join(dir, "r.json")); !strings.Contains(r.Stdout, "dbdyno tpcc on") {
		t.Fatal(r.Stdout)
	}
	res, _ := clitest.ReadResult(t, filepath.Join(dir, "r.json"))
	if res.Options["build_seed"] != "1" {
		t.Fatalf("the database's build seed %v, want the copied build's 1", res.Options["build_seed"])
	}
}

// fileSum is the SHA-256 of a file's bytes.
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// The README opens with the two set-up commands (the embedded default's main job, the tests) and then says
// how to get the binary every later command uses.
func TestREADMEOpensWithTheTwoCommands(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	block := text[strings.Index(text, "```sh")+5:]
	block = block[:strings.Index(block, "```")]
	var cmds []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, _, _ := strings.Cut(l, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if len(cmds) != 2 || !strings.HasPrefix(cmds[0], "go run ./cmd/dbdyno ") || !strings.HasPrefix(cmds[1], "go test ") || !strings.HasSuffix(cmds[1], " ./...") {
		t.Fatalf("the README's set-up commands: %q", cmds)
	}
	ci, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil || !strings.Contains(string(ci), strings.Replace(cmds[1], "go test ", "go test -count=1 ", 1)) {
		t.Fatalf(".ci/run does not run the README's test command %q: %v", cmds[1], err)
	}
	rest := text[strings.Index(text, "```sh")+5+len(block):]
	if i := strings.Index(rest, "go build -o dbdyno ./cmd/dbdyno"); i < 0 || i > 300 {
		t.Fatal("right after its two commands, the README says how to build the dbdyno binary")
	}
}

// nextLines are the command lines a run ends with (after "next:"), as words.
func nextLines(t *testing.T, stdout string) [][]string {
	t.Helper()
	_, after, ok := strings.Cut(stdout, "\nnext:\n")
	if !ok {
		t.Fatalf("no next: in\n%s", stdout)
	}
	var out [][]string
	for _, l := range strings.Split(after, "\n") {
		if w := strings.Fields(l); len(w) > 1 && w[0] == "dbdyno" {
			out = append(out, w[1:])
		}
	}
	return out
}

// Every run ends with its run ID, where it is stored (an absolute path) and the report and compare command
// lines that use it; pasted, they work.
func TestRunSaysWhatComesNext(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "p.db")
	first := clitest.Must(t, "ping", "--target", url, "--rampup", "0s", "--duration", "1s", "--interval", "1s")
	if want := "is stored in " + store.DefaultPath + "\n"; !strings.Contains(first.Stdout, want) || strings.Contains(first.Stdout, "--store") ||
		!regexp.MustCompile(`calls/s +\d+ .*\(p50/p95/p99 µs\)`).MatchString(first.Stdout) {
		t.Fatalf("the default store is not named (%q), or named as a flag:\n%s", want, first.Stdout)
	}
	firstID := strings.Fields(strings.SplitN(first.Stdout, "\nrun ", 2)[1])[0]
	wd, _ := os.Getwd()
	os.Chdir(dir) // --store relative to the working directory: the lines name it absolutely
	defer os.Chdir(wd)
	second := clitest.Must(t, "ping", "--target", url, "--rampup", "0s", "--duration", "1s", "--interval", "1s", "--store", "mine.db")
	st := filepath.Join(dir, "mine.db")
	if !strings.Contains(second.Stdout, "is stored in "+st+"\n") {
		t.Fatalf("the store's absolute path is not named:\n%s", second.Stdout)
	}
	lines := nextLines(t, second.Stdout)
	if len(lines) != 2 || lines[0][0] != "report" || lines[1][0] != "compare" {
		t.Fatalf("next lines %q", lines)
	}
	os.Chdir(wd)
	// the first run is in the default store: copy it over to compare the two
	if r := cli(context.Background(), "results", "export", "--format", "json", "-o", filepath.Join(dir, "first.json"), firstID); r.code != 0 {
		t.Fatalf("export: %s", r.stderr)
	}
	for _, l := range lines {
		for i, w := range l {
			switch w {
			case "report.html":
				l[i] = filepath.Join(dir, "report.html")
			case "OTHER":
				l[i] = firstID
			}
		}
		if l[0] == "compare" {
			continue // OTHER is in another store: compare needs both in one (below)
		}
		if r := cli(context.Background(), l...); r.code != 0 {
			t.Fatalf("dbdyno %s: exit %d: %s", strings.Join(l, " "), r.code, r.stderr)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "report.html")); err != nil || fi.Size() == 0 {
		t.Fatalf("the report line wrote no report: %v", err)
	}
	// a sweep names its group and the compare line compares its first and last points
	sweep := clitest.Must(t, "ping", "--target", url, "--vus", "1,2", "--rampup", "0s", "--duration", "1s", "--interval", "1s", "--store", st)
	for _, l := range nextLines(t, sweep.Stdout) {
		for i, w := range l {
			if w == "report.html" {
				l[i] = filepath.Join(dir, "sweep.html")
			}
		}
		if r := cli(context.Background(), l...); r.code != 0 || (l[0] == "compare" && !strings.Contains(l[1], "@vus=1")) {
			t.Fatalf("dbdyno %s: exit %d: %s\n%s", strings.Join(l, " "), r.code, r.stderr, sweep.Stdout)
		}
	}
	// no store: the lines name the result file
	noStore := clitest.Must(t, "ping", "--target", url, "--rampup", "0s", "--duration", "1s", "--interval", "1s", "--store", "", "--result", filepath.Join(dir, "r.json"))
	if l := nextLines(t, noStore.Stdout); l[0][1] != filepath.Join(dir, "r.json") {
		t.Fatalf("no store: %q\n%s", l, noStore.Stdout)
	}
}

// One unit per quantity: a size is printed in the unit family it is typed in (--table-size 1m is 1 MiB, not
// 1.0 MB), and the stored headline names its unit.
func TestUnitsAsTyped(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "results.db")
	r := clitest.Must(t, "probe", "read", "--target", "sqlite://"+filepath.Join(dir, "r.db"), "--table-size", "1m", "--tables", "1", "--store", st)
	// "1.0 MB" as a size of its own, not inside a rate that happens to end in it ("171.0 MB/s" failed a run)
	if !strings.Contains(r.Stdout, "1 table(s) of 1 MiB") || regexp.MustCompile(`(^|[^\d.])1\.0 MB\b`).MatchString(r.Stdout) {
		t.Fatalf("--table-size 1m is not said as 1 MiB:\n%s", r.Stdout)
	}
	clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "1s", "--interval", "1s", "--store", st)
	// probe mixed's headline is ops/s: so are its progress lines
	m := clitest.Must(t, "probe", "mixed", "--target", "sqlite://"+filepath.Join(dir, "m.db"), "--rows", "2000", "--duration", "1s", "--interval", "1s", "--store", "")
	if !regexp.MustCompile(`measure ops/s +\d+ selects by id/s`).MatchString(m.Stdout) || strings.Contains(m.Stdout, "/min") {
		t.Fatalf("probe mixed's progress is not per second:\n%s", m.Stdout)
	}
	l := cli(context.Background(), "results", "list", "--store", st)
	if l.code != 0 || !strings.Contains(l.stdout, "read MB/min ") || !regexp.MustCompile(`p50 latency \d+ µs`).MatchString(l.stdout) {
		t.Fatalf("results list headlines without their unit:\n%s", l.stdout)
	}
}

// One flag vocabulary: --target is repeatable on a build (each target in turn) as on a run; a renamed flag's
// old spelling still works, hidden (probe mixed --threads is --vus).
func TestFlagVocabulary(t *testing.T) {
	dir := t.TempDir()
	a, b := "sqlite://"+filepath.Join(dir, "a.db"), "sqlite://"+filepath.Join(dir, "b.db")
	r := cli(context.Background(), "webstore", "build", "--target", a, "--target", b, "--customers", "100", "--products", "100", "--orders-per-month", "10")
	if r.code != 0 || !strings.Contains(r.stdout, "== target 2 of 2: "+b) {
		t.Fatalf("build of two targets: exit %d %s\n%s", r.code, r.stderr, r.stdout)
	}
	if r := cli(context.Background(), "webstore", "check", "--target", a, "--target", b); r.code != 0 || strings.Count(r.stdout, "== target") != 2 {
		t.Fatalf("check of the two targets: exit %d %s\n%s", r.code, r.stderr, r.stdout)
	}
	h := cli(context.Background(), "probe", "mixed", "--help")
	if !strings.Contains(h.stdout, "--vus") || strings.Contains(h.stdout, "--threads") {
		t.Fatalf("probe mixed's concurrency is not --vus:\n%s", h.stdout)
	}
	if r := cli(context.Background(), "probe", "mixed", "--target", a, "--threads", "0"); r.code == 0 || !strings.Contains(r.stderr, "--vus must be at least 1") {
		t.Fatalf("the old spelling --threads does not set --vus: exit %d %s", r.code, r.stderr)
	}
}

// --output-format json (as fio's): standard output is one JSON object, the runs' summary; the progress and
// summary lines people read go to standard error.
func TestOutputFormatJSON(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "results.db")
	r := cli(context.Background(), "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--vus", "1,2", "--rampup", "0s", "--duration", "1s",
		"--interval", "1s", "--store", st, "--result", filepath.Join(dir, "r.json"), "--label", "system=box", "--output-format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	var s method.Summary
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("standard output is not the summary: %v\n%s", err, r.stdout)
	}
	if dec.More() {
		t.Fatalf("standard output holds more than one object:\n%s", r.stdout)
	}
	if s.Tool != "dbdyno" || s.Workload != "ping" || s.Status != "ok" || s.Store != st || len(s.Runs) != 2 || s.Next == nil ||
		!strings.HasPrefix(s.Next.Report, "dbdyno report g") || !strings.Contains(s.Next.Compare, "@vus=1") {
		t.Fatalf("summary %+v", s)
	}
	for i, run := range s.Runs {
		if !strings.HasPrefix(run.RunID, "r") || run.Status != "ok" || !run.Stored || run.Headline == nil || run.Headline.Unit != "µs" ||
			len(run.Metrics) == 0 || run.Group == nil || run.Group.Sweep != "vus" || run.Labels["system"] != "box" || run.Engine != "sqlite" ||
			!filepath.IsAbs(run.ResultFile) {
			t.Fatalf("run %d: %+v", i, run)
		}
	}
	if !strings.Contains(r.stderr, "calls/s") || !strings.Contains(r.stderr, "\nnext:\n") {
		t.Fatalf("the progress is not on standard error:\n%s", r.stderr)
	}
	if r := cli(context.Background(), "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--output-format", "xml"); r.code == 0 ||
		!strings.Contains(r.stderr, `--output-format "xml" is not known: use normal or json`) {
		t.Fatalf("--output-format xml: exit %d %s", r.code, r.stderr)
	}
}

// A shared store's URL as the default store ($DBDYNO_STORE) never shows its password in the help: every
// command that takes --store printed it as its default before.
func TestHelpMasksTheStoresPassword(t *testing.T) {
	old := store.DefaultPath
	defer func() { store.DefaultPath = old }()
	store.DefaultPath = "postgres://u:s3cretpw@127.0.0.1:1/x"
	for _, args := range [][]string{{"tpcc", "run", "--help"}, {"results", "list", "--help"}, {"monitor", "--help"}, {"report", "--help"}, {"compare", "--help"}} {
		r := cli(context.Background(), args...)
		if r.code != 0 || !strings.Contains(r.stdout, "--store") {
			t.Fatalf("%v: exit %d, no --store in the help:\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, "s3cretpw") {
			t.Errorf("%v shows the store's password in its help", args)
		}
	}
}

// A workload command's help can be scanned: its own options first (--target before them, in the order its
// options struct declares them), the study's after under a heading of their own, every line wrapped at the
// terminal's width, and examples at the end. Before, tpcc run's 51 flags were one alphabetical list with lines
// up to 867 characters and no example.
func TestHelpGroupsAndWraps(t *testing.T) {
	t.Setenv("COLUMNS", "100")
	for _, c := range []struct {
		args           []string
		own, study, ex string
	}{
		{[]string{"tpcc", "run", "--help"}, "--warehouses", "--repeat", "dbdyno tpcc run --target"},
		{[]string{"script", "run", "--help"}, "-c, --vus", "--label", "dbdyno script run --target"},
		{[]string{"io", "run", "--help"}, "--rw", "--cold-cmd", "dbdyno io run --filename"},
		{[]string{"tpch", "run", "--help"}, "--streams", "--store", "dbdyno tpch run --target"},
	} {
		r := cli(context.Background(), c.args...)
		out := r.stdout
		opts, study, ex := strings.Index(out, "\nOptions:\n"), strings.Index(out, "\nStudy options"), strings.Index(out, "\nExamples:\n")
		if r.code != 0 || opts < 0 || study < opts || ex < study {
			t.Fatalf("%v: exit %d, sections at %d, %d, %d:\n%s", c.args, r.code, opts, study, ex, out)
		}
		own := strings.Index(out[opts:], c.own)
		if own < 0 || opts+own > study {
			t.Errorf("%v: %s is not among the command's own options", c.args, c.own)
		}
		if i := strings.Index(out[study:], c.study); i < 0 || study+i > ex {
			t.Errorf("%v: %s is not among the study's options", c.args, c.study)
		}
		if !strings.Contains(out[ex:], c.ex) {
			t.Errorf("%v: no example %q", c.args, c.ex)
		}
		if tg := strings.Index(out[opts:], "--target"); c.args[0] != "io" && (tg < 0 || tg > own) {
			t.Errorf("%v: --target is not the first of the command's own options", c.args)
		}
		for _, l := range strings.Split(out, "\n") {
			if len([]rune(l)) > 160 {
				t.Errorf("%v: a line of %d characters: %.80s...", c.args, len([]rune(l)), l)
			}
		}
	}
}
