package method_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/pgproc"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// --cold-cmd runs before each measured repeat of any workload, and the result records what ran, its exit
// status and how long the target took to answer: on SQLite a command that touches a file (once per repeat).
func TestColdCmdOnSQLite(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "p.db")
	marks := filepath.Join(dir, "marks")
	res := filepath.Join(dir, "r.json")
	cmd := "echo x >> " + marks
	clitest.Must(t, "ping", "--target", url, "--rampup", "0s", "--duration", "200ms", "--repeat", "2", "--store", "", "--result", res, "--cold-cmd", cmd)
	b, err := os.ReadFile(marks)
	if err != nil || strings.Count(string(b), "x") != 2 {
		t.Fatalf("the command ran %q (%v), want once per repeat (twice)", b, err)
	}
	for i := 1; i <= 2; i++ {
		r, _ := clitest.ReadResult(t, clitest.ResultFile(res, i))
		c := r.ColdStart
		if c == nil || c.Command != cmd || c.ExitStatus != 0 || c.CommandS < 0 || c.ReadyS < 0 || c.Attempts != 1 {
			t.Fatalf("run %d's cold start: %+v", i, c)
		}
	}
	// a command that fails stops the run with its exit status, in one line
	r := clitest.Run(context.Background(), "ping", "--target", url, "--rampup", "0s", "--duration", "200ms", "--store", "", "--cold-cmd", "exit 3")
	if r.Code == 0 || !strings.Contains(r.Stderr, `--cold-cmd "exit 3" exited with status 3`) || strings.Count(r.Stderr, "\n") != 1 {
		t.Fatalf("a failing --cold-cmd: exit %d, %q", r.Code, r.Stderr)
	}
	// a target that does not come back within --cold-timeout (its file a directory now) fails the run, saying so
	away := filepath.Join(dir, "p.db.away")
	r = clitest.Run(context.Background(), "ping", "--target", url, "--rampup", "0s", "--duration", "200ms", "--store", "",
		"--cold-cmd", "mv "+filepath.Join(dir, "p.db")+" "+away+" && mkdir "+filepath.Join(dir, "p.db"), "--cold-timeout", "300ms")
	if r.Code == 0 || !strings.Contains(r.Stderr, "did not answer within --cold-timeout 300ms") {
		t.Fatalf("a target gone after --cold-cmd: exit %d, %q", r.Code, r.Stderr)
	}
	// with a warm-up, each repeat starts cold, warms up, then measures: the command runs once per repeat, before
	// the repeat's warm-up run, and the measured run records the cold start and the warm-up after it
	marks2 := filepath.Join(dir, "marks2")
	clitest.Must(t, "tpch", "build", "--target", "sqlite://"+filepath.Join(dir, "h.db"), "--scale", "0.01")
	st := filepath.Join(dir, "st.db")
	res2 := filepath.Join(dir, "h.json")
	log := clitest.Must(t, "tpch", "run", "--target", "sqlite://"+filepath.Join(dir, "h.db"), "--streams", "1", "--repeat", "2", "--store", st, "--result", res2,
		"--cold-cmd", "echo x >> "+marks2).Stdout
	if b, err := os.ReadFile(marks2); err != nil || strings.Count(string(b), "x") != 2 {
		t.Fatalf("the command ran %q (%v), want once per repeat (twice)", b, err)
	}
	// the order, per repeat: cold start, warm-up stream, measured stream
	seq := regexp.MustCompile(`cold start, then a warm-up run: one stream|warm-up|== run \d of 2`).FindAllString(log, -1)
	if got := strings.Join(seq, " > "); !strings.Contains(got, "== run 1 of 2 > cold start, then a warm-up run: one stream") || !strings.Contains(got, "== run 2 of 2 > cold start, then a warm-up run: one stream") {
		t.Fatalf("the sequence: %s\n%s", got, log)
	}
	measured := 0
	for i := 1; i <= 4; i++ { // each repeat's warm-up run, then its measured run
		r, _ := clitest.ReadResult(t, clitest.ResultFile(res2, i))
		if r.IsWarmup() != (i%2 == 1) {
			t.Fatalf("result %d: warm-up %v", i, r.IsWarmup())
		}
		if r.IsWarmup() {
			continue
		}
		measured++
		if c := r.ColdStart; c == nil || !c.WarmedUp || c.ExitStatus != 0 {
			t.Fatalf("measured run %d's cold start: %+v", i, c)
		}
	}
	if measured != 2 || !strings.Contains(log, "the 2 warm-up runs are stored too") || !regexp.MustCompile(`configuration medians:\n  time to complete median .* over 2 runs; median run \S+\nthe 2 warm-up`).MatchString(log) {
		t.Fatalf("%d measured runs; the summary:\n%s", measured, log)
	}
}

// On PostgreSQL the command restarts the server (pg_ctl, not waiting for it): the run waits until it answers,
// measures on the new server, and records how long that took.
func TestColdCmdRestartsPostgreSQL(t *testing.T) {
	t.Parallel() // on files (or a server) of its own: its timed windows overlap the other parallel tests'
	pg := pgproc.Start(t)
	before := pg.PostmasterPid()
	res := filepath.Join(t.TempDir(), "r.json")
	clitest.Must(t, "ping", "--target", pg.URL, "--rampup", "0s", "--duration", "300ms", "--store", "", "--result", res,
		"--cold-cmd", pg.RestartCommand(), "--cold-timeout", "60s")
	after := pg.PostmasterPid()
	if before == 0 || after == 0 || after == before {
		t.Fatalf("the postmaster was %d and is %d: the command did not restart it", before, after)
	}
	r, _ := clitest.ReadResult(t, res)
	c := r.ColdStart
	if c == nil || c.Command != pg.RestartCommand() || c.ExitStatus != 0 || c.Attempts < 1 || c.ReadyS < 0 {
		t.Fatalf("cold start: %+v", c)
	}
	t.Logf("cold start: command %.3fs, the server answered %.3fs after it (attempt %d)", c.CommandS, c.ReadyS, c.Attempts)
	if r.Status != "ok" || r.Measurement == nil || r.Measurement.Committed == 0 {
		t.Fatalf("the run after the restart: %s %s", r.Status, r.Error)
	}
}

// --cold-cmd's text and the output it relays keep no credential: the echoed command line, the command's own
// output (stdout and stderr, a last line without its newline too), the recorded command and the result file
// show URLs' passwords, credential parameters and the known passwords (the target's, DBDYNO_PASSWORD's) masked,
// where they stand only: DBDYNO_PASSWORD "bench" leaves "pgbench" whole.
func TestColdCmdMasksCredentials(t *testing.T) {
	t.Setenv("DBDYNO_PASSWORD", "bench") // not t.Parallel: the environment is the process's
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	cmd := `echo postgres://u:S3cretPW@127.0.0.1:1/x; echo "pgbench with $DBDYNO_PASSWORD"; echo PGPASSWORD=Other9 >&2; printf 'tail postgres://v:Part7@h/d'`
	r := clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "100ms", "--store", "",
		"--result", res, "--cold-cmd", cmd)
	rec, text := clitest.ReadResult(t, res)
	for _, s := range []string{r.Stdout, r.Stderr, text} {
		for _, secret := range []string{"S3cretPW", "Other9", "Part7", "with bench"} {
			if strings.Contains(s, secret) {
				t.Fatalf("%s shows in the run's output or result:\n%s", secret, s)
			}
		}
	}
	for _, want := range []string{"cold start: echo postgres://u:xxxxx@127.0.0.1:1/x; ", "\npostgres://u:xxxxx@127.0.0.1:1/x\n", "\npgbench with xxxxx\n",
		"\nPGPASSWORD=xxxxx\n", "\ntail postgres://v:xxxxx@h/d\ncold start: the target answered"} {
		if !strings.Contains(r.Stdout, want) {
			t.Fatalf("the output lacks %q:\n%s", want, r.Stdout)
		}
	}
	if c := rec.ColdStart; c == nil || !strings.HasPrefix(c.Command, "echo postgres://u:xxxxx@127.0.0.1:1/x; ") {
		t.Fatalf("the recorded cold start: %+v", c)
	}
	// a failing command's error line masks it too
	f := clitest.Run(context.Background(), "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "100ms",
		"--store", "", "--cold-cmd", "echo postgres://u:S3cretPW@h/d; exit 4")
	if f.Code == 0 || strings.Contains(f.Stdout+f.Stderr, "S3cretPW") || !strings.Contains(f.Stderr, `--cold-cmd "echo postgres://u:xxxxx@h/d; exit 4" exited with status 4`) {
		t.Fatalf("a failing --cold-cmd: exit %d, %q\n%s", f.Code, f.Stderr, f.Stdout)
	}
}

// On a server target the command may name the target's own URL and password: neither is shown.
func TestColdCmdMasksTheTargetsPassword(t *testing.T) {
	url := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_cold_mask")
	pw := clitest.PasswordOf(url)
	if len(pw) < 3 {
		t.Fatalf("the test server's URL has no password to hide")
	}
	res := filepath.Join(t.TempDir(), "r.json")
	r := clitest.Must(t, "ping", "--target", url, "--rampup", "0s", "--duration", "100ms", "--store", "", "--result", res,
		"--cold-cmd", "echo target "+url+"; echo password: "+pw)
	_, text := clitest.ReadResult(t, res)
	clitest.NoPassword(t, url, r.Stdout, r.Stderr, text)
	if !strings.Contains(r.Stdout, "\npassword: xxxxx\n") {
		t.Fatalf("the command's output:\n%s", r.Stdout)
	}
}
