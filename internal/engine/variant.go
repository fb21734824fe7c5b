package engine

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
)

// Feature is something of an engine's that a server speaking its protocol and dialect may lack (see Lacks).
type Feature string

// Columnstore is SQL Server's columnstore indexes (tpch build --columnstore).
const Columnstore Feature = "columnstore indexes"

// ParallelLimit is a limit on each query's parallel workers (tpch run --maxdop).
const ParallelLimit Feature = "parallel worker limit"

// variant is a server that speaks an engine's wire protocol and dialect but is another product (Babelfish for
// PostgreSQL behind SQL Server's TDS and T-SQL), told from the server's own answer when dbdyno connects: its
// product and version, and what of the engine's catalog, settings and counters it does not have.
type variant struct {
	version string // "Babelfish 4.2.0 on PostgreSQL 16.3"
	// missing maps the names of the engine's statements (settings.sql, counters.sql, catalog.sql) the server
	// cannot answer to why ("Babelfish 4.2.0 has no sys.dm_os_sys_info"); the result records each as not collected.
	missing map[string]string
	lacks   map[Feature]string
	// noProcedures says why dbdyno's stored procedures are not used there ("" when they are); bulk is the path
	// rows load through there ("" for the engine's): see distributed.go.
	noProcedures string
	bulk         BulkPath
	// parallel names the catalog statement that holds a session's queries to {workers} helpers there, in place
	// of the engine's max_parallel_session and max_parallel_hint ("" for the engine's own way)
	parallel string
	// noLock says why the dataset lock (catalog.sql's lock_shared, lock_exclusive) holds nothing there: its
	// lock functions exist but keep nobody out ("" where they work, as far as dbdyno knows)
	noLock string
	// distributed: a distributed SQL product (distributed.go), whose settings and counters statements that
	// fail are recorded as not collected rather than left out
	distributed bool
}

// variantOf asks the server behind q which product it is; nil for the engine's own product (or an engine
// without variants, or when the server cannot be asked). The answer is kept per connection (q), so the calls
// made at a measured window's edges (ReadTxCounts, Unavailable) cost no extra round trip after the first.
func (e *Engine) variantOf(ctx context.Context, q Queryer) *variant {
	if q == nil {
		return nil
	}
	detect := e.detect
	if detect == nil {
		if !hasDistributed(e) { // a distributed SQL database behind the engine's wire (distributed.go)
			return nil
		}
		detect = detectDistributed
	}
	v, _ := e.askVariant(ctx, q, detect)
	return v
}

// askVariant is the variant of q's server, from the cache or asked (counted as a side statement) and kept; the
// error says the question failed (nothing kept: asked again next time).
func (e *Engine) askVariant(ctx context.Context, q Queryer, detect func(context.Context, *Engine, Queryer) (*variant, error)) (*variant, error) {
	if v, ok := variants.get(e, q); ok {
		return v, nil
	}
	v, err := detect(ctx, e, q)
	// a statement beside the workload's, as the counters' are (tx counts subtract them)
	e.noteSide(ctx, err)
	if err == nil {
		variants.put(e, q, v)
	}
	return v, err
}

// variantCache keeps the variant each connection's server was found to be: the last variantCacheSize
// connections asked (a process opens a few; a long monitor reopens them), oldest forgotten first.
type variantCache struct {
	mu    sync.Mutex
	seen  map[variantKey]*variant
	order []variantKey
}

type variantKey struct {
	e *Engine
	q Queryer
}

const variantCacheSize = 64

var variants = &variantCache{seen: map[variantKey]*variant{}}

func (c *variantCache) get(e *Engine, q Queryer) (*variant, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.seen[variantKey{e, q}]
	return v, ok
}

func (c *variantCache) put(e *Engine, q Queryer, v *variant) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := variantKey{e, q}
	if _, ok := c.seen[k]; ok {
		return
	}
	if len(c.order) == variantCacheSize {
		delete(c.seen, c.order[0])
		c.order = c.order[1:]
	}
	c.seen[k] = v
	c.order = append(c.order, k)
}

// Lacks says why the server behind q cannot do f ("" when it can, as far as dbdyno knows).
func (e *Engine) Lacks(ctx context.Context, q Queryer, f Feature) string {
	if v := e.variantOf(ctx, q); v != nil {
		return v.lacks[f]
	}
	return ""
}

// NotCollected is the prefix of a setting's value in the result when the server cannot give it.
const NotCollected = "not collected: "

// notCollected adds to a result's settings every figure the server's variant lacks, named as its statement,
// worded "not collected: REASON", and says which statements not to run.
func (v *variant) notCollected(out map[string]string) {
	names := make([]string, 0, len(v.missing))
	for n := range v.missing {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out[n] = NotCollected + v.missing[n]
	}
	for f, why := range v.lacks {
		out[strings.ReplaceAll(string(f), " ", "_")] = NotCollected + why
	}
}

// waitsMissing says why wait events cannot be sampled on a variant that lacks the engine's waits() view.
func (v *variant) waitsMissing() error {
	if why, ok := v.missing["waits"]; ok {
		return errors.New(why)
	}
	return nil
}

// Unavailable says why the server behind q cannot answer the engine's statement of that name (settings.sql,
// counters.sql, catalog.sql: "Babelfish 4.2.0 has no sys.dm_io_virtual_file_stats"), "" when it can as far as
// dbdyno knows.
func (e *Engine) Unavailable(ctx context.Context, q Queryer, statement string) string {
	if v := e.variantOf(ctx, q); v != nil {
		return v.missing[statement]
	}
	return ""
}
