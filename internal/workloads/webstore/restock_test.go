package webstore_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method/runner"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workloads/webstore"
)

// DVD Store 3's restock trigger keeps the rollback rate constant: a store of 50 products holding 10 each runs
// out of stock within about 50 orders (10 items an order on average), and 10 times that many orders still roll
// back fewer than 5% of their purchases, on every engine and in both modes. The run is counted in orders, not
// seconds, so that no machine is too fast or too slow for it.
func TestRestockKeepsRollbacksLow(t *testing.T) {
	const products, stock = 50, 10
	const meanItems = 5 * 2 // 1..9 lines of 1..3 items
	const orders = 10 * products * stock / meanItems
	t.Parallel() // on databases of its own
	for _, e := range engines(t, "dbdyno_ws_restock") {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own file or server
			clitest.Must(t, "webstore", "build", "--target", e.URL, "--customers", "200", "--products", "50", "--orders-per-month", "10", "--drop")
			db, raw := open(t, e.URL)
			for _, q := range []string{"UPDATE inventory SET quan_in_stock = 10", "UPDATE inventory_loaded SET quan_in_stock = 10"} {
				if _, err := raw.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			ctx := context.Background()
			// the store loaded with 10 of each, as a build would record it (a reset refuses a loaded copy edited
			// since its build)
			sum, ok, err := db.Data.T.Engine.TableChecksum(ctx, db.Data.SQL, "inventory_loaded")
			if err != nil || !ok {
				t.Fatal(ok, err)
			}
			if err := db.Data.PutMeta(ctx, "checksum:inventory_loaded", sum); err != nil {
				t.Fatal(err)
			}
			for _, mode := range e.Modes {
				if _, err := db.Reset(ctx); err != nil {
					t.Fatal(err)
				}
				w, err := db.NewWorkload(ctx, webstore.Options{NewCustomers: 0.2, Searches: 3, Batch: 5, MinLines: 1, MaxLines: 9,
					Procedures: mode == "procedures", Seed: 9})
				if err != nil {
					t.Fatal(err)
				}
				wk, err := w.NewWorker(ctx, 0)
				if err != nil {
					t.Fatal(err)
				}
				var purchases, rollbacks int
				for purchases < orders {
					step, _, _ := wk.Next()
					out := wk.Do(ctx, step)
					if out.Err != nil {
						wk.Close()
						t.Fatalf("%s: order %d: %v", mode, purchases, out.Err)
					}
					if step == webstore.Purchase {
						purchases++
						if out.RolledBack {
							rollbacks++
						}
					}
				}
				wk.Close()
				sold := one(t, raw, "SELECT SUM(sales) FROM inventory")
				if sold <= products*stock {
					t.Fatalf("%s: %d orders sold %d items, no more than the %d in stock: the store never ran out", mode, orders, sold, products*stock)
				}
				if rollbacks*100 >= 5*purchases {
					t.Fatalf("%s: %d of %d purchases rolled back (%.1f%%), want under 5%%: the store ran out of stock",
						mode, rollbacks, purchases, 100*float64(rollbacks)/float64(purchases))
				}
				if n := one(t, raw, "SELECT COUNT(*) FROM reorder WHERE quan_low < 3 AND quan_low + quan_reordered = 250"); n < 1 {
					t.Fatalf("%s: no restock to 250 recorded", mode)
				}
				checks, err := db.Check(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range checks {
					if !c.Passed {
						t.Fatalf("%s: after restocking, check %s: %s", mode, c.Name, c.Detail)
					}
				}
				t.Logf("%s: %d orders, %d rolled back, %d items sold of %d in stock at the start", mode, purchases, rollbacks, sold, products*stock)
			}
		})
	}
}

// The database's count of the orders a run added disagrees with the client's committed count (a trigger undoes
// every second order): the run fails, saying so.
func TestCrossCheckDisagreementFailsTheRun(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "ws.db")
	clitest.Must(t, "webstore", "build", "--target", url, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2")
	file := filepath.Join(dir, "ok.json")
	// counts, not times: 200 units of work hold orders however slow the machine
	clitest.Must(t, "webstore", "run", "--target", url, "--vus", "1", "--rampup", "0s", "--transactions", "200", "--interval", "1s", "--result", file)
	res, _ := clitest.ReadResult(t, file)
	// the run checked with its edges' count (not stored); here 2, one user's at each
	db, client := res.Figures["orders_db"].(float64), res.Figures["orders_committed"].(float64)
	if ok, _ := runner.CountsAgree(int64(client), int64(db), 2); res.Status != result.StatusOK || !ok || client < 1 {
		t.Fatalf("a clean run: status %s (%s), database %v orders, client %v; purchases %+v", res.Status, res.Error, res.Figures["orders_db"],
			res.Figures["orders_committed"], res.Measurement.Transactions["purchase"])
	}
	_, raw := open(t, url)
	// a trigger, not deleted rows or a dropped index: the run's start check would refuse those as tampering
	if _, err := raw.Exec("CREATE TRIGGER dbdyno_test_undo_orders AFTER INSERT ON orders WHEN NEW.orderid % 2 = 0 BEGIN DELETE FROM orders WHERE orderid = NEW.orderid; END"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	file = filepath.Join(dir, "tampered.json")
	r := clitest.Run(context.Background(), "webstore", "run", "--target", url, "--vus", "1", "--rampup", "0s", "--transactions", "200", "--interval", "1s", "--result", file)
	res, _ = clitest.ReadResult(t, file)
	if r.Code == 0 || res.Status != result.StatusFailed || !strings.Contains(res.Error, "the database gained") {
		t.Fatalf("a run whose orders the database lost: exit %d, status %s, error %q\n%s\n%s", r.Code, res.Status, res.Error, r.Stdout, r.Stderr)
	}
}

// DVD Store 3's additions on every engine: orders that each add a member, a review and a helpfulness rating
// (the shares at 100%) add one of each per order, their searches return the loaded reviews, and a reset takes
// them away again.
func TestReviewsAndMembership(t *testing.T) {
	t.Parallel() // on databases of its own
	for _, e := range engines(t, "dbdyno_ws_reviews") {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own file or server
			clitest.Must(t, "webstore", "build", "--target", e.URL, "--customers", "200", "--products", "50", "--orders-per-month", "10",
				"--reviews-per-product", "4", "--drop")
			db, raw := open(t, e.URL)
			ctx := context.Background()
			count := func(table string) int64 { return one(t, raw, "SELECT COUNT(*) FROM "+table) }
			members, reviews, ratings := count("membership"), count("reviews"), count("reviews_helpfulness")
			if members != 20 || reviews != 200 || ratings < 2*reviews || ratings > 39*reviews {
				t.Fatalf("loaded %d members, %d reviews, %d ratings: want 20, 200 and 2-39 ratings a review", members, reviews, ratings)
			}
			w, err := db.NewWorkload(ctx, webstore.Options{NewCustomers: 0.2, NewMembers: 1, NewReviews: 1, NewHelpfulness: 1,
				Searches: 1, ReviewSearches: 3, Batch: 5, MinLines: 1, MaxLines: 3, Seed: 4})
			if err != nil {
				t.Fatal(err)
			}
			wk, err := w.NewWorker(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer wk.Close()
			const orders = 20
			steps := map[int]int{}
			for n := 0; n < orders; {
				step, _, _ := wk.Next()
				if out := wk.Do(ctx, step); out.Err != nil {
					t.Fatalf("order %d: %v", n, out.Err)
				}
				steps[step]++
				if step == webstore.Purchase {
					n++
				}
			}
			for _, s := range []int{webstore.NewMember, webstore.NewReview, webstore.NewHelpfulness} {
				if steps[s] != orders {
					t.Fatalf("%d %s steps in %d orders", steps[s], webstore.StepNames[s], orders)
				}
			}
			if steps[webstore.BrowseReviewsActor]+steps[webstore.BrowseReviewsTitle] < orders || steps[webstore.GetReviews]+steps[webstore.GetReviewsStars]+steps[webstore.GetReviewsDate] < orders {
				t.Fatalf("review searches %v: want 1-5 of each kind an order", steps)
			}
			if count("membership") != members+orders || count("reviews") != reviews+orders || count("reviews_helpfulness") != ratings+orders {
				t.Fatalf("after %d orders: %d members, %d reviews, %d ratings; want one more of each an order", orders,
					count("membership"), count("reviews"), count("reviews_helpfulness"))
			}
			s, err := db.Session(ctx)
			if err != nil {
				t.Fatal(err)
			}
			n, err := s.Reviews(ctx, "get_reviews", 9, int64(1))
			s.Close()
			if want := one(t, raw, "SELECT COUNT(*) FROM reviews WHERE prod_id = 1"); err != nil || int64(n) != min(want, 9) {
				t.Fatalf("get_reviews of product 1: %d rows, %v; want %d", n, err, min(want, 9))
			}
			// browse by actor and by title: full-text on PostgreSQL and MySQL as DVD Store 3's (any word there), exact
			// elsewhere: every product found shares a word with the name or title asked for
			s, err = db.Session(ctx)
			if err != nil {
				t.Fatal(err)
			}
			shares := func(got, want string) bool {
				for _, w := range strings.Fields(want) {
					if len(w) >= 3 && slices.Contains(strings.Fields(got), w) {
						return true
					}
				}
				return false
			}
			for p := int64(1); p <= 5; p++ {
				for _, b := range []struct{ stmt, key string }{{"browse_actor", webstore.Actor(w.Meta().Seed, p)}, {"browse_title", webstore.Title(w.Meta().Seed, p)}} {
					titles, actors, err := s.Browse(ctx, b.stmt, b.key, 9)
					if err != nil || len(titles) == 0 {
						t.Fatalf("%s %q: nothing found, %v", b.stmt, b.key, err)
					}
					for i := range titles {
						if got := map[string]string{"browse_actor": actors[i], "browse_title": titles[i]}[b.stmt]; !shares(got, b.key) {
							t.Fatalf("%s %q found %q", b.stmt, b.key, got)
						}
					}
				}
			}
			s.Close()
			rep, err := db.Reset(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Members != orders || rep.Reviews != orders || rep.Helpfulness != orders ||
				count("membership") != members || count("reviews") != reviews || count("reviews_helpfulness") != ratings {
				t.Fatalf("reset removed %d members, %d reviews, %d ratings: want %d of each and the loaded counts back", rep.Members, rep.Reviews, rep.Helpfulness, orders)
			}
		})
	}
}
