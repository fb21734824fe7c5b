package script

import (
	"fmt"
	"strconv"
	"strings"
)

// A script is pgbench's custom script: SQL statements, each ended by a semicolon (one may span lines), and
// meta-commands, each a line starting with a backslash (continued onto the next by a backslash at its end).

type opKind int

const (
	opSQL opKind = iota
	opSet
	opSleep
	opIf
	opElif
	opElse
	opEndif
	opShell // \shell, and \setshell when name is set
)

// command is one step of a script.
type command struct {
	kind opKind
	line int // where it starts in its file
	num  int // pgbench's number of the command in its script (1 for the first; a compound's queries share one)
	// opSQL: the text and the variables it reads, in order of appearance (each :name becomes a literal or a
	// bind parameter); gset: the first row's columns become variables (with the prefix)
	sql      string
	refs     []ref
	gset     bool // \gset: the query's one row into variables
	aset     bool // \aset: every row's columns into variables, the last row's kept, none: nothing set
	prefix   string
	tx       txControl
	returns  bool   // a query (its rows are read and dropped)
	name     string // opSet: the variable
	expr     node   // opSet, opIf, opElif; opSleep: the duration's number or variable
	unit     int64  // opSleep: microseconds per unit
	next     int    // opIf, opElif: the command taken when the condition is false (the next branch or \endif)
	end      int    // opElif, opElse: the \endif (reached after the branch before them ran)
	readVars map[string]bool
	// opShell: the command and its arguments, each a word as written or a variable (":name", "::" a literal ":")
	words []shellWord
}

// shellWord is one word of a \shell or \setshell command: its text, or the variable whose value it is.
type shellWord struct{ text, variable string }

// ref is one :variable in a statement: where it starts and ends in the text.
type ref struct {
	name       string
	start, end int
}

// txControl is a statement that begins or ends a transaction: run as the engine's own statement, so that
// pgbench's BEGIN; ... END; works on every engine.
type txControl int

const (
	txNone txControl = iota
	txBegin
	txCommit
	txRollback
)

// Script is one parsed file, and its weight among the run's scripts.
type Script struct {
	Name   string // the transaction's name in results
	File   string // as given (or "builtin: NAME")
	Weight int
	cmds   []command
	sets   map[string]bool // the variables it assigns
	reads  map[string]int  // the variables it reads, and the first line that does
	n      int             // the commands numbered so far (pgbench's count)
}

// errAt is a script error: one line naming the file and line.
func errAt(file string, line int, format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", file, line, fmt.Sprintf(format, a...))
}

// Parse reads a script's text.
func Parse(file, text string) (*Script, error) {
	s := &Script{File: file, sets: map[string]bool{}, reads: map[string]int{}}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var sql strings.Builder
	sqlLine := 0
	var q scanState
	var stack [][]int // the open \if chains: the \if and its \elif and \else so far
	// flushSQL ends the statement read so far; set is the meta-command that ended it (\gset, \aset) or "". A
	// compound statement (pgbench's \; between its queries) is its queries in order on the connection: \gset
	// takes the last one's row, \aset every one's rows.
	flushSQL := func(end int, set, prefix string) error {
		t := strings.TrimSpace(sql.String())
		sql.Reset()
		var parts []string
		for _, p := range splitCompound(t) {
			if strings.TrimSpace(stripComments(p)) != "" {
				parts = append(parts, strings.TrimSpace(p))
			}
		}
		if len(parts) == 0 {
			if set != "" {
				return errAt(file, end, "%s follows no query", set)
			}
			return nil
		}
		s.n++
		for i, p := range parts {
			c, err := s.sqlCommand(p, sqlLine)
			if err != nil {
				return err
			}
			c.num = s.n
			c.prefix = prefix
			c.gset = set == `\gset` && i == len(parts)-1
			c.aset = set == `\aset`
			if c.gset || c.aset {
				c.returns = true
			}
			s.cmds = append(s.cmds, c)
		}
		return nil
	}
	for i := 0; i < len(lines); i++ {
		ln := i + 1
		line := lines[i]
		trim := strings.TrimSpace(line)
		if q.idle() && strings.HasPrefix(trim, `\`) && !strings.HasPrefix(trim, `\;`) { // \; goes on a compound statement
			if strings.TrimSpace(sql.String()) != "" && !isGset(trim) {
				return nil, errAt(file, sqlLine, "statement not ended by a semicolon before %s", strings.Fields(trim)[0])
			}
			for strings.HasSuffix(trim, `\`) && i+1 < len(lines) { // continuation
				i++
				trim = strings.TrimSpace(strings.TrimSuffix(trim, `\`) + " " + strings.TrimSpace(lines[i]))
			}
			if isGset(trim) {
				f := strings.Fields(trim)
				prefix := ""
				if len(f) > 1 {
					prefix = f[1]
				}
				if err := flushSQL(ln, f[0], prefix); err != nil {
					return nil, err
				}
				continue
			}
			if err := s.meta(trim, ln, &stack); err != nil {
				return nil, err
			}
			continue
		}
		if q.idle() && strings.TrimSpace(sql.String()) == "" && (trim == "" || strings.HasPrefix(trim, "--")) {
			continue // a blank line or a comment between statements
		}
		// SQL: scan for semicolons outside quotes and comments
		start := 0
		for j := 0; j < len(line); j++ {
			if q.idle() && strings.TrimSpace(sql.String()) == "" && strings.TrimSpace(line[start:j]) == "" {
				sqlLine = ln
			}
			if q.idle() && line[j] == '\\' && j+1 < len(line) && line[j+1] == ';' {
				j++ // \; joins the queries of a compound statement: kept in the text, split at the end
				continue
			}
			if end, ok := q.step(line, j); ok && end {
				sql.WriteString(line[start:j])
				if err := flushSQL(ln, "", ""); err != nil {
					return nil, err
				}
				start = j + 1
			}
			if q.idle() && line[j] == '\\' && j+1 < len(line) && line[j+1] != '\\' { // pgbench's SELECT ... \gset
				rest := strings.TrimSpace(line[j:])
				if isGset(rest) {
					sql.WriteString(line[start:j])
					f := strings.Fields(rest)
					prefix := ""
					if len(f) > 1 {
						prefix = f[1]
					}
					if err := flushSQL(ln, f[0], prefix); err != nil {
						return nil, err
					}
					start = len(line)
					break
				}
			}
		}
		q.endLine()
		if start < len(line) {
			sql.WriteString(line[start:])
		}
		sql.WriteByte('\n')
	}
	if strings.TrimSpace(stripComments(sql.String())) != "" {
		return nil, errAt(file, sqlLine, "statement not ended by a semicolon at the end of the file")
	}
	if len(stack) > 0 {
		return nil, errAt(file, s.cmds[stack[0][0]].line, "\\if without \\endif")
	}
	if len(s.cmds) == 0 {
		return nil, errAt(file, 1, "the script has no command")
	}
	return s, nil
}

// splitCompound splits a statement at its \; (outside quotes and comments): pgbench's compound statement.
func splitCompound(t string) []string {
	var out []string
	var q scanState
	at := 0
	for i := 0; i < len(t); i++ {
		if q.idle() && t[i] == '\\' && i+1 < len(t) && t[i+1] == ';' {
			out = append(out, t[at:i])
			at = i + 2
			i++
			continue
		}
		q.step(t, i)
		if t[i] == '\n' {
			q.endLine()
		}
	}
	return append(out, t[at:])
}

func isGset(meta string) bool {
	f := strings.Fields(meta)
	return len(f) > 0 && (f[0] == `\gset` || f[0] == `\aset`) && len(f) <= 2
}

// meta reads one meta-command.
func (s *Script) meta(text string, ln int, stack *[][]int) error {
	f := strings.Fields(text)
	name, args := f[0], strings.TrimSpace(strings.TrimPrefix(text, f[0]))
	idx := len(s.cmds)
	c := command{line: ln, readVars: map[string]bool{}}
	expr := func() error {
		if args == "" {
			return errAt(s.File, ln, "%s needs an expression", name)
		}
		n, err := parseExpr(args, c.readVars)
		if err != nil {
			return errAt(s.File, ln, "%s: bad expression: %v", name, err)
		}
		c.expr = n
		return nil
	}
	switch name {
	case `\set`:
		f := strings.Fields(args)
		if len(f) < 2 {
			return errAt(s.File, ln, `\set needs a variable and an expression: \set NAME EXPRESSION`)
		}
		c.kind, c.name = opSet, f[0]
		if !validName(c.name) {
			return errAt(s.File, ln, "\\set: %q is not a valid variable name (letters, digits, _)", c.name)
		}
		args = strings.TrimSpace(strings.TrimPrefix(args, f[0]))
		if err := expr(); err != nil {
			return err
		}
		s.sets[c.name] = true
	case `\sleep`:
		c.kind, c.unit = opSleep, 1_000_000
		if len(f) == 2 && !strings.HasPrefix(f[1], ":") { // \sleep 2ms, as pgbench splits it
			if k := strings.IndexFunc(f[1], func(r rune) bool { return r < '0' || r > '9' }); k > 0 {
				f = []string{f[0], f[1][:k], f[1][k:]}
			}
		}
		if len(f) < 2 || len(f) > 3 {
			return errAt(s.File, ln, `\sleep needs a number and an optional unit: \sleep N [us|ms|s]`)
		}
		if len(f) == 3 {
			switch f[2] {
			case "us":
				c.unit = 1
			case "ms":
				c.unit = 1000
			case "s":
			default:
				return errAt(s.File, ln, "\\sleep: unknown unit %q (us, ms or s)", f[2])
			}
		}
		if strings.HasPrefix(f[1], ":") {
			if !validName(f[1][1:]) {
				return errAt(s.File, ln, "\\sleep: %q is not a variable", f[1])
			}
			c.expr = vref{f[1][1:]}
			c.readVars[f[1][1:]] = true
		} else {
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || n < 0 {
				return errAt(s.File, ln, "\\sleep: %q is not a non-negative integer or a :variable", f[1])
			}
			c.expr = lit{intv(n)}
		}
	case `\if`:
		c.kind = opIf
		if err := expr(); err != nil {
			return err
		}
		*stack = append(*stack, []int{idx})
	case `\elif`, `\else`:
		if len(*stack) == 0 {
			return errAt(s.File, ln, "%s without \\if", name)
		}
		chain := (*stack)[len(*stack)-1]
		prev := chain[len(chain)-1]
		if s.cmds[prev].kind == opElse {
			return errAt(s.File, ln, "%s after \\else", name)
		}
		c.kind = opElse
		if name == `\elif` {
			c.kind = opElif
			if err := expr(); err != nil {
				return err
			}
		} else if args != "" {
			return errAt(s.File, ln, "\\else takes no argument")
		}
		s.cmds[prev].next = idx
		(*stack)[len(*stack)-1] = append(chain, idx)
	case `\endif`:
		if len(*stack) == 0 {
			return errAt(s.File, ln, "\\endif without \\if")
		}
		if args != "" {
			return errAt(s.File, ln, "\\endif takes no argument")
		}
		c.kind = opEndif
		chain := (*stack)[len(*stack)-1]
		last := chain[len(chain)-1]
		if k := s.cmds[last].kind; k == opIf || k == opElif {
			s.cmds[last].next = idx
		}
		for _, j := range (*stack)[len(*stack)-1] {
			if k := s.cmds[j].kind; k == opElif || k == opElse {
				s.cmds[j].end = idx // reached after the branch before it ran
			}
		}
		*stack = (*stack)[:len(*stack)-1]
	case `\shell`, `\setshell`:
		c.kind = opShell
		words := f[1:]
		if name == `\setshell` {
			if len(words) < 2 {
				return errAt(s.File, ln, `\setshell needs a variable and a command: \setshell NAME COMMAND [ARGUMENT ...]`)
			}
			if c.name = words[0]; !validName(c.name) {
				return errAt(s.File, ln, "\\setshell: %q is not a valid variable name (letters, digits, _)", c.name)
			}
			s.sets[c.name] = true
			words = words[1:]
		} else if len(words) == 0 {
			return errAt(s.File, ln, `\shell needs a command: \shell COMMAND [ARGUMENT ...]`)
		}
		for _, w := range words {
			switch {
			case strings.HasPrefix(w, "::"):
				c.words = append(c.words, shellWord{text: w[1:]})
			case strings.HasPrefix(w, ":"):
				if !validName(w[1:]) {
					return errAt(s.File, ln, "%s: %q is not a variable (write ::%s for a word starting with a colon)", name, w, w[1:])
				}
				c.words = append(c.words, shellWord{variable: w[1:]})
				c.readVars[w[1:]] = true
			default:
				c.words = append(c.words, shellWord{text: w})
			}
		}
	case `\startpipeline`, `\endpipeline`, `\syncpipeline`:
		return errAt(s.File, ln, "%s is a pgbench meta-command dbdyno does not run (supported: \\set, \\setshell, \\shell, \\sleep, \\if, \\elif, \\else, \\endif, \\gset, \\aset)", name)
	default:
		return errAt(s.File, ln, "unknown meta-command %s (supported: \\set, \\setshell, \\shell, \\sleep, \\if, \\elif, \\else, \\endif, \\gset, \\aset, and \\; between the queries of a compound statement)", name)
	}
	for v := range c.readVars {
		if _, ok := s.reads[v]; !ok {
			s.reads[v] = ln
		}
	}
	s.n++
	c.num = s.n
	s.cmds = append(s.cmds, c)
	return nil
}

func validName(n string) bool {
	if n == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !isNameByte(n[i]) {
			return false
		}
	}
	return true
}

// sqlCommand makes a statement: its variables (pgbench's parseVariable: ':' then letters, digits, _; '::'
// is a cast), and whether it is transaction control or a query.
func (s *Script) sqlCommand(text string, ln int) (command, error) {
	c := command{kind: opSQL, line: ln, sql: text}
	var q scanState
	for i := 0; i < len(text); i++ {
		if !q.idle() || text[i] != ':' {
			q.step(text, i)
			if text[i] == '\n' {
				q.endLine()
			}
			continue
		}
		if i+1 < len(text) && text[i+1] == ':' {
			for i+1 < len(text) && text[i+1] == ':' {
				i++
			}
			continue
		}
		j := i + 1
		for j < len(text) && isNameByte(text[j]) {
			j++
		}
		if j > i+1 {
			name := text[i+1 : j]
			c.refs = append(c.refs, ref{name: name, start: i, end: j})
			if _, ok := s.reads[name]; !ok {
				s.reads[name] = ln
			}
			i = j - 1
		}
	}
	words := strings.Fields(strings.ToUpper(strings.TrimSuffix(stripComments(text), ";")))
	if len(words) > 0 {
		switch {
		case (words[0] == "BEGIN" || words[0] == "START") && (len(words) == 1 || len(words) == 2 && (words[1] == "TRANSACTION" || words[1] == "WORK" || words[1] == "TRAN")):
			c.tx = txBegin
		case (words[0] == "END" || words[0] == "COMMIT") && (len(words) == 1 || len(words) == 2 && (words[1] == "TRANSACTION" || words[1] == "WORK" || words[1] == "TRAN")):
			c.tx = txCommit
		case (words[0] == "ROLLBACK" || words[0] == "ABORT") && (len(words) == 1 || len(words) == 2 && (words[1] == "TRANSACTION" || words[1] == "WORK" || words[1] == "TRAN")):
			c.tx = txRollback
		}
		switch strings.TrimLeft(words[0], "(") {
		case "SELECT", "WITH", "VALUES", "SHOW", "TABLE", "EXPLAIN", "PRAGMA", "DESCRIBE":
			c.returns = true
		}
		for _, w := range words {
			if w == "RETURNING" {
				c.returns = true
			}
		}
	}
	if c.tx != txNone && len(c.refs) > 0 {
		return c, errAt(s.File, ln, "a transaction statement cannot use variables")
	}
	return c, nil
}

// stripComments drops -- comments (outside quotes): what is left says whether a statement is there.
func stripComments(t string) string {
	var b strings.Builder
	for _, l := range strings.Split(t, "\n") {
		if i := strings.Index(l, "--"); i >= 0 && !strings.ContainsAny(l[:i], `'"`) {
			l = l[:i]
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// scanState follows quotes and comments through SQL text, so that a semicolon or colon inside them is text.
type scanState struct {
	quote   byte // ' or " while inside one
	block   int  // /* */ nesting
	comment bool // inside a -- comment (to the line's end)
}

func (q *scanState) idle() bool { return q.quote == 0 && q.block == 0 && !q.comment }
func (q *scanState) endLine()   { q.comment = false }

// step moves over s[i]; end is true for a semicolon that ends a statement.
func (q *scanState) step(s string, i int) (end, ok bool) {
	c := s[i]
	switch {
	case q.comment:
	case q.block > 0:
		if c == '*' && i+1 < len(s) && s[i+1] == '/' {
			q.block--
		}
	case q.quote != 0:
		if c == q.quote {
			q.quote = 0 // a doubled quote closes and reopens: the same state in the end
		}
	case c == '\'' || c == '"':
		q.quote = c
	case c == '-' && i+1 < len(s) && s[i+1] == '-':
		q.comment = true
	case c == '/' && i+1 < len(s) && s[i+1] == '*':
		q.block++
	case c == ';':
		return true, true
	}
	return false, true
}
