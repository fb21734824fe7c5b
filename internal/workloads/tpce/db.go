// Package tpce is a TPC-E-derived brokerage OLTP workload: the specification's 33 tables (customers and their
// accounts, brokers and trades, the market and its dimensions), loaded by our own deterministic generator
// written from the specification's rules (not EGen's code or data), its consistency checks, and a customer
// emulator with an in-process market exchange emulator whose headline figure is tpsE, completed Trade-Results
// a second. Results are TPC-E-derived, not EGen data, not audited: docs/tpce.md says where it differs.
package tpce

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

//go:embed sql
var sqlFS embed.FS

// Tables are the workload's tables: the build record's, the accounts' opening balances and the 33.
var Tables = []string{"dbdyno_tpce_meta", "dbdyno_tpce_opening",
	"account_permission", "customer", "customer_account", "customer_taxrate", "holding", "holding_history", "holding_summary",
	"watch_item", "watch_list", "broker", "cash_transaction", "charge", "commission_rate", "settlement", "trade", "trade_history",
	"trade_request", "trade_type", "company", "company_competitor", "daily_market", "exchange", "financial", "industry",
	"last_trade", "news_item", "news_xref", "sector", "security", "address", "status_type", "taxrate", "zip_code"}

// Dataset is the workload's tables and the files that make them. The growing tables are the specification's
// eight (trade_request and holding churn: a run inserts and deletes).
var Dataset = &bulk.Dataset{Workload: "tpce", Title: "TPC-E", Tables: Tables, FS: sqlFS,
	Grows:  []string{"trade", "trade_history", "settlement", "cash_transaction", "holding_history"},
	Churns: []string{"trade_request", "holding", "holding_summary"},
	Static: []string{"status_type", "trade_type", "sector", "industry", "charge", "commission_rate", "zip_code", "dbdyno_tpce_opening"}}

// DB is an open TPC-E target.
type DB struct{ bulk.TxDB }

// Files lists every statement the workload runs on an engine, file by file, as it runs them.
func Files(e *engine.Engine) ([]*sqlfile.File, error) { return Dataset.SQLFiles(e) }

// supported: the workload needs an engine made for many concurrent writers.
var supported = bulk.OLTPOnly("tpce", "trades on one account or security conflict and abort")

// Open connects to a target.
func Open(ctx context.Context, t *engine.Target) (*DB, error) {
	return bulk.OpenTx[DB](ctx, Dataset, t, supported)
}

// Meta is what build records.
type Meta struct {
	Size Size
	Seed uint64
}

// ReadMeta reads the build record and checks the build finished.
func (db *DB) ReadMeta(ctx context.Context) (*Meta, error) {
	m := &Meta{}
	err := db.Data.ReadMeta(ctx, bulk.Key("customers", &m.Size.Customers), bulk.Key("trade_days", &m.Size.TradeDays), bulk.Key("seed", &m.Seed))
	if bad := (*bulk.MetaError)(nil); errors.As(err, &bad) {
		return nil, fmt.Errorf("reading dbdyno's build record (%s): %w: rebuild with 'dbdyno tpce build --drop'", bad.Key, bad.Err)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// BuildOptions are `tpce build`'s settings.
type BuildOptions struct {
	Size     Size
	Threads  int
	Drop     bool
	Seed     uint64
	Version  string
	Progress io.Writer
}

// Build creates the schema and loads it through the shared build lifecycle (bulk); the brokers' trade counts
// and commission totals are summed as the trades are generated.
func (db *DB) Build(ctx context.Context, opts BuildOptions) (*bulk.Report, error) {
	s := opts.Size
	if err := s.Check(); err != nil {
		return nil, err
	}
	rows := &atomicRows{}
	rep, err := db.Data.Build(ctx, bulk.Build{Threads: opts.Threads, Drop: opts.Drop, Version: opts.Version,
		Record: [][2]string{{"customers", fmt.Sprint(s.Customers)}, {"trade_days", fmt.Sprint(s.TradeDays)}, {"seed", fmt.Sprint(opts.Seed)},
			{"data", "TPC-E-derived, not EGen data"}},
		Work: work(opts.Seed, s, &rows.Int64), Rows: &rows.Int64, Total: s.Rows(), Bytes: s.Bytes(), Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// exec runs a statement of tx.sql on q.
func (db *DB) exec(ctx context.Context, q engine.Queryer, name string, args ...any) (sql.Result, error) {
	st := db.Stmts[name]
	if st == nil {
		return nil, fmt.Errorf("no statement %s", name)
	}
	r, err := q.ExecContext(ctx, st.SQL, st.Args(args)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}
