package method

import (
	"fmt"

	"github.com/dbdyno/dbdyno/internal/lib/outfile"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// targetFiles are the database files of the embedded targets.
func targetFiles(ts []*engine.Target) []string {
	var out []string
	for _, t := range ts {
		if t != nil && t.Engine.Embedded {
			out = append(out, t.Path)
		}
	}
	return out
}

// checkTargetsAreNotTheStore refuses, before any command opens its targets, an embedded target whose file is a
// results store: the command's --store, or the default store every command without --store records in (a
// build would write its tables among the results, a run its load).
func checkTargetsAreNotTheStore(v *workload.Values, targets []*engine.Target) error {
	files := targetFiles(targets)
	m, measuring, err := workload.Group[workload.Measuring](v)
	if err != nil {
		return err
	}
	if measuring {
		if err := CheckStore(m.Store, files); err != nil {
			return err
		}
	}
	for _, t := range targets {
		if measuring && store.IsTarget(m.Store, t) {
			return fmt.Errorf("--store %s is the database of --target %s: its tables and load would go in among the results; keep the results in a database of their own", store.Display(m.Store), t)
		}
		if t != nil && t.Engine.Embedded && outfile.SamePath(t.Path, store.DefaultPath) {
			return fmt.Errorf("--target %s is dbdyno's results store (%s): its tables would go in among the results; give the target a file of its own", t, store.DefaultPath)
		}
	}
	return nil
}

// CheckStore refuses a results store that is one of the targets' database files.
func CheckStore(path string, targets []string) error {
	for _, t := range targets {
		if path != "" && outfile.SamePath(path, t) {
			return fmt.Errorf("--store %s is a target's database (%s): the results store is a file of its own; choose another", path, t)
		}
	}
	return nil
}
