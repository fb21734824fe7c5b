package tpch

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

//go:embed sql
var sqlFS embed.FS

var tableNames = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

// Dataset is the TPC-H tables and the files that make them (sql/generic and sql/ENGINE).
var Dataset = &bulk.Dataset{Workload: "tpch", Title: "TPC-H", Tables: tableNames, FS: sqlFS,
	Churns: []string{"orders", "lineitem"}, ChurnsWith: metaRefreshSets, Static: tableNames}

// DefaultTarget is the embedded database the workload uses unless told otherwise.
const DefaultTarget = "duckdb://dbdyno-tpch.duckdb"

// DB is an open TPC-H target.
type DB struct {
	T       *engine.Target
	data    *bulk.DB
	queries sqlfile.Set
	refresh sqlfile.Set // refresh.sql: RF1, RF2 and restoring the loaded data
	// --maxdop: statements run on each query connection first, and a hint added to each query
	session []string
	hint    string
}

// LimitParallelism holds every query to n parallel workers, the server's way (--maxdop).
func (d *DB) LimitParallelism(ctx context.Context, n int) error {
	session, hint, err := d.T.Parallelism(ctx, d.data.SQL, n)
	if err != nil {
		return err
	}
	d.session, d.hint = session, hint
	return nil
}

// conn is a connection for queries, with the --maxdop session settings applied.
func (d *DB) conn(ctx context.Context) (*sql.Conn, error) {
	c, err := d.data.SQL.Conn(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range d.session {
		if _, err := c.ExecContext(ctx, s); err != nil {
			c.Close()
			return nil, fmt.Errorf("%s: %w", s, err)
		}
	}
	return c, nil
}

// Queries loads a dialect's 22 queries.
func Queries(dialect string, ph sqlfile.Placeholder) (sqlfile.Set, error) {
	f, err := sqlfile.Overlay(sqlFS, dialect, "queries.sql", ph)
	if err != nil {
		return nil, err
	}
	return f.Set(), nil
}

// Files lists every statement the workload runs on an engine, file by file, as it runs them.
func Files(e *engine.Engine) ([]*sqlfile.File, error) {
	out, err := Dataset.Files(e)
	if err != nil {
		return nil, err
	}
	for _, n := range []string{"queries.sql", "refresh.sql"} {
		f, err := sqlfile.Overlay(sqlFS, e.Name, n, e.Placeholder)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Open connects to a target.
func Open(ctx context.Context, t *engine.Target) (*DB, error) {
	qs, err := Queries(t.Engine.Name, t.Engine.Placeholder)
	if err != nil {
		return nil, err
	}
	refresh, err := sqlfile.Overlay(sqlFS, t.Engine.Name, "refresh.sql", t.Engine.Placeholder)
	if err != nil {
		return nil, err
	}
	data, err := bulk.Open(ctx, Dataset, t)
	if err != nil {
		return nil, err
	}
	if t.Engine.SingleWriter {
		data.SQL.SetMaxOpenConns(1)
	}
	return &DB{T: t, data: data, queries: qs, refresh: refresh.Set()}, nil
}

// Close releases the connections.
func (d *DB) Close() { d.data.Close() }

// ServerVersion is the engine's version string.
func (d *DB) ServerVersion(ctx context.Context) string { return d.data.ServerVersion(ctx) }

// Scale reads the scale factor of a finished build.
func (d *DB) Scale(ctx context.Context) (float64, error) {
	if err := d.data.Ready(ctx); err != nil {
		return 0, err
	}
	s, err := d.data.Meta(ctx, "scale")
	if err != nil {
		return 0, err
	}
	var sf float64
	if _, err := fmt.Sscan(s, &sf); err != nil {
		return 0, fmt.Errorf("build record scale %q: %w", s, err)
	}
	return sf, nil
}

// Contents compares the tables' contents with the checksums their build recorded (bulk.DB.Contents).
func (d *DB) Contents(ctx context.Context) (compared, differ []string, err error) {
	return d.data.Contents(ctx)
}

// Drop removes dbdyno's TPC-H tables, and only them.
func (d *DB) Drop(ctx context.Context) (bool, error) { return d.data.Drop(ctx) }

// Columns of each table, in dbgen's order.
var Columns = map[dbgen.Table][]string{
	dbgen.Region:   {"r_regionkey", "r_name", "r_comment"},
	dbgen.Nation:   {"n_nationkey", "n_name", "n_regionkey", "n_comment"},
	dbgen.Supplier: {"s_suppkey", "s_name", "s_address", "s_nationkey", "s_phone", "s_acctbal", "s_comment"},
	dbgen.Customer: {"c_custkey", "c_name", "c_address", "c_nationkey", "c_phone", "c_acctbal", "c_mktsegment", "c_comment"},
	dbgen.Part:     {"p_partkey", "p_name", "p_mfgr", "p_brand", "p_type", "p_size", "p_container", "p_retailprice", "p_comment"},
	dbgen.PartSupp: {"ps_partkey", "ps_suppkey", "ps_availqty", "ps_supplycost", "ps_comment"},
	dbgen.Orders: {"o_orderkey", "o_custkey", "o_orderstatus", "o_totalprice", "o_orderdate", "o_orderpriority", "o_clerk",
		"o_shippriority", "o_comment"},
	dbgen.LineItem: {"l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice", "l_discount",
		"l_tax", "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode",
		"l_comment"},
}
