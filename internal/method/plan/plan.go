// Package plan reads a study plan: targets, labels, and steps (builds, warm-ups, runs with sweeps and
// repeats) to run one after the other. A plan is checked whole before anything runs; every problem names its
// line and the fix. A step is any command of a registered workload; its options are that command's flags,
// as the workload declares them (method.CommandFlags), under their plan keys.
package plan

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/store"
	"github.com/dbdyno/dbdyno/internal/workload"
	"go.yaml.in/yaml/v3"
)

// Plan is a parsed, checked study.
type Plan struct {
	Name    string
	Targets []string
	Labels  map[string]string
	Store   string
	Steps   []Step
	// Hash identifies the plan's text: with a step's number and its command's, it is the key each measured
	// step's results are labelled with (plan_step), and what plan run --resume checks the plan against.
	Hash string
}

// Step is one command of the study, with its options as command-line arguments.
type Step struct {
	Line     int
	Action   string // the workload's command: build, run, drop, ...
	Workload string
	Args     []string
	// Instances runs a command that takes several targets on the plan's first N targets at once (0: all of
	// them): the multi-instance studies' 1, 2 and 4 databases driven together.
	Instances int
	n         int // its number in the plan, from 1
	command   *workload.Command
}

// Error is a problem at a line of the plan.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Load reads and checks a plan file.
func Load(path string) (*Plan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read plan: %w", err)
	}
	return Parse(path, b)
}

// Parse checks a plan's text.
func Parse(name string, text []byte) (*Plan, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: not valid YAML: %v", name, err)
	}
	fail := func(n *yaml.Node, format string, args ...any) error {
		return &Error{File: name, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &Error{File: name, Line: 1, Msg: "a plan is a mapping with name, targets, labels and steps"}
	}
	root := doc.Content[0]
	sum := sha256.Sum256(text)
	p := &Plan{Labels: map[string]string{}, Hash: hex.EncodeToString(sum[:6])}
	var stepsNode *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "name":
			p.Name = v.Value
		case "store":
			p.Store = v.Value
		case "targets":
			if v.Kind == yaml.ScalarNode {
				p.Targets = []string{v.Value}
				continue
			}
			if v.Kind != yaml.SequenceNode {
				return nil, fail(v, "targets: give a list of target URLs")
			}
			for _, t := range v.Content {
				if t.Kind != yaml.ScalarNode || !strings.Contains(t.Value, "://") {
					return nil, fail(t, "targets: %q is not a target URL (e.g. duckdb://study.duckdb)", t.Value)
				}
				p.Targets = append(p.Targets, t.Value)
			}
		case "labels":
			if v.Kind != yaml.MappingNode {
				return nil, fail(v, "labels: give key: value pairs, e.g. system: E16ds_v4")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				p.Labels[v.Content[j].Value] = v.Content[j+1].Value
			}
		case "steps":
			stepsNode = v
		default:
			return nil, fail(k, "unknown key %q: a plan has name, targets, labels, store and steps", k.Value)
		}
	}
	if p.Name == "" {
		return nil, fail(root, "the plan has no name: add name: my-study")
	}
	if stepsNode == nil || stepsNode.Kind != yaml.SequenceNode || len(stepsNode.Content) == 0 {
		return nil, fail(root, "the plan has no steps: add steps: a list of build, run and drop steps")
	}
	for i, sn := range stepsNode.Content {
		st, err := parseStep(name, i+1, sn)
		if err != nil {
			return nil, err
		}
		st.n = i + 1
		p.Steps = append(p.Steps, st)
		if st.command.Target != workload.NoTarget && len(p.Targets) == 0 {
			return nil, fail(root, "the plan has no targets and step %d (%s %s) needs one: add targets: [duckdb://study.duckdb]", i+1, st.Workload, st.Action)
		}
		if st.Instances > len(p.Targets) {
			return nil, &Error{File: name, Line: st.Line, Msg: fmt.Sprintf("step %d: instances: %d, but the plan has %d target(s): add targets or lower instances", i+1, st.Instances, len(p.Targets))}
		}
	}
	return p, nil
}

func parseStep(file string, n int, sn *yaml.Node) (Step, error) {
	fail := func(node *yaml.Node, format string, args ...any) error {
		return &Error{File: file, Line: node.Line, Msg: fmt.Sprintf("step %d: ", n) + fmt.Sprintf(format, args...)}
	}
	if sn.Kind != yaml.MappingNode || len(sn.Content) != 2 {
		return Step{}, fail(sn, "a step is a command (build:, run:, drop: ...) with its options")
	}
	key, body := sn.Content[0], sn.Content[1]
	st := Step{Line: key.Line, Action: key.Value}
	known := map[string]bool{}
	for _, m := range workload.All() {
		for _, c := range m.Commands {
			if c.Name != "" {
				known[c.Name] = true
			}
		}
	}
	if !known[st.Action] {
		return Step{}, fail(key, "unknown step %q: use %s", key.Value, strings.Join(sortedKeys(known), ", "))
	}
	if body.Kind != yaml.MappingNode {
		return Step{}, fail(body, "%s: give its options as a mapping, starting with workload: %s", st.Action, strings.Join(workload.Names(), " or "))
	}
	vals := map[string]*yaml.Node{}
	for j := 0; j+1 < len(body.Content); j += 2 {
		vals[body.Content[j].Value] = body.Content[j+1]
		if body.Content[j].Value == "workload" {
			st.Workload = body.Content[j+1].Value
		}
	}
	if st.Workload == "" {
		return Step{}, fail(body, "%s: add workload: %s", st.Action, strings.Join(workload.Names(), " or "))
	}
	m, ok := workload.Lookup(st.Workload)
	if !ok {
		return Step{}, fail(vals["workload"], "unknown workload %q: use %s", st.Workload, strings.Join(workload.Names(), " or "))
	}
	c, ok := m.Command(st.Action)
	if !ok && st.Action == "run" { // a workload that is its own measured command (dbdyno ping)
		c, ok = m.Command("")
		ok = ok && c.Measured != nil
	}
	if !ok {
		return Step{}, fail(key, "%s has no step %q", st.Workload, st.Action)
	}
	st.command = c
	allowed := map[string]workload.Flag{}
	for _, f := range method.CommandFlags(m, c) {
		if !f.NoPlan && !f.Hidden {
			allowed[f.PlanKey()] = f
			for _, a := range f.Aliases { // an older spelling of the option
				allowed[strings.ReplaceAll(a, "-", "_")] = f
			}
		}
	}
	st.Args = []string{st.Workload}
	if c.Name != "" {
		st.Args = append(st.Args, c.Name)
	}
	for j := 0; j+1 < len(body.Content); j += 2 {
		k, v := body.Content[j], body.Content[j+1]
		if k.Value == "workload" {
			continue
		}
		if k.Value == "instances" && c.Target == workload.ManyTargets {
			n, err := strconv.Atoi(v.Value)
			if err != nil || n < 1 {
				return Step{}, fail(v, "instances: %q is not a count of targets (1 or more)", v.Value)
			}
			st.Instances = n
			continue
		}
		f, ok := allowed[k.Value]
		if !ok {
			known := make([]string, 0, len(allowed))
			for o := range allowed {
				known = append(known, o)
			}
			sort.Strings(known)
			return Step{}, fail(k, "%s %s has no option %q; it takes: %s", st.Workload, st.Action, k.Value, strings.Join(known, ", "))
		}
		val, err := value(f.Kind, v)
		if err != nil {
			return Step{}, fail(v, "%s: %v", k.Value, err)
		}
		flag := "--" + f.Name
		if f.Kind == workload.Bool {
			if val == "true" {
				st.Args = append(st.Args, flag)
			}
			continue
		}
		st.Args = append(st.Args, flag, val)
	}
	return st, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func value(kind workload.Kind, v *yaml.Node) (string, error) {
	if (kind == workload.Counts || kind == workload.String) && v.Kind == yaml.SequenceNode {
		var parts []string
		for _, c := range v.Content {
			if _, err := strconv.Atoi(c.Value); err != nil {
				return "", fmt.Errorf("%q is not a whole number", c.Value)
			}
			parts = append(parts, c.Value)
		}
		return strings.Join(parts, ","), nil
	}
	if v.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("give a single value")
	}
	s := v.Value
	switch kind {
	case workload.Int, workload.Uint:
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return "", fmt.Errorf("%q is not a whole number", s)
		}
	case workload.Float:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "", fmt.Errorf("%q is not a number", s)
		}
	case workload.Bool:
		if s != "true" && s != "false" {
			return "", fmt.Errorf("%q is not true or false", s)
		}
	case workload.Duration:
		if _, err := time.ParseDuration(s); err != nil {
			return "", fmt.Errorf("%q is not a duration: use e.g. 30s, 5m, 1h", s)
		}
	case workload.Percent:
		if _, err := units.ParsePercent("the value", s); err != nil {
			return "", err
		}
	case workload.Counts:
		for _, part := range strings.FieldsFunc(strings.ReplaceAll(s, "..", ","), func(r rune) bool { return r == ',' }) {
			if _, err := strconv.Atoi(strings.TrimSpace(part)); err != nil {
				return "", fmt.Errorf("%q is not a count, a range 1..N or a list 1,2,4", s)
			}
		}
	}
	return s, nil
}

// Commands turns a step into dbdyno command lines: a command that takes several targets runs once with every
// target of the plan (at the same time); one that takes a target runs once per target; one without a target
// runs once. A measured command gets the plan's labels and store.
func (p *Plan) Commands(st Step) [][]string {
	var out [][]string
	switch st.command.Target {
	case workload.NoTarget:
		out = [][]string{append([]string{}, st.Args...)}
	case workload.OneTarget:
		for _, t := range p.Targets {
			out = append(out, append(append([]string{}, st.Args...), "--target", t))
		}
	default:
		args := append([]string{}, st.Args...)
		targets := p.Targets
		if st.Instances > 0 {
			targets = targets[:st.Instances]
		}
		for _, t := range targets {
			args = append(args, "--target", t)
		}
		out = [][]string{args}
	}
	if st.command.Measured != nil {
		for i := range out {
			out[i] = p.method(out[i], p.StepKey(st, i))
		}
	}
	return out
}

// StepKey is the i-th command line of a step's stable key: the plan's hash, the step's number and the command's
// (a step runs one command per target when its command takes one target). A measured command's results carry
// it as the label plan_step.
func (p *Plan) StepKey(st Step, i int) string { return fmt.Sprintf("%s/%d.%d", p.Hash, st.n, i+1) }

// method adds the plan's labels, the step's key and the store to a measured command's line.
func (p *Plan) method(args []string, key string) []string {
	keys := make([]string, 0, len(p.Labels))
	for k := range p.Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	args = append(args, "--label", "plan="+p.Name)
	for _, k := range keys {
		args = append(args, "--label", k+"="+p.Labels[k])
	}
	args = append(args, "--label", "plan_step="+key)
	if p.Store != "" {
		args = append(args, "--store", p.Store)
	}
	return args
}

// Check prints each step's first command line and that the plan is valid.
func (p *Plan) Check(out io.Writer) {
	for i, st := range p.Steps {
		fmt.Fprintf(out, "step %d (line %d): %s\n", i+1, st.Line, strings.Join(engine.RedactArgs(p.Commands(st)[0]), " "))
	}
	fmt.Fprintf(out, "plan %s is valid: %d step(s), %d target(s)\n", p.Name, len(p.Steps), len(p.Targets))
}

// Run runs the plan's steps in order through invoke (a command line each); the first that fails stops it.
func (p *Plan) Run(ctx context.Context, out io.Writer, invoke func(args []string) error) error {
	return p.RunResuming(ctx, out, invoke, false)
}

// RunResuming is Run that, with resume, skips the step commands an interrupted run of this same plan finished
// (and, for a measured one, whose results the store holds complete: every run of it labelled with its step key
// ended ok); a changed plan is refused. Every run records each command it finishes in the plan's journal
// (Journal), which --resume reads.
func (p *Plan) RunResuming(ctx context.Context, out io.Writer, invoke func(args []string) error, resume bool) error {
	for _, raw := range p.Targets {
		if _, err := engine.Parse(raw); err != nil {
			return fmt.Errorf("plan %s: %w", p.Name, err)
		}
	}
	journal := p.Journal()
	done := map[string]bool{}
	if resume {
		var err error
		if done, err = p.readJournal(journal); err != nil {
			return err
		}
	} else if err := p.startJournal(journal); err != nil {
		return err
	}
	fmt.Fprintf(out, "plan %s: %d step(s) on %d target(s)\n", p.Name, len(p.Steps), len(p.Targets))
	skipped := 0
	for i, st := range p.Steps {
		for j, args := range p.Commands(st) {
			key := p.StepKey(st, j)
			if done[key] {
				ok, err := p.storedComplete(ctx, st, key)
				if err != nil {
					return err
				}
				if ok {
					skipped++
					fmt.Fprintf(out, "\n== step %d (line %d): done before (%s), skipped: dbdyno %s\n", i+1, st.Line, key, strings.Join(engine.RedactArgs(args), " "))
					continue
				}
			}
			fmt.Fprintf(out, "\n== step %d (line %d): dbdyno %s\n", i+1, st.Line, strings.Join(engine.RedactArgs(args), " "))
			if err := invoke(args); err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("%w: plan %s stopped at step %d ('dbdyno plan run --resume' runs the rest)", workload.ErrAborted, p.Name, i+1)
				}
				return fmt.Errorf("plan %s: step %d (line %d) failed: %w", p.Name, i+1, st.Line, err)
			}
			if err := appendJournal(journal, key); err != nil {
				return err
			}
		}
	}
	if resume {
		fmt.Fprintf(out, "\nplan %s resumed: %d step command(s) were done before and skipped\n", p.Name, skipped)
	}
	fmt.Fprintf(out, "\nplan %s done: 'dbdyno report --label plan=%s -o %s.html' writes its report\n", p.Name, p.Name, p.Name)
	return nil
}

// Journal is the file a run of the plan records its finished step commands in: beside the plan's results
// store, named after the plan (for a server's store, in this machine's dbdyno directory, see store.LocalDir).
func (p *Plan) Journal() string {
	st := p.Store
	if st == "" {
		st = store.DefaultPath
	}
	name := regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(p.Name, "_")
	if store.IsURL(st) {
		// a server's store: the journal is this machine's, in its dbdyno directory, named after the store (its URL
		// without the password), so --resume resumes on the machine that ran the plan
		sum := sha256.Sum256([]byte(store.Display(st)))
		return filepath.Join(store.LocalDir(), ".store-"+hex.EncodeToString(sum[:6])+".plan-"+name+".progress")
	}
	return filepath.Join(filepath.Dir(st), "."+filepath.Base(st)+".plan-"+name+".progress")
}

const journalHead = "dbdyno plan journal: plan %s hash %s\n"

func (p *Plan) startJournal(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("plan %s: %v", p.Name, err)
	}
	if err := os.WriteFile(path, []byte(fmt.Sprintf(journalHead, p.Name, p.Hash)), 0o644); err != nil {
		return fmt.Errorf("plan %s: cannot record its progress: %v", p.Name, err)
	}
	return nil
}

func appendJournal(path, key string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = fmt.Fprintf(f, "done %s\n", key)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("recording the plan's progress in %s: %v", path, err)
	}
	return nil
}

func (p *Plan) readJournal(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("--resume: plan %s has no run to resume (no %s): run it without --resume", p.Name, path)
	}
	if err != nil {
		return nil, fmt.Errorf("--resume: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var name, hash string
	if !sc.Scan() {
		return nil, fmt.Errorf("--resume: %s is empty: run the plan without --resume", path)
	}
	if _, err := fmt.Sscanf(sc.Text()+"\n", journalHead, &name, &hash); err != nil {
		return nil, fmt.Errorf("--resume: %s is not a plan journal: run the plan without --resume", path)
	}
	if hash != p.Hash {
		return nil, fmt.Errorf("--resume: plan %s changed since the run being resumed (hash %s, now %s): resume only the plan as it was, or run it without --resume", p.Name, hash, p.Hash)
	}
	done := map[string]bool{}
	for sc.Scan() {
		if key, ok := strings.CutPrefix(sc.Text(), "done "); ok {
			done[key] = true
		}
	}
	return done, sc.Err()
}

// storedComplete reports whether a finished step command's results are in the plan's store, all ended ok
// (always true for a command that measures nothing).
func (p *Plan) storedComplete(ctx context.Context, st Step, key string) (bool, error) {
	if st.command.Measured == nil {
		return true, nil
	}
	path := p.Store
	if path == "" {
		path = store.DefaultPath
	}
	s, err := store.Open(ctx, path)
	if err != nil {
		return false, err
	}
	defer s.Close()
	runs, err := s.List(ctx, store.Filter{Label: "plan_step=" + key})
	if err != nil || len(runs) == 0 {
		return false, err
	}
	for _, r := range runs {
		if r.Status != "ok" {
			return false, nil
		}
	}
	return true, nil
}
