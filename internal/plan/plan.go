// Package plan reads a study plan: targets, labels, and steps (builds, warm-ups, runs with sweeps and
// repeats) to run one after the other. A plan is checked whole before anything runs; every problem names its
// line and the fix.
package plan

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Plan is a parsed, checked study.
type Plan struct {
	Name    string
	Targets []string
	Labels  map[string]string
	Store   string
	Steps   []Step
}

// Step is one command of the study, with its options as command-line arguments.
type Step struct {
	Line     int
	Action   string // build, run, drop
	Workload string // tpcc, tpch
	Args     []string
}

// kinds of option values
const (
	kInt = iota
	kBool
	kDuration
	kString
	kCounts // "4", "1..4", "1,2,4" or a YAML list
	kFloat
)

var options = map[string]map[string]int{
	"tpcc build": {"warehouses": kInt, "threads": kInt, "drop": kBool, "seed": kInt},
	"tpch build": {"scale": kFloat, "threads": kInt, "drop": kBool},
	"tpcc run": {"vus": kCounts, "rampup": kDuration, "duration": kDuration, "interval": kDuration, "warehouses": kInt,
		"all_warehouses": kBool, "keying_thinking": kBool, "mode": kString, "seed": kInt, "check": kBool, "repeat": kInt,
		"warmup": kDuration, "reconnect_timeout": kDuration},
	"tpch run": {"streams": kCounts, "power": kBool, "throughput": kBool, "refresh": kBool, "queries": kCounts, "timeout": kDuration,
		"seed": kInt, "no_warmup": kBool, "repeat": kInt},
	"tpcc drop": {},
	"tpch drop": {},
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
	p := &Plan{Labels: map[string]string{}}
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
	if len(p.Targets) == 0 {
		return nil, fail(root, "the plan has no targets: add targets: [duckdb://study.duckdb]")
	}
	if stepsNode == nil || stepsNode.Kind != yaml.SequenceNode || len(stepsNode.Content) == 0 {
		return nil, fail(root, "the plan has no steps: add steps: a list of build, run and drop steps")
	}
	for i, sn := range stepsNode.Content {
		st, err := parseStep(name, i+1, sn)
		if err != nil {
			return nil, err
		}
		p.Steps = append(p.Steps, st)
	}
	return p, nil
}

func parseStep(file string, n int, sn *yaml.Node) (Step, error) {
	fail := func(node *yaml.Node, format string, args ...any) error {
		return &Error{File: file, Line: node.Line, Msg: fmt.Sprintf("step %d: ", n) + fmt.Sprintf(format, args...)}
	}
	if sn.Kind != yaml.MappingNode || len(sn.Content) != 2 {
		return Step{}, fail(sn, "a step is one of build:, run: or drop: with its options")
	}
	key, body := sn.Content[0], sn.Content[1]
	st := Step{Line: key.Line, Action: key.Value}
	if st.Action != "build" && st.Action != "run" && st.Action != "drop" {
		return Step{}, fail(key, "unknown step %q: use build, run or drop", key.Value)
	}
	if body.Kind != yaml.MappingNode {
		return Step{}, fail(body, "%s: give its options as a mapping, starting with workload: tpcc or tpch", st.Action)
	}
	vals := map[string]*yaml.Node{}
	for j := 0; j+1 < len(body.Content); j += 2 {
		vals[body.Content[j].Value] = body.Content[j+1]
		if body.Content[j].Value == "workload" {
			st.Workload = body.Content[j+1].Value
		}
	}
	if st.Workload == "" {
		return Step{}, fail(body, "%s: add workload: tpcc or tpch", st.Action)
	}
	allowed, ok := options[st.Workload+" "+st.Action]
	if !ok {
		return Step{}, fail(vals["workload"], "unknown workload %q: use tpcc or tpch", st.Workload)
	}
	st.Args = []string{st.Workload, st.Action}
	for j := 0; j+1 < len(body.Content); j += 2 {
		k, v := body.Content[j], body.Content[j+1]
		if k.Value == "workload" {
			continue
		}
		kind, ok := allowed[k.Value]
		if !ok {
			known := make([]string, 0, len(allowed))
			for o := range allowed {
				known = append(known, o)
			}
			sort.Strings(known)
			return Step{}, fail(k, "%s %s has no option %q; it takes: %s", st.Workload, st.Action, k.Value, strings.Join(known, ", "))
		}
		val, err := value(kind, v)
		if err != nil {
			return Step{}, fail(v, "%s: %v", k.Value, err)
		}
		flag := "--" + strings.ReplaceAll(k.Value, "_", "-")
		if kind == kBool {
			if val == "true" {
				st.Args = append(st.Args, flag)
			}
			continue
		}
		st.Args = append(st.Args, flag, val)
	}
	return st, nil
}

func value(kind int, v *yaml.Node) (string, error) {
	if kind == kCounts && v.Kind == yaml.SequenceNode {
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
	case kInt:
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return "", fmt.Errorf("%q is not a whole number", s)
		}
	case kFloat:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "", fmt.Errorf("%q is not a number", s)
		}
	case kBool:
		if s != "true" && s != "false" {
			return "", fmt.Errorf("%q is not true or false", s)
		}
	case kDuration:
		if _, err := time.ParseDuration(s); err != nil {
			return "", fmt.Errorf("%q is not a duration: use e.g. 30s, 5m, 1h", s)
		}
	case kCounts:
		for _, part := range strings.FieldsFunc(strings.ReplaceAll(s, "..", ","), func(r rune) bool { return r == ',' }) {
			if _, err := strconv.Atoi(strings.TrimSpace(part)); err != nil {
				return "", fmt.Errorf("%q is not a count, a range 1..N or a list 1,2,4", s)
			}
		}
	}
	return s, nil
}
