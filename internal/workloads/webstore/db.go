// Package webstore is a DVD-Store-style e-commerce OLTP workload that follows DVD Store 3 (its schema, build
// scripts and driver read; none of its code used): customers log in (or register), join the premier membership,
// browse the catalogue by category, actor and title, search and read product reviews, write reviews and rate
// their helpfulness, and buy one to nine products in a transaction that takes them from stock and rolls back
// when the stock is short; a trigger restocks what a sale left low. Its figure is DVD Store 3's orders per
// minute (OPM, rollbacks included). `webstore reset` brings the database back to its loaded state between
// repeats, as the studies restored a backup before each run. docs/webstore.md says where it still differs.
package webstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

//go:embed sql
var sqlFS embed.FS

// Tables are the store's tables (the build record's and the id blocks' included).
var Tables = []string{"dbdyno_webstore_meta", "dbdyno_webstore_ids", "categories", "products", "inventory", "inventory_loaded",
	"customers", "cust_hist", "orders", "orderlines", "reorder", "membership", "reviews", "reviews_helpfulness"}

// Dataset is the web store's tables and the files that make them.
var Dataset = &bulk.Dataset{Workload: "webstore", Title: "web store", Tables: Tables, FS: sqlFS,
	Grows: []string{"customers", "cust_hist", "orders", "orderlines", "membership", "reviews", "reviews_helpfulness"}, Churns: []string{"reorder", "dbdyno_webstore_ids"},
	Static: []string{"categories", "products", "inventory_loaded"}}

// DB is an open web store target.
type DB struct{ bulk.TxDB }

// Files lists every statement the workload runs on an engine, file by file, as it runs them.
func Files(e *engine.Engine) ([]*sqlfile.File, error) { return Dataset.SQLFiles(e) }

// supported: the workload needs an engine made for many concurrent writers.
var supported = bulk.OLTPOnly("webstore", "purchases of one product conflict and abort")

// Open connects to a target.
func Open(ctx context.Context, t *engine.Target) (*DB, error) {
	return bulk.OpenTx[DB](ctx, Dataset, t, supported)
}

// Meta is what build records about the store it made.
type Meta struct {
	Size Size
	Seed uint64
}

// ReadMeta reads the build record and checks the build finished.
func (db *DB) ReadMeta(ctx context.Context) (*Meta, error) {
	m := &Meta{}
	err := db.Data.ReadMeta(ctx, bulk.Key("customers", &m.Size.Customers), bulk.Key("products", &m.Size.Products),
		bulk.Key("orders_per_month", &m.Size.OrdersPerMonth), bulk.Key("reviews_per_product", &m.Size.ReviewsPerProduct), bulk.Key("seed", &m.Seed))
	if bad := (*bulk.MetaError)(nil); errors.As(err, &bad) {
		return nil, fmt.Errorf("reading dbdyno's build record (%s): %w: rebuild with 'dbdyno webstore build --drop'", bad.Key, bad.Err)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// exec runs a statement of tx.sql on q.
func (db *DB) exec(ctx context.Context, q engine.Queryer, name string, args ...any) (sql.Result, error) {
	st := db.Stmts[name]
	r, err := q.ExecContext(ctx, st.SQL, st.Args(args)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}

// count runs a statement that returns one number.
func (db *DB) count(ctx context.Context, q engine.Queryer, name string, args ...any) (int64, error) {
	st := db.Stmts[name]
	var n int64
	if err := q.QueryRowContext(ctx, st.SQL, st.Args(args)...).Scan(&n); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return n, nil
}

// Id blocks: new customers and orders take their keys from dbdyno_webstore_ids.
const (
	idCustomer    = "customer"
	idOrder       = "order"
	idReview      = "review"
	idHelpfulness = "helpfulness"
)

// setIDs makes the id blocks start after the loaded keys.
func (db *DB) setIDs(ctx context.Context, q engine.Queryer, m *Meta) error {
	for _, k := range []struct {
		k    string
		next int64
	}{{idCustomer, m.Size.Customers + 1}, {idOrder, m.Size.Orders() + 1}, {idReview, m.Size.Reviews() + 1},
		{idHelpfulness, m.Size.HelpfulnessKeys() + 1}} {
		// asked first: MySQL counts an UPDATE that sets the value a row already has as no row affected
		var cur int64
		st := db.Stmts["ids_next"]
		switch err := q.QueryRowContext(ctx, st.SQL, st.Args([]any{k.k})...).Scan(&cur); {
		case errors.Is(err, sql.ErrNoRows):
			_, err = db.exec(ctx, q, "ids_put", k.k, k.next)
			if err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("ids_next: %w", err)
		default:
			if _, err := db.exec(ctx, q, "reset_ids", k.k, k.next); err != nil {
				return err
			}
		}
	}
	return nil
}

// BuildOptions are `webstore build`'s settings.
type BuildOptions struct {
	Size     Size
	Threads  int
	Drop     bool
	Seed     uint64
	Version  string
	Progress io.Writer
}

// errNotFound marks a step that found nothing it needed (a login with no such customer).
var errNotFound = errors.New("not found")

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// ordersAdded counts the orders beyond the loaded keys: those runs placed.
func (db *DB) ordersAdded(ctx context.Context, m *Meta) (int64, error) {
	return db.count(ctx, db.Data.SQL, "count_orders_added", m.Size.Orders())
}
