package method

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A server that went away between a run's start and its measurement (the second connection is refused) must
// leave the run's environment without counters, not stop the command with a nil-pointer panic.
func TestMeasuringSurvivesAServerThatWentAway(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now
	tg, err := engine.Parse(fmt.Sprintf("postgres://dbdyno@127.0.0.1:%d/gone", port))
	if err != nil {
		t.Fatal(err)
	}
	tg.ConnectTimeout = 2 * time.Second
	ctx := context.Background()
	m := startMeasured(ctx, tg, "PostgreSQL 15", &settings{interval: 100 * time.Millisecond, waitInterval: 100 * time.Millisecond})
	res := &result.Result{}
	m.finish(ctx, res)
	if res.Environment == nil || res.Environment.EngineVersion != "PostgreSQL 15" || res.DBCounters != nil || res.System == nil {
		t.Fatalf("environment %+v, counters %+v, system %v", res.Environment, res.DBCounters, res.System != nil)
	}
}

// A headline that is a bound ("less than 4 MiB") is not a measurement of no work; a measured 0 is.
func TestZeroHeadlineSparesABound(t *testing.T) {
	m := result.Metric{Name: "cached data estimate", Headline: true, Better: result.Higher, Value: 0}
	if zeroHeadline([]result.Metric{m}) == nil {
		t.Fatal("a measured headline of 0 passed")
	}
	m.Bound = "less than"
	if err := zeroHeadline([]result.Metric{m}); err != nil {
		t.Fatalf("a bound failed the run: %v", err)
	}
}
