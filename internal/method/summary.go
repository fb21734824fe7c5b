package method

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Summary is what a measured command run with --output-format json writes on standard output: one JSON object
// (as fio's --output-format=json), the same for every workload. docs/flags.md describes it.
type Summary struct {
	Tool     string   `json:"tool"` // "dbdyno"
	Version  string   `json:"version"`
	Workload string   `json:"workload"`
	Command  []string `json:"command"` // passwords redacted
	// Status is the command's: ok, failed (Error says why) or aborted (Ctrl-C).
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Store is the results store's absolute path, or its URL without the password ("" when --store "").
	Store string       `json:"store"`
	Runs  []RunSummary `json:"runs"`
	// Next holds the report and compare command lines that use the runs (absent when they are kept nowhere).
	Next *next `json:"next,omitempty"`
}

// RunSummary is one run of the command (a warm-up run, each repeat and sweep point, each target's and the
// targets' aggregate).
type RunSummary struct {
	RunID         string          `json:"run_id"`
	Status        string          `json:"status"`
	Error         string          `json:"error,omitempty"`
	Target        string          `json:"target,omitempty"` // the URL without its password
	Engine        string          `json:"engine,omitempty"`
	ServerVersion string          `json:"server_version,omitempty"`
	StartedAt     time.Time       `json:"started_at"`
	EndedAt       time.Time       `json:"ended_at"`
	Group         *result.Group   `json:"group,omitempty"`
	Labels        map[string]any  `json:"labels,omitempty"`
	Warmup        bool            `json:"warmup,omitempty"`
	Stored        bool            `json:"stored"`
	ResultFile    string          `json:"result_file,omitempty"` // absolute
	Headline      *result.Metric  `json:"headline,omitempty"`
	Metrics       []result.Metric `json:"metrics"`
}

// writeSummary writes the command's Summary as one JSON object and a newline.
func writeSummary(w io.Writer, m *workload.Meta, env *workload.Env, rs *runSet, runErr error) error {
	s := Summary{Tool: "dbdyno", Version: env.Version, Workload: m.Name, Command: env.Args, Status: result.StatusOK,
		Runs: []RunSummary{}, Next: rs.next()}
	if rs.s.store != "" {
		s.Store = results.StoreName(rs.s.store)
	}
	if runErr != nil {
		s.Status = result.StatusFailed
		if errors.Is(runErr, workload.ErrAborted) {
			s.Status = result.StatusAborted
		}
		_, line := ExitStatus(runErr, env.Args)
		s.Error = strings.TrimPrefix(line, "dbdyno: ")
	}
	for _, r := range rs.results {
		one := RunSummary{RunID: r.RunID, Status: r.Status, Error: r.Error, Target: r.Target.URL, Engine: r.Target.Engine,
			ServerVersion: r.Target.ServerVersion, StartedAt: r.StartedAt, EndedAt: r.EndedAt, Group: r.Group, Labels: r.Labels,
			Stored: rs.stored[r.RunID], Metrics: r.Metrics}
		one.Warmup = r.Group != nil && strings.HasSuffix(r.Group.ID, "-warmup")
		if p := rs.written[r.RunID]; p != "" {
			one.ResultFile = results.AbsPath(p)
		}
		if h, ok := r.Headline(); ok {
			one.Headline = &h
		}
		if one.Metrics == nil {
			one.Metrics = []result.Metric{}
		}
		s.Runs = append(s.Runs, one)
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
