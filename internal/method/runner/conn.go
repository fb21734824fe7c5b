package runner

import (
	"context"
	"database/sql"
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
