// Package bulk streams generated rows into a database through its bulk-load path while they are generated:
// PostgreSQL COPY FROM STDIN and MySQL/MariaDB LOAD DATA LOCAL INFILE, both reading from a pipe, so no file
// and no whole table is ever held.
package bulk

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
)

// Fill writes rows as tab-separated text (\N for NULL) into w.
type Fill func(w io.Writer) error

// stream runs load (which reads from r) while fill writes into the other end of a pipe.
func stream(load func(r io.Reader) error, fill Fill) error {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := load(pr)
		pr.CloseWithError(fmt.Errorf("bulk load stopped"))
		done <- err
	}()
	ferr := fill(pw)
	pw.CloseWithError(ferr)
	lerr := <-done
	if lerr != nil {
		return lerr
	}
	return ferr
}

// PgCopy loads rows into a PostgreSQL table with COPY ... FROM STDIN (text format).
func PgCopy(ctx context.Context, conn *pgx.Conn, table string, cols []string, fill Fill) error {
	q := fmt.Sprintf("COPY %s (%s) FROM STDIN", table, strings.Join(cols, ", "))
	return stream(func(r io.Reader) error {
		if _, err := conn.PgConn().CopyFrom(ctx, r, q); err != nil {
			return fmt.Errorf("COPY %s: %w", table, err)
		}
		return nil
	}, fill)
}

var readerSeq atomic.Int64

// LocalInfile reports whether a MySQL/MariaDB server accepts LOAD DATA LOCAL INFILE.
func LocalInfile(ctx context.Context, conn *sql.Conn) bool {
	var on int
	return conn.QueryRowContext(ctx, "SELECT @@local_infile").Scan(&on) == nil && on == 1
}

// MySQLLoad loads rows into a MySQL/MariaDB table with LOAD DATA LOCAL INFILE from memory, or, when the server
// refuses local files (MySQL 8's default), with multi-row INSERTs of 500 rows.
func MySQLLoad(ctx context.Context, conn *sql.Conn, table string, cols []string, fill Fill) error {
	if !LocalInfile(ctx, conn) {
		return MySQLInsert(ctx, conn, table, cols, fill)
	}
	return stream(func(r io.Reader) error {
		name := fmt.Sprintf("dbdyno-%s-%d", table, readerSeq.Add(1))
		mysql.RegisterReaderHandler(name, func() io.Reader { return r })
		defer mysql.DeregisterReaderHandler(name)
		q := fmt.Sprintf("LOAD DATA LOCAL INFILE 'Reader::%s' INTO TABLE %s CHARACTER SET utf8mb4 (%s)", name, table, strings.Join(cols, ", "))
		if _, err := conn.ExecContext(ctx, q); err != nil {
			if strings.Contains(err.Error(), "local_infile") || strings.Contains(err.Error(), "1148") || strings.Contains(err.Error(), "3948") {
				return fmt.Errorf("LOAD DATA LOCAL INFILE into %s was refused: enable it on the server with SET GLOBAL local_infile=1: %w", table, err)
			}
			return fmt.Errorf("LOAD DATA into %s: %w", table, err)
		}
		return nil
	}, fill)
}

const insertRows = 500

// MySQLInsert loads rows with prepared multi-row INSERT statements, reading the same tab-separated text the
// bulk paths read (\N is NULL), one transaction per statement.
func MySQLInsert(ctx context.Context, conn *sql.Conn, table string, cols []string, fill Fill) error {
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
	return stream(func(r io.Reader) error {
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
	}, fill)
}
