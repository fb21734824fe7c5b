package method_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Every command's options as the CLI and plans see them (name, kind, default, plan key, sweep title, help):
// testdata/flags.txt keeps them, so a change to an option (a typed struct's tag, a group's adjustment) shows in
// review. go test ./internal/method -run TestFlagsGolden -update rewrites it.
func TestFlagsGolden(t *testing.T) {
	if runtime.NumCPU() != 2 {
		t.Skip("the load threads' defaults follow the machine's cores: the golden file was written on 2 (as CI has)")
	}
	var b strings.Builder
	for _, m := range workload.All() {
		if strings.HasSuffix(m.Name, "test") { // the workloads these tests register
			continue
		}
		for _, c := range m.Commands {
			fmt.Fprintf(&b, "== dbdyno %s %s\n", m.Name, c.Name)
			for _, f := range method.CommandFlags(m, c) {
				fmt.Fprintf(&b, "--%s kind=%d default=%q plan=%v hidden=%v", f.Name, f.Kind, f.Default, !f.NoPlan, f.Hidden)
				if f.Kind == workload.Counts {
					fmt.Fprintf(&b, " sweep=%q", f.Title())
				}
				if len(f.Aliases) > 0 {
					fmt.Fprintf(&b, " aliases=%s", strings.Join(f.Aliases, ","))
				}
				fmt.Fprintf(&b, "\n    %s\n", f.Help)
			}
		}
	}
	for _, s := range workload.Shortcuts() {
		fmt.Fprintf(&b, "== dbdyno %s\n", s.Name)
		for _, f := range s.Flags() {
			fmt.Fprintf(&b, "--%s kind=%d default=%q\n    %s\n", f.Name, f.Kind, f.Default, f.Help)
		}
	}
	// the tests' store lives in a temporary directory of their own
	// (a default taken before the tests moved it, quickstart's, is the user's: per machine)
	text := strings.ReplaceAll(strings.ReplaceAll(b.String(), store.DefaultPath, "STORE"), store.DefaultLocation(), "STORE")
	golden := filepath.Join("testdata", "flags.txt")
	if *update {
		os.WriteFile(golden, []byte(text), 0o644)
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if text != string(want) {
		t.Errorf("the commands' options differ from %s (run with -update after checking the change)", golden)
	}
}
