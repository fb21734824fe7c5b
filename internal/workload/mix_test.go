package workload

import (
	"strings"
	"testing"
)

func TestParseMix(t *testing.T) {
	names, std := []string{"a", "b", "c"}, []float64{45, 43, 12}
	m, err := ParseMix("", names, std)
	if err != nil || m.Custom || m.Cards()[0] != 45 {
		t.Fatalf("standard: %+v %v", m, err)
	}
	if m, err = ParseMix("a=90,b=86,c=24", names, std); err != nil || m.Custom {
		t.Fatalf("the standard mix in proportion is not custom: %+v %v", m, err)
	}
	if m, err = ParseMix("a=1, b=1", names, std); err != nil || !m.Custom || m.Text != "a=1,b=1" || m.Cards()[2] != 0 {
		t.Fatalf("custom: %+v %v", m, err)
	}
	if c := (Mix{Weights: []float64{0.5, 0.25, 0.001}}).Cards(); c[0] != 666 || c[2] != 1 {
		t.Fatalf("cards %v", c)
	}
	for in, want := range map[string]string{"a=-1": "0 or more", "d=1": "names no transaction", "a": "TRANSACTION=WEIGHT",
		"a=0,b=0": "every weight is 0", "a=1,a=2": "given twice", "a=x": "not a number"} {
		if _, err := ParseMix(in, names, std); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--mix %s: %v, want one line with %q", in, err, want)
		}
	}
}
