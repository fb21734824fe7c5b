package result

import (
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
)

func TestHistogramRoundTrip(t *testing.T) {
	h := hdrhistogram.New(1, 3600_000_000, 3)
	for i := int64(1); i <= 100_000; i++ {
		h.RecordValue(i * 37 % 2_000_000)
	}
	s := EncodeHistogram(h)
	if s == "" {
		t.Fatal("empty encoding")
	}
	back, err := DecodeHistogram(s)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equals(h) || back.ValueAtQuantile(99) != h.ValueAtQuantile(99) || back.TotalCount() != h.TotalCount() {
		t.Fatalf("decoded histogram differs: p99 %d vs %d, count %d vs %d", back.ValueAtQuantile(99), h.ValueAtQuantile(99), back.TotalCount(), h.TotalCount())
	}
	if EncodeHistogram(hdrhistogram.New(1, 10, 3)) != "" {
		t.Fatal("an empty histogram is stored as nothing")
	}
	if _, err := DecodeHistogram("bm90IGEgaGlzdG9ncmFt"); err == nil {
		t.Fatal("garbage decoded")
	}
}
