package webstore

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// Check sizes a build: every count at least 1 (a store needs customers and products to sell to and from).
func (s Size) Check() error {
	if s.ReviewsPerProduct < 0 || s.ReviewsPerProduct > 1000 {
		return fmt.Errorf("--reviews-per-product must be 0 to 1,000 (got %d)", s.ReviewsPerProduct)
	}
	if s.Customers < 1 || s.Products < 1 || s.OrdersPerMonth < 0 {
		return fmt.Errorf("a web store needs at least 1 customer and 1 product, and orders a month cannot be negative (got %d, %d, %d)",
			s.Customers, s.Products, s.OrdersPerMonth)
	}
	if s.Customers > 1<<31-1 || s.Products > 1<<31-1 || s.Orders() > 1<<30 {
		return fmt.Errorf("the store's keys are 32-bit: at most 2,147,483,647 customers and products, 89,478,485 orders a month")
	}
	if s.HelpfulnessKeys() > 1<<31-1-1<<24 { // room above for the ratings runs add
		return fmt.Errorf("the store's keys are 32-bit: products times --reviews-per-product can be at most %d (got %d)", (1<<31-1-1<<24)/helpfulnessSlots-1, s.Reviews())
	}
	return nil
}

// Build creates the schema and loads the store through the shared build lifecycle (bulk): customers, products
// and orders in ranges spread over opts.Threads connections, each streaming into its engine's bulk path; then
// keys, indexes, procedures, statistics and the id blocks. It refuses to touch existing web store tables
// unless opts.Drop is set, and never drops tables dbdyno did not create.
func (db *DB) Build(ctx context.Context, opts BuildOptions) (*bulk.Report, error) {
	if err := opts.Size.Check(); err != nil {
		return nil, err
	}
	var rows atomic.Int64
	s := opts.Size
	rep, err := db.Data.Build(ctx, bulk.Build{Threads: opts.Threads, Drop: opts.Drop, Version: opts.Version,
		Record: [][2]string{{"customers", itoa(s.Customers)}, {"products", itoa(s.Products)}, {"orders_per_month", itoa(s.OrdersPerMonth)},
			{"reviews_per_product", itoa(s.ReviewsPerProduct)}, {"seed", fmt.Sprint(opts.Seed)}},
		Work: work(opts.Seed, s, &rows), Rows: &rows, Total: s.Rows(), Bytes: s.Bytes(), Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	return rep, db.setIDs(ctx, db.Data.SQL, &Meta{Size: s, Seed: opts.Seed})
}
