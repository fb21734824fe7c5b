package ycsb

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// printSummary writes a run's summary: dbdyno's (status, throughput, the operations' table, the client's CPU,
// the errors), then YCSB's text exporter's lines, as YCSB prints them at its end.
func printSummary(w io.Writer, res *result.Result, s *session) {
	m := res.Measurement
	fmt.Fprintf(w, "\n%s after %.1fs measured: %v ops/s (%v operations, %v failed)\n", strings.ToUpper(res.Status), m.MeasuredSecs,
		res.Figures["ops_per_s"], res.Figures["operations"], res.Figures["failed"])
	runner.PrintTable(w, m, "operation", presentOps(m))
	if v, ok := res.Figures["client_cpu_us_per_op"]; ok {
		fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system = %v µs per operation; reconnects %d\n",
			m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, v, m.Reconnects)
	}
	runner.PrintErrors(w, res)
	fmt.Fprintln(w)
	ycsbSummary(w, m, s)
}

// presentOps are the operations the run did (with any outcome), in YCSB's order.
func presentOps(m *result.Measurement) []string {
	var out []string
	for _, n := range OpNames {
		if t, ok := m.Transactions[n]; ok && t.Count+t.Errors+t.Rollbacks > 0 {
			out = append(out, n)
		}
	}
	return out
}

// ycsbSummary writes YCSB's text exporter's summary of a measurement (TextMeasurementsExporter over
// OneMeasurementHdrHistogram): [OVERALL] RunTime(ms) and Throughput(ops/sec), every operation done as done all
// failed ones included, as YCSB counts them; then for each operation its successful ones' count, mean, min, max
// and percentiles (hdrhistogram.percentiles, YCSB's 50, 95, 99) in µs, its return codes, and [OP-FAILED] with
// the count of those that failed.
func ycsbSummary(w io.Writer, m *result.Measurement, s *session) {
	line := func(metric, measurement string, v any) {
		var text string
		switch x := v.(type) {
		case float64:
			text = javaDouble(x)
		default:
			text = fmt.Sprint(x)
		}
		fmt.Fprintf(w, "[%s], %s, %s\n", metric, measurement, text)
	}
	runtime := int64(math.Round(m.MeasuredSecs * 1000))
	line("OVERALL", "RunTime(ms)", runtime)
	done := m.Committed + m.Rollbacks + m.Errors
	tp := 0.0
	if runtime > 0 {
		tp = 1000 * float64(done) / float64(runtime)
	}
	line("OVERALL", "Throughput(ops/sec)", tp)
	for op, n := range OpNames {
		t, ok := m.Transactions[n]
		if !ok || t.Count+t.Errors == 0 {
			continue
		}
		name := YCSBNames[op]
		line(name, "Operations", t.Count)
		if h, err := result.DecodeHistogram(t.Histogram); err == nil && h != nil && h.TotalCount() > 0 {
			line(name, "AverageLatency(us)", h.Mean())
			line(name, "MinLatency(us)", h.Min())
			line(name, "MaxLatency(us)", h.Max())
			for _, p := range s.cfg.Percentiles {
				line(name, ordinal(p)+"PercentileLatency(us)", h.ValueAtQuantile(p))
			}
		}
		notFound := int64(0)
		if s != nil {
			notFound = s.missed[op].Load()
		}
		if t.Count > 0 {
			line(name, "Return=OK", t.Count)
		}
		if notFound > 0 {
			line(name, "Return=NOT_FOUND", notFound)
		}
		if other := t.Errors - notFound; other > 0 {
			line(name, "Return=ERROR", other)
		}
		if t.Errors > 0 {
			line(name+"-FAILED", "Operations", t.Errors)
		}
	}
}

// ordinal is YCSB's: 95 is 95th, 99.9 is 99.9.
func ordinal(p float64) string {
	if p != math.Trunc(p) {
		return javaDouble(p)
	}
	j := int(p)
	switch j % 100 {
	case 11, 12, 13:
		return strconv.Itoa(j) + "th"
	}
	return strconv.Itoa(j) + [...]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}[j%10]
}

// javaDouble writes a double as Java's Double.toString does for the values a summary holds: the shortest
// decimal that reads back, with ".0" on a whole number.
func javaDouble(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eEN") {
		s += ".0"
	}
	return s
}

// writeExport writes YCSB's summary to exportfile, as YCSB's TextMeasurementsExporter does.
func writeExport(path string, res *result.Result, s *session) error {
	var b bytes.Buffer
	ycsbSummary(&b, res.Measurement, s)
	return os.WriteFile(path, b.Bytes(), 0o644)
}
