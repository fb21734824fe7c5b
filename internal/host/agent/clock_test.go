package agent_test

import (
	"context"
	"math"
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
	// the window starts at the instant (on this host's clock, less the offset), never before it, and late by
	// less than half the ramp-up: a run that ramped up from the instant would be a whole ramp-up late (a loaded
	// machine's scheduler may wake the runner some 100 ms late, so no tighter bound is the machine's own)
	const late = 500 * time.Millisecond // half the 1 s ramp-up below
	ms := r.Measurement.MeasureStart
	corrected := ms.Add(time.Duration(c["offset_ms"].(float64) * float64(time.Millisecond)))
	if rtt := time.Duration(c["round_trip_ms"].(float64) * float64(time.Millisecond)); corrected.Before(at.Add(-rtt)) || ms.Sub(at) > late {
		t.Fatalf("measured from %s (corrected %s), --start-at %s", ms, corrected, at)
	}
	// an NTP server 1.5 s ahead as the reference: the instant is read on its clock
	ntpRef := "ntp://" + agent.NTPServer(t, 1500*time.Millisecond, 2, true)
	at = time.Now().Add(1500*time.Millisecond + 4*time.Second).UTC().Truncate(time.Millisecond)
	clitest.Must(t, "ping", "--target", db, "--store", "", "--duration", "1s", "--rampup", "1s", "--result", res,
		"--start-at", at.Format(time.RFC3339Nano), "--clock-ref", ntpRef)
	r, _ = clitest.ReadResult(t, res)
	if c, ok = r.Options["clock"].(map[string]any); !ok || c["ref"] != ntpRef || math.Abs(c["offset_ms"].(float64)-1500) > c["round_trip_ms"].(float64)/2+1 {
		t.Fatalf("against NTP 1.5 s ahead, the result records clock %v", r.Options["clock"])
	}
	if ms := r.Measurement.MeasureStart; ms.Before(at.Add(-1600*time.Millisecond)) || ms.After(at.Add(-1500*time.Millisecond+late)) {
		t.Fatalf("measured from %s on this host's clock, --start-at %s on the reference's, 1.5 s ahead", ms, at)
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
