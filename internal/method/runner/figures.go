package runner

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
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

// Measured is a workload's Derive for runs that measure a window: derive makes the metrics from the run's
// measurement; a run without one, or that measured no time, has none.
func Measured(derive func(r *result.Result, m *result.Measurement) []result.Metric) func(*result.Result) []result.Metric {
	return func(r *result.Result) []result.Metric {
		if m := r.Measurement; m != nil && m.MeasuredSecs > 0 {
			return derive(r, m)
		}
		return nil
	}
}

// FigureMetric appends d with the value of the run's figure key (a key figure), when the run recorded it.
func FigureMetric(out []result.Metric, d workload.MetricDesc, r *result.Result, key string) []result.Metric {
	if v, ok := r.Figures[key].(float64); ok {
		out = append(out, d.Value(v))
	}
	return out
}

// P95Metrics appends d once for each of the named transactions that completed any, in names' order: named
// "NAME p95 latency", its p95 latency in ms.
func P95Metrics(out []result.Metric, d workload.MetricDesc, m *result.Measurement, names []string) []result.Metric {
	for _, n := range names {
		if s, ok := m.Transactions[n]; ok && s.Count > 0 {
			out = append(out, d.Named(n+" p95 latency").WithNoise(result.LatencyNoise(n, 95)).Value(float64(s.Latency.P95)/1000))
		}
	}
	return out
}

// RunChecks runs a database's consistency checks and prints them (PrintChecks): what `WORKLOAD check` and a
// run's --check do.
func RunChecks(ctx context.Context, w io.Writer, check func(context.Context) ([]result.Check, error)) ([]result.Check, error) {
	checks, err := check(ctx)
	if err != nil {
		return nil, err
	}
	return checks, PrintChecks(w, checks)
}

// Violations runs one consistency condition's statement, whose rows (key, detail) are the places it is violated,
// and makes its check: passed when it returns no row, else the first five places named after what.
func Violations(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, name, what, query string, args ...any) (result.Check, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return result.Check{}, fmt.Errorf("consistency condition %s: %w", name, err)
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var k, d any
		if err := rows.Scan(&k, &d); err != nil {
			return result.Check{}, err
		}
		if len(bad) < 5 {
			bad = append(bad, fmt.Sprintf("(%s, %s)", text(k), text(d)))
		} else if len(bad) == 5 {
			bad = append(bad, "...")
		}
	}
	if err := rows.Err(); err != nil {
		return result.Check{}, fmt.Errorf("consistency condition %s: %w", name, err)
	}
	r := result.Check{Name: name, Passed: len(bad) == 0}
	if !r.Passed {
		r.Detail = what + ": violated at " + strings.Join(bad, " ")
	}
	return r, nil
}

func text(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}
