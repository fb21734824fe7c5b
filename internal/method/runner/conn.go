package runner

import (
	"context"
	"database/sql"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// Conn pins one connection of db for a virtual user and checks that it answers; a failure is worded by the
// target's ConnectError.
func Conn(ctx context.Context, db *sql.DB, t interface{ ConnectError(error) error }) (*sql.Conn, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, t.ConnectError(err)
	}
	if err := conn.PingContext(ctx); err != nil {
		conn.Close()
		return nil, t.ConnectError(err)
	}
	return conn, nil
}

// Connect opens a virtual user's statement session: a connection of db pinned and checked (Conn), run through
// the engine's session on set, its rollbacks bounded by the run's end clock (EndContext).
func Connect(ctx context.Context, db *sql.DB, t *engine.Target, set sqlfile.Set) (*engine.Session, error) {
	conn, err := Conn(ctx, db, t)
	if err != nil {
		return nil, err
	}
	s, err := t.Engine.NewSession(conn, set)
	if err != nil {
		conn.Close()
		return nil, err
	}
	s.End = EndContext
	return s, nil
}
