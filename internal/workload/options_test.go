package workload

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/spf13/pflag"
)

type group struct {
	Users    int           `flag:"users" sweep:"" default:"1" help:"users"`
	Duration time.Duration `flag:"duration" default:"60s" help:"measured time"`
	Seed     uint64        `flag:"seed" help:"seed"`
}

type testOptions struct {
	group      `users.flag:"threads" users.sweep:"by threads" duration.default:"5m"`
	Scale      float64  `flag:"scale" default:"1" help:"scale factor" min:"0.001"`
	Warehouses int      `flag:"warehouses" help:"warehouses" min:"1" max:"1000"`
	Threads    int      `flag:"load-threads" help:"load threads" max:"256" why:"more help no more"`
	Labels     []string `flag:"label" plan:"-" help:"labels"`
	Drop       bool     `flag:"drop" hidden:"true" help:"drop"`
	Size       string   `flag:"size" default:"S" unit:"S, M or L" help:"size"`
	//lint:ignore U1000 an unexported field, which the flags must skip
	internal int
}

func parse(t *testing.T, proto *testOptions, args ...string) *Values {
	t.Helper()
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	read := Define(fs, FlagsOf(proto))
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	v, err := read()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The flags come from the struct's tags, a group's adjustments included, and decode back into the fields.
func TestOptionsFromStruct(t *testing.T) {
	proto := &testOptions{Threads: 7}
	flags := FlagsOf(proto)
	byName := map[string]Flag{}
	for _, f := range flags {
		byName[f.Name] = f
	}
	if len(flags) != 9 {
		t.Fatalf("%d flags: %+v", len(flags), flags)
	}
	if f := byName["threads"]; f.Kind != Counts || f.SweepTitle != "by threads" || f.Default != "1" {
		t.Fatalf("renamed sweepable group option: %+v", f)
	}
	if _, ok := byName["users"]; ok {
		t.Fatal("the group's option kept its own name")
	}
	if f := byName["duration"]; f.Kind != Duration || f.Default != "5m" {
		t.Fatalf("group default not adjusted: %+v", f)
	}
	if f := byName["load-threads"]; f.Default != "7" {
		t.Fatalf("default from the prototype: %+v", f)
	}
	if !byName["label"].NoPlan || byName["label"].Kind != Strings || !byName["drop"].Hidden || byName["seed"].Kind != Uint {
		t.Fatalf("tags: %+v %+v %+v", byName["label"], byName["drop"], byName["seed"])
	}

	v := parse(t, proto, "--threads", "1,2,4", "--warehouses", "3", "--label", "a=1", "--scale", "0.5")
	o, err := Options[testOptions](v)
	if err != nil {
		t.Fatal(err)
	}
	if o.Users != 1 || o.Warehouses != 3 || o.Scale != 0.5 || o.Duration != 5*time.Minute || o.Threads != 7 || o.Size != "S" ||
		len(o.Labels) != 1 || o.Labels[0] != "a=1" {
		t.Fatalf("decoded %+v", o)
	}
	if f, points, err := v.Swept(); err != nil || f.Name != "threads" || len(points) != 3 {
		t.Fatalf("sweep %v %v %v", f, points, err)
	}

	// written back: the seed changes, the swept list stays
	o.Seed = 42
	w := v.With(o)
	if w.Uint("seed") != 42 || len(w.Counts("threads")) != 3 || v.Uint("seed") != 0 {
		t.Fatalf("With: seed %d, threads %v, original seed %d", w.Uint("seed"), w.Counts("threads"), v.Uint("seed"))
	}
	// a sweep point set by the method reaches the field
	p, _ := Options[testOptions](w.Set("threads", []int{4}))
	if p.Users != 4 || p.Seed != 42 {
		t.Fatalf("point %+v", p)
	}
}

func TestOptionsRanges(t *testing.T) {
	for args, want := range map[string]string{
		"--warehouses 0":                    "--warehouses must be at least 1 (got 0)",
		"--warehouses 1001":                 "--warehouses must be at most 1000 (got 1001)",
		"--scale 0":                         "--scale must be at least 0.001 (got 0)",
		"--warehouses 1 --load-threads 257": "--load-threads must be at most 256 (got 257): more help no more",
	} {
		_, err := Options[testOptions](parse(t, &testOptions{}, strings.Fields(args)...))
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
	if _, err := Options[testOptions](parse(t, &testOptions{}, "--warehouses", "5")); err != nil {
		t.Fatal(err)
	}
}

type typedCmd struct{ prepared *testOptions }

func (c *typedCmd) Prepare(o *testOptions, v *Values) error {
	if !v.Changed("seed") {
		o.Seed = 99
	}
	return nil
}
func (c *typedCmd) Warmup(o *testOptions) (bool, string) { return o.Drop, "" }
func (c *typedCmd) Start(_ context.Context, s Spec, o *testOptions) (Run, error) {
	c.prepared = o
	return nil, nil
}
func (c *typedCmd) Inputs(o *testOptions) ([]string, error) { return []string{o.Size}, nil }

// A measured command written against its struct: the method's values reach it decoded, Prepare's changes stick.
func TestNewMeasured(t *testing.T) {
	m := &typedCmd{}
	c := NewMeasured(Command{Name: "run"}, &testOptions{}, m)
	if !c.Typed() {
		t.Fatal("not typed")
	}
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	read := Define(fs, c.Flags)
	fs.Parse([]string{"--warehouses", "2", "--size", "M"})
	v, _ := read()
	v, err := c.Measured.Prepare(v)
	if err != nil {
		t.Fatal(err)
	}
	c.Measured.Start(context.Background(), Spec{Values: v})
	if m.prepared.Seed != 99 || m.prepared.Warehouses != 2 {
		t.Fatalf("start got %+v", m.prepared)
	}
	in, ok := c.Measured.(Inputs)
	if !ok {
		t.Fatal("Inputs not forwarded")
	}
	if files, _ := in.Inputs(v); len(files) != 1 || files[0] != "M" {
		t.Fatalf("inputs %v", files)
	}
	if _, err := c.Measured.Prepare(v.Set("warehouses", 0)); err == nil {
		t.Fatal("a value out of range passed Prepare")
	}
}

type otherOptions struct {
	Repeat int `flag:"repeat" default:"1" help:"repeats"`
}

// A command's values hold the flags of several structs (its own, the method's): each decodes into its own.
func TestOptionsOfSeveralStructs(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	read := Define(fs, append(FlagsOf(&testOptions{}), FlagsOf(&otherOptions{})...))
	fs.Parse([]string{"--repeat", "3", "--warehouses", "2"})
	v, _ := read()
	o, err := Options[testOptions](v)
	if err != nil || o.Warehouses != 2 {
		t.Fatalf("%+v %v", o, err)
	}
	p, err := Options[otherOptions](v)
	if err != nil || p.Repeat != 3 {
		t.Fatalf("%+v %v", p, err)
	}
}

type innerGroup struct {
	VUs int `flag:"vus" sweep:"" default:"1" help:"users"`
}

type outerGroup struct {
	innerGroup
	Seed uint64 `flag:"seed" help:"seed"`
}

type nestedOptions struct {
	outerGroup `vus.flag:"threads" vus.default:"2"`
}

// A command's adjustments reach the options of a group nested in the group it embeds (runner.Users holds
// runner.Timing).
func TestNestedGroupAdjusted(t *testing.T) {
	flags := FlagsOf(&nestedOptions{})
	if len(flags) != 2 || flags[0].Name != "threads" || flags[0].Default != "2" || flags[1].Name != "seed" {
		t.Fatalf("%+v", flags)
	}
}

type percentOptions struct {
	Share  string        `flag:"share" unit:"%" default:"20%" help:"a share kept as text"`
	Rate   float64       `flag:"rate" unit:"%" default:"1" help:"a share in per cent"`
	Direct units.Percent `flag:"direct" default:"5%" help:"a share of the percent type"`
}

// Every percentage option, whatever its field's type, reads 20% or 20, refuses 0.2 without % in one line, and
// holds the share written cleanly.
func TestPercentOptions(t *testing.T) {
	flags := FlagsOf(&percentOptions{})
	for _, f := range flags {
		if f.Kind != Percent || f.Unit != "%" {
			t.Fatalf("--%s is kind %d unit %q, not a percentage", f.Name, f.Kind, f.Unit)
		}
	}
	read := func(args ...string) (*percentOptions, error) {
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		r := Define(fs, flags)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		v, err := r()
		if err != nil {
			return nil, err
		}
		return Options[percentOptions](v)
	}
	o, err := read()
	if err != nil || o.Share != "20%" || o.Rate != 1 || o.Direct != 5 {
		t.Fatalf("defaults %+v %v", o, err)
	}
	o, err = read("--share", "35", "--rate", "0.5%", "--direct", "0.9%")
	if err != nil || o.Share != "35%" || o.Rate != 0.5 || o.Direct.String() != "0.9%" {
		t.Fatalf("given %+v %v", o, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--share", "0.2"}, "--share 0.2 is ambiguous: write 0.2% or 20%"},
		{[]string{"--rate", "0.5"}, "--rate 0.5 is ambiguous: write 0.5% or 50%"},
		{[]string{"--direct", "120"}, `--direct "120" is outside 0% to 100%`},
		{[]string{"--share", "most"}, `--share "most" is not a percentage: give 0% to 100%, e.g. 20%`},
	} {
		if _, err := read(c.args...); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	// a value written back (With) reads as given
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	r := Define(fs, flags)
	fs.Parse([]string{"--share", "7.5%"})
	v, _ := r()
	o, _ = Options[percentOptions](v)
	if back, err := Options[percentOptions](v.With(o)); err != nil || *back != *o {
		t.Fatalf("written back %+v, was %+v (%v)", back, o, err)
	}
}

type aliasOptions struct {
	group `users.alias:"threads,clients"`
	Scale float64 `flag:"scale" alias:"sf" default:"1" help:"scale"`
}

// A renamed option keeps its old spellings as hidden aliases that set it.
func TestAliases(t *testing.T) {
	flags := FlagsOf(&aliasOptions{})
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	read := Define(fs, flags)
	if err := fs.Parse([]string{"--threads", "1,2", "--sf", "3"}); err != nil {
		t.Fatal(err)
	}
	v, err := read()
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Counts("users"); len(got) != 2 || v.Float("scale") != 3 || !v.Changed("users") {
		t.Fatalf("aliases did not set their options: users %v, scale %v", got, v.Float("scale"))
	}
	var usage strings.Builder
	fs.SetOutput(&usage)
	fs.PrintDefaults()
	if strings.Contains(usage.String(), "threads") || strings.Contains(usage.String(), "--sf") || !strings.Contains(usage.String(), "--users") {
		t.Fatalf("the help lists an alias, or not the option:\n%s", usage.String())
	}
}
