package results

import (
	"bytes"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/outfile"
	"github.com/dbdyno/dbdyno/internal/output/result"
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
			if !result.LatencyLogLine.MatchString(l) {
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
