package ycsb

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Presets are dbdyno's own copies of YCSB's core workloads a-f (workloads/workloada ...).
//
//go:embed workloads
var presetFS embed.FS

// presetName is a YCSB core workload's file name: workloada .. workloadf.
var presetName = regexp.MustCompile(`^workload[a-f]$`)

// Preset is the embedded copy of YCSB's core workload letter (a-f).
func Preset(letter string) (string, error) {
	l := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(letter), "workload"))
	b, err := presetFS.ReadFile("workloads/workload" + l)
	if len(l) != 1 || err != nil {
		return "", fmt.Errorf("--workload %q is not one of YCSB's core workloads: give a, b, c, d, e or f (or -P FILE for a property file of your own)", letter)
	}
	return string(b), nil
}

// Props are YCSB properties, each with where it came from.
type Props struct {
	vals map[string]string
	from map[string]string
}

func newProps() *Props { return &Props{vals: map[string]string{}, from: map[string]string{}} }

// Set sets a property.
func (p *Props) Set(k, v, from string) { p.vals[k], p.from[k] = v, from }

// Get is a property's value.
func (p *Props) Get(k string) (string, bool) { v, ok := p.vals[k]; return v, ok }

// From says where a property came from: "-p", a file's name.
func (p *Props) From(k string) string { return p.from[k] }

// Keys are the properties set, sorted.
func (p *Props) Keys() []string {
	out := make([]string, 0, len(p.vals))
	for k := range p.vals {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ParseProperties reads the text of a Java properties file (java.util.Properties.load, as YCSB reads -P
// files): key=value, key:value or key value lines; # and ! comment lines; a line ending in an odd number of
// backslashes goes on on the next; \t, \n, \r, \f, \uXXXX and \X escapes. Pairs come in order.
func ParseProperties(text, from string) ([][2]string, error) {
	var out [][2]string
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(lines[i], " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		first := i + 1
		for continued(line) && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + strings.TrimLeft(lines[i], " \t\f")
		}
		if continued(line) {
			line = line[:len(line)-1]
		}
		k, v, err := splitProperty(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %v", from, first, err)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// continued: the line ends in an odd number of backslashes.
func continued(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty splits a logical line into its unescaped key and value.
func splitProperty(line string) (string, string, error) {
	end := len(line)
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '\\' {
			i++
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			end = i
			break
		}
	}
	rest := line[end:]
	rest = strings.TrimLeft(rest, " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	k, err := unescape(line[:end])
	if err != nil {
		return "", "", err
	}
	v, err := unescape(rest)
	return k, v, err
}

func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf(`malformed \uXXXX escape in %q`, s)
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf(`malformed \uXXXX escape in %q`, s)
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// Sources are where a command's YCSB properties come from: dbdyno's flags and YCSB's own command line after --.
type Sources struct {
	Workload string   // --workload a..f: the embedded preset, read first
	Files    []string // -P FILE, in order
	Set      []string // -p NAME=VALUE, in order
	Args     []string // YCSB's command line (after --): -P, -p, -threads, -target, -s, -db, -l, -load, -t
	Phase    string   // "load" or "run" (YCSB's -load and -t must agree); "" for a command of neither
}

// Resolved are a command's YCSB properties, merged as YCSB merges them (files in order, later ones over
// earlier ones; the command line's properties over every file's), and the notes to print once.
type Resolved struct {
	Props *Props
	Notes []string
}

// Resolve reads and merges a command's properties.
func Resolve(src Sources) (*Resolved, error) {
	files := []string{}
	if src.Workload != "" {
		files = append(files, "preset:"+src.Workload)
	}
	files = append(files, src.Files...)
	var cmdline [][3]string // name, value, from
	for _, kv := range src.Set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("-p %q is not a YCSB property: give NAME=VALUE, e.g. -p recordcount=100000", kv)
		}
		cmdline = append(cmdline, [3]string{k, v, "-p"})
	}
	r := &Resolved{Props: newProps()}
	// YCSB's own command line
	args := src.Args
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		switch w := args[0]; {
		case w == "load" || w == "run":
			if src.Phase != "" && w != src.Phase {
				return nil, fmt.Errorf("YCSB's command line says %s, but this is dbdyno ycsb %s: run dbdyno ycsb %s", w, src.Phase, w)
			}
		default:
			r.Notes = append(r.Notes, fmt.Sprintf("YCSB's binding %q on the command line is not used: dbdyno drives the engine of --target itself", w))
		}
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("YCSB's %s needs a value after it", a)
			}
			i++
			return args[i], nil
		}
		switch a {
		case "-P":
			f, err := val()
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		case "-p":
			kv, err := val()
			if err != nil {
				return nil, err
			}
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("-p %q is not a YCSB property: give NAME=VALUE, e.g. -p recordcount=100000", kv)
			}
			cmdline = append(cmdline, [3]string{k, v, "-p"})
		case "-threads", "-target", "-db", "-l":
			v, err := val()
			if err != nil {
				return nil, err
			}
			name := map[string]string{"-threads": "threadcount", "-target": "target", "-db": "db", "-l": "label"}[a]
			cmdline = append(cmdline, [3]string{name, v, a})
		case "-load", "-t":
			phase := map[string]string{"-load": "load", "-t": "run"}[a]
			if src.Phase != "" && phase != src.Phase {
				return nil, fmt.Errorf("YCSB's %s asks for its %s phase, but this is dbdyno ycsb %s: run dbdyno ycsb %s", a, phase, src.Phase, phase)
			}
		case "-s":
			// YCSB's status lines: dbdyno prints its progress every --interval anyway
		default:
			return nil, fmt.Errorf("YCSB's command line has no option %s: give -P FILE, -p NAME=VALUE, -threads N, -target N, -s, -load or -t (after --)", a)
		}
	}
	for _, f := range files {
		text, from, note, err := readPropertyFile(f)
		if err != nil {
			return nil, err
		}
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
		pairs, err := ParseProperties(text, from)
		if err != nil {
			return nil, err
		}
		for _, kv := range pairs {
			r.Props.Set(kv[0], kv[1], from)
		}
	}
	for _, c := range cmdline {
		r.Props.Set(c[0], c[1], c[2])
	}
	return r, nil
}

// readPropertyFile reads a -P file: the file itself, or, when there is no such file and its name is one of
// YCSB's core workloads (workloads/workloada ...), dbdyno's embedded copy of it, with a note saying so.
func readPropertyFile(f string) (text, from, note string, err error) {
	if letter, ok := strings.CutPrefix(f, "preset:"); ok {
		text, err := Preset(letter)
		name := "workload" + strings.ToLower(strings.TrimPrefix(strings.TrimSpace(letter), "workload"))
		return text, "dbdyno's workloads/" + name, "", err
	}
	b, err := os.ReadFile(f)
	if err == nil {
		return string(b), f, "", nil
	}
	if errors.Is(err, fs.ErrNotExist) && presetName.MatchString(filepath.Base(f)) {
		text, perr := Preset(filepath.Base(f))
		if perr == nil {
			return text, "dbdyno's workloads/" + filepath.Base(f), fmt.Sprintf("-P %s: no such file here, so dbdyno's embedded copy of YCSB's workloads/%s", f, filepath.Base(f)), nil
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", "", fmt.Errorf("-P %s: no such file: give a YCSB property file, or --workload a..f for dbdyno's copies of YCSB's core workloads", f)
	}
	return "", "", "", fmt.Errorf("-P %s: %v", f, err)
}
