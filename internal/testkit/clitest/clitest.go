// Package clitest runs dbdyno's workload commands in tests as the command line would (method.Invoke with the
// flags each command declares, method.ExitStatus for the exit status and the one error line), and holds the
// helpers those tests share. Test packages that import it are external (package x_test): it registers every
// workload.
package clitest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	_ "github.com/dbdyno/dbdyno/internal/workloads/all" // every workload registers itself
)

// Main runs a package's tests with the default results store in a scratch directory.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "dbdyno-test")
	if err != nil {
		panic(err)
	}
	store.DefaultPath = filepath.Join(dir, "results.db")
	code := testsrv.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// AtLeastParallel lets n parallel tests run at once (go test's -parallel, GOMAXPROCS by default: 2 on a 2-core
// machine) unless -parallel was given: for a package whose parallel tests spend their time waiting (on
// servers, on timed windows) rather than computing. Call it from TestMain, before Main.
func AtLeastParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if f := flag.Lookup("test.parallel"); f != nil && !given {
		if cur, err := strconv.Atoi(f.Value.String()); err == nil && cur < n {
			f.Value.Set(strconv.Itoa(n))
		}
	}
}

// Result is a command's exit status and output.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Run runs one workload command line. A command that leaves a DuckDB handle or connection behind fails with exit
// status 70 (the next command on that file in this process would wait on it forever).
func Run(ctx context.Context, args ...string) Result { return RunWatching(ctx, nil, args...) }

// RunWatching is Run with each line of the command's output handed to watch as it is written, before the
// command goes on (watch runs on the goroutine that wrote the line, holding what that goroutine holds): a test
// acts on an event of the run, such as a query's line, rather than after a sleep.
func RunWatching(ctx context.Context, watch func(line string), args ...string) Result {
	out := &watched{watch: watch}
	code, line := run(ctx, out, args)
	return Result{code, out.String(), line}
}

// watched is a command's output: every line goes to watch, one at a time.
type watched struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial []byte
	watch   func(string)
}

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.watch == nil {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(w.partial[:i])
		w.partial = w.partial[i+1:]
		w.watch(line)
	}
}

func (w *watched) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// RunOn runs one workload command line as Run does, and calls on.Do (once) as soon as a line of its output
// contains on.Text (after the first line containing on.After, when set): a test acts on an event of the run
// (it started measuring, a query finished), not after a sleep that a loaded machine outlasts. A nil on is Run.
func RunOn(ctx context.Context, on *On, args ...string) Result {
	if on == nil {
		return Run(ctx, args...)
	}
	after := on.After == ""
	return RunWatching(ctx, func(line string) {
		if on.done {
			return
		}
		if !after {
			i := strings.Index(line, on.After)
			if i < 0 {
				return
			}
			after, line = true, line[i+len(on.After):]
		}
		if strings.Contains(line, on.Text) {
			on.done = true
			on.Do()
		}
	}, args...)
}

func run(ctx context.Context, out io.Writer, args []string) (int, string) {
	before := map[string]bool{}
	for _, h := range engine.HeldDuckDB() {
		before[h] = true
	}
	code, line := method.ExitStatus(method.Invoke(ctx, args, out, "test"), args)
	if line != "" {
		line += "\n"
	}
	left := func() (l []string) {
		for _, h := range engine.HeldDuckDB() {
			if !before[h] {
				l = append(l, h)
			}
		}
		return l
	}
	l := left()
	for wait := time.Now().Add(2 * time.Second); len(l) > 0 && time.Now().Before(wait); l = left() {
		time.Sleep(20 * time.Millisecond) // a connection being released as the command returns
	}
	for _, h := range l {
		code, line = 70, line+"test: the command left a DuckDB handle behind: "+h+"\n"
	}
	return code, line
}

// On is an event in a command's output: Do runs, once, when a line contains Text (after the first line
// containing After, when set).
type On struct {
	After, Text string
	Do          func()
	done        bool
}

// Must runs a command line that must succeed.
func Must(t testing.TB, args ...string) Result {
	t.Helper()
	r := Run(context.Background(), args...)
	if r.Code != 0 {
		t.Fatalf("dbdyno %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(engine.RedactArgs(args), " "), r.Code, r.Stdout, r.Stderr)
	}
	return r
}

// Engine is an engine the tests drive, with the modes its OLTP workload has.
type Engine struct {
	Name, URL string
	Modes     []string
}

// OLTPEngines are SQLite in a scratch file and, where the servers run (always in CI), PostgreSQL and MariaDB,
// and SQL Server when testsrv.MSSQLEnv names one.
func OLTPEngines(t *testing.T) []Engine {
	urls := append([]string{"sqlite://" + filepath.Join(t.TempDir(), "t.db")}, testsrv.Servers(t)...)
	var out []Engine
	for _, u := range urls {
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		modes := []string{"sql"}
		if tg.Engine.Procedures {
			modes = append(modes, "procedures")
		}
		out = append(out, Engine{tg.Engine.Name, u, modes})
	}
	return out
}

// PasswordOf is the password in a URL, "" when it has none.
func PasswordOf(url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		rest := url[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if c := strings.Index(rest[:at], ":"); c >= 0 {
				return rest[c+1 : at]
			}
		}
	}
	return ""
}

// NoPassword fails when the URL's password appears in any of the texts.
func NoPassword(t testing.TB, url string, texts ...string) {
	t.Helper()
	p := PasswordOf(url)
	if p == "" {
		return
	}
	for _, s := range texts {
		if strings.Contains(s, p) {
			t.Fatalf("the password appears in output or a result file")
		}
	}
}

// ReadResult reads and validates a result file, and returns its text too.
func ReadResult(t testing.TB, path string) (*result.Result, string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return r, string(b)
}

// ResultFile is the n-th (1-based) result file of a command given --result path: path, path.2.json, ...
func ResultFile(path string, n int) string {
	if n == 1 {
		return path
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + fmt.Sprintf(".%d", n) + ext
}

// StoredOne is the one result of the store at path (a merge's): the test fails unless it holds exactly one.
func StoredOne(t *testing.T, path string) *result.Result {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	es, err := s.List(ctx, store.Filter{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%d runs stored (%v), want the merged one", len(es), err)
	}
	rs, err := s.Get(ctx, es[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}
