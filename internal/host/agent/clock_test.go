package agent_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// The agent's clock against this host's (one clock): the offset measured NTP's way is within half the round
// trip of zero, and it needs no token; a run given --start-at and --clock-ref records both, its measured
// window starting at that instant; a start already past, and --clock-ref without --start-at, are refused.
func TestClockOffsetAndStartAt(t *testing.T) {
	url, _ := start(t, tokenFile(t, token), time.Second)
	off, err := agent.ClockOffset(context.Background(), url, nil, 8)
	if err != nil {
		t.Fatal(err)
	}
	if off.RoundTrip <= 0 || off.Offset.Abs() > off.RoundTrip/2+time.Microsecond {
		t.Fatalf("offset %s with round trip %s against this host's own clock: want |offset| <= round trip / 2", off.Offset, off.RoundTrip)
	}
	dir := t.TempDir()
	db, res := "sqlite://"+filepath.Join(dir, "p.db"), filepath.Join(dir, "r.json")
	at := time.Now().Add(4 * time.Second).UTC().Truncate(time.Millisecond)
	clitest.Must(t, "ping", "--target", db, "--store", "", "--duration", "1s", "--rampup", "1s", "--result", res,
		"--start-at", at.Format(time.RFC3339Nano), "--clock-ref", url)
	r, _ := clitest.ReadResult(t, res)
	c, ok := r.Options["clock"].(map[string]any)
	if r.Options["start_at"] != at.Format(time.RFC3339Nano) || !ok || c["ref"] != url {
		t.Fatalf("the result records start_at %v and clock %v", r.Options["start_at"], r.Options["clock"])
	}
	// the window starts at the instant (on this host's clock, less the offset), never before it
	ms := r.Measurement.MeasureStart
	corrected := ms.Add(time.Duration(c["offset_ms"].(float64) * float64(time.Millisecond)))
	if rtt := time.Duration(c["round_trip_ms"].(float64) * float64(time.Millisecond)); corrected.Before(at.Add(-rtt)) || ms.Sub(at) > r.Measurement.MeasureEnd.Sub(ms)/10 {
		t.Fatalf("measured from %s (corrected %s), --start-at %s", ms, corrected, at)
	}
	for args, want := range map[string]string{
		"--start-at 2020-01-01T00:00:00Z":      "is already past",
		"--start-at +0s":                       "positive delay",
		"--clock-ref " + url:                   "give --start-at too",
		"--start-at +1h --clock-ref ftp://x:1": "give a dbdyno agent's address",
		"--start-at +1h --repeat 2":            "starts one measured run",
	} {
		r := clitest.Run(context.Background(), append([]string{"ping", "--target", db, "--store", "", "--duration", "1s"}, strings.Fields(args)...)...)
		if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, want) {
			t.Errorf("%s: exit %d, %q (want one line saying %q)", args, r.Code, r.Stderr, want)
		}
	}
}
