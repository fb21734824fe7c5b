// Package sqlfile reads the SQL files that hold every statement dbdyno runs, so that a DBA can read exactly
// what ran. A statement file is a sequence of named statements:
//
//	-- name: payment_update_warehouse(w_id, amount)
//	UPDATE warehouse SET w_ytd = w_ytd + :amount WHERE w_id = :w_id
//
// The header declares the statement's arguments in the order the code passes them; the body refers to them as
// :name, as often as it needs. Compile turns the body into the dialect's placeholders ($1, ? or @p1) and records
// which argument fills each placeholder, so the same call works whatever the dialect. A header without
// parentheses names a statement that takes no arguments and whose body is sent as written (DDL, procedure
// bodies): files of such statements are scripts, run in order.
//
// Dialects: a workload keeps its statements in sql/generic/FILE and, where an engine needs another text, in
// sql/ENGINE/FILE, which overrides statements by name (the pattern BenchBase uses). An override with an empty
// body removes the statement for that engine; a name only the engine's file has is added after the generic
// statements. Overlay returns the effective statements in the order they run.
package sqlfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
)

// Placeholder style of a dialect.
type Placeholder int

const (
	Dollar   Placeholder = iota // $1, $2 (PostgreSQL): an argument may be referred to more than once
	Question                    // ? (MySQL, SQLite): each occurrence takes its own argument
	AtP                         // @p1, @p2 (SQL Server): an argument may be referred to more than once
)

// Statement is one compiled statement.
type Statement struct {
	Name   string
	Params []string      // declared argument names, in call order
	SQL    string        // with the dialect's placeholders
	From   string        // the file it was read from
	Script bool          // declared without an argument list: sent as written
	order  []int         // for Question: the argument index of each placeholder
	conv   func(any) any // the dialect's argument conversion (RegisterArg), resolved when compiled
}

// Args maps call arguments to the placeholders' order (a copy only when the order differs), each converted
// as the dialect's driver should send it (RegisterArg).
func (s *Statement) Args(args []any) []any {
	conv := s.conv
	if s.order == nil && conv == nil {
		return args
	}
	if s.order == nil {
		out := make([]any, len(args))
		for i, a := range args {
			out[i] = conv(a)
		}
		return out
	}
	out := make([]any, len(s.order))
	for i, k := range s.order {
		out[i] = args[k]
		if conv != nil {
			out[i] = conv(args[k])
		}
	}
	return out
}

var converters = map[Placeholder]func(any) any{}

// RegisterArg sets how every argument of a dialect's statements is converted before it goes to the driver
// (SQL Server's driver sends a Go string as nvarchar unless told varchar, and an nvarchar parameter compared
// with a varchar column makes the server convert the column, row by row, instead of seeking its index). The
// engine package registers it at init, before any statement of the dialect is compiled.
func RegisterArg(ph Placeholder, conv func(any) any) { converters[ph] = conv }

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Ident is the statement with every {{key}} in its text replaced by an identifier (one table of a numbered
// set, such as dbdyno_probe_read_3). Only plain identifiers are taken: anything else is a programming error.
func (s *Statement) Ident(key, ident string) *Statement {
	if !identRe.MatchString(ident) {
		panic("sqlfile: not a plain identifier: " + ident)
	}
	c := *s
	c.SQL = strings.ReplaceAll(s.SQL, "{{"+key+"}}", ident)
	return &c
}

// Templated says whether the statement holds {{key}}, an identifier given when it runs (Ident).
func (s *Statement) Templated(key string) bool { return strings.Contains(s.SQL, "{{"+key+"}}") }

// Header is the statement's header line as its file declares it.
func (s *Statement) Header() string {
	if s.Script {
		return "-- name: " + s.Name
	}
	return "-- name: " + s.Name + "(" + strings.Join(s.Params, ", ") + ")"
}

// Set is the statements of one file, by name.
type Set map[string]*Statement

// File is a file's effective statements in order.
type File struct {
	Name       string
	Statements []*Statement
}

// Set indexes the file's statements by name.
func (f *File) Set() Set {
	s := Set{}
	for _, st := range f.Statements {
		s[st.Name] = st
	}
	return s
}

// SQL lists the statements' texts in order (a script).
func (f *File) SQL() []string {
	out := make([]string, len(f.Statements))
	for i, st := range f.Statements {
		out[i] = st.SQL
	}
	return out
}

var headerRe = regexp.MustCompile(`^--\s*name:\s*([a-z0-9_]+)\s*(\(([^)]*)\))?\s*$`)
var paramRe = regexp.MustCompile(`(^|[^:]):([a-z_][a-z0-9_]*)`)

// Load reads and compiles the named statements of one file.
func Load(fsys fs.FS, path string, ph Placeholder) (Set, error) {
	f, err := parse(fsys, path, ph)
	if err != nil {
		return nil, err
	}
	return f.Set(), nil
}

// parse reads a file's statements in order; a statement with an empty body is kept (an override that removes).
func parse(fsys fs.FS, path string, ph Placeholder) (*File, error) {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	f := &File{Name: path}
	seen := map[string]bool{}
	var cur *Statement
	var body strings.Builder
	flush := func() error {
		if cur == nil {
			return nil
		}
		text := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body.String()), ";"))
		if err := cur.compile(text, ph); err != nil {
			return fmt.Errorf("%s: statement %s: %w", path, cur.Name, err)
		}
		f.Statements = append(f.Statements, cur)
		body.Reset()
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := headerRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			if err := flush(); err != nil {
				return nil, err
			}
			if seen[m[1]] {
				return nil, fmt.Errorf("%s: statement %s is defined twice", path, m[1])
			}
			seen[m[1]] = true
			cur = &Statement{Name: m[1], From: path, Script: m[2] == ""}
			for _, p := range strings.Split(m[3], ",") {
				if p = strings.TrimSpace(p); p != "" {
					cur.Params = append(cur.Params, p)
				}
			}
			continue
		}
		if cur != nil && !strings.HasPrefix(strings.TrimSpace(line), "--") {
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return f, nil
}

// Overlay reads sql/generic/name and sql/dialect/name from fsys, either of which may be missing (not both),
// and returns the effective statements: the generic ones in order, each replaced by the dialect's statement of
// the same name (removed when that is empty), then the statements only the dialect has.
func Overlay(fsys fs.FS, dialect, name string, ph Placeholder) (*File, error) {
	gen, gerr := parse(fsys, "sql/generic/"+name, ph)
	own, oerr := parse(fsys, "sql/"+dialect+"/"+name, ph)
	for _, err := range []error{gerr, oerr} {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if gerr != nil && oerr != nil {
		return nil, fmt.Errorf("sql/generic/%s: %w", name, fs.ErrNotExist)
	}
	out := &File{Name: name}
	byName := map[string]*Statement{}
	if own != nil {
		for _, st := range own.Statements {
			byName[st.Name] = st
		}
	}
	used := map[string]bool{}
	if gen != nil {
		for _, st := range gen.Statements {
			if o, ok := byName[st.Name]; ok {
				used[st.Name] = true
				if !o.Script && !st.Script && strings.Join(o.Params, ",") != strings.Join(st.Params, ",") && o.SQL != "" {
					return nil, fmt.Errorf("%s: statement %s takes (%s) but %s declares (%s)", o.From, o.Name,
						strings.Join(o.Params, ", "), st.From, strings.Join(st.Params, ", "))
				}
				st = o
			}
			if st.SQL != "" {
				out.Statements = append(out.Statements, st)
			}
		}
	}
	if own != nil {
		for _, st := range own.Statements {
			if !used[st.Name] && st.SQL != "" {
				out.Statements = append(out.Statements, st)
			}
		}
	}
	return out, nil
}

// OverlayFiles is Overlay of several files, in order.
func OverlayFiles(fsys fs.FS, dialect string, names []string, ph Placeholder) ([]*File, error) {
	var out []*File
	for _, n := range names {
		f, err := Overlay(fsys, dialect, n, ph)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Merge indexes the statements of several files by name (a later file's statement wins).
func Merge(files []*File) Set {
	set := Set{}
	for _, f := range files {
		for k, v := range f.Set() {
			set[k] = v
		}
	}
	return set
}

func (s *Statement) compile(body string, ph Placeholder) error {
	s.conv = converters[ph]
	if s.Script {
		s.SQL = body
		return nil
	}
	index := map[string]int{}
	for i, p := range s.Params {
		index[p] = i
	}
	used := make([]bool, len(s.Params))
	var order []int
	var bad error
	out := paramRe.ReplaceAllStringFunc(body, func(m string) string {
		sub := paramRe.FindStringSubmatch(m)
		k, ok := index[sub[2]]
		if !ok {
			bad = fmt.Errorf("uses :%s, which the header does not declare", sub[2])
			return m
		}
		used[k] = true
		switch ph {
		case Dollar:
			return fmt.Sprintf("%s$%d", sub[1], k+1)
		case AtP:
			return fmt.Sprintf("%s@p%d", sub[1], k+1)
		}
		order = append(order, k)
		return sub[1] + "?"
	})
	if bad != nil {
		return bad
	}
	if body == "" {
		s.SQL = "" // an override that removes the statement
		return nil
	}
	for i, u := range used {
		if !u {
			return fmt.Errorf("declares %s but does not use it", s.Params[i])
		}
	}
	if ph == Question {
		identity := len(order) == len(s.Params)
		for i, k := range order {
			identity = identity && i == k
		}
		if !identity {
			s.order = order
		}
	}
	s.SQL = out
	return nil
}

// Print writes the files' statements as they run, each under its header and the file it came from.
func Print(w io.Writer, files []*File) {
	for _, f := range files {
		fmt.Fprintf(w, "-- file: %s\n", f.Name)
		for _, st := range f.Statements {
			fmt.Fprintf(w, "%s  -- from %s\n%s;\n", st.Header(), st.From, st.SQL)
		}
		fmt.Fprintln(w)
	}
}

// Convert is an argument as the dialect's driver should get it (RegisterArg), for a statement built at run time
// rather than read from a file (a user's script).
func Convert(ph Placeholder, v any) any {
	if conv := converters[ph]; conv != nil {
		return conv(v)
	}
	return v
}
