package workload

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/cmdhelp"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/spf13/pflag"
)

// Kind is a flag's type of value.
type Kind int

const (
	Int      Kind = iota
	Uint          // seeds
	Float         // scale factors
	Bool          // switches
	Duration      // 30s, 5m
	String
	Strings // repeatable: --label a=1 --label b=2
	Counts  // a count, a range 1..N or a list 1,2,4: a sweep when it holds more than one
	Percent // a share: 20% or 20 (units.ParsePercent); 0.2 without % is refused as ambiguous
	Sharded // a run's share: I/N (ParseShard), held as a Shard
)

// Flag is one option of a command, declared once: the CLI flag, the plan key and sweeps derive from it.
type Flag struct {
	Name    string // --name on the command line; name with "_" for "-" in plans
	Kind    Kind
	Default string // as it would be typed; "" for none
	Help    string
	NoPlan  bool // not settable from a plan (set by the plan itself, or a debugging aid)
	Hidden  bool
	// SweepTitle words a sweep of a Counts flag in reports: "N concurrent streams" (default "by NAME").
	SweepTitle string
	Unit       string // the unit the value is in, shown in the help
	Min, Max   string // the range a number must lie in ("" for none), checked by Decode
	Why        string // why the range is what it is, said after a refusal ("" for nothing)
	// Aliases are older spellings of the flag that still work (hidden from the help; a plan takes them too).
	Aliases []string
	Short   string // a one-letter spelling (-D), from the short tag
	// Study marks an option of the method's (repeats, results, the host's samples ...), which a command's help
	// lists after the command's own (lib/cmdhelp.Grouped)
	Study bool
	// Bare is the unit a Duration flag's bare number is in ("s", "ms"; the bare tag), as a peer tool's users
	// type it (pgbench's -T 10 and -L 5); "" refuses a bare number
	Bare  string
	Think bool         // a user's think or keying time (the think tag): an open-loop rate is refused beside it
	field []int        // the field of the options struct that holds it (FlagsOf)
	owner reflect.Type // that struct
}

// PlanKey is the flag's key in a plan's step.
func (f Flag) PlanKey() string { return strings.ReplaceAll(f.Name, "-", "_") }

// Title words a sweep over the flag for reports.
func (f Flag) Title() string {
	if f.SweepTitle != "" {
		return f.SweepTitle
	}
	return "by " + f.Name
}

// Values are a command's flags as given.
type Values struct {
	flags   []Flag
	vals    map[string]any
	changed map[string]bool
}

// Define adds flags to a flag set; the returned function reads them back after parsing.
func Define(fs *pflag.FlagSet, flags []Flag) func() (*Values, error) {
	ptrs := map[string]any{}
	for _, f := range flags {
		if f.Unit != "" {
			f.Help += " (" + f.Unit + ")"
		}
		switch f.Kind {
		case Int:
			d, _ := strconv.Atoi(orZero(f.Default))
			ptrs[f.Name] = fs.IntP(f.Name, f.Short, d, f.Help)
		case Uint:
			d, _ := strconv.ParseUint(orZero(f.Default), 10, 64)
			ptrs[f.Name] = fs.Uint64P(f.Name, f.Short, d, f.Help)
		case Float:
			d, _ := strconv.ParseFloat(orZero(f.Default), 64)
			p := (*floatValue)(&d)
			fs.VarP(p, f.Name, f.Short, f.Help)
			ptrs[f.Name] = (*float64)(p)
		case Bool:
			ptrs[f.Name] = fs.BoolP(f.Name, f.Short, f.Default == "true", f.Help)
		case Duration:
			d := &durationValue{s: orZero(f.Default)}
			fs.VarP(d, f.Name, f.Short, f.Help)
			ptrs[f.Name] = d
		case String, Counts, Percent, Sharded:
			ptrs[f.Name] = fs.StringP(f.Name, f.Short, f.Default, f.Help)
		case Strings:
			var d []string
			if f.Default != "" {
				d = []string{f.Default}
			}
			ptrs[f.Name] = fs.StringArrayP(f.Name, f.Short, d, f.Help)
		}
		if f.Hidden {
			fs.MarkHidden(f.Name)
		}
		if f.Study {
			fs.SetAnnotation(f.Name, cmdhelp.StudyGroup, []string{"true"})
		}
	}
	fs.SortFlags = false // the help lists them as declared: a command's own first
	aliases := map[string]string{}
	for _, f := range flags {
		for _, a := range f.Aliases {
			aliases[a] = f.Name
		}
	}
	if len(aliases) > 0 {
		prev := fs.GetNormalizeFunc()
		fs.SetNormalizeFunc(func(fs *pflag.FlagSet, name string) pflag.NormalizedName {
			if to, ok := aliases[name]; ok {
				name = to
			}
			return prev(fs, name)
		})
	}
	return func() (*Values, error) {
		v := &Values{flags: flags, vals: map[string]any{}, changed: map[string]bool{}}
		for _, f := range flags {
			v.changed[f.Name] = fs.Changed(f.Name)
			switch p := ptrs[f.Name].(type) {
			case *int:
				v.vals[f.Name] = *p
			case *uint64:
				v.vals[f.Name] = *p
			case *float64:
				v.vals[f.Name] = *p
			case *bool:
				v.vals[f.Name] = *p
			case *durationValue:
				d, err := parseDuration("--"+f.Name, p.s, f.Bare)
				if err != nil {
					return nil, err
				}
				v.vals[f.Name] = d
			case *[]string:
				v.vals[f.Name] = append([]string(nil), *p...)
			case *string:
				if f.Kind == Sharded {
					sh, err := ParseShard("--"+f.Name, *p)
					if err != nil {
						return nil, err
					}
					v.vals[f.Name] = sh
					continue
				}
				if f.Kind == Percent {
					pct, err := units.ParsePercent("--"+f.Name, *p)
					if err != nil {
						return nil, err
					}
					v.vals[f.Name] = pct
					continue
				}
				if f.Kind != Counts {
					v.vals[f.Name] = *p
					continue
				}
				counts, err := ParseCounts("--"+f.Name, *p)
				if err != nil {
					return nil, err
				}
				v.vals[f.Name] = counts
			}
		}
		return v, nil
	}
}

// durationValue is a duration flag as typed, read when the flags are (ParseDuration's one-line refusal).
type durationValue struct{ s string }

// floatValue is a Float flag's value: pflag's, with a refusal that says what a number is ("0.5 or 200", not
// strconv's words).
type floatValue float64

func (f *floatValue) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }
func (f *floatValue) Type() string   { return "float64" }
func (f *floatValue) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("not a number: give one such as 0.5 or 200")
	}
	*f = floatValue(v)
	return nil
}

func (d *durationValue) String() string { return d.s }
func (d *durationValue) Type() string   { return "duration" }
func (d *durationValue) Set(s string) error {
	d.s = s
	return nil
}

// ParseDuration reads a duration option: always with its unit (30s, 5m, 1h30m); a bare number is refused,
// naming the forms (the storage probe's fio options and the options a flag's bare tag gives a unit take one).
func ParseDuration(flag, s string) (time.Duration, error) { return parseDuration(flag, s, "") }

// parseDuration is ParseDuration where a bare number is in unit bare ("s", "ms") when that is set.
func parseDuration(flag, s, bare string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err == nil {
		return d, nil
	}
	if n, nerr := strconv.ParseFloat(strings.TrimSpace(s), 64); nerr == nil && bare != "" && n >= 0 && !math.IsInf(n, 0) {
		if d, err := time.ParseDuration(strings.TrimSpace(s) + bare); err == nil {
			return d, nil
		}
	}
	if _, nerr := strconv.ParseFloat(strings.TrimSpace(s), 64); nerr == nil && s != "0" {
		return 0, fmt.Errorf("%s %s has no unit: write %ss, %sm or %sh", flag, s, s, s, s)
	}
	return 0, fmt.Errorf("%s %q is not a duration: write it with its unit, e.g. 30s, 5m, 1h30m", flag, s)
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// MaxCount is the largest count a counts flag takes (virtual users, streams, threads of a run).
const MaxCount = 1000

// ParseCounts reads "4", "1..4" or "1,2,4" for a flag ("" is no value); every count is from 1 to MaxCount.
func ParseCounts(flag, s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n < 1 {
		return nil, fmt.Errorf("%s must be at least 1 (got %d)", flag, n)
	} else if err == nil && n > MaxCount {
		return nil, fmt.Errorf("%s must be at most %d (got %d)", flag, MaxCount, n)
	}
	bad := fmt.Errorf("%s %q is not a count from 1 to %d, a range 1..N or a list 1,2,4 (each at most %d)", flag, s, MaxCount, MaxCount)
	var out []int
	if lo, hi, ok := strings.Cut(s, ".."); ok {
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || a < 1 || b < a || b > MaxCount {
			return nil, bad
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
		return out, nil
	}
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > MaxCount {
			return nil, bad
		}
		out = append(out, n)
	}
	return out, nil
}

func (v *Values) get(name string) any {
	x, ok := v.vals[name]
	if !ok {
		panic("workload: no flag " + name) // a programming error: flags are declared with the command
	}
	return x
}

func (v *Values) Int(name string) int                { return v.get(name).(int) }
func (v *Values) Uint(name string) uint64            { return v.get(name).(uint64) }
func (v *Values) Float(name string) float64          { return v.get(name).(float64) }
func (v *Values) Bool(name string) bool              { return v.get(name).(bool) }
func (v *Values) Duration(name string) time.Duration { return v.get(name).(time.Duration) }
func (v *Values) String(name string) string          { return v.get(name).(string) }
func (v *Values) Strings(name string) []string       { return v.get(name).([]string) }
func (v *Values) Percent(name string) units.Percent  { return v.get(name).(units.Percent) }

// Counts is a Counts flag's values: one (or none) unless it is swept.
func (v *Values) Counts(name string) []int { return v.get(name).([]int) }

// Count is a Counts flag's single value (in a run, the swept flag holds the run's point), 0 when not given.
func (v *Values) Count(name string) int {
	c := v.Counts(name)
	if len(c) == 0 {
		return 0
	}
	return c[0]
}

// Changed reports whether the flag was given.
func (v *Values) Changed(name string) bool { return v.changed[name] }

// Set returns a copy with one value replaced (a sweep's point, a seed drawn from the clock).
func (v *Values) Set(name string, val any) *Values {
	c := &Values{flags: v.flags, vals: map[string]any{}, changed: v.changed}
	for k, x := range v.vals {
		c.vals[k] = x
	}
	c.vals[name] = val
	return c
}

// Swept is the Counts flag given more than one value, if any; more than one such flag is an error.
func (v *Values) Swept() (Flag, []int, error) {
	var found []Flag
	for _, f := range v.flags {
		if f.Kind == Counts && len(v.Counts(f.Name)) > 1 {
			found = append(found, f)
		}
	}
	switch len(found) {
	case 0:
		return Flag{}, nil, nil
	case 1:
		return found[0], v.Counts(found[0].Name), nil
	}
	return Flag{}, nil, fmt.Errorf("--%s and --%s are both lists: sweep one setting at a time", found[0].Name, found[1].Name)
}

// Thinking is the first think-time option (think tag) set to something other than zero, if any: users that
// think between transactions pace themselves, which an open-loop rate cannot go with.
func (v *Values) Thinking() (Flag, bool) {
	for _, f := range v.flags {
		if x, ok := v.vals[f.Name]; f.Think && ok && !reflect.ValueOf(x).IsZero() {
			return f, true
		}
	}
	return Flag{}, false
}

// ThinkFlag is the declared think-time flag (the think tag), set or not; false when the command has none.
func (v *Values) ThinkFlag() (Flag, bool) {
	for _, f := range v.flags {
		if f.Think {
			return f, true
		}
	}
	return Flag{}, false
}

// Flag returns a declared flag.
func (v *Values) Flag(name string) (Flag, bool) {
	for _, f := range v.flags {
		if f.Name == name {
			return f, true
		}
	}
	return Flag{}, false
}
