package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	mssql "github.com/microsoft/go-mssqldb"
	"github.com/microsoft/go-mssqldb/azuread"
)

// BulkCopyIn is SQL Server's bulk copy (the TDS bulk load that bcp and SqlBulkCopy use).
const BulkCopyIn BulkPath = "bulk copy"

// SQL Server and Azure SQL (Database and Managed Instance) through microsoft/go-mssqldb. The URL is the
// driver's own form: sqlserver://USER@HOST:PORT?database=DB, a named instance as sqlserver://HOST/INSTANCE (its
// port asked of the SQL Server Browser), Azure AD sign-in with ?fedauth=ActiveDirectoryDefault (or any of the
// driver's fedauth methods). The encryption parameters are passed to the driver as given: dbdyno never turns
// certificate checks off on its own.
func init() {
	// Strings travel as varchar: the driver's default, nvarchar, compared with the workloads' varchar and char
	// columns makes the server convert the column on every row instead of seeking its index.
	sqlfile.RegisterArg(sqlfile.AtP, func(v any) any {
		switch x := v.(type) {
		case string:
			return mssql.VarChar(x)
		case nil: // a typed NULL (NVARCHAR): Babelfish refuses TDS's untyped one ("Data type 0x1F is unknown")
			return sql.NullString{}
		}
		return v
	})
	register(&Engine{
		rank: 5,
		Name: "sqlserver", Title: "SQL Server", Schemes: []string{"sqlserver", "mssql", "azuresql"},
		DefaultPort: 1433, DefaultUser: "sa", AdminDatabase: "master",
		Placeholder: sqlfile.AtP, OLTP: true, ConcurrentDDL: true, Procedures: true, Bulk: BulkCopyIn,
		Schemas:  SchemaDefault,
		Counters: "performance counters, file IO and wait statistics (DMVs); resource use on Azure SQL Database",
		params: map[string]bool{"encrypt": true, "trustservercertificate": true, "hostnameincertificate": true,
			"certificate": true, "servercertificate": true, "tlsmin": true, "fedauth": true, "applicationintent": true,
			"packet size": true, "multisubnetfailover": true, "failoverpartner": true, "failoverport": true, "protocol": true},
		ParseDialect: "tsql", // no SQL Server runs on the project's machines: its files are parsed offline
		dbParam:      "database", instancePath: true, foldParams: true,
		denied: "login failed", quotes: [2]string{"[", "]"}, open: openSQLServer, classify: classifySQLServer, raised: raisedSQLServer,
		detect:   detectBabelfish,
		waitsOff: "the account may not see other sessions: grant it VIEW SERVER STATE (VIEW DATABASE STATE on Azure SQL Database) to sample wait events",
	})
}

// sqlserverDSN is the driver's connection URL for the target, password included: it never leaves this file.
func sqlserverDSN(t *Target) string {
	u := url.URL{Scheme: "sqlserver", Host: t.Host, Path: "/" + t.Instance}
	if t.Port > 0 {
		u.Host = net.JoinHostPort(t.Host, strconv.Itoa(t.Port))
	}
	if t.password != "" {
		u.User = url.UserPassword(t.User, t.password)
	} else if t.User != "" {
		u.User = url.User(t.User)
	}
	q := url.Values{}
	for k, v := range t.Params {
		q[k] = v
	}
	q.Set("database", t.Database)
	q.Set("app name", "dbdyno") // its sessions tell themselves apart in sys.dm_exec_sessions
	q.Set("keepalive", "30")
	if t.ConnectTimeout > 0 {
		q.Set("dial timeout", strconv.Itoa(int((t.ConnectTimeout+time.Second-1)/time.Second)))
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func openSQLServer(_ context.Context, t *Target) (*sql.DB, error) {
	dsn := sqlserverDSN(t)
	var c *mssql.Connector
	var err error
	if t.Params.Get("fedauth") != "" {
		c, err = azuread.NewConnector(dsn)
	} else {
		c, err = mssql.NewConnector(dsn)
	}
	if err != nil {
		return nil, errors.New(t.Scrub(err.Error()))
	}
	if t.Instance == "" {
		c.Dialer = loginDialer(30 * time.Second) // TCP only: a named instance's port is asked over UDP; login bounded (handshake.go)
	}
	return openConnector(t, c), nil
}

// SQLServerConn is the driver's connection under a database/sql connection of a SQL Server target (for its
// bulk copy).
func SQLServerConn(dc any) (*mssql.Conn, bool) {
	c, ok := dc.(*mssql.Conn)
	return c, ok
}

var _ driver.Connector = (*mssql.Connector)(nil)

func classifySQLServer(err error) Class {
	var e mssql.Error
	if !errors.As(err, &e) {
		return Other
	}
	switch e.Number {
	case 1205, 1222, 3960, 41302, 41305, 41325, 40501, 10928, 10929, 49918, 49919, 49920:
		// deadlock victim, lock timeout, snapshot update conflict, in-memory OLTP conflicts, Azure: service busy,
		// resource limits
		return Retryable
	case 596, 6005, 40613, 40197, 40143, 233, 10053, 10054:
		// session killed, shutting down, Azure: database unavailable or moved, transport failures
		return ConnLost
	case 18456, 18452, 18470, 18487, 18488:
		return AuthFailed
	case 4060, 911:
		return NoDatabase
	case 208, 207, 2812, 4121:
		return Schema // invalid object, column; no such procedure, function
	case 3906, 3908:
		return ReadOnly // the database is read-only
	case 823, 824, 825, 605, 8928, 8939, 5172:
		return Corrupt // I/O and page checksum errors, a page of the wrong object, consistency errors, bad file header
	case 229, 230, 262, 300:
		return Permission
	case 2627, 2601, 547, 515:
		return Constraint
	case babelfishUnmapped:
		return classifyBabelfish(strings.ToLower(e.Message))
	}
	return Other
}

// babelfishUnmapped is the number Babelfish for PostgreSQL gives a PostgreSQL error it has no SQL Server number
// for (a table gone under a running query: `relation "lineitem" does not exist`, not 208): its PostgreSQL message
// is all there is to go by.
const babelfishUnmapped = 33557097

func classifyBabelfish(msg string) Class {
	switch {
	case strings.Contains(msg, "does not exist") && (strings.HasPrefix(msg, "relation ") || strings.HasPrefix(msg, "column ") ||
		strings.HasPrefix(msg, "function ") || strings.HasPrefix(msg, "procedure ") || strings.HasPrefix(msg, "schema ")),
		strings.Contains(msg, "cached plan must not change result type"):
		return Schema
	case strings.Contains(msg, "read-only transaction") || strings.Contains(msg, "read only transaction"):
		return ReadOnly
	case strings.Contains(msg, "deadlock detected") || strings.Contains(msg, "could not serialize"):
		return Retryable
	case strings.Contains(msg, "violates unique constraint") || strings.Contains(msg, "violates foreign key constraint") ||
		strings.Contains(msg, "violates not-null constraint") || strings.Contains(msg, "violates check constraint"):
		return Constraint
	}
	return Other
}

// raisedSQLServer: dbdyno's procedures THROW their own error numbers (50000 and up) with their own message.
func raisedSQLServer(err error) (string, bool) {
	var e mssql.Error
	if errors.As(err, &e) && e.Number >= 50000 {
		return e.Message, true
	}
	return "", false
}

// babelfishMissing is what Babelfish for PostgreSQL lacks of dbdyno's SQL Server catalog, settings and
// counters (Babelfish 4.2): each statement's name and the view or command it would read.
var babelfishMissing = map[string]string{
	"host_cores": "sys.dm_os_sys_info", "memory_model": "sys.dm_os_sys_info", "cpu_count": "sys.dm_os_sys_info",
	"physical_memory_mb": "sys.dm_os_sys_info",
	"counters":           "sys.dm_os_performance_counters", "cache_size": "sys.dm_os_performance_counters",
	"tx_counts":           "sys.dm_os_performance_counters",
	"counters_wait_stats": "sys.dm_os_wait_stats",
	"counters_file_io":    "sys.dm_io_virtual_file_stats", "io_counters": "sys.dm_io_virtual_file_stats",
	"waits":                   "sys.dm_exec_requests",
	"counters_azure_resource": "sys.dm_db_resource_stats",
	"database_maxdop":         "sys.database_scoped_configurations",
	"trace_flags":             "DBCC TRACESTATUS",
}

// babelfishNoOption are settings read from sys.configurations, which Babelfish has without these options.
var babelfishNoOption = []string{"max_server_memory_mb", "maxdop", "cost_threshold_for_parallelism"}

var pgVersion = regexp.MustCompile(`PostgreSQL ([0-9][0-9.]*)`)

// detectBabelfish tells Babelfish for PostgreSQL from SQL Server: it answers SERVERPROPERTY('BabelfishVersion').
func detectBabelfish(ctx context.Context, e *Engine, q Queryer) (*variant, error) {
	var bf, full *string
	if err := q.QueryRowContext(ctx, e.stmt("variant").SQL).Scan(&bf, &full); err != nil {
		return nil, err
	}
	if bf == nil || *bf == "" {
		return nil, nil
	}
	name := "Babelfish " + *bf
	v := &variant{version: name, missing: map[string]string{}, lacks: map[Feature]string{
		Columnstore: name + " has no columnstore indexes (tpch build --columnstore is refused)",
	}, parallel: "max_parallel_session_babelfish"}
	if full != nil {
		if m := pgVersion.FindStringSubmatch(*full); m != nil {
			v.version = name + " on PostgreSQL " + m[1]
		}
	}
	for st, what := range babelfishMissing {
		v.missing[st] = name + " has no " + what
	}
	for _, st := range babelfishNoOption {
		v.missing[st] = name + "'s sys.configurations does not hold this option"
	}
	return v, nil
}
