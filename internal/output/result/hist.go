package result

import (
	"encoding/base64"
	"fmt"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// EncodeHistogram is a latency histogram as a result stores it (TxStats.Histogram): base64 of HdrHistogram's
// compressed encoding; "" for an empty one or when it cannot be encoded.
func EncodeHistogram(h *hdrhistogram.Histogram) string {
	if h == nil || h.TotalCount() == 0 {
		return ""
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(b)
}

// DecodeHistogram reads a stored histogram (EncodeHistogram) back.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("histogram: %w", err)
	}
	h, err := hdrhistogram.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("histogram: %w", err)
	}
	return h, nil
}

// LatencyOf is a histogram's summary as TxStats.Latency holds it.
func LatencyOf(h *hdrhistogram.Histogram) Latency {
	if h == nil || h.TotalCount() == 0 {
		return Latency{}
	}
	return Latency{Min: h.Min(), Mean: float64(int64(h.Mean()*10)) / 10, P50: h.ValueAtQuantile(50), P90: h.ValueAtQuantile(90),
		P95: h.ValueAtQuantile(95), P99: h.ValueAtQuantile(99), Max: h.Max()}
}
