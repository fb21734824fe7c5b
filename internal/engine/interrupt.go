package engine

import "database/sql"

// Interrupter returns a function that closes c's socket, callable from another goroutine while a statement
// runs on c: the statement, waiting on a server that stopped answering, fails at once and c is discarded. It
// is nil where the driver gives no way to its socket (those engines' drivers end a statement on its context:
// MySQL's closes the connection; an embedded engine has no socket).
func Interrupter(c *sql.Conn) func() {
	pc, err := Pgx(c)
	if err != nil {
		return nil
	}
	nc := pc.PgConn().Conn()
	return func() { nc.Close() }
}
