package leaderboard

import (
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// columns of a published figures' CSV: required first, then optional.
var (
	required = []string{"score", "system", "processor", "cores", "sockets", "threads_per_core", "source", "workload", "metric"}
	optional = []string{"unit", "engine", "base_mhz", "max_mhz", "price_per_hour", "license_per_core", "date"}
)

var workloadName = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// MaxNumber bounds every number of a published figures' CSV (a score, a clock, a price): no published score,
// clock or price comes near it, and a figure beyond it (1e308) is a typo or a unit, not a measurement, that
// would print in 300 digits.
const MaxNumber = 1e12

const maxNumberText = "1e12 (1,000,000,000,000)"

// Published marks the labels of an imported figure.
const Published = "published"

// Parse reads a CSV of published figures (a header row naming the columns, in any order; one figure per
// row; every required column present, threads_per_core and the optional ones may be left empty when unknown) into results marked published, each with its one metric as the headline. The first problem ends it, as
// one line naming the file, the line and the column.
func Parse(name string, in io.Reader, now time.Time, version string) ([]*result.Result, error) {
	cr := csv.NewReader(in)
	cr.TrimLeadingSpace = true
	cr.FieldsPerRecord = 0
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s line 1: the file is empty: give a header row naming the columns %s", name, strings.Join(required, ", "))
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	col := map[string]int{}
	known := map[string]bool{}
	for _, c := range append(append([]string{}, required...), optional...) {
		known[c] = true
	}
	for i, h := range header {
		k := strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))))
		if !known[k] {
			return nil, fmt.Errorf("%s line 1, column %d: %q is not a column dbdyno reads: use %s (and optionally %s)", name, i+1, h,
				strings.Join(required, ", "), strings.Join(optional, ", "))
		}
		if _, dup := col[k]; dup {
			return nil, fmt.Errorf("%s line 1, column %d: %q is there twice", name, i+1, h)
		}
		col[k] = i
	}
	for _, k := range required {
		if _, ok := col[k]; !ok {
			return nil, fmt.Errorf("%s line 1: no %q column: the header needs %s", name, k, strings.Join(required, ", "))
		}
	}
	var out []*result.Result
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		r, err := row(name, line, rec, col, now, version)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[r.RunID]; dup {
			return nil, fmt.Errorf("%s line %d: the same figure as line %d", name, line, prev)
		}
		seen[r.RunID] = line
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s line 2: no figures under the header", name)
	}
	return out, nil
}

// csvErr words encoding/csv's error as file, line and column.
func csvErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s line %d, column %d: %v", name, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %v", name, err)
}

func row(name string, line int, rec []string, col map[string]int, now time.Time, version string) (*result.Result, error) {
	get := func(k string) (string, int) {
		i, ok := col[k]
		if !ok {
			return "", 0
		}
		return strings.TrimSpace(rec[i]), i + 1
	}
	bad := func(k, format string, a ...any) error {
		_, c := get(k)
		return fmt.Errorf("%s line %d, column %d (%s): %s", name, line, c, k, fmt.Sprintf(format, a...))
	}
	text := func(k string) (string, error) {
		v, _ := get(k)
		if v == "" {
			return "", bad(k, "empty: give the %s", strings.ReplaceAll(k, "_", " "))
		}
		return v, nil
	}
	number := func(k string, need bool) (float64, error) {
		v, _ := get(k)
		if v == "" && !need {
			return 0, nil
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
		tooLarge := f >= MaxNumber && (err == nil || errors.Is(err, strconv.ErrRange)) // 1e400 parses as +Inf
		if !tooLarge && (err != nil || !(f > 0)) {
			return 0, bad(k, "%q is not a number above 0", v)
		}
		if tooLarge {
			return 0, bad(k, "%q is not a number below %s: give the figure as published", v, maxNumberText)
		}
		return f, nil
	}
	whole := func(k string, need bool) (int, error) {
		v, _ := get(k)
		if v == "" && !need {
			return 0, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, bad(k, "%q is not a whole number of at least 1", v)
		}
		return n, nil
	}
	var err error
	var p result.Published
	var workload, metric, unit string
	var score, base, maxMHz, price, lic float64
	for _, f := range []func() error{
		func() error { score, err = number("score", true); return err },
		func() error { p.System, err = text("system"); return err },
		func() error { p.Host.Model, err = text("processor"); return err },
		func() error { p.Host.PhysicalCores, err = whole("cores", true); return err },
		func() error { p.Host.Sockets, err = whole("sockets", true); return err },
		func() error { p.Host.ThreadsPerCore, err = whole("threads_per_core", false); return err },
		func() error { p.Source, err = text("source"); return err },
		func() error {
			if workload, err = text("workload"); err == nil && !workloadName.MatchString(workload) {
				err = bad("workload", "%q is not a workload name (lower case, e.g. tpce)", workload)
			}
			return err
		},
		func() error { metric, err = text("metric"); return err },
		func() error { base, err = number("base_mhz", false); return err },
		func() error { maxMHz, err = number("max_mhz", false); return err },
		func() error { price, err = number("price_per_hour", false); return err },
		func() error { lic, err = number("license_per_core", false); return err },
	} {
		if err := f(); err != nil {
			return nil, err
		}
	}
	if p.Host.PhysicalCores%p.Host.Sockets != 0 {
		return nil, bad("cores", "%d cores do not split evenly over %d sockets", p.Host.PhysicalCores, p.Host.Sockets)
	}
	unit, _ = get("unit")
	p.Engine, _ = get("engine")
	p.Host.BaseMHz, p.Host.MaxMHz, p.Host.Source = base, maxMHz, Published
	at := now.UTC().Truncate(time.Second)
	if d, _ := get("date"); d != "" {
		t, err := time.Parse("2006-01-02", d)
		if err != nil {
			return nil, bad("date", "%q is not a date as 2014-06-30", d)
		}
		at = t
	}
	labels := map[string]any{Published: true, "system": p.System, "source": p.Source}
	if price > 0 {
		labels["price_per_hour"] = price
	}
	if lic > 0 {
		labels["license_per_core"] = lic
	}
	id := sha256.Sum256([]byte(strings.Join([]string{workload, metric, strconv.FormatFloat(score, 'g', -1, 64), p.System, p.Host.Model,
		strconv.Itoa(p.Host.PhysicalCores), strconv.Itoa(p.Host.Sockets), p.Source}, "\x00")))
	return &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          result.Tool{Name: "dbdyno", Version: version, GoVersion: runtime.Version()},
		Workload:      workload,
		Command:       []string{"dbdyno", "results", "import", name},
		Options:       map[string]any{},
		Target:        result.Target{URL: Published},
		Status:        result.StatusOK,
		StartedAt:     at,
		EndedAt:       at,
		Metrics:       []result.Metric{{Name: metric, Unit: unit, Better: result.Higher, Value: score, Headline: true, PerCore: true, PerPrice: price > 0}},
		RunID:         fmt.Sprintf("pub-%x", id[:6]),
		Labels:        labels,
		Published:     &p,
	}, nil
}
