package engine

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log"
	"net"
	"strconv"

	"github.com/dbdyno/dbdyno/internal/rawconn"
	"github.com/dbdyno/dbdyno/internal/sqlfile"
	"github.com/go-sql-driver/mysql"
)

// MySQL and MariaDB through go-sql-driver/mysql.
func init() {
	// The driver logs lost connections to stderr on its own; dbdyno reports and counts them itself.
	mysql.SetLogger(log.New(io.Discard, "", 0))
	register(&Engine{
		rank: 4,
		Name: "mysql", Title: "MySQL/MariaDB", Schemes: []string{"mysql", "mariadb"},
		DefaultPort: 3306, DefaultUser: "root",
		Placeholder: sqlfile.Question, OLTP: true, Procedures: true, Bulk: BulkLoadData,
		Counters: "InnoDB and statement counters (GLOBAL_STATUS)",
		denied:   "access denied", open: openMySQL, classify: classifyMySQL, raised: raisedMySQL,
	})
}

func openMySQL(_ context.Context, t *Target) (*sql.DB, error) {
	c := mysql.NewConfig()
	c.User, c.Passwd, c.DBName = t.User, t.password, t.Database
	c.Net, c.Addr = "tcp", net.JoinHostPort(t.Host, strconv.Itoa(t.Port))
	c.ParseTime = true
	c.Timeout = t.ConnectTimeout
	c.AllowNativePasswords = true
	c.DialFunc = rawconn.NewDialer(0).DialContext
	c.Params = map[string]string{}
	conn, err := mysql.NewConnector(c)
	if err != nil {
		return nil, err
	}
	return openConnector(t, conn), nil
}

func classifyMySQL(err error) Class {
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		switch myErr.Number {
		case 1213, 1205: // deadlock, lock wait timeout
			return Retryable
		case 1927, 1053, 2006, 2013, 4031: // connection killed, server shutdown, gone away, lost, idle timeout
			return ConnLost
		case 1045:
			return AuthFailed
		case 1049:
			return NoDatabase
		case 1146, 1305:
			return NotFound
		}
		return Other
	}
	if errors.Is(err, mysql.ErrInvalidConn) {
		return ConnLost
	}
	return Other
}

// raisedMySQL: dbdyno's procedures SIGNAL SQLSTATE '45000' (error 1644) with their own message.
func raisedMySQL(err error) (string, bool) {
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) && myErr.Number == 1644 {
		return myErr.Message, true
	}
	return "", false
}
