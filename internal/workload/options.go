package workload

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/units"
)

// A command's options are one Go struct: each field with a `flag` tag is an option, and the tags carry what the
// CLI, plans and sweeps need, so an option is declared once and read as a field (a typo is a compile error):
//
//	type RunOptions struct {
//		runner.Users                                     // a shared group: its fields are options too
//		Warehouses int  `flag:"warehouses" default:"0" help:"warehouses to use" min:"0"`
//		Check      bool `flag:"check" help:"run the consistency checks after the run"`
//	}
//
// The tags:
//   - flag:"name"    the option's --name (a plan's key is the name with "_" for "-")
//   - default:"v"    its default as it would be typed (else the prototype's field value, else none)
//   - help:"text"    its help line
//   - unit:"u"       the unit the value is in (shown in the help: "(unit)"); unit:"%" makes a string or float64
//     option a percentage (Percent), as a units.Percent field is
//   - sweep:"title"  an int option that takes a count, a range 1..N or a list 1,2,4: more than one value sweeps
//     it, one run per value; the title words the sweep in reports ("N concurrent streams"; "" for "by NAME")
//   - plan:"-"       not settable from a plan; hidden:"true" not listed in the help
//   - min:"n", max:"n"  the range a number must lie in, checked when the options are decoded
//   - why:"text"     why the range is what it is: said after the refusal of a number out of it
//   - alias:"a,b"    older spellings that still work, hidden (a renamed flag keeps its old name this way)
//   - short:"D"      a one-letter spelling (-D), where a peer tool's users expect one (pgbench's -D)
//   - bare:"s"       a time.Duration option's bare number is in this unit (s or ms), as a peer tool's users
//     type it (pgbench's -T 10); without it a bare number is refused
//   - think:"true"   the option is a user's think or keying time (set when not zero): it paces a closed loop,
//     so an open-loop rate is refused beside it (Values.Thinking)
//
// The field's Go type gives the option's kind: int (Int, or Counts with sweep), uint64 (Uint), float64 (Float),
// bool (Bool), time.Duration (Duration), string (String), []string (Strings, repeatable), units.Percent
// (Percent: "20%" or "20", a bare number below 1 refused as ambiguous) and Shard (Sharded: I/N, parsed once). A percentage given as a string field
// (unit:"%") holds it written cleanly ("20%"), as a float64 field the number of per cent (20).
//
// A struct field without a flag tag that is itself a struct (embedded or named) is a group: its options are the
// command's. The group's field may adjust its options for this command with tags NAME.flag, NAME.default,
// NAME.help, NAME.why, NAME.alias, NAME.short and NAME.bare (NAME the option's flag in the group), e.g. `vus.alias:"threads"
// rampup.default:"0s"`.

var (
	durationType = reflect.TypeOf(time.Duration(0))
	percentType  = reflect.TypeOf(units.Percent(0))
	shardType    = reflect.TypeOf(Shard{})
)

// FlagsOf derives the flags of an options struct from its tags; proto is a pointer to the struct, whose
// non-zero fields are the defaults of options with no default tag.
func FlagsOf(proto any) []Flag {
	rv := reflect.ValueOf(proto)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("workload: options must be a pointer to a struct, not %T", proto))
	}
	var out []Flag
	collect(rv.Elem(), nil, nil, &out)
	for i := range out {
		out[i].owner = rv.Elem().Type()
	}
	seen := map[string]bool{}
	for _, f := range out {
		if seen[f.Name] {
			panic(fmt.Sprintf("workload: option --%s declared twice in %T", f.Name, proto))
		}
		seen[f.Name] = true
	}
	return out
}

// collect adds the options of struct value sv, whose fields sit at index path at; adjust holds the tags of the
// group fields it is nested in (the outermost first: the command's adjustments win), with their
// NAME.flag/NAME.default/NAME.help/NAME.why/NAME.sweep tags.
func collect(sv reflect.Value, at []int, adjust []reflect.StructTag, out *[]Flag) {
	st := sv.Type()
	for i := 0; i < st.NumField(); i++ {
		sf := st.Field(i)
		path := append(append([]int(nil), at...), i)
		name, ok := sf.Tag.Lookup("flag")
		if !ok {
			if sf.Type.Kind() == reflect.Struct && sf.Type != durationType && sf.Type != shardType {
				collect(sv.Field(i), path, append(append([]reflect.StructTag(nil), adjust...), sf.Tag), out)
			}
			continue
		}
		if !sf.IsExported() {
			panic("workload: option field " + sf.Name + " is not exported")
		}
		f := Flag{Name: name, Help: sf.Tag.Get("help"), field: path, Min: sf.Tag.Get("min"), Max: sf.Tag.Get("max")}
		f.Unit, f.Why = sf.Tag.Get("unit"), sf.Tag.Get("why")
		f.NoPlan = sf.Tag.Get("plan") == "-"
		if a := sf.Tag.Get("alias"); a != "" {
			f.Aliases = strings.Split(a, ",")
		}
		f.Hidden = sf.Tag.Get("hidden") == "true"
		f.Short, f.Bare = sf.Tag.Get("short"), sf.Tag.Get("bare")
		f.Think = sf.Tag.Get("think") == "true"
		switch {
		case sf.Type == durationType:
			f.Kind = Duration
		case sf.Type == shardType:
			f.Kind = Sharded
		case sf.Type == percentType || f.Unit == "%" && (sf.Type.Kind() == reflect.String || sf.Type.Kind() == reflect.Float64):
			f.Kind, f.Unit = Percent, "%"
		default:
			switch sf.Type.Kind() {
			case reflect.Int:
				f.Kind = Int
			case reflect.Uint64:
				f.Kind = Uint
			case reflect.Float64:
				f.Kind = Float
			case reflect.Bool:
				f.Kind = Bool
			case reflect.String:
				f.Kind = String
			case reflect.Slice:
				if sf.Type.Elem().Kind() == reflect.String {
					f.Kind = Strings
				} else {
					panic("workload: option " + name + " has an unsupported type " + sf.Type.String())
				}
			default:
				panic("workload: option " + name + " has an unsupported type " + sf.Type.String())
			}
		}
		if title, ok := sf.Tag.Lookup("sweep"); ok {
			if f.Kind != Int {
				panic("workload: only an int option can be swept: " + name)
			}
			f.Kind, f.SweepTitle = Counts, title
		}
		if d, ok := sf.Tag.Lookup("default"); ok {
			f.Default = d
		} else if fv := sv.Field(i); !fv.IsZero() {
			f.Default = format(fv)
		}
		lookup := func(key string) (string, bool) {
			for _, tag := range adjust {
				if v, ok := tag.Lookup(name + "." + key); ok {
					return v, true
				}
			}
			return "", false
		}
		if v, ok := lookup("flag"); ok {
			f.Name = v
		}
		if v, ok := lookup("default"); ok {
			f.Default = v
		}
		if v, ok := lookup("help"); ok {
			f.Help = v
		}
		if v, ok := lookup("why"); ok {
			f.Why = v
		}
		if v, ok := lookup("alias"); ok {
			f.Aliases = strings.Split(v, ",")
		}
		if v, ok := lookup("short"); ok {
			f.Short = v
		}
		if v, ok := lookup("hidden"); ok { // a shared option a command refuses: still parsed, not offered
			f.Hidden = v == "true"
		}
		if v, ok := lookup("bare"); ok && f.Kind == Duration {
			f.Bare = v
		}
		if v, ok := lookup("sweep"); ok && f.Kind == Counts {
			f.SweepTitle = v
		}
		*out = append(*out, f)
	}
}

func format(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case time.Duration:
		return x.String()
	case units.Percent:
		return x.String()
	case Shard:
		return x.String()
	case []string:
		if len(x) > 0 {
			return x[0]
		}
		return ""
	}
	return fmt.Sprint(v.Interface())
}

// Decode fills the options struct dst points to from the values, and checks the ranges its tags give; dst may
// be a group the options struct embeds (runner.Users), whose fields are then filled. A swept option holds its
// first value (in a run, the run's point).
func (v *Values) Decode(dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("workload: Decode needs a pointer to a struct, not %T", dst))
	}
	for _, f := range v.flags {
		path, ok := f.in(rv.Elem().Type())
		if !ok {
			continue
		}
		fv := rv.Elem().FieldByIndex(path)
		x := v.get(f.Name)
		if f.Kind == Counts {
			x = v.Count(f.Name)
		}
		val := reflect.ValueOf(x)
		if fv.Type() == durationType {
			val = reflect.ValueOf(x.(time.Duration))
		}
		if p, ok := x.(units.Percent); ok && fv.Kind() == reflect.String {
			val = reflect.ValueOf(p.String())
		}
		fv.Set(val.Convert(fv.Type()))
		if err := f.checkRange(fv); err != nil {
			return err
		}
	}
	return nil
}

// checkRange refuses a number outside the option's min/max, saying why the range is what it is when the option
// says.
func (f Flag) checkRange(fv reflect.Value) error {
	if f.Min == "" && f.Max == "" {
		return nil
	}
	err := f.outOfRange(fv)
	if err != nil && f.Why != "" {
		return fmt.Errorf("%v: %s", err, f.Why)
	}
	return err
}

// outOfRange is checkRange's refusal without the reason.
func (f Flag) outOfRange(fv reflect.Value) error {
	var x, lo, hi float64
	var got string
	switch f.Kind {
	case Int, Counts:
		x, got = float64(fv.Int()), fmt.Sprint(fv.Int())
	case Uint:
		x, got = float64(fv.Uint()), fmt.Sprint(fv.Uint())
	case Float:
		x, got = fv.Float(), fmt.Sprint(fv.Float())
	case Duration:
		d := time.Duration(fv.Int())
		got = d.String()
		if f.Min != "" {
			m, _ := time.ParseDuration(f.Min)
			if d < m {
				return fmt.Errorf("--%s must be at least %s (got %s)", f.Name, f.Min, got)
			}
		}
		if f.Max != "" {
			m, _ := time.ParseDuration(f.Max)
			if d > m {
				return fmt.Errorf("--%s must be at most %s (got %s)", f.Name, f.Max, got)
			}
		}
		return nil
	default:
		return nil
	}
	if f.Min != "" {
		lo, _ = strconv.ParseFloat(f.Min, 64)
		if x < lo {
			return fmt.Errorf("--%s must be at least %s (got %s)", f.Name, f.Min, got)
		}
	}
	if f.Max != "" {
		hi, _ = strconv.ParseFloat(f.Max, 64)
		if x > hi {
			return fmt.Errorf("--%s must be at most %s (got %s)", f.Name, f.Max, got)
		}
	}
	return nil
}

// With returns a copy of the values with the options struct src's fields written back (a seed drawn from the
// clock in Prepare); a swept option keeps its list unless src changed its value.
func (v *Values) With(src any) *Values {
	rv := reflect.ValueOf(src)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	c := &Values{flags: v.flags, vals: map[string]any{}, changed: v.changed}
	for k, x := range v.vals {
		c.vals[k] = x
	}
	for _, f := range v.flags {
		if f.field == nil || f.owner != rv.Type() {
			continue
		}
		fv := rv.FieldByIndex(f.field)
		switch f.Kind {
		case Counts:
			if n := int(fv.Int()); n != v.Count(f.Name) {
				c.vals[f.Name] = []int{n}
			}
		case Duration:
			c.vals[f.Name] = time.Duration(fv.Int())
		case Strings:
			c.vals[f.Name] = append([]string(nil), fv.Interface().([]string)...)
		case Percent:
			if fv.Kind() == reflect.String {
				if p, err := units.ParsePercent("--"+f.Name, fv.String()); err == nil {
					c.vals[f.Name] = p
				}
			} else {
				c.vals[f.Name] = units.Percent(fv.Float())
			}
		default:
			c.vals[f.Name] = fv.Convert(reflect.TypeOf(c.vals[f.Name])).Interface()
		}
	}
	return c
}

// Options decodes the values into a new T (see Decode).
func Options[T any](v *Values) (*T, error) {
	o := new(T)
	return o, v.Decode(o)
}

// NewCommand makes a plain command whose options are T: its flags come from proto's tags, and do gets them
// decoded once.
func NewCommand[T any](c Command, proto *T, do func(ctx context.Context, env *Env, o *T) error) *Command {
	c.Flags = FlagsOf(proto)
	c.Do = func(ctx context.Context, env *Env, v *Values) error {
		o, err := Options[T](v)
		if err != nil {
			return err
		}
		return do(ctx, env, o)
	}
	return &c
}

// MeasuredOf is a measured command written against its options struct T (see Measured).
type MeasuredOf[T any] interface {
	// Prepare checks the options before anything runs and settles what the whole command shares (a seed drawn
	// from the clock once, for every run) by changing o.
	Prepare(o *T, v *Values) error
	Warmup(o *T) (bool, string)
	Start(ctx context.Context, s Spec, o *T) (Run, error)
}

// InputsOf is a MeasuredOf whose command works on files of its own (see Inputs).
type InputsOf[T any] interface {
	Inputs(o *T) ([]string, error)
}

// NewMeasured makes a measured command whose options are T: its flags come from proto's tags, and the method's
// values reach m decoded.
func NewMeasured[T any](c Command, proto *T, m MeasuredOf[T]) *Command {
	c.Flags = FlagsOf(proto)
	a := typed[T]{m: m}
	switch x := any(m).(type) {
	case InputsOf[T]:
		if g, ok := any(m).(Aggregator); ok {
			c.Measured = typedInputsAggregator[T]{typedInputs[T]{a, x}, g}
		} else {
			c.Measured = typedInputs[T]{a, x}
		}
	case Aggregator:
		c.Measured = typedAggregator[T]{a, x}
	default:
		c.Measured = a
	}
	return &c
}

type typed[T any] struct{ m MeasuredOf[T] }

func (t typed[T]) Prepare(v *Values) (*Values, error) {
	o, err := Options[T](v)
	if err != nil {
		return nil, err
	}
	if err := t.m.Prepare(o, v); err != nil {
		return nil, err
	}
	return v.With(o), nil
}

func (t typed[T]) Warmup(v *Values) (bool, string) {
	o, _ := Options[T](v)
	return t.m.Warmup(o)
}

func (t typed[T]) Start(ctx context.Context, s Spec) (Run, error) {
	o, err := Options[T](s.Values)
	if err != nil {
		return nil, err
	}
	return t.m.Start(ctx, s, o)
}

type typedInputs[T any] struct {
	typed[T]
	in InputsOf[T]
}

func (t typedInputs[T]) Inputs(v *Values) ([]string, error) {
	o, err := Options[T](v)
	if err != nil {
		return nil, err
	}
	return t.in.Inputs(o)
}

type typedAggregator[T any] struct {
	typed[T]
	Aggregator
}

type typedInputsAggregator[T any] struct {
	typedInputs[T]
	Aggregator
}

// Typed says whether a command's options are a struct (every flag a field of it).
func (c *Command) Typed() bool {
	for _, f := range c.Flags {
		if f.field == nil {
			return false
		}
	}
	return len(c.Flags) > 0
}

// NewShortcut makes a shortcut whose options are T.
func NewShortcut[T any](s Shortcut, proto *T, steps func(o *T) [][]string) *Shortcut {
	flags := FlagsOf(proto)
	s.Flags = func() []Flag { return flags }
	s.Steps = func(v *Values) [][]string {
		o, err := Options[T](v)
		if err != nil {
			return nil
		}
		return steps(o)
	}
	return &s
}
