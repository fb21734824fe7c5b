package webstore

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// The steps of a user's order, as the runner counts them (each its own latency histogram).
const (
	Login = iota
	NewCustomer
	BrowseCategory
	BrowseActor
	BrowseTitle
	Purchase
	// DVD Store 3's additions
	NewMember
	BrowseReviewsActor
	BrowseReviewsTitle
	GetReviews
	GetReviewsStars
	GetReviewsDate
	NewReview
	NewHelpfulness
)

// StepNames name the steps in results and progress lines.
var StepNames = []string{"login", "new_customer", "browse_category", "browse_actor", "browse_title", "purchase",
	"new_member", "browse_reviews_actor", "browse_reviews_title", "get_reviews", "get_reviews_stars", "get_reviews_date",
	"new_review", "new_helpfulness"}

// Options are a run's order settings, as DVD Store 3's driver takes them.
type Options struct {
	NewCustomers float64 // share of orders by a newly registered customer, 0..1
	// Searches is the mean browse steps per order: uniform in 1..2*Searches-1 when whole (DVD Store 3's
	// n_searches; 0: none), else its floor or its ceiling so that the mean holds (a custom --mix)
	Searches float64
	// BrowseOnly is the share of orders that buy nothing (a custom --mix whose purchases are fewer than its
	// orders); 0 in DVD Store 3's flow, where every order buys
	BrowseOnly float64
	// Mix is a custom --mix as the run took it ("" for DVD Store 3's own flow)
	Mix      string
	Batch    int // mean results asked per browse: uniform in 1..2*Batch-1 (search_batch_size)
	MinLines int // products bought per order: uniform in MinLines..MaxLines (0..0: browsing only)
	MaxLines int
	Think    time.Duration // mean think time after an order: uniform in [0, 2*Think) (think_time)
	// DVD Store 3's additions: shares of orders with a new member, a new review, a new helpfulness rating
	// (pct_newmember, pct_newreviews, pct_newhelpfulness), and the mean review searches (n_reviews: 1..2N-1
	// searches by actor or title, and as many reads of a product's reviews; 0: none)
	NewMembers, NewReviews, NewHelpfulness float64
	ReviewSearches                         float64
	Procedures                             bool
	Seed                                   uint64
	Shard                                  workload.Shard // --shard: the loaded customers who log in are the shard's range
}

// Check refuses settings that make no order at all.
func (o Options) Check() error {
	switch {
	case o.NewCustomers < 0 || o.NewCustomers > 1 || o.NewMembers < 0 || o.NewMembers > 1 || o.NewReviews < 0 || o.NewReviews > 1 ||
		o.NewHelpfulness < 0 || o.NewHelpfulness > 1 || o.BrowseOnly < 0 || o.BrowseOnly > 1:
		return fmt.Errorf("--new-customers, --new-members, --new-reviews and --new-helpfulness must be shares between 0%% and 100%%")
	case o.ReviewSearches < 0:
		return fmt.Errorf("--review-searches cannot be negative (got %g)", o.ReviewSearches)
	case o.Searches < 0 || o.Batch < 1:
		return fmt.Errorf("--searches cannot be negative and --batch must be at least 1 (got %g, %d)", o.Searches, o.Batch)
	case o.MinLines < 0 || o.MaxLines < o.MinLines || o.MaxLines > 9:
		return fmt.Errorf("--lines must be a range within 0..9, like 1..9 (got %d..%d)", o.MinLines, o.MaxLines)
	case (o.MaxLines == 0 || o.BrowseOnly == 1) && o.Searches == 0:
		return fmt.Errorf("--searches 0 with --lines 0 makes an empty order (a login and nothing else): browse (--searches N) or buy (--lines 1..9)")
	case o.Think < 0:
		return fmt.Errorf("--think cannot be negative (got %s)", o.Think)
	}
	return nil
}

// Plan is one user's order: a new customer or a login, the browse steps, the products and quantities bought,
// and the think time after it.
type Plan struct {
	New      bool
	Customer int64 // the loaded customer who logs in
	Member   bool  // a loaded customer joins the premier membership
	// Browse are the searches in order: BrowseCategory, BrowseActor or BrowseTitle, then the review searches
	// (BrowseReviewsActor, BrowseReviewsTitle) and the reads of a product's reviews (GetReviews, GetReviewsStars,
	// GetReviewsDate)
	Browse      []int
	Batches     []int // the results each search asks for
	Review      bool  // the customer writes a review
	Helpfulness bool  // the customer rates a review's helpfulness
	Prods       []int64
	Qtys        []int64
	Think       time.Duration
}

// HotEvery makes every HotEvery-th product a hot seller, as in DVD Store 3: its driver picks one ten times as
// often as another product, its build loads ten times the stock, and the restock trigger refills it to 2,500
// instead of 250.
const HotEvery = 10_000

// Pick draws a product as DVD Store 3's driver does from its weighted list: every product once, each hot seller
// ten times.
func Pick(r *rand.Rand, products int64) int64 {
	hot := products / HotEvery
	x := r.Int64N(products + 9*hot)
	if x < products {
		return 1 + x
	}
	return (1 + (x-products)/9) * HotEvery
}

// NextPlan draws an order as DVD Store 3's driver does. A new customer is chosen with probability NewCustomers,
// else a loaded customer uniformly; the browse steps are uniform in 1..2*Searches-1 (none when Searches is 0),
// each of the three kinds uniformly and asking for 1..2*Batch-1 results; the line count is uniform in
// MinLines..MaxLines, the products picked as Pick does but distinct (sorted, so that purchases lock stock rows
// in one order; DVD Store 3 may repeat one), each quantity uniform in 1..3; the think time after the order is
// uniform in [0, 2*Think).
//
// DVD Store 3's additions are drawn as its driver does, from the one number that chose a new customer (u,
// uniform in [0, 1)): a new member when u < NewMembers, a review when u < NewReviews, a helpfulness rating when
// u < NewHelpfulness (so with the defaults they are new customers' orders, and the rarer includes the commoner);
// then 1..2*ReviewSearches-1 review searches, by actor or title uniformly, and as many reads of a product's
// reviews again (most helpful, of some stars, newest, uniformly), each asking 1..2*Batch-1 results.
func NextPlan(r *rand.Rand, s Size, o Options) Plan {
	u := r.Float64()
	p := Plan{New: u < o.NewCustomers, Member: u < o.NewMembers, Review: u < o.NewReviews, Helpfulness: u < o.NewHelpfulness}
	if !p.New {
		lo, hi := o.Shard.Range(int(s.Customers))
		p.Customer = 1 + int64(lo) + r.Int64N(int64(hi-lo))
	}
	search := func(mean float64, first, kinds int) {
		n := 0
		switch {
		case mean <= 0:
		case mean == math.Trunc(mean):
			n = 1 + r.IntN(2*int(mean)-1) // DVD Store 3's draw
		default:
			n = int(mean)
			if r.Float64() < mean-math.Floor(mean) {
				n++
			}
		}
		if n > 0 {
			for i := 0; i < n; i++ {
				p.Browse = append(p.Browse, first+r.IntN(kinds))
				p.Batches = append(p.Batches, 1+r.IntN(2*o.Batch-1))
			}
		}
	}
	search(o.Searches, BrowseCategory, 3)
	search(o.ReviewSearches, BrowseReviewsActor, 2)
	search(o.ReviewSearches, GetReviews, 3)
	n := o.MinLines + r.IntN(o.MaxLines-o.MinLines+1)
	if o.BrowseOnly > 0 && r.Float64() < o.BrowseOnly {
		n = 0 // an order that buys nothing (drawn only in a custom mix: DVD Store 3's stream stays as it is)
	}
	n = int(min(int64(n), s.Products))
	for len(p.Prods) < n {
		prod := Pick(r, s.Products)
		if !slices.Contains(p.Prods, prod) {
			p.Prods = append(p.Prods, prod)
		}
	}
	slices.Sort(p.Prods)
	for range p.Prods {
		p.Qtys = append(p.Qtys, 1+r.Int64N(3))
	}
	if o.Think > 0 {
		p.Think = time.Duration(r.Int64N(int64(2 * o.Think)))
	}
	return p
}

// orderTimes are DVD Store 3's response figures of the measured window: each finished order's total response
// time (its steps' times added, think time not), their mean and the largest of the last 100 orders.
type orderTimes struct {
	mu   sync.Mutex
	on   bool
	n    int64
	sum  time.Duration
	last [100]time.Duration
}

func (t *orderTimes) start() {
	t.mu.Lock()
	t.on, t.n, t.sum, t.last = true, 0, 0, [len(t.last)]time.Duration{}
	t.mu.Unlock()
}

func (t *orderTimes) stop() {
	t.mu.Lock()
	t.on = false
	t.mu.Unlock()
}

func (t *orderTimes) add(d time.Duration) {
	t.mu.Lock()
	if t.on {
		t.last[t.n%int64(len(t.last))] = d
		t.n++
		t.sum += d
	}
	t.mu.Unlock()
}

// figures are the mean and the largest of the last 100, in ms (ok false when no order finished).
func (t *orderTimes) figures() (n int64, avg, lastMax float64, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		return 0, 0, 0, false
	}
	var m time.Duration
	for _, d := range t.last[:min(t.n, int64(len(t.last)))] {
		m = max(m, d)
	}
	return t.n, float64(t.sum.Microseconds()) / float64(t.n) / 1000, float64(m.Microseconds()) / 1000, true
}

// Workload drives a store with virtual users (runner.Workload).
type Workload struct {
	db    *DB
	meta  *Meta
	opts  Options
	times orderTimes
}

// NewWorkload readies a run on a built store.
func (db *DB) NewWorkload(ctx context.Context, opts Options) (*Workload, error) {
	if err := opts.Check(); err != nil {
		return nil, err
	}
	if opts.Procedures && !(db.T.Procedures(ctx) && db.Stmts["proc_purchase"] != nil) {
		return nil, fmt.Errorf("--mode procedures: %s has no stored procedures here: use --mode sql", db.T.Engine.Title)
	}
	m, err := db.ReadMeta(ctx)
	if err != nil {
		return nil, err
	}
	if err := opts.Shard.Check(int(m.Size.Customers), "customers"); err != nil {
		return nil, err
	}
	return &Workload{db: db, meta: m, opts: opts}, nil
}

// Meta is the store's build record.
func (w *Workload) Meta() *Meta { return w.meta }

// Transactions names the steps.
func (w *Workload) Transactions() []string { return StepNames }

// NewWorker opens a virtual user's connection.
func (w *Workload) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	s, err := w.db.newSession(ctx)
	if err != nil {
		return nil, err
	}
	wk := &worker{w: w, s: s, vu: vu, r: rand.New(rand.NewPCG(w.opts.Seed, uint64(vu)))}
	wk.Set(s.es.Interrupter())
	return wk, nil
}

type worker struct {
	runner.Cut // interrupts the current session's connection
	w          *Workload
	s          *session
	vu         int
	r          *rand.Rand
	steps      []int
	plan       Plan
	browsed    int  // the browse steps of the plan done
	last       bool // the step Next handed out ends the order
	rt         time.Duration
	failed     bool // a step of the order failed: its response time is not counted
	customer   int64
	custIDs    idBlock
	orderIDs   idBlock
	reviewIDs  idBlock
	ratingIDs  idBlock
}

type idBlock struct{ next, end int64 }

const idBlockSize = 100

// Next hands out the order's steps one by one; the think time, drawn once per order, follows its last step.
func (wk *worker) Next() (int, time.Duration, time.Duration) {
	if len(wk.steps) == 0 {
		wk.plan = NextPlan(wk.r, wk.w.meta.Size, wk.w.opts)
		wk.browsed, wk.rt, wk.failed = 0, 0, false
		first := Login
		if wk.plan.New {
			first = NewCustomer
		}
		wk.steps = append(wk.steps, first)
		if wk.plan.Member {
			wk.steps = append(wk.steps, NewMember)
		}
		wk.steps = append(wk.steps, wk.plan.Browse...)
		if wk.plan.Review {
			wk.steps = append(wk.steps, NewReview)
		}
		if wk.plan.Helpfulness && wk.w.meta.Size.Reviews() > 0 {
			wk.steps = append(wk.steps, NewHelpfulness)
		}
		if len(wk.plan.Prods) > 0 {
			wk.steps = append(wk.steps, Purchase)
		}
	}
	step := wk.steps[0]
	wk.steps = wk.steps[1:]
	if wk.last = len(wk.steps) == 0; wk.last {
		return step, 0, wk.plan.Think
	}
	return step, 0, 0
}

// Do runs a step and adds its time to the order's; the order's last step records the order's response time.
func (wk *worker) Do(ctx context.Context, step int) runner.Outcome {
	t0 := time.Now()
	out := wk.try(ctx, step)
	wk.rt += time.Since(t0)
	wk.failed = wk.failed || out.Err != nil
	if wk.last && !wk.failed && ctx.Err() == nil {
		wk.w.times.add(wk.rt)
	}
	return out
}

func (wk *worker) try(ctx context.Context, step int) runner.Outcome {
	return runner.Retry{Engine: wk.w.db.T.Engine}.Unit(ctx, StepNames[step], func() (bool, error) { return wk.do(ctx, step) })
}

func (wk *worker) do(ctx context.Context, step int) (bool, error) {
	w, s, p := wk.w, wk.s, &wk.plan
	switch step {
	case Login:
		wk.customer = p.Customer // the order's customer even if the login step fails
		_, _, err := s.login(ctx, w.opts.Procedures, Username(p.Customer), Password)
		return false, err
	case NewCustomer:
		id, err := wk.take(ctx, &wk.custIDs, idCustomer)
		if err != nil {
			return false, err
		}
		wk.customer = id
		return false, s.newCustomer(ctx, id, wk.r)
	case BrowseCategory, BrowseActor, BrowseTitle, BrowseReviewsActor, BrowseReviewsTitle, GetReviews, GetReviewsStars, GetReviewsDate:
		batch := w.opts.Batch
		if wk.browsed < len(p.Batches) {
			batch = p.Batches[wk.browsed]
		}
		wk.browsed++
		var err error
		switch step {
		case BrowseCategory:
			_, err = s.browse(ctx, "browse_category", 1+wk.r.IntN(len(Categories)), batch)
		case BrowseActor:
			_, err = s.browse(ctx, "browse_actor", Actor(w.meta.Seed, 1+wk.r.Int64N(w.meta.Size.Products)), batch)
		case BrowseTitle:
			_, err = s.browse(ctx, "browse_title", Title(w.meta.Seed, 1+wk.r.Int64N(w.meta.Size.Products)), batch)
		case BrowseReviewsActor:
			_, err = s.reviews(ctx, "browse_reviews_actor", batch, Actor(w.meta.Seed, 1+wk.r.Int64N(w.meta.Size.Products)))
		case BrowseReviewsTitle:
			_, err = s.reviews(ctx, "browse_reviews_title", batch, Title(w.meta.Seed, 1+wk.r.Int64N(w.meta.Size.Products)))
		case GetReviews:
			_, err = s.reviews(ctx, "get_reviews", batch, Pick(wk.r, w.meta.Size.Products))
		case GetReviewsStars:
			_, err = s.reviews(ctx, "get_reviews_stars", batch, Pick(wk.r, w.meta.Size.Products), 1+wk.r.IntN(5))
		default:
			_, err = s.reviews(ctx, "get_reviews_date", batch, Pick(wk.r, w.meta.Size.Products))
		}
		return false, err
	case NewMember:
		// a loaded customer who is no member yet joins, as DVD Store 3 tries customers until one is not
		for try := 0; try < 100; try++ {
			c := 1 + wk.r.Int64N(w.meta.Size.Customers)
			ok, err := s.newMember(ctx, c, 1+wk.r.Int64N(3), time.Now())
			if err != nil || ok {
				return false, err
			}
		}
		return false, nil // every customer tried was a member already
	case NewReview:
		id, err := wk.take(ctx, &wk.reviewIDs, idReview)
		if err != nil {
			return false, err
		}
		return false, s.newReview(ctx, id, 1+wk.r.Int64N(w.meta.Size.Products), 1+wk.r.Int64N(5), wk.customer, wk.r, time.Now())
	case NewHelpfulness:
		id, err := wk.take(ctx, &wk.ratingIDs, idHelpfulness)
		if err != nil {
			return false, err
		}
		_, err = s.exec(ctx, "new_helpfulness", id, 1+wk.r.Int64N(w.meta.Size.Reviews()), wk.customer, 1+wk.r.Int64N(10))
		return false, err
	case Purchase:
		id, err := wk.take(ctx, &wk.orderIDs, idOrder)
		if err != nil {
			return false, err
		}
		return s.purchase(ctx, w.opts.Procedures, w.meta.Seed, wk.customer, id, time.Now(), p.Prods, p.Qtys)
	}
	return false, fmt.Errorf("no step %d", step)
}

// take hands out the next key of a block, taking a new block of idBlockSize when it is used up.
func (wk *worker) take(ctx context.Context, b *idBlock, k string) (int64, error) {
	if b.next >= b.end {
		end, err := wk.s.takeIDs(ctx, k, idBlockSize)
		if err != nil {
			return 0, err
		}
		b.next, b.end = end-idBlockSize, end
	}
	b.next++
	return b.next - 1, nil
}

func (wk *worker) Reconnect(ctx context.Context) error {
	wk.s.close()
	s, err := wk.w.db.newSession(ctx)
	if err != nil {
		return err
	}
	wk.s = s
	wk.Set(s.es.Interrupter())
	return nil
}

func (wk *worker) Close() { wk.s.close() }

// ---- a connection's statements ----

// session is one connection's statement session (the engine picks its path) with the store's steps on it.
type session struct {
	es *engine.Session
	db *DB
	// the client-side purchase's reused statements and results
	ops      []engine.Op
	affected []int64
}

func (db *DB) newSession(ctx context.Context) (*session, error) {
	es, err := runner.Connect(ctx, db.Data.SQL, db.T, db.Stmts)
	if err != nil {
		return nil, err
	}
	return &session{es: es, db: db}, nil
}

// Session opens a connection for running steps one by one (tests and tools).
func (db *DB) Session(ctx context.Context) (*Session, error) {
	s, err := db.newSession(ctx)
	return &Session{s}, err
}

// Session is a connection that runs the store's steps.
type Session struct{ s *session }

// Purchase runs one purchase: rolledBack is true when a product's stock was short and nothing was written.
func (x *Session) Purchase(ctx context.Context, procedures bool, seed uint64, customer, order int64, now time.Time, prods, qtys []int64) (bool, error) {
	return x.s.purchase(ctx, procedures, seed, customer, order, now, prods, qtys)
}

// Login finds a customer and the titles of their last purchases.
func (x *Session) Login(ctx context.Context, procedures bool, user, password string) (int64, int, error) {
	return x.s.login(ctx, procedures, user, password)
}

// Close releases the connection.
func (x *Session) Close() { x.s.close() }

func (s *session) close() { s.es.Close() }

func (s *session) exec(ctx context.Context, name string, args ...any) (int64, error) {
	return s.es.Exec(ctx, name, args...)
}

func (s *session) query(ctx context.Context, name string, args []any, dest []any, each func()) error {
	return s.es.Query(ctx, name, args, dest, func() error { each(); return nil })
}

func (s *session) rollback(ctx context.Context) { s.es.Rollback(ctx) } // even after the run's end, but bounded

// takeIDs reserves n keys of kind k and returns the end of the block (the keys are end-n .. end-1).
func (s *session) takeIDs(ctx context.Context, k string, n int64) (int64, error) {
	var end int64
	if err := s.es.Begin(ctx, false); err != nil {
		return 0, err
	}
	// one round trip where the session pipelines: BEGIN, take, read, COMMIT
	if err := s.es.BatchCommit(ctx, engine.Op{Name: "ids_take", Args: []any{k, n}}, engine.Op{Name: "ids_next", Args: []any{k}, Dest: []any{&end}}); err != nil {
		s.rollback(ctx)
		return 0, err
	}
	return end, nil
}

func (s *session) login(ctx context.Context, procedures bool, user, password string) (int64, int, error) {
	var c int64
	var titles int
	if procedures {
		var found bool
		err := s.query(ctx, "proc_login", []any{user, password}, []any{&c, &titles}, func() { found = true })
		if err == nil && (!found || c == 0) {
			err = fmt.Errorf("login %s: %w", user, errNotFound)
		}
		return c, titles, err
	}
	found := false
	if err := s.query(ctx, "login", []any{user, password}, []any{&c}, func() { found = true }); err != nil {
		return 0, 0, err
	}
	if !found {
		return 0, 0, fmt.Errorf("login %s: %w", user, errNotFound)
	}
	var title, actor string
	err := s.query(ctx, "login_history", []any{c}, []any{&title, &actor}, func() { titles++ })
	return c, titles, err
}

func (s *session) newCustomer(ctx context.Context, id int64, r *rand.Rand) error {
	us := r.IntN(2) == 0
	city, state, country, region, zip := "Capital", "", countries[r.IntN(len(countries))], int64(2), int64(0)
	if us {
		city, state, country, region, zip = "Springfield", "OH", "US", 1, 10000+r.Int64N(89999)
	}
	gender := "F"
	if r.IntN(2) == 0 {
		gender = "M"
	}
	user := "new" + Username(id)
	_, err := s.exec(ctx, "new_customer", id, actorFirst[r.IntN(len(actorFirst))], actorLast[r.IntN(len(actorLast))],
		strconv.Itoa(1+r.IntN(9999))+" Main Street", city, state, zip, country, region, user+"@dbdyno.example",
		strconv.FormatInt(1000000000+r.Int64N(8999999999), 10), 1+r.Int64N(5),
		strconv.FormatInt(1000000000000000+r.Int64N(8999999999999999), 10), "2030/1", user, Password,
		18+r.Int64N(73), 20000*(1+r.Int64N(5)), gender)
	return err
}

func (s *session) browse(ctx context.Context, name string, key any, batch int) (int, error) {
	var id, common int64
	var title, actor string
	var price float64
	var special int
	n := 0
	err := s.query(ctx, name, []any{key, batch}, []any{&id, &title, &actor, &price, &special, &common}, func() { n++ })
	return n, err
}

// reviews runs one of the review searches with its arguments (the batch last), reading every row.
func (s *session) reviews(ctx context.Context, name string, batch int, args ...any) (int, error) {
	var id, prod, stars, customer int64
	var day, summary, text string
	var total any // NULL for a review nobody rated
	n := 0
	err := s.query(ctx, name, append(args, batch), []any{&id, &prod, &day, &stars, &customer, &summary, &text, &total}, func() { n++ })
	return n, err
}

// newMember makes customer c a premier member unless it is one already (joined false).
func (s *session) newMember(ctx context.Context, c, kind int64, now time.Time) (joined bool, err error) {
	var n int64
	if err := s.query(ctx, "member_exists", []any{c}, []any{&n}, func() {}); err != nil || n > 0 {
		return false, err
	}
	_, err = s.exec(ctx, "new_member", c, kind, now.AddDate(1, 0, 0).Format("2006-01-02"))
	return err == nil, err
}

// newReview writes a review as DVD Store 3's driver makes one: a summary of 3 words, a text of 25.
func (s *session) newReview(ctx context.Context, id, prod, stars, customer int64, r *rand.Rand, now time.Time) error {
	words := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(reviewWords[r.IntN(len(reviewWords))])
		}
		return b.String()
	}
	_, err := s.exec(ctx, "new_review", id, prod, now.Format("2006-01-02"), stars, customer, words(3), words(25))
	return err
}

// purchase runs one purchase in one transaction.
func (s *session) purchase(ctx context.Context, procedures bool, seed uint64, customer, order int64, now time.Time, prods, qtys []int64) (bool, error) {
	day := now.Format("2006-01-02")
	if procedures {
		var pl, ql any = prods, qtys
		if !s.db.T.Engine.Arrays {
			pl, ql = list(prods), list(qtys)
		}
		var net float64
		var rolledBack int
		err := s.query(ctx, "proc_purchase", []any{customer, order, day, pl, ql}, []any{&net, &rolledBack}, func() {})
		if msg, ok := s.db.T.Engine.Raised(err); ok && strings.Contains(msg, "dbdyno: short stock") {
			return true, nil // raised where the procedure cannot roll back itself (a PostgreSQL function)
		}
		return rolledBack == 1, err
	}
	return s.purchaseSQL(ctx, seed, customer, order, day, prods, qtys)
}

// purchaseSQL is the client-side purchase in two batches (two round trips where the session pipelines): BEGIN
// and every line's stock update, then (when every line's stock covered it) the order, its lines, the history
// rows and COMMIT. A short stock rolls the whole purchase back, the later lines' updates of the first batch
// included, so the effects are those of the line-by-line purchase.
func (s *session) purchaseSQL(ctx context.Context, seed uint64, customer, order int64, day string, prods, qtys []int64) (bool, error) {
	n := len(prods)
	s.affected = append(s.affected[:0], make([]int64, n)...)
	ops := s.ops[:0]
	for i, p := range prods {
		ops = append(ops, engine.Op{Name: "purchase_stock", Args: []any{p, qtys[i]}, Affected: &s.affected[i]})
	}
	s.ops = ops
	fail := func(err error) (bool, error) { s.rollback(ctx); return false, err }
	if err := s.es.Begin(ctx, false); err != nil {
		return false, err
	}
	if err := s.es.Batch(ctx, ops...); err != nil {
		return fail(err)
	}
	for _, a := range s.affected {
		if a == 0 { // short stock: the purchase rolls back
			s.rollback(ctx)
			return true, nil
		}
	}
	net, tax, total := Amounts(seed, prods, qtys)
	ops = append(ops[:0], engine.Op{Name: "purchase_order", Args: []any{order, day, customer, cents(net), cents(tax), cents(total)}})
	for i, p := range prods {
		ops = append(ops, engine.Op{Name: "purchase_line", Args: []any{i + 1, order, p, qtys[i], day}})
	}
	for _, p := range prods {
		ops = append(ops, engine.Op{Name: "purchase_history", Args: []any{customer, order, p}})
	}
	s.ops = ops
	if err := s.es.BatchCommit(ctx, ops...); err != nil {
		return fail(err)
	}
	return false, nil
}

// cents is an amount in cents as the decimal text the drivers bind exactly.
func cents(c int64) string {
	return strconv.FormatInt(c/100, 10) + "." + fmt.Sprintf("%02d", c%100)
}

// list is a comma-separated list, for engines that take no array parameters.
func list(v []int64) string {
	b := make([]byte, 0, len(v)*7)
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, x, 10)
	}
	return string(b)
}

// Reviews runs one of the review searches (browse_reviews_actor, browse_reviews_title, get_reviews,
// get_reviews_stars, get_reviews_date) with its arguments, the batch last, and returns the rows read.
func (x *Session) Reviews(ctx context.Context, name string, batch int, args ...any) (int, error) {
	return x.s.reviews(ctx, name, batch, args...)
}

// Browse runs one of the product browses (browse_category, browse_actor, browse_title) and returns the titles
// and actors it found, in order.
func (x *Session) Browse(ctx context.Context, name string, key any, batch int) (titles, actors []string, err error) {
	var id, common int64
	var title, actor string
	var price float64
	var special int
	err = x.s.query(ctx, name, []any{key, batch}, []any{&id, &title, &actor, &price, &special, &common}, func() {
		titles, actors = append(titles, title), append(actors, actor)
	})
	return titles, actors, err
}
