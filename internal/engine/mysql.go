package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/go-sql-driver/mysql"
)

// BulkLoadData is MySQL/MariaDB's LOAD DATA LOCAL INFILE (multi-row INSERTs when the server refuses it).
const BulkLoadData BulkPath = "load data"

// MySQL and MariaDB through go-sql-driver/mysql.
func init() {
	// The driver logs lost connections to stderr on its own; dbdyno reports and counts them itself.
	mysql.SetLogger(log.New(io.Discard, "", 0))
	register(&Engine{
		rank: 4,
		Name: "mysql", Title: "MySQL/MariaDB", Schemes: []string{"mysql", "mariadb"},
		DefaultPort: 3306, DefaultUser: "root", AdminDatabase: "",
		Placeholder: sqlfile.Question, OLTP: true, ConcurrentDDL: true, Procedures: true, Bulk: BulkLoadData,
		Schemas:  SchemaDatabase,
		Counters: "InnoDB and statement counters (GLOBAL_STATUS)",
		params:   map[string]bool{"tls": true, "ssl-mode": true, "ssl-ca": true},
		denied:   "access denied", quotes: [2]string{"`", "`"}, open: openMySQL, classify: classifyMySQL, raised: raisedMySQL,
		waitsOff: "the server's performance_schema is off: start it with performance_schema=ON to sample wait events",
	})
}

func openMySQL(_ context.Context, t *Target) (*sql.DB, error) {
	c := mysql.NewConfig()
	c.User, c.Passwd, c.DBName = t.User, t.password, t.Database
	c.Net, c.Addr = "tcp", net.JoinHostPort(t.Host, strconv.Itoa(t.Port))
	c.ParseTime = true
	c.Timeout = t.ConnectTimeout
	c.AllowNativePasswords = true
	c.ConnectionAttributes = "program_name:dbdyno" // its sessions tell themselves apart in performance_schema
	c.DialFunc = loginDialer(0).DialContext        // its sockets known, for Interrupter (handshake.go)
	c.Params = map[string]string{}
	if err := mysqlTLS(c, t); err != nil {
		return nil, err
	}
	conn, err := mysql.NewConnector(c)
	if err != nil {
		return nil, err
	}
	return openConnector(t, conn), nil
}

func classifyMySQL(err error) Class {
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		if string(myErr.SQLState[:]) == "40001" { // a serialization failure a trigger or procedure signalled
			return Retryable
		}
		if tidbRetryable[myErr.Number] {
			return Retryable
		}
		switch myErr.Number {
		case 1213, 1205: // deadlock, lock wait timeout
			return Retryable
		case 1927, 1053, 2006, 2013, 4031: // connection killed, server shutdown, gone away, lost, idle timeout
			return ConnLost
		case 1045:
			return AuthFailed
		case 1049:
			return NoDatabase
		case 1146, 1054, 1305, 1051, 1109, 1356, 1412:
			// no such table, unknown column, no such routine, unknown table, view's base gone, table definition
			// changed
			return Schema
		case 1290, 1792, 1036, 1836:
			// --read-only (ER_OPTION_PREVENTS_STATEMENT), read-only transaction, table is read only, read-only mode
			return ReadOnly
		case 1194, 1195, 1034, 1712, 1877, 1812:
			// table crashed, crashed on repair, bad key file, index corrupt, table corrupt, tablespace missing
			return Corrupt
		case 1142, 1143, 1044, 1227, 1370:
			return Permission
		case 1062, 1451, 1452, 1048, 3819, 1216, 1217, 1557, 1586:
			return Constraint
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

// mysqlTLS sets the connection's TLS from the URL: go-sql-driver's tls=true|skip-verify|preferred|false or the
// MySQL client's ssl-mode=DISABLED|PREFERRED|REQUIRED|VERIFY_CA|VERIFY_IDENTITY, with ssl-ca=FILE for the CA
// certificates. A mode that asks for TLS fails when the server has none; only "preferred" falls back.
func mysqlTLS(c *mysql.Config, t *Target) error {
	mode := strings.ToLower(t.Params.Get("ssl-mode"))
	switch tlsParam := strings.ToLower(t.Params.Get("tls")); {
	case tlsParam != "" && mode != "":
		return errors.New("mysql target: give tls or ssl-mode, not both")
	case tlsParam == "true":
		mode = "verify_identity"
	case tlsParam == "skip-verify":
		mode = "required"
	case tlsParam == "preferred" || tlsParam == "false":
		mode = map[string]string{"preferred": "preferred", "false": "disabled"}[tlsParam]
	case tlsParam != "":
		return fmt.Errorf("mysql target: tls=%s is not known: use true, skip-verify, preferred or false", tlsParam)
	}
	var roots *x509.CertPool
	if ca := t.Params.Get("ssl-ca"); ca != "" {
		if err := paramFile("ssl-ca", ca, "CA certificate"); err != nil {
			return err
		}
		pem, err := os.ReadFile(ca)
		if err != nil {
			return fmt.Errorf("mysql target: ssl-ca: %w", err)
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return fmt.Errorf("mysql target: ssl-ca %s holds no PEM certificate", ca)
		}
	}
	switch mode {
	case "", "disabled":
	case "preferred":
		c.TLS, c.AllowFallbackToPlaintext = &tls.Config{InsecureSkipVerify: true}, true
	case "required":
		c.TLS = &tls.Config{InsecureSkipVerify: true}
	case "verify_ca":
		// the chain is checked against the CAs, the host name is not
		c.TLS = &tls.Config{InsecureSkipVerify: true, VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			return verifyChain(raw, roots)
		}}
	case "verify_identity":
		c.TLS = &tls.Config{RootCAs: roots, ServerName: t.Host}
	default:
		return fmt.Errorf("mysql target: ssl-mode=%s is not known: use DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY", mode)
	}
	return nil
}

func verifyChain(raw [][]byte, roots *x509.CertPool) error {
	if len(raw) == 0 {
		return errors.New("the server sent no certificate")
	}
	certs := make([]*x509.Certificate, len(raw))
	for i, b := range raw {
		c, err := x509.ParseCertificate(b)
		if err != nil {
			return err
		}
		certs[i] = c
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
	return err
}
