package sysmetrics

import (
	"context"
	"testing"
	"time"
)

// A run shorter than the sampling interval still has its stretch sampled: before, Stop returned no sample and
// the result's system metrics were empty (seen in CI: a 1 s run, a 1 s interval, the tick not yet delivered).
func TestStopSamplesTheLastStretch(t *testing.T) {
	s := Start(context.Background(), time.Hour, "this machine")
	time.Sleep(150 * time.Millisecond)
	m := s.Stop()
	if len(m.Samples) != 1 {
		t.Fatalf("%d samples, want the one stretch the run had", len(m.Samples))
	}
	if _, ok := m.Summary["cpu_busy_pct"]; !ok || m.Samples[0].T <= 0 {
		t.Fatalf("summary %v, sample at %v", m.Summary, m.Samples[0].T)
	}
}

// A final stretch under a tenth of the interval after full samples is not kept (a sample of a few
// milliseconds would weigh like a whole interval in the summaries).
func TestStopDropsASliverAfterFullSamples(t *testing.T) {
	s := Start(context.Background(), 100*time.Millisecond, "this machine")
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.mu.Lock()
		n := len(s.samples)
		s.mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	m := s.Stop()
	if len(m.Samples) < 2 {
		t.Fatalf("%d samples", len(m.Samples))
	}
	for i := 1; i < len(m.Samples); i++ {
		if m.Samples[i].T < m.Samples[i-1].T {
			t.Fatalf("samples out of order: %v", m.Samples)
		}
	}
}
