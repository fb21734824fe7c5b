package script

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

// worker is one client: its connection, its variables (kept from one transaction to the next, as pgbench's),
// its random stream and its prepared statements.
type worker struct {
	runner.Cut
	s     *session
	vu    int
	rand  *randSource
	vars  map[string]value
	conn  *sql.Conn
	stmts map[[2]int]*sql.Stmt
	args  []any
	buf   strings.Builder
	// failedAt is the command at which the last run of a script failed (-1: none, or not at a command)
	failedAt int
	script   int // the script running, and its command
	pc       int
}

func (w *worker) lookup(name string) (value, bool) { v, ok := w.vars[name]; return v, ok }
func (w *worker) rng() *randSource                 { return w.rand }

// debug prints debug()'s value as pgbench does: "debug(script=0,command=4): int 4", the script's place among
// the run's and the command's number in its script (1 for the first).
func (w *worker) debug(v value) {
	fmt.Fprintf(w.s.setup.Out, "debug(script=%d,command=%d): %s\n", w.script, w.s.scripts[w.script].cmds[w.pc].num, v.debugText())
}

// Next draws the script by weight.
func (w *worker) Next() (int, time.Duration, time.Duration) {
	cum := w.s.cum
	x := int(w.rand.r.IntN(cum[len(cum)-1]))
	for i, c := range cum {
		if x < c {
			return i, 0, 0
		}
	}
	return len(cum) - 1, 0, 0
}

// Do runs one script; a serialization failure or deadlock (the engine's Retryable class) runs it again, with
// the variables and random state it started with, up to --max-tries times in all, as pgbench does.
func (w *worker) Do(ctx context.Context, tx int) runner.Outcome {
	return w.try(ctx, tx)
}

// Counted counts the failed statement of an outcome the runner counted in the measured window (runner.Counter):
// the errors by statement then add up to the run's errors.
func (w *worker) Counted(tx int, out runner.Outcome) {
	if out.Err != nil && w.failedAt >= 0 {
		w.s.stmtErrs[tx][w.failedAt].Add(1)
	}
}

func (w *worker) try(ctx context.Context, tx int) runner.Outcome {
	retry := runner.Retry{Engine: w.s.eng, Tries: w.s.o.MaxTries}
	if retry.Tries <= 1 {
		return w.once(ctx, tx)
	}
	vars, pcg := maps.Clone(w.vars), *w.rand.pcg
	return retry.Do(ctx, func(try int) runner.Outcome {
		if try > 1 { // the variables and random state the script started with
			*w.rand.pcg = pcg
			clear(w.vars)
			maps.Copy(w.vars, vars)
		}
		return w.once(ctx, tx)
	})
}

// once runs the script from its first command to its last.
func (w *worker) once(ctx context.Context, tx int) runner.Outcome {
	sc := w.s.scripts[tx]
	w.failedAt = -1
	inTx, branch := false, false
	fail := func(pc int, err error) runner.Outcome {
		w.failedAt = pc
		lost := w.s.eng.Classify(err) == engine.ConnLost
		if inTx && !lost {
			w.rollback(ctx)
		}
		return runner.Outcome{Err: fmt.Errorf("%s:%d: %w", sc.File, sc.cmds[pc].line, err), ConnLost: lost} // the engine's error kept for its class
	}
	w.script = tx
	for pc := 0; pc < len(sc.cmds); {
		c := &sc.cmds[pc]
		w.pc = pc
		switch c.kind {
		case opSet:
			v, err := c.expr.eval(w)
			if err != nil {
				return fail(pc, fmt.Errorf("\\set %s: %w", c.name, err))
			}
			w.vars[c.name] = v
			pc++
		case opSleep:
			v, err := c.expr.eval(w)
			var n int64
			if err == nil {
				n, err = v.toInt("\\sleep")
			}
			if err != nil {
				return fail(pc, err)
			}
			if n > 0 {
				t := time.NewTimer(time.Duration(n*c.unit) * time.Microsecond)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return runner.Outcome{Err: ctx.Err()}
				}
			}
			pc++
		case opShell:
			if err := w.shell(ctx, c); err != nil {
				return fail(pc, err)
			}
			pc++
		case opIf, opElif:
			if c.kind == opElif && !branch { // the branch before it ran
				pc = c.end
				continue
			}
			branch = false
			v, err := c.expr.eval(w)
			if err != nil {
				return fail(pc, err)
			}
			ok := false
			if v.k != kNull {
				if ok, err = v.toBool("\\if"); err != nil {
					return fail(pc, err)
				}
			}
			if ok {
				pc++
			} else {
				pc, branch = c.next, true
			}
		case opElse:
			if !branch {
				pc = c.end
				continue
			}
			branch = false
			pc++
		case opEndif:
			branch = false
			pc++
		case opSQL:
			if err := w.sql(ctx, tx, pc, c, &inTx); err != nil {
				return fail(pc, err)
			}
			pc++
		}
	}
	if inTx {
		w.rollback(ctx)
		return runner.Outcome{Err: errAt(sc.File, sc.cmds[len(sc.cmds)-1].line, "the script ended inside a transaction (no END or COMMIT): rolled back")}
	}
	return runner.Outcome{}
}

// sql runs one statement: transaction control as the engine's statement, a query's rows read (into variables
// for \gset), anything else executed.
func (w *worker) sql(ctx context.Context, tx, pc int, c *command, inTx *bool) error {
	switch c.tx {
	case txBegin:
		if _, err := w.conn.ExecContext(ctx, w.s.tx["begin"].SQL); err != nil {
			return err
		}
		*inTx = true
		return nil
	case txCommit:
		*inTx = false
		_, err := w.conn.ExecContext(ctx, w.s.tx["commit"].SQL)
		return err
	case txRollback:
		*inTx = false
		_, err := w.conn.ExecContext(ctx, w.s.tx["rollback"].SQL)
		return err
	}
	w.args = w.args[:0]
	for _, r := range c.refs {
		v, ok := w.vars[r.name]
		if !ok {
			return fmt.Errorf("undefined variable :%s", r.name)
		}
		if w.s.eng.TextParams && v.k != kNull { // as pgbench -M prepared: each value as text, typed by the server
			w.args = append(w.args, v.text())
			continue
		}
		w.args = append(w.args, sqlfile.Convert(w.s.eng.Placeholder, v.arg()))
	}
	var (
		rows *sql.Rows
		err  error
	)
	if w.s.o.QueryMode == "simple" {
		text := c.sql
		if len(c.refs) > 0 {
			w.buf.Reset()
			at := 0
			for _, r := range c.refs {
				w.buf.WriteString(c.sql[at:r.start])
				w.buf.WriteString(w.vars[r.name].text())
				at = r.end
			}
			w.buf.WriteString(c.sql[at:])
			text = w.buf.String()
		}
		if !c.returns {
			_, err = w.conn.ExecContext(ctx, text, w.s.eng.TextQuery()...)
			return err
		}
		rows, err = w.conn.QueryContext(ctx, text, w.s.eng.TextQuery()...)
	} else {
		st, err := w.prepared(ctx, tx, pc, c)
		if err != nil {
			return err
		}
		if !c.returns {
			_, err = st.ExecContext(ctx, w.args...)
			return err
		}
		rows, err = st.QueryContext(ctx, w.args...)
		if err != nil {
			return err
		}
	}
	if err != nil {
		return err
	}
	return w.read(rows, c)
}

// read reads a query's rows: dropped; with \gset the one row's columns into variables (pgbench refuses none
// or several); with \aset every row's, the last kept, and none sets nothing (as pgbench's).
func (w *worker) read(rows *sql.Rows, c *command) error {
	defer rows.Close()
	if !c.gset && !c.aset {
		for rows.Next() {
		}
		return rows.Err()
	}
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if n++; c.gset && n > 1 {
			continue // counted, for the refusal
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, col := range cols {
			v := value{}
			if vals[i].Valid {
				v = parseText(vals[i].String)
			}
			w.vars[c.prefix+strings.ToLower(col)] = v
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if c.gset && n != 1 {
		return fmt.Errorf("\\gset: expected one row, got %d", n)
	}
	return nil
}

// prepared is the statement with the dialect's placeholders for its variables, prepared on this connection once.
func (w *worker) prepared(ctx context.Context, tx, pc int, c *command) (*sql.Stmt, error) {
	key := [2]int{tx, pc}
	if st, ok := w.stmts[key]; ok {
		return st, nil
	}
	var b strings.Builder
	at := 0
	for i, r := range c.refs {
		b.WriteString(c.sql[at:r.start])
		switch w.s.eng.Placeholder {
		case sqlfile.Dollar:
			b.WriteString("$" + strconv.Itoa(i+1))
		case sqlfile.AtP:
			b.WriteString("@p" + strconv.Itoa(i+1))
		default:
			b.WriteString("?")
		}
		at = r.end
	}
	b.WriteString(c.sql[at:])
	st, err := w.conn.PrepareContext(ctx, b.String())
	if err != nil {
		return nil, err
	}
	w.stmts[key] = st
	return st, nil
}

func (w *worker) rollback(ctx context.Context) {
	ctx, cancel := runner.EndContext(ctx)
	defer cancel()
	w.conn.ExecContext(ctx, w.s.tx["rollback"].SQL)
}

func (w *worker) Reconnect(ctx context.Context) error {
	w.Close()
	c, err := w.s.db.Conn(ctx)
	if err != nil {
		return w.s.setup.Target.ConnectError(err)
	}
	w.conn, w.stmts = c, map[[2]int]*sql.Stmt{}
	w.Set(engine.Interrupter(c))
	return nil
}

func (w *worker) Close() {
	for _, st := range w.stmts {
		st.Close()
	}
	w.stmts = nil
	if w.conn != nil {
		engine.Discard(w.conn) // its own: never back to the pool with a transaction the failure left open
		w.conn = nil
	}
}

// shell runs a \shell or \setshell command as pgbench does: its words (variables replaced by their values)
// joined by spaces, run by /bin/sh; a command that fails (exits non-zero) fails the transaction. \shell drops
// the command's output; \setshell sets its variable to the integer the command prints.
func (w *worker) shell(ctx context.Context, c *command) error {
	meta := `\shell`
	if c.name != "" {
		meta = `\setshell`
	}
	words := make([]string, len(c.words))
	for i, sw := range c.words {
		words[i] = sw.text
		if sw.variable != "" {
			v, ok := w.vars[sw.variable]
			if !ok {
				return fmt.Errorf("%s: undefined variable :%s", meta, sw.variable)
			}
			words[i] = v.text()
		}
	}
	line := strings.Join(words, " ")
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", line)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, firstLine(msg))
		}
		return fmt.Errorf("%s %s: %w", meta, line, err)
	}
	if c.name == "" {
		return nil
	}
	out := strings.TrimSpace(stdout.String())
	n, err := strconv.ParseInt(out, 10, 64)
	if err != nil {
		return fmt.Errorf("\\setshell %s: the command must print an integer, it printed %q", line, firstLine(out))
	}
	w.vars[c.name] = intv(n)
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
