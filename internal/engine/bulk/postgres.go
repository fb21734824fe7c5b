package bulk

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// PostgreSQL's path: text rows through COPY FROM STDIN from a pipe the generator writes.
func init() {
	registerSink(engine.BulkCopy, func(ctx context.Context, _ *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error) {
		return newStream(conn, tx != nil, func(table string, cols []string, r io.Reader) error { return pgCopy(ctx, conn, table, cols, r) }), nil
	})
}

// pgCopy loads text rows into a PostgreSQL table with COPY ... FROM STDIN.
func pgCopy(ctx context.Context, conn *sql.Conn, table string, cols []string, r io.Reader) error {
	pc, err := engine.Pgx(conn)
	if err != nil {
		return err
	}
	q := fmt.Sprintf("COPY %s (%s) FROM STDIN", table, strings.Join(cols, ", "))
	if _, err := pc.PgConn().CopyFrom(ctx, r, q); err != nil {
		return fmt.Errorf("COPY %s: %w", table, err)
	}
	return nil
}
