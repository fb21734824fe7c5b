package workload

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
)

type timingGroup struct {
	Users    int           `flag:"users" sweep:"" default:"1" help:"users"`
	Duration time.Duration `flag:"duration" default:"60s" help:"time"`
}

type usersGroup struct {
	timingGroup
	Rate float64 `flag:"rate" help:"rate"`
}

type groupedRun struct {
	usersGroup `duration.default:"5m"`
	Rows       int `flag:"rows" default:"10" help:"rows"`
}

// A group the options struct embeds is read as a struct of its own (the method's and the runner's options):
// its fields decoded with the command's adjustments, whether each was given, the flag a field holds; a
// command without the group says so.
func TestGroups(t *testing.T) {
	flags := FlagsOf(&groupedRun{})
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	read := Define(fs, flags)
	if err := fs.Parse([]string{"--users", "2,4", "--rate", "5"}); err != nil {
		t.Fatal(err)
	}
	v, err := read()
	if err != nil {
		t.Fatal(err)
	}
	tg, ok, err := Group[timingGroup](v)
	if err != nil || !ok || tg.Users != 2 || tg.Duration != 5*time.Minute {
		t.Fatalf("the timing group: %+v %v %v", tg, ok, err)
	}
	ug, ok, err := Group[usersGroup](v)
	if err != nil || !ok || ug.Rate != 5 || ug.Users != 2 {
		t.Fatalf("the users group: %+v %v %v", ug, ok, err)
	}
	if !v.Given(tg, &tg.Users) || v.Given(tg, &tg.Duration) || !v.Given(ug, &ug.Rate) {
		t.Fatal("Given is wrong: --users and --rate were given, --duration was not")
	}
	if f := v.FlagOf(ug, &ug.Rate); f.Name != "rate" {
		t.Fatalf("the rate field holds --%s", f.Name)
	}
	if f := v.FlagOf(tg, &tg.Users); f.Name != "users" || f.Kind != Counts {
		t.Fatalf("the users field holds --%s (%v)", f.Name, f.Kind)
	}
	var o groupedRun
	if err := v.Decode(&o); err != nil || o.Rows != 10 || o.Users != 2 || !v.Given(&o, &o.Rate) {
		t.Fatalf("the whole struct: %+v %v", o, err)
	}
	if !Declares[timingGroup](flags) || Declares[Measuring](flags) {
		t.Fatal("Declares is wrong")
	}
	if m, ok, err := Group[Measuring](v); ok || err != nil || m == nil {
		t.Fatalf("a group the command lacks: %v %v %v", m, ok, err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a field that is not an option was taken")
		}
	}()
	var other timingGroup
	v.FlagOf(tg, &other.Users)
}
