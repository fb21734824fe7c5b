package method

import (
	"fmt"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// zeroHeadline fails a run whose headline, a rate where higher is better, is zero (NOPM 0, 0 operations per
// second): whatever the run met, it did not do the work its figure claims to measure. A bound ("less than
// 4 MiB") is not such a figure.
func zeroHeadline(metrics []result.Metric) error {
	for _, m := range metrics {
		if m.Headline && m.Better == result.Higher && m.Value == 0 && m.Bound == "" {
			return fmt.Errorf("the run's headline %s is 0: it did none of the work it measures", m.Name)
		}
	}
	return nil
}
