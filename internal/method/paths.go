package method

import (
	"bytes"
	"fmt"
	"github.com/dbdyno/dbdyno/internal/lib/outfile"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Kind is what an output file holds; an existing file at an output path must hold the same kind (dbdyno never
// replaces what it did not write).
type Kind int

const (
	ResultJSON    Kind = iota // a run's result
	ReportHTML                // dbdyno report
	ExportCSV                 // results export --format csv
	ExportJSON                // results export --format json
	LatencyLog                // a run's --log-latency file
	ExportMD                  // results export --format md
	ChecklistJSON             // monitor checklist --output-format json -o
	ChecklistText             // monitor checklist -o
)

func (k Kind) String() string {
	return [...]string{"result JSON", "HTML report", "CSV export", "JSON export", "latency log", "Markdown export", "checklist JSON", "checklist"}[k]
}

// looksLike reports whether a file's first bytes are what dbdyno writes as that kind.
func (k Kind) looksLike(head []byte) bool {
	h := string(bytes.TrimSpace(head))
	switch k {
	case ResultJSON:
		return strings.HasPrefix(h, "{") && strings.Contains(h, `"schema_version"`)
	case ReportHTML:
		return outfile.LooksLikeReport(head)
	case ExportCSV:
		return strings.HasPrefix(h, "run_id,workload,")
	case ExportJSON:
		return strings.HasPrefix(h, "[") && (strings.Contains(h, `"schema_version"`) || strings.TrimSpace(strings.TrimPrefix(h, "[")) == "]" || h == "null")
	case ChecklistJSON:
		return strings.HasPrefix(h, "{") && strings.Contains(h, `"devices"`) && strings.Contains(h, `"growth"`)
	case ChecklistText:
		return strings.HasPrefix(h, "checklist of ")
	case ExportMD:
		return strings.HasPrefix(h, "| run | workload |")
	case LatencyLog:
		lines := strings.Split(h, "\n")
		if len(head) == 512 && len(lines) > 1 {
			lines = lines[:len(lines)-1] // cut off by the head
		}
		for _, l := range lines {
			if !runner.LatencyLogLine.MatchString(l) {
				return false
			}
		}
		return true
	}
	return false
}

// CheckOutput refuses an output path before any work is done when writing it would lose data: it is one of the
// command's inputs (the results store, a target's database file), a directory, an existing file that is not
// of the kind being written, or in a directory where no file can be created.
func CheckOutput(flag, path string, kind Kind, inputs ...string) error {
	return outfile.Check(flag, path, kind.String(), "out"+ext(kind), kind.looksLike, inputs...)
}

func ext(k Kind) string {
	return [...]string{".json", ".html", ".csv", ".json", ".log", ".md", ".json", ".txt"}[k]
}

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
