package webstore_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/webstore"
)

// A custom mix's order flow: a mean that is not whole draws its floor or ceiling so that the mean holds, and
// the purchase share leaves the rest of the orders browsing only.
func TestMixPlans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := webstore.Size{Customers: 1000, Products: 1000}
	o := webstore.Options{NewCustomers: 0.5, Searches: 2.5, BrowseOnly: 0.75, Batch: 5, MinLines: 1, MaxLines: 9}
	const n = 20000
	browse, buys, news := 0, 0, 0
	for i := 0; i < n; i++ {
		p := webstore.NextPlan(r, s, o)
		browse += len(p.Browse)
		if len(p.Prods) > 0 {
			buys++
		}
		if p.New {
			news++
		}
		if len(p.Browse) < 2 || len(p.Browse) > 3 {
			t.Fatalf("a mean of 2.5 browse steps drew %d", len(p.Browse))
		}
	}
	if m := float64(browse) / n; math.Abs(m-2.5) > 0.03 {
		t.Fatalf("mean browse steps %g, want 2.5", m)
	}
	if f := float64(buys) / n; math.Abs(f-0.25) > 0.015 {
		t.Fatalf("%g of the orders bought, want 0.25", f)
	}
	if f := float64(news) / n; math.Abs(f-0.5) > 0.015 {
		t.Fatalf("%g of the orders by new customers, want 0.5", f)
	}
}

// --mix weighs DVD Store 3's flow: the run does what the weights say (the steps' counts in their proportions),
// the result is marked "custom mix", compare refuses it beside the standard flow without
// --allow-different-work, and bad weights are one line each. On SQLite and the PostgreSQL server.
func TestWebstoreCustomMix(t *testing.T) {
	t.Parallel() // on a file and a database of its own
	engines := []string{"sqlite"}
	if os.Getenv(testsrv.PostgresEnv) != "" || os.Getenv("CI") == "true" {
		engines = append(engines, "postgres")
	}
	for i, name := range engines {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each engine its own file or database, results store and result files
			customMix(t, name, i == 0)
		})
	}
}

// customMix is TestWebstoreCustomMix on one engine; refusals, on the first only.
func customMix(t *testing.T, name string, refusals bool) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "w.db")
	if name == "postgres" {
		url = beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_ws_mix")
	}
	st := filepath.Join(dir, "results.db")
	clitest.Must(t, "webstore", "build", "--target", url, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2", "--drop")
	// counts, not times: 600 units of work hold some 100 orders of the custom mix (5.5 units an order)
	// however slow the machine
	run := func(file string, extra ...string) {
		clitest.Must(t, append([]string{"webstore", "run", "--target", url, "--vus", "2", "--rampup", "0s", "--transactions", "600",
			"--store", st, "--result", filepath.Join(dir, file)}, extra...)...)
	}
	std, custom := filepath.Join(dir, "std.json"), filepath.Join(dir, "custom.json")
	run("std.json")
	// every order a login, 4 browse steps an order, half of them buying, none of DVD Store 3's additions
	run("custom.json", "--mix", "login=10,browse=40,purchase=5")
	s, _ := clitest.ReadResult(t, std)
	c, _ := clitest.ReadResult(t, custom)
	tx := c.Measurement.Transactions
	count := func(name string) int64 { return tx[name].Count + tx[name].Rollbacks + tx[name].Errors }
	logins, purchases := count("login"), count("purchase")
	browses := count("browse_category") + count("browse_actor") + count("browse_title")
	for _, none := range []string{"new_customer", "new_member", "browse_reviews_actor", "get_reviews", "new_review", "new_helpfulness"} {
		if count(none) != 0 {
			t.Fatalf("%s: a mix without %s ran %d of them", url, none, count(none))
		}
	}
	// the orders in flight at the window's edges blur the proportions by at most a few orders a user
	if logins < 20 || math.Abs(float64(browses)-4*float64(logins)) > 0.25*4*float64(logins)+40 ||
		math.Abs(float64(purchases)-0.5*float64(logins)) > 0.25*float64(logins)+8 {
		t.Fatalf("%s: %d logins, %d browse steps, %d purchases: not 1 to 4 to 0.5", url, logins, browses, purchases)
	}
	if c.Options["mix"] != "login=10,browse=40,purchase=5" || s.Options["mix"] != nil || c.Options["browse_only_pct"] != 50.0 {
		t.Fatalf("%s: mix options: custom %v (%v), standard %v", url, c.Options["mix"], c.Options["browse_only_pct"], s.Options["mix"])
	}
	ctx := context.Background()
	var out bytes.Buffer
	err := results.Compare(ctx, &out, st, []string{s.RunID, c.RunID})
	if err == nil || !strings.Contains(err.Error(), "custom mix") {
		t.Fatalf("%s: compare of a custom mix beside the standard: %v\n%s", url, err, out.String())
	}
	out.Reset()
	if err := results.CompareWith(ctx, &out, st, []string{s.RunID, c.RunID}, results.CompareOptions{AllowDifferentWork: true}); err != nil {
		t.Fatalf("%s: compare allowed to set different work side by side: %v", url, err)
	}
	// the standard mix in proportion is the standard flow, not a custom one
	run("same.json", "--mix", "login=8,new_customer=2,browse=30,purchase=10,new_member=0.1,reviews=30,new_review=0.5,new_helpfulness=1")
	if same, _ := clitest.ReadResult(t, filepath.Join(dir, "same.json")); same.Options["mix"] != nil {
		t.Fatalf("%s: the standard weights in proportion were taken for a custom mix: %v", url, same.Options["mix"])
	}
	if !refusals {
		return
	}
	for mix, want := range map[string]string{
		"login=-1":                    "0 or more",
		"refund=1":                    "names no transaction",
		"browse=3":                    "every order begins with a login or a new customer",
		"login=1,purchase=2":          "an order buys at most once",
		"login=1,new_review=3":        "new_review happens at most once an order",
		"login=1,browse=0,purchase=0": "makes an empty order",
	} {
		r := clitest.Run(ctx, "webstore", "run", "--target", url, "--mix", mix, "--duration", "1s", "--store", "")
		if r.Code == 0 || !strings.Contains(r.Stderr, want) || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("--mix %s: exit %d, %q; want one line saying %q", mix, r.Code, r.Stderr, want)
		}
	}
	r := clitest.Run(ctx, "webstore", "run", "--target", url, "--mix", "login=1,browse=1", "--searches", "5", "--store", "")
	if r.Code == 0 || !strings.Contains(r.Stderr, "give one or the other") {
		t.Errorf("--mix with --searches: exit %d, %q", r.Code, r.Stderr)
	}
}
