package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/dbdyno/dbdyno/internal/engine/pgfast"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/rawconn"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// BulkCopy is PostgreSQL's COPY FROM STDIN.
const BulkCopy BulkPath = "copy"

// PostgreSQL through pgx: database/sql with pgx's stdlib driver, whose connections a workload may drive below
// database/sql through pgconn (Pgx) for the shortest path per statement.
func init() {
	register(&Engine{
		rank: 3,
		Name: "postgres", Title: "PostgreSQL", Schemes: []string{"postgres", "postgresql", "pg"},
		DefaultPort: 5432, DefaultUser: "postgres", AdminDatabase: "postgres", TextParams: true,
		Placeholder: sqlfile.Dollar, OLTP: true, ConcurrentDDL: true, Procedures: true, AtomicCall: true, Arrays: true, Bulk: BulkCopy, Wire: WirePostgres,
		Schemas:  SchemaSearchPath,
		Counters: "pg_stat_database and WAL bytes",
		params:   map[string]bool{"sslmode": true, "sslrootcert": true, "sslcert": true, "sslkey": true, "sslpassword": true},
		denied:   "authentication failed", open: openPostgres, classify: classifyPostgres, raised: raisedPostgres,
		// a query with no parameters as one Query message, as pgbench -M simple and psql send it: by default
		// (QueryExecModeExec) pgx sends it as an unnamed statement of the extended protocol (Parse, Bind,
		// Describe, Execute, Sync), which the server parses and plans the longer way
		textQuery: []any{pgx.QueryExecModeSimpleProtocol},
	})
}

func pgConfig(t *Target) (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig("")
	if err != nil {
		return nil, err
	}
	cfg.Host, cfg.Port, cfg.User, cfg.Password, cfg.Database = t.Host, uint16(t.Port), t.User, t.password, t.Database
	cfg.ConnectTimeout = t.ConnectTimeout
	cfg.RuntimeParams["application_name"] = "dbdyno"
	if t.Schema != "" {
		cfg.RuntimeParams["search_path"] = ident(t.Schema) // a plain name (SetSchema), so unquoted as it is typed
	}
	cfg.DialFunc = rawconn.NewDialer(5 * time.Minute).DialContext
	// Unnamed statements: PostgreSQL plans each query with its actual parameter values.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	if sm := t.Params.Get("sslmode"); sm == "" || sm == "disable" {
		cfg.TLSConfig = nil
		cfg.Fallbacks = nil
	} else {
		// libpq's meaning, as pgx reads it: prefer and allow fall back to plaintext when the server has no TLS;
		// require encrypts without verifying; verify-ca and verify-full check the server's certificate.
		for _, f := range [][2]string{{"sslrootcert", "CA certificate"}, {"sslcert", "client certificate"}, {"sslkey", "client key"}} {
			// sslrootcert=system is libpq's word for the system's CAs
			if v := t.Params.Get(f[0]); v != "" && !(f[0] == "sslrootcert" && v == "system") {
				if err := paramFile(f[0], v, f[1]); err != nil {
					return nil, err // pgx's own error ended "...: no such file or directory)", naming no file
				}
			}
		}
		parts := []string{"host=" + quote(t.Host), "port=" + strconv.Itoa(t.Port)}
		for _, k := range []string{"sslmode", "sslrootcert", "sslcert", "sslkey", "sslpassword"} {
			if v := t.Params.Get(k); v != "" {
				parts = append(parts, k+"="+quote(v))
			}
		}
		c2, err := pgx.ParseConfig(strings.Join(parts, " "))
		if err != nil {
			return nil, fmt.Errorf("sslmode %q: %s", sm, t.Scrub(err.Error()))
		}
		cfg.TLSConfig, cfg.Fallbacks = c2.TLSConfig, c2.Fallbacks
	}
	return cfg, nil
}

// quote writes a libpq connection-string value.
func quote(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

func openPostgres(_ context.Context, t *Target) (*sql.DB, error) {
	cfg, err := pgConfig(t)
	if err != nil {
		return nil, err
	}
	return openConnector(t, stdlib.GetConnector(*cfg)), nil
}

// Pgx is the pgx connection under a database/sql connection of a PostgreSQL target. It stays valid while c is
// held; closing it makes database/sql discard c when c is closed.
func Pgx(c *sql.Conn) (*pgx.Conn, error) { return pgfast.Pgx(c) }

func classifyPostgres(err error) Class {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch c := pgErr.Code; {
		case c == "40001" || c == "40P01" || c == "55P03":
			return Retryable
		case c == "57P01" || c == "57P02" || c == "57P03" || strings.HasPrefix(c, "08"):
			return ConnLost // admin_shutdown (pg_terminate_backend), crash_shutdown, cannot_connect_now, connection exceptions
		case c == "28P01" || c == "28000":
			return AuthFailed
		case c == "3D000":
			return NoDatabase
		case c == "42P01" || c == "42703" || c == "42883" || c == "42704" || c == "3F000" || c == "26000":
			return Schema // undefined table, column, function, object, schema; a prepared statement gone
		case c == "0A000" && strings.Contains(pgErr.Message, "cached plan"):
			return Schema // "cached plan must not change result type": a table changed under a prepared statement
		case c == "25006":
			return ReadOnly // read_only_sql_transaction: a standby, or default_transaction_read_only
		case c == "XX001" || c == "XX002" || c == "58030":
			return Corrupt // data_corrupted, index_corrupted, io_error
		case c == "42501":
			return Permission
		case strings.HasPrefix(c, "23"):
			return Constraint // integrity constraint violations
		}
		return Other
	}
	if pgconn.Timeout(err) {
		return ConnLost
	}
	return Other
}

// raisedPostgres: dbdyno's functions raise their own SQLSTATEs (class DY) with RAISE ... USING ERRCODE.
func raisedPostgres(err error) (string, bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "DY") || pgErr.Code == "P0001") {
		return pgErr.Message, true
	}
	return "", false
}
