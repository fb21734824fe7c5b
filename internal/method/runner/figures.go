package runner

import (
	"fmt"
	"io"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Round rounds v to digits decimal places (half up), as the workloads' figures are recorded.
func Round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	return float64(int64(v*p+0.5)) / p
}

// PrintErrors ends a run's summary: the sampled errors of its measured window, one a line, and how the run
// ended when it did not end well.
func PrintErrors(w io.Writer, res *result.Result) {
	for _, e := range res.Measurement.ErrorSamples {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	if res.Error != "" {
		fmt.Fprintln(w, result.Ended(res))
	}
}
