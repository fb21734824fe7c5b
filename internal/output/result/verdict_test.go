package result

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A failed run's error classes and stall are part of its measurement: written, validated and read back; the
// schema refuses a stall that is not whole.
func TestErrorClassesAndStallRoundTrip(t *testing.T) {
	r := sample()
	r.Status, r.Error = StatusFailed, "the run stalled"
	r.Measurement.ErrorClasses = map[string]int64{"schema": 1, "connection_lost": 2}
	r.Measurement.Stall = &Stall{LimitS: 2, IdleIntervals: 1, InFlight: 2, LongestS: 4.1}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := back.Measurement; m.ErrorClasses["connection_lost"] != 2 || m.Stall == nil || m.Stall.InFlight != 2 || m.Stall.LongestS != 4.1 {
		t.Fatalf("round trip lost data: %+v %+v", m.ErrorClasses, m.Stall)
	}
	if d := back.Measurement.Stall.Describe(); !strings.Contains(d, "1 progress interval(s)") || !strings.Contains(d, "more than 2s") {
		t.Fatalf("stall words: %s", d)
	}
	r.Measurement.ErrorClasses["other"] = -1
	if b, _ := r.Marshal(); Validate(b) == nil {
		t.Fatal("a negative error count was accepted")
	}
	r.Measurement.ErrorClasses["other"] = 1
	b, _ := r.Marshal()
	var doc map[string]any
	json.Unmarshal(b, &doc)
	delete(doc["measurement"].(map[string]any)["stall"].(map[string]any), "in_flight")
	b, _ = json.Marshal(doc)
	if err := Validate(b); err == nil {
		t.Fatal("a stall without in_flight was accepted")
	}
	if ComparableWith([]*Result{sample(), r}, false) == nil || ComparableWith([]*Result{sample(), r}, true) != nil {
		t.Fatal("a failed run is refused unless asked for, and taken when asked for")
	}
}
