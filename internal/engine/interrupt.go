package engine

import (
	"database/sql"
	"net"
	"sync"
)

// sockets are the sockets a server connection's driver dialed (the handshake dialer's, handshake.go), by the
// driver's connection, for Interrupter on the drivers that give no way to their socket (MySQL's, SQL Server's).
// Interrupter takes a connection's entry out; the few connections never given to it (a pool's administrative
// ones) keep theirs for the process's life.
var sockets sync.Map // driver.Conn -> []net.Conn

// Interrupter returns a function that closes c's socket, callable from another goroutine while a statement
// runs on c: the statement, waiting on a server or network that stopped answering, fails at once and c is
// discarded (neither the context's cancellation, which SQL Server's driver answers by waiting for the server to
// acknowledge it, nor a query on a side connection reaches a frozen server). It is nil where no socket is known
// (an embedded engine has none). Call it when c is connected, before its first statement.
func Interrupter(c *sql.Conn) func() {
	if pc, err := Pgx(c); err == nil {
		nc := pc.PgConn().Conn()
		return func() { nc.Close() }
	}
	var socks []net.Conn
	c.Raw(func(dc any) error {
		if v, ok := sockets.LoadAndDelete(dc); ok {
			socks = v.([]net.Conn)
		}
		return nil
	})
	if len(socks) == 0 {
		return nil
	}
	return func() {
		for _, s := range socks {
			s.Close()
		}
	}
}
