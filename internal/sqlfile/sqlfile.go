// Package sqlfile reads the SQL files that hold every statement dbdyno runs, so that a DBA can read exactly
// what ran. A statement file is a sequence of named statements:
//
//	-- name: payment_update_warehouse(w_id, amount)
//	UPDATE warehouse SET w_ytd = w_ytd + :amount WHERE w_id = :w_id
//
// The header declares the statement's arguments in the order the code passes them; the body refers to them as
// :name, as often as it needs. Compile turns the body into the dialect's placeholders ($1 or ?) and records
// which argument fills each placeholder, so the same call works whatever the dialect.
package sqlfile

import (
	"bufio"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
)

// Placeholder style of a dialect.
type Placeholder int

const (
	Dollar   Placeholder = iota // $1, $2 (PostgreSQL): an argument may be referred to more than once
	Question                    // ? (MySQL, SQLite): each occurrence takes its own argument
)

// Statement is one compiled statement.
type Statement struct {
	Name   string
	Params []string // declared argument names, in call order
	SQL    string   // with the dialect's placeholders
	order  []int    // for Question: the argument index of each placeholder
}

// Args maps call arguments to the placeholders' order (a copy only when the order differs).
func (s *Statement) Args(args []any) []any {
	if s.order == nil {
		return args
	}
	out := make([]any, len(s.order))
	for i, k := range s.order {
		out[i] = args[k]
	}
	return out
}

// Set is the statements of one file, by name.
type Set map[string]*Statement

var headerRe = regexp.MustCompile(`^--\s*name:\s*([a-z0-9_]+)\s*(?:\(([^)]*)\))?\s*$`)
var paramRe = regexp.MustCompile(`(^|[^:]):([a-z_][a-z0-9_]*)`)

// Load reads and compiles the named statements of a file.
func Load(fsys fs.FS, path string, ph Placeholder) (Set, error) {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	set := Set{}
	var cur *Statement
	var body strings.Builder
	flush := func() error {
		if cur == nil {
			return nil
		}
		if err := cur.compile(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body.String()), ";")), ph); err != nil {
			return fmt.Errorf("%s: statement %s: %w", path, cur.Name, err)
		}
		set[cur.Name] = cur
		body.Reset()
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		line := sc.Text()
		if m := headerRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			if err := flush(); err != nil {
				return nil, err
			}
			if _, dup := set[m[1]]; dup {
				return nil, fmt.Errorf("%s: statement %s is defined twice", path, m[1])
			}
			cur = &Statement{Name: m[1]}
			for _, p := range strings.Split(m[2], ",") {
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
	return set, nil
}

func (s *Statement) compile(body string, ph Placeholder) error {
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
		if ph == Dollar {
			return fmt.Sprintf("%s$%d", sub[1], k+1)
		}
		order = append(order, k)
		return sub[1] + "?"
	})
	if bad != nil {
		return bad
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

// Script splits a file of DDL into statements: a statement ends with a line that ends in ";" or, for bodies
// that contain semicolons (procedures), with a line holding only "$$;" or "//".
func Script(fsys fs.FS, path string) ([]string, error) {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	var out []string
	var cur strings.Builder
	inBody := false
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if cur.Len() == 0 && (t == "" || strings.HasPrefix(t, "--")) {
			continue
		}
		if t == "//" {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
			inBody = false
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.Count(line, "$$")%2 == 1 {
			inBody = !inBody
		}
		if strings.HasPrefix(t, "CREATE PROCEDURE") || strings.HasPrefix(t, "CREATE OR REPLACE PROCEDURE") {
			if !strings.Contains(cur.String(), "$$") {
				inBody = true // MySQL procedure: ends at a line "//"
			}
		}
		if !inBody && strings.HasSuffix(t, ";") {
			out = append(out, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(cur.String()), ";")))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out, nil
}
