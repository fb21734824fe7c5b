package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/store"
)

// synthRecording writes days of intervals at interval into a store with the recording writer's own path
// (Sample as JSON, AddSample one interval at a time): two devices whose load follows the hour of the day and
// the day of the week (busy weekday hours, a lunchtime peak, quiet nights and weekends), the random share
// traced, a gap every week (a restart: the next interval marked first).
func synthRecording(t testing.TB, st *store.Store, name string, days int, interval time.Duration) int {
	ctx := context.Background()
	t0 := time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC) // a Monday
	n := int(time.Duration(days) * 24 * time.Hour / interval)
	secs := interval.Seconds()
	for i := 0; i < n; i++ {
		at := t0.Add(time.Duration(i+1) * interval)
		h := float64(at.Hour()) + float64(at.Minute())/60
		load := 200.0 // IOPS
		if wd := at.Weekday(); wd != time.Saturday && wd != time.Sunday && h >= 9 && h < 17 {
			load = 2000 + 800*math.Sin(float64(i)/37)
			if h >= 12 && h < 13 {
				load = 6000
			}
		}
		load += float64(i%97) * 3
		r := uint64(load * secs * 0.7)
		w := uint64(load*secs) - r
		s := Sample{At: at, Seconds: secs, CPU: load / 100, MemUsed: uint64(8+i%5) << 30, MemTotal: 32 << 30,
			First: i%(7*24*360) == 0,
			Devices: map[string]Delta{
				"sda": {Reads: r, Writes: w, ReadBytes: r * 8192, WriteBytes: w * 16384, ReadMs: r / 2, WriteMs: w, IOMs: uint64(secs * 500), WeightedMs: uint64(load)},
				"sdb": {Writes: w / 3, WriteBytes: w / 3 * 65536, WriteMs: w / 10, IOMs: uint64(secs * 100), WeightedMs: uint64(load / 10)}},
			Traced: map[string]Traced{"sda": {Random: r * 3 / 4, Sequential: r - r*3/4}, "sdb": {Sequential: w / 3}},
		}
		if i%1000 == 999 {
			tps := load / 3
			s.TPS = &tps
		}
		doc, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AddSample(ctx, name, s.At, doc); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// DBDYNO_MONITOR_MONTH=path writes a 30-day recording at 10 s ("month", 259,200 intervals) into the store at
// path, for timing `dbdyno monitor checklist month --store path` (docs/storage-planning.md).
func TestWriteMonthRecording(t *testing.T) {
	path := os.Getenv("DBDYNO_MONITOR_MONTH")
	if path == "" {
		t.Skip("DBDYNO_MONITOR_MONTH=path writes the month's recording there")
	}
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t.Logf("%d intervals", synthRecording(t, st, "month", 30, 10*time.Second))
}

// The checklist of a synthetic recording (nine days of 1 min intervals, the periods found from the load) is the
// same text and JSON as the one in testdata, written before the checklist's pass was made faster: any
// optimisation keeps its output.
func TestChecklistSameAsBefore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if d, err := os.MkdirTemp("/dev/shm", "dbdyno-checklist"); err == nil { // tmpfs: each interval's commit syncs nothing
		dir = d
		defer os.RemoveAll(d)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	synthRecording(t, st, "synth", 9, 60*time.Second)
	var got bytes.Buffer
	for _, periods := range [][]PeriodSpec{nil, mustPeriods(t, "normal=Mon-Fri 09:00-17:00,peak=Mon-Fri 12:00-13:00,off=Sat-Sun 00:00-24:00")} {
		c, err := ChecklistOf(ctx, st, "synth", periods, nil, 1.5, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		c.WriteTable(&got)
		if err := c.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("testdata", "checklist-synth.txt")
	if os.Getenv("DBDYNO_UPDATE_CHECKLIST_GOLDEN") != "" {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the checklist differs from %s (before the change):\n%s", golden, got.String())
	}
}

func mustPeriods(t *testing.T, s string) []PeriodSpec {
	p, err := ParsePeriods(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
