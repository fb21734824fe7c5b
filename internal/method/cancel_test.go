package method_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// catalogRead is a workload made for this test: its run reads the database's catalog when measuring starts, as
// tpch's does (its scale, its tables), and Ctrl-C comes just then: the read fails with the driver's "context
// canceled", which is how the interruption reaches the run.
type catalogRead struct{}

type catalogReadFlags struct {
	Measured bool `flag:"measured" help:"the run measured something before the read"`
}

var cancelRun context.CancelFunc

func (catalogRead) Prepare(*catalogReadFlags, *workload.Values) error { return nil }
func (catalogRead) Warmup(*catalogReadFlags) (bool, string)           { return false, "" }
func (catalogRead) Start(ctx context.Context, s workload.Spec, o *catalogReadFlags) (workload.Run, error) {
	db, err := s.Target.Open(ctx)
	if err != nil {
		return nil, err
	}
	return &catalogReadRun{db: db, o: o}, nil
}

type catalogReadRun struct {
	db *sql.DB
	o  *catalogReadFlags
}

func (r *catalogReadRun) ServerVersion() string   { return "test" }
func (r *catalogReadRun) Options() map[string]any { return map[string]any{} }
func (r *catalogReadRun) Measure(ctx context.Context, res *result.Result) (bool, error) {
	cancelRun()
	var n int
	err := r.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n)
	if err == nil {
		panic("the query ran on a cancelled context")
	}
	if r.o.Measured {
		res.Measurement = &result.Measurement{VUs: 1, Transactions: map[string]result.TxStats{}, Intervals: []result.Interval{}}
	}
	return r.o.Measured, err
}
func (r *catalogReadRun) Finish(context.Context, *result.Result) error { return nil }
func (r *catalogReadRun) Close()                                       { r.db.Close() }

func init() {
	workload.Register(&workload.Meta{Name: "catalogreadtest", DefaultTarget: "sqlite://dbdyno.db", NeedsDB: true,
		Commands: []*workload.Command{workload.NewMeasured(workload.Command{Target: workload.ManyTargets}, &catalogReadFlags{}, catalogRead{})}})
}

// Ctrl-C that reaches a run's step as that step's error (a catalog read's "context canceled") ends the command
// aborted, with the partial result marked aborted when something was measured; before, it ended failed with
// exit status 1 ("listing tables: context canceled", seen in TestTPCHCtrlCWritesAbortedResult).
func TestCtrlCDuringMeasureIsAborted(t *testing.T) {
	for _, measured := range []bool{false, true} {
		file := filepath.Join(t.TempDir(), "r.json")
		ctx, cancel := context.WithCancel(context.Background())
		cancelRun = cancel
		args := []string{"catalogreadtest", "--target", "sqlite://" + filepath.Join(t.TempDir(), "c.db"), "--store", "", "--result", file}
		if measured {
			args = append(args, "--measured")
		}
		r := clitest.Run(ctx, args...)
		if r.Code != method.ExitAborted || !strings.Contains(r.Stderr, "run aborted") {
			t.Fatalf("measured %v: exit %d: %q", measured, r.Code, r.Stderr)
		}
		if !measured {
			if !strings.Contains(r.Stderr, "before measuring began") {
				t.Fatalf("nothing measured: %q", r.Stderr)
			}
			continue
		}
		res, err := result.Read(file)
		if err != nil || res.Status != result.StatusAborted || !strings.Contains(res.Error, "context canceled") {
			t.Fatalf("partial result: %v %+v", err, res)
		}
	}
}
