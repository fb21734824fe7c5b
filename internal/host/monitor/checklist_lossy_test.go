package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/store"
)

// A share from a trace that lost events is marked as such, never given as if whole: two intervals of a
// device, the second with 500 events lost; the random and sequential rows say how many were lost in how many
// intervals, in the table, the JSON and the report page; a whole trace's rows say nothing of the kind.
func TestChecklistMarksALossyTrace(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	dev := map[string]Delta{"vda": {Reads: 1000, ReadBytes: 4 << 20, ReadMs: 100}}
	samples := []Sample{
		{At: t0.Add(10 * time.Second), Seconds: 10, Devices: dev, Traced: map[string]Traced{"vda": {Random: 900, Sequential: 100}}},
		{At: t0.Add(20 * time.Second), Seconds: 10, Devices: dev, Traced: map[string]Traced{"vda": {Random: 250, Sequential: 250}}, TraceLost: 500},
	}
	c := Build("app", samples, nil, nil, 1, time.UTC)
	want := "lossy trace: 500 events lost in 1 of 2 intervals (the trace's buffer overran): the share is of the requests traced, a sample"
	for _, key := range []string{KeyRandomPct, KeySeqPct} {
		r, _ := c.Periods[0].Row(key)
		if r.Stat == nil || r.Lossy != want {
			t.Errorf("%s: %+v, lossy %q", key, r.Stat, r.Lossy)
		}
	}
	if r, _ := c.Periods[0].Row(KeyIOPS); r.Lossy != "" {
		t.Errorf("the IOPS row (from /proc/diskstats) is marked: %q", r.Lossy)
	}
	var table, js bytes.Buffer
	c.WriteTable(&table)
	if !strings.Contains(table.String(), "% random operations !") || !strings.Contains(table.String(), "! "+want) {
		t.Errorf("the table does not mark it:\n%s", table.String())
	}
	c.WriteJSON(&js)
	if !strings.Contains(js.String(), `"lossy": "lossy trace: 500 events lost`) {
		t.Errorf("the JSON does not mark it:\n%s", js.String())
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, x := range samples {
		doc, _ := json.Marshal(x)
		if err := st.AddSample(ctx, "app", x.At, doc); err != nil {
			t.Fatal(err)
		}
	}
	var page bytes.Buffer
	if err := WriteReport(ctx, st, &page, "app", []PeriodSpec{{Name: "all", Spec: "every interval", everything: true}}, nil, 1, time.UTC); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "! lossy trace: 500 events lost in 1 of 2 intervals") {
		t.Error("the report page does not mark it")
	}
	samples[1].TraceLost = 0
	c = Build("app", samples, nil, nil, 1, time.UTC)
	if r, _ := c.Periods[0].Row(KeyRandomPct); r.Lossy != "" {
		t.Errorf("a whole trace is marked: %q", r.Lossy)
	}
}
