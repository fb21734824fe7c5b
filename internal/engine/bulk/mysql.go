package bulk

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/go-sql-driver/mysql"
)

// MySQL/MariaDB's path: text rows through LOAD DATA LOCAL INFILE from a pipe the generator writes, or as
// multi-row INSERTs (about half as fast) where the server refuses LOAD DATA LOCAL INFILE.
func init() {
	registerSink(engine.BulkLoadData, func(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error) {
		if !t.Engine.BulkAllowed(ctx, conn) {
			return newStream(conn, tx != nil, func(table string, cols []string, r io.Reader) error { return insertTSV(ctx, conn, table, cols, r) }), nil
		}
		return newStream(conn, tx != nil, func(table string, cols []string, r io.Reader) error { return loadData(ctx, conn, table, cols, r) }), nil
	})
}

var readerSeq atomic.Int64

// loadData loads text rows into a MySQL/MariaDB table with LOAD DATA LOCAL INFILE from memory. Where the server
// refuses it although it took it when the load began (its global local_infile switched off since: another
// session's SET GLOBAL), the rows go as INSERTs instead: the refusal comes before the server asks for a byte.
func loadData(ctx context.Context, conn *sql.Conn, table string, cols []string, r io.Reader) error {
	name := fmt.Sprintf("dbdyno-%s-%d", table, readerSeq.Add(1))
	read := &countingReader{r: r}
	mysql.RegisterReaderHandler(name, func() io.Reader { return read })
	defer mysql.DeregisterReaderHandler(name)
	q := fmt.Sprintf("LOAD DATA LOCAL INFILE 'Reader::%s' INTO TABLE %s CHARACTER SET utf8mb4 (%s)", name, table, strings.Join(cols, ", "))
	if _, err := conn.ExecContext(ctx, q); err != nil {
		if localInfileRefused(err) {
			if read.n == 0 {
				return insertTSV(ctx, conn, table, cols, r)
			}
			return fmt.Errorf("LOAD DATA LOCAL INFILE into %s was refused: enable it on the server with SET GLOBAL local_infile=1: %w", table, err)
		}
		return fmt.Errorf("LOAD DATA into %s: %w", table, err)
	}
	return nil
}

// localInfileRefused: the server refused LOAD DATA LOCAL INFILE (MySQL 1148 and 3948, MariaDB 4166: "the
// MariaDB server or client has disabled the local infile capability").
func localInfileRefused(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case 1148, 3948, 4166:
			return true
		}
	}
	return strings.Contains(err.Error(), "local_infile")
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

const insertRows = 500

// insertTSV loads text rows with prepared multi-row INSERT statements of 500 rows (\N is NULL), one
// transaction per statement.
func insertTSV(ctx context.Context, conn *sql.Conn, table string, cols []string, r io.Reader) error {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	stmtFor := map[int]*sql.Stmt{}
	defer func() {
		for _, s := range stmtFor {
			s.Close()
		}
	}()
	exec := func(args []any) error {
		n := len(args) / len(cols)
		st, ok := stmtFor[n]
		if !ok {
			q := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", table, strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat(row+", ", n), ", "))
			var err error
			if st, err = conn.PrepareContext(ctx, q); err != nil {
				return fmt.Errorf("INSERT into %s: %w", table, err)
			}
			stmtFor[n] = st
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("INSERT into %s: %w", table, err)
		}
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	args := make([]any, 0, insertRows*len(cols))
	for sc.Scan() {
		for _, f := range strings.Split(sc.Text(), "\t") {
			if f == `\N` {
				args = append(args, nil)
			} else {
				args = append(args, f)
			}
		}
		if len(args) == cap(args) {
			if err := exec(args); err != nil {
				return err
			}
			args = args[:0]
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(args) > 0 {
		return exec(args)
	}
	return nil
}
