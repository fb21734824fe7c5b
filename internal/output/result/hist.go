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
