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
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/shell"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
	"go.yaml.in/yaml/v3"
)

// Plan is a parsed, checked study.
type Plan struct {
	Name    string
	Targets []string
	Labels  map[string]string
	Store   string
	// MetricsAddr and MetricsTokenFile (plan run --metrics-addr, --metrics-token-file) go to every step that
	// serves live figures.
	MetricsAddr, MetricsTokenFile string
	Steps                         []Step
	// Configurations are the study's configurations, each run through every step alone, one after the
	// other; a plan without them is one configuration of its targets and labels.
	Configurations []Configuration
	// Variables are the values its ${name} uses took: the defaults of its variables:, with plan run --var's.
	Variables map[string]string
	// Hash identifies the plan's text: with a step's number and its command's, it is the key each measured
	// step's results are labelled with (plan_step), and what plan run --resume checks the plan against.
	Hash string
}

// Configuration is one configuration of a study: its name (each of its runs is labelled
// configuration=NAME), its targets (the plan's when it names none), its labels, its settings (options given to
// every step whose command takes them: a cold start, a thread count) and the shell commands run before its
// steps (its set-up: start the server, mount the disk).
type Configuration struct {
	Name     string
	Line     int
	Targets  []string
	Labels   map[string]string
	Settings map[string]string // plan key -> value, checked against the steps that take it
	Setup    []string
	// SetupTimeout bounds each set-up command.
	SetupTimeout time.Duration
}

// commandSteps are the dbdyno commands a plan's dbdyno: step may run: those that record into the results
// store or read it (a workload's commands are steps of their own; a plan never runs a plan).
var commandSteps = []string{"monitor", "results", "compare", "report", "leaderboard"}

// commandStep reads a dbdyno: step, a command line as a list.
func commandStep(st Step, body *yaml.Node, fail func(*yaml.Node, string, ...any) error) (Step, error) {
	if body.Kind != yaml.SequenceNode || len(body.Content) == 0 {
		return st, fail(body, "dbdyno: give the command line as a list, e.g. dbdyno: [monitor, --name, app, --duration, 1h]")
	}
	for _, a := range body.Content {
		if a.Kind != yaml.ScalarNode {
			return st, fail(a, "dbdyno: each word of the command line is one value")
		}
		st.Command = append(st.Command, a.Value)
	}
	if !slices.Contains(commandSteps, st.Command[0]) {
		return st, fail(body.Content[0], "dbdyno: %s is not a command a plan runs this way: use %s (a workload's commands are steps of their own: run:, build: ...)", st.Command[0], strings.Join(commandSteps, ", "))
	}
	st.Workload = st.Command[0]
	return st, nil
}

// Step is one command of the study, with its options as command-line arguments.
type Step struct {
	Line int
	// Command is a step of dbdyno's own that records or reads the store (dbdyno: [monitor, --name, app, ...]):
	// its command line as given, run in its place (with the plan's store).
	Command  []string
	Action   string // the workload's command: build, run, drop, ...
	Workload string
	Args     []string
	opts     []option                 // its options, in order, as given
	allowed  map[string]workload.Flag // the options its command takes, by plan key
	// Instances runs a command that takes several targets on the plan's first N targets at once (0: all of
	// them): the multi-instance studies' 1, 2 and 4 databases driven together.
	Instances int
	n         int // its number in the plan, from 1
	command   *workload.Command
}

// option is one of a step's options: its plan key, its flag and its value.
type option struct {
	key  string
	flag workload.Flag
	val  string
}

// Error is a problem at a line of the plan.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Load reads and checks a plan file.
func Load(path string) (*Plan, error) { return LoadWith(path, nil) }

// LoadWith reads and checks a plan file with its variables set (plan run --var NAME=VALUE).
func LoadWith(path string, vars map[string]string) (*Plan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read plan: %w", err)
	}
	return ParseWith(path, b, vars)
}

// Parse checks a plan's text.
func Parse(name string, text []byte) (*Plan, error) { return ParseWith(name, text, nil) }

// varRef is a variable's use in a plan's value: ${name}.
var varRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// ParseWith checks a plan's text with its variables set: a plan's variables: (name: default) are used as
// ${name} in any value, and vars (plan run --var) set them for the run. A variable set but not declared, or
// used but not declared, is an error naming it; the plan's hash covers the values, so a resumed plan is the
// same plan with the same variables.
func ParseWith(name string, text []byte, vars map[string]string) (*Plan, error) {
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
	values, err := setVariables(name, root, vars)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	h.Write(text)
	for _, k := range sortedKeys(values) {
		fmt.Fprintf(h, "\x00%s=%s", k, values[k])
	}
	p := &Plan{Labels: map[string]string{}, Hash: hex.EncodeToString(h.Sum(nil)[:6]), Variables: values}
	var stepsNode, confsNode *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "variables":
			continue
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
		case "configurations":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				return nil, fail(v, "configurations: give a list, each with a name: and its targets:, labels:, settings: and setup:")
			}
			confsNode = v
		default:
			return nil, fail(k, "unknown key %q: a plan has name, variables, targets, labels, store, configurations and steps", k.Value)
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
	}
	if confsNode != nil {
		seen := map[string]bool{}
		for _, cn := range confsNode.Content {
			c, err := p.parseConfiguration(name, cn)
			if err != nil {
				return nil, err
			}
			if seen[c.Name] {
				return nil, fail(cn, "configuration %q is named twice: give each its own name", c.Name)
			}
			seen[c.Name] = true
			p.Configurations = append(p.Configurations, c)
		}
	}
	for _, c := range p.configurations() {
		where := "the plan has"
		if c.Name != "" {
			where = fmt.Sprintf("configuration %s has", c.Name)
		}
		for i, st := range p.Steps {
			if st.command != nil && st.command.Target != workload.NoTarget && len(c.Targets) == 0 {
				return nil, fail(root, "%s no targets and step %d (%s %s) needs one: add targets: [duckdb://study.duckdb]", where, i+1, st.Workload, st.Action)
			}
			if st.Instances > len(c.Targets) {
				return nil, &Error{File: name, Line: st.Line, Msg: fmt.Sprintf("step %d: instances: %d, but %s %d target(s): add targets or lower instances", i+1, st.Instances, where, len(c.Targets))}
			}
		}
	}
	return p, nil
}

// setVariables replaces every ${name} in root's values (outside variables: itself) with the variable's
// value: vars' where given, else its default; it returns the values.
func setVariables(file string, root *yaml.Node, vars map[string]string) (map[string]string, error) {
	fail := func(n *yaml.Node, format string, args ...any) error {
		return &Error{File: file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
	}
	values := map[string]string{}
	var decl *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "variables" {
			continue
		}
		decl = root.Content[i+1]
		if decl.Kind != yaml.MappingNode {
			return nil, fail(decl, "variables: give name: default pairs, e.g. scale: 0.01")
		}
		for j := 0; j+1 < len(decl.Content); j += 2 {
			k, v := decl.Content[j], decl.Content[j+1]
			if !varRef.MatchString("${" + k.Value + "}") {
				return nil, fail(k, "variable %q: a name is letters, digits and _", k.Value)
			}
			if v.Kind != yaml.ScalarNode {
				return nil, fail(v, "variable %s: its default is one value", k.Value)
			}
			values[k.Value] = v.Value
		}
	}
	for _, k := range sortedKeys(vars) {
		if _, ok := values[k]; !ok {
			declared := "the plan declares none"
			if len(values) > 0 {
				declared = "it declares " + strings.Join(sortedKeys(values), ", ")
			}
			return nil, fmt.Errorf("%s: --var %s: the plan has no such variable (%s under variables:)", file, k, declared)
		}
		values[k] = vars[k]
	}
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		if n == decl {
			return nil
		}
		if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "${") {
			var bad string
			n.Value = varRef.ReplaceAllStringFunc(n.Value, func(m string) string {
				k := varRef.FindStringSubmatch(m)[1]
				v, ok := values[k]
				if !ok && bad == "" {
					bad = k
				}
				return v
			})
			if bad != "" {
				return fail(n, "${%s} is not a variable of the plan: declare it under variables: (%s: its default)", bad, bad)
			}
			n.Tag = "" // the value decides its kind again (a number, a list's text)
		}
		for _, c := range n.Content {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	return values, nil
}

// configurations are the plan's configurations, or the one it is without them (no name: its runs carry no
// configuration label).
func (p *Plan) configurations() []Configuration {
	if len(p.Configurations) > 0 {
		return p.Configurations
	}
	return []Configuration{{Targets: p.Targets, Labels: map[string]string{}}}
}

// parseConfiguration reads one configuration: its settings are checked against the steps, each taken by at
// least one of them and of the kind its option is.
func (p *Plan) parseConfiguration(file string, cn *yaml.Node) (Configuration, error) {
	fail := func(n *yaml.Node, format string, args ...any) error {
		return &Error{File: file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
	}
	c := Configuration{Line: cn.Line, Labels: map[string]string{}, Settings: map[string]string{}, SetupTimeout: 10 * time.Minute}
	if cn.Kind != yaml.MappingNode {
		return c, fail(cn, "a configuration is a mapping: name:, targets:, labels:, settings:, setup:")
	}
	for i := 0; i+1 < len(cn.Content); i += 2 {
		k, v := cn.Content[i], cn.Content[i+1]
		switch k.Value {
		case "name":
			c.Name = v.Value
		case "targets":
			nodes := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				nodes = v.Content
			}
			for _, t := range nodes {
				if t.Kind != yaml.ScalarNode || !strings.Contains(t.Value, "://") {
					return c, fail(t, "targets: %q is not a target URL (e.g. duckdb://study.duckdb)", t.Value)
				}
				c.Targets = append(c.Targets, t.Value)
			}
		case "labels":
			if v.Kind != yaml.MappingNode {
				return c, fail(v, "labels: give key: value pairs, e.g. system: E16ds_v4")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				if v.Content[j].Value == compare.ConfigurationLabel {
					return c, fail(v.Content[j], "labels: %s is the configuration's name: give name: instead", compare.ConfigurationLabel)
				}
				c.Labels[v.Content[j].Value] = v.Content[j+1].Value
			}
		case "settings":
			if v.Kind != yaml.MappingNode {
				return c, fail(v, "settings: give option: value pairs, e.g. cold_cmd: \"sudo systemctl restart postgresql\"")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				sk, sv := v.Content[j], v.Content[j+1]
				var takes *workload.Flag
				for _, st := range p.Steps {
					if f, ok := st.allowed[sk.Value]; ok {
						takes = &f
						break
					}
				}
				if takes == nil {
					return c, fail(sk, "settings: no step takes %q: set an option one of the steps has", sk.Value)
				}
				val, err := value(takes.Kind, sv)
				if err != nil {
					return c, fail(sv, "settings: %s: %v", sk.Value, err)
				}
				c.Settings[sk.Value] = val
			}
		case "setup":
			nodes := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				nodes = v.Content
			}
			for _, x := range nodes {
				if x.Kind != yaml.ScalarNode || strings.TrimSpace(x.Value) == "" {
					return c, fail(x, "setup: give shell commands, one a line")
				}
				c.Setup = append(c.Setup, x.Value)
			}
		case "setup_timeout":
			d, err := time.ParseDuration(v.Value)
			if err != nil || d <= 0 {
				return c, fail(v, "setup_timeout: %q is not a duration: use e.g. 30s, 10m", v.Value)
			}
			c.SetupTimeout = d
		default:
			return c, fail(k, "unknown key %q: a configuration has name, targets, labels, settings, setup and setup_timeout", k.Value)
		}
	}
	if c.Name == "" {
		return c, fail(cn, "the configuration has no name: add name: E16ds_v4 (its runs are labelled configuration=NAME)")
	}
	if len(c.Targets) == 0 {
		c.Targets = p.Targets
	}
	return c, nil
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
	if key.Value == "dbdyno" {
		return commandStep(st, body, fail)
	}
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
		st.opts = append(st.opts, option{k.Value, f, val})
	}
	st.allowed = allowed
	st.Args = st.args(nil)
	return st, nil
}

// args is the step's command line with a configuration's settings: a setting replaces the step's own value
// of that option, or adds it when the step's command takes it.
func (st Step) args(settings map[string]string) []string {
	args := []string{st.Workload}
	if st.command.Name != "" {
		args = append(args, st.command.Name)
	}
	add := func(f workload.Flag, val string) {
		if f.Kind == workload.Bool {
			if val == "true" {
				args = append(args, "--"+f.Name)
			}
			return
		}
		args = append(args, "--"+f.Name, val)
	}
	given := map[string]bool{}
	for _, o := range st.opts {
		val := o.val
		if v, ok := settings[o.key]; ok {
			val = v
		}
		given[o.flag.Name] = true
		add(o.flag, val)
	}
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if f, ok := st.allowed[k]; ok && !given[f.Name] {
			given[f.Name] = true
			add(f, settings[k])
		}
	}
	return args
}

func sortedKeys[V any](m map[string]V) []string {
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
	case workload.Sharded:
		if _, err := workload.ParseShard("the value", s); err != nil {
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

// Commands turns a step into dbdyno command lines for the plan's first configuration (CommandsFor).
func (p *Plan) Commands(st Step) [][]string { return p.CommandsFor(st, 0) }

// CommandsFor turns a step into the c-th configuration's dbdyno command lines (from 0): a command that takes
// several targets runs once with every target of the configuration (at the same time); one that takes a
// target runs once per target; one without a target runs once. A measured command gets the plan's labels,
// the configuration's and its name (configuration=NAME), the step's key and the store.
func (p *Plan) CommandsFor(st Step, c int) [][]string {
	if st.Command != nil {
		args := append([]string{}, st.Command...)
		if p.Store != "" && !slices.Contains(args, "--store") {
			args = append(args, "--store", p.Store)
		}
		return [][]string{args}
	}
	conf := p.configurations()[c]
	base := st.args(conf.Settings)
	var out [][]string
	switch st.command.Target {
	case workload.NoTarget:
		out = [][]string{append([]string{}, base...)}
	case workload.OneTarget:
		for _, t := range conf.Targets {
			out = append(out, append(append([]string{}, base...), "--target", t))
		}
	default:
		args := append([]string{}, base...)
		targets := conf.Targets
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
			out[i] = p.method(out[i], conf, p.stepKey(st, c, i))
			if p.MetricsAddr != "" && method.ServesMetrics(st.command) && !slices.Contains(out[i], "--metrics-addr") {
				// each step serves the address while it runs: one scrape target for the whole plan
				out[i] = append(out[i], "--metrics-addr", p.MetricsAddr)
				if p.MetricsTokenFile != "" {
					out[i] = append(out[i], "--metrics-token-file", p.MetricsTokenFile)
				}
			}
		}
	}
	return out
}

// StepKey is the i-th command line of a step's stable key: the plan's hash, the step's number and the command's
// (a step runs one command per target when its command takes one target). A measured command's results carry
// it as the label plan_step.
func (p *Plan) StepKey(st Step, i int) string { return p.stepKey(st, 0, i) }

// stepKey is StepKey in the c-th configuration: a plan with configurations numbers them ("HASH/c2/3.1").
func (p *Plan) stepKey(st Step, c, i int) string {
	if len(p.Configurations) == 0 {
		return fmt.Sprintf("%s/%d.%d", p.Hash, st.n, i+1)
	}
	return fmt.Sprintf("%s/c%d/%d.%d", p.Hash, c+1, st.n, i+1)
}

// method adds the plan's labels, the configuration's (and its name), the step's key and the store to a
// measured command's line.
func (p *Plan) method(args []string, conf Configuration, key string) []string {
	labels := map[string]string{}
	for k, v := range p.Labels {
		labels[k] = v
	}
	for k, v := range conf.Labels {
		labels[k] = v
	}
	if conf.Name != "" {
		labels[compare.ConfigurationLabel] = conf.Name
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	args = append(args, "--label", "plan="+p.Name)
	for _, k := range keys {
		args = append(args, "--label", k+"="+labels[k])
	}
	args = append(args, "--label", "plan_step="+key)
	if p.Store != "" {
		args = append(args, "--store", p.Store)
	}
	return args
}

// Check prints each step's first command line and that the plan is valid.
func (p *Plan) Check(out io.Writer) {
	for c, conf := range p.configurations() {
		if conf.Name != "" {
			fmt.Fprintf(out, "configuration %s (line %d): %d target(s)", conf.Name, conf.Line, len(conf.Targets))
			if len(conf.Setup) > 0 {
				fmt.Fprintf(out, ", %d set-up command(s) first", len(conf.Setup))
			}
			fmt.Fprintln(out)
		}
		for i, st := range p.Steps {
			fmt.Fprintf(out, "step %d (line %d): %s\n", i+1, st.Line, shell.Line(engine.RedactArgs(p.CommandsFor(st, c)[0])))
		}
	}
	if len(p.Configurations) > 0 {
		fmt.Fprintf(out, "plan %s is valid: %d configuration(s), each alone through %d step(s)\n", p.Name, len(p.Configurations), len(p.Steps))
		return
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
	for _, c := range p.configurations() {
		for _, raw := range c.Targets {
			if _, err := engine.Parse(raw); err != nil {
				return fmt.Errorf("plan %s: %w", p.Name, err)
			}
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
	if len(p.Configurations) > 0 {
		fmt.Fprintf(out, "plan %s: %d configuration(s), one after the other, each through %d step(s)\n", p.Name, len(p.Configurations), len(p.Steps))
	} else {
		fmt.Fprintf(out, "plan %s: %d step(s) on %d target(s)\n", p.Name, len(p.Steps), len(p.Targets))
	}
	skipped := 0
	for c, conf := range p.configurations() {
		if conf.Name != "" {
			fmt.Fprintf(out, "\n=== configuration %d of %d: %s\n", c+1, len(p.Configurations), conf.Name)
			key := fmt.Sprintf("%s/c%d/setup", p.Hash, c+1)
			if len(conf.Setup) > 0 && !done[key] {
				if err := p.setup(ctx, out, conf); err != nil {
					return err
				}
				if err := appendJournal(journal, key); err != nil {
					return err
				}
			}
		}
		n, err := p.runSteps(ctx, out, c, invoke, done, journal)
		skipped += n
		if err != nil {
			return err
		}
	}
	if resume {
		fmt.Fprintf(out, "\nplan %s resumed: %d step command(s) were done before and skipped\n", p.Name, skipped)
	}
	storeFlag := ""
	if p.Store != "" {
		storeFlag = " --store " + shell.Quote(store.Display(p.Store))
	}
	plan := shell.Quote("plan=" + p.Name)
	// each suggestion on a line of its own, as it is pasted: quoted within quotes, a name holding a quote broke
	// the line, and a report named from a plan "../../escape" was written two folders up
	fmt.Fprintf(out, "\nplan %s done; its report:\n  dbdyno report --label %s%s -o %s\n", p.Name, plan, storeFlag, shell.Quote(reportFile(p.Name)))
	if len(p.Configurations) > 1 {
		fmt.Fprintf(out, "its table, configuration against configuration (--format md for a document):\n  dbdyno compare --label %s%s\n", plan, storeFlag)
	}
	return nil
}

// reportFile is the report's file suggested for a plan: its name as a file name in the folder the command runs
// in (no folder of its own: every character but letters, digits, '.', '_' and '-' a '-'; no leading dot or dash).
func reportFile(name string) string {
	b := []rune(name)
	for i, r := range b {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			b[i] = '-'
		}
	}
	f := strings.TrimLeft(string(b), ".-") // no hidden file, nor one read as a flag
	if f == "" {
		f = "plan"
	}
	return f + ".html"
}

// setup runs a configuration's set-up commands in turn, each bounded by its timeout; the first that fails
// stops the plan. Their text is not printed (it may hold a password), only their number.
func (p *Plan) setup(ctx context.Context, out io.Writer, conf Configuration) error {
	for i, cmdline := range conf.Setup {
		fmt.Fprintf(out, "set-up command %d of %d (at most %s)\n", i+1, len(conf.Setup), conf.SetupTimeout)
		cctx, cancel := context.WithTimeout(ctx, conf.SetupTimeout)
		cmd := exec.CommandContext(cctx, "sh", "-c", cmdline)
		cmd.Stdout, cmd.Stderr = out, out
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		timedOut := cctx.Err() == context.DeadlineExceeded
		cancel()
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return fmt.Errorf("%w: plan %s stopped in configuration %s's set-up ('dbdyno plan run --resume' runs the rest)", workload.ErrAborted, p.Name, conf.Name)
		case timedOut:
			return fmt.Errorf("plan %s: configuration %s (line %d): set-up command %d did not end within setup_timeout %s: fix it, or raise setup_timeout", p.Name, conf.Name, conf.Line, i+1, conf.SetupTimeout)
		default:
			return fmt.Errorf("plan %s: configuration %s (line %d): set-up command %d failed (%v): fix it, then 'dbdyno plan run --resume'", p.Name, conf.Name, conf.Line, i+1, err)
		}
	}
	return nil
}

// runSteps runs the c-th configuration's step commands in order, skipping those done before (done); it says
// how many it skipped.
func (p *Plan) runSteps(ctx context.Context, out io.Writer, c int, invoke func(args []string) error, done map[string]bool, journal string) (int, error) {
	skipped := 0
	for i, st := range p.Steps {
		for j, args := range p.CommandsFor(st, c) {
			key := p.stepKey(st, c, j)
			if done[key] {
				ok, err := p.storedComplete(ctx, st, key)
				if err != nil {
					return skipped, err
				}
				if ok {
					skipped++
					fmt.Fprintf(out, "\n== step %d (line %d): done before (%s), skipped: dbdyno %s\n", i+1, st.Line, key, shell.Line(engine.RedactArgs(args)))
					continue
				}
			}
			fmt.Fprintf(out, "\n== step %d (line %d): dbdyno %s\n", i+1, st.Line, shell.Line(engine.RedactArgs(args)))
			if err := invoke(args); err != nil {
				if ctx.Err() != nil {
					return skipped, fmt.Errorf("%w: plan %s stopped at step %d ('dbdyno plan run --resume' runs the rest)", workload.ErrAborted, p.Name, i+1)
				}
				return skipped, fmt.Errorf("plan %s: step %d (line %d) failed: %w", p.Name, i+1, st.Line, err)
			}
			if err := appendJournal(journal, key); err != nil {
				return skipped, err
			}
		}
	}
	return skipped, nil
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
	if st.command == nil || st.command.Measured == nil {
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
