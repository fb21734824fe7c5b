package engine

import (
	"context"
	"regexp"
	"strings"
	"sync"
)

// Distributed SQL databases that speak PostgreSQL's or MySQL's wire protocol and dialect: CockroachDB and
// YugabyteDB behind postgres:// targets, TiDB behind mysql:// targets. Each is told, when dbdyno connects, from
// the server's own version() (VERSION() on the MySQL wire), and what it cannot do of its engine's is said here:
// the workloads ask the target (Target.Procedures, Target.BulkPath), never a product's name. No server of these
// runs where dbdyno is tested: the detection is tested from the version strings the products document, the rest
// is untested (docs/distributed-sql.md).

// distributed is one distributed SQL product behind an engine's wire protocol.
type distributed struct {
	product string
	engine  string         // the engine whose wire and dialect it speaks
	version *regexp.Regexp // matches version()'s answer; its last group is the product's own version
	// noProcedures says why dbdyno's stored procedures (procs.sql) are not installed nor called there, "" when
	// they are: the OLTP workloads' mode default falls back to sql.
	noProcedures string
	bulk         BulkPath // the path generated rows load through there, "" for the engine's own
	// missing are the engine's settings, counters and catalog statements the product is documented not to
	// answer, by name, and why: the result records each as not collected without asking (a catalog read then
	// reports nothing, as where the engine keeps no such fact). Any other that fails there is recorded as not
	// collected with the server's error (Settings, catalogRead).
	missing map[string]string
	// lacks are the engine's features the product is documented not to have, and why (Target.Parallelism
	// refuses --maxdop where it lacks ParallelLimit)
	lacks map[Feature]string
	// noLock says why the dataset lock holds nothing there: lock functions that exist but keep nobody out
	noLock string
}

var distributedProducts = []distributed{
	{
		// "CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)"
		product: "CockroachDB", engine: "postgres", version: regexp.MustCompile(`^CockroachDB (?:CCL |OSS )?v([0-9][0-9A-Za-z.+-]*)`),
		noProcedures: "CockroachDB's PL/pgSQL lacks what dbdyno's procedures use",
		// COPY FROM STDIN commits in batches of 100 rows outside an explicit transaction, takes only members of the
		// admin role, and older versions refuse pgx's binary COPY syntax: prepared INSERTs in transactions instead
		bulk: BulkInsert,
		missing: map[string]string{
			"counters_bgwriter":     "has no background writer (its storage engine is an LSM, Pebble)",
			"counters_checkpoints":  "has no checkpoints (its storage engine is an LSM, Pebble)",
			"counters_checkpointer": "has no checkpoints (its storage engine is an LSM, Pebble)",
			"wal_level":             "has no PostgreSQL write-ahead log (its replication is Raft's)",
			"max_wal_size":          "has no PostgreSQL write-ahead log (its replication is Raft's)",
			"checkpoint_timeout":    "has no checkpoints (its storage engine is an LSM, Pebble)",
			// catalog.sql's: pg_catalog.pg_class is there, its reltuples NULL (cockroach issue 91115)
			"row_estimate": "keeps no row estimate in pg_catalog.pg_class (reltuples is NULL; its estimates are its table statistics')",
		},
		lacks: map[Feature]string{
			ParallelLimit: "spreads each query over the cluster's nodes (DistSQL) and has no per-query limit of parallel workers",
		},
		// pg_try_advisory_lock and its kin answer true and lock nothing (cockroach issues 13546 and 169981; only
		// transaction-scoped advisory locks were built, in 2026): a second build, drop or run is not kept out
		noLock: "has session advisory locks that succeed without locking anything",
	},
	{
		// "PostgreSQL 11.2-YB-2.18.2.1-b0 on x86_64-pc-linux-gnu, compiled by clang version 15.0.3 ..., 64-bit"
		product: "YugabyteDB", engine: "postgres", version: regexp.MustCompile(`^PostgreSQL [0-9.]+-YB-([0-9][0-9.]*(?:-b[0-9]+)?)`),
		noProcedures: "YugabyteDB's functions run as distributed transactions dbdyno has not measured (untested)",
	},
	{
		// "8.0.11-TiDB-v7.5.0" (MySQL 8.0's protocol version, then TiDB's own)
		product: "TiDB", engine: "mysql", version: regexp.MustCompile(`^[0-9][0-9.]*-TiDB-v([0-9][0-9A-Za-z.+-]*)`),
		noProcedures: "TiDB has no stored procedures",
		// LOAD DATA LOCAL INFILE is TiDB's bulk path too (each file one transaction: txn-total-size-limit applies)
	},
}

// distributedOf is the variant of the server whose version() answered version, nil for the engine's own
// product.
func distributedOf(e *Engine, version string) *variant {
	for _, d := range distributedProducts {
		if d.engine != e.Name {
			continue
		}
		if m := d.version.FindStringSubmatch(version); m != nil {
			v := &variant{version: d.product + " " + m[len(m)-1], missing: map[string]string{}, lacks: map[Feature]string{},
				noProcedures: d.noProcedures, bulk: d.bulk, distributed: true}
			src := " (" + d.product + "'s documentation; untested here)"
			for st, why := range d.missing {
				v.missing[st] = v.version + " " + why + src
			}
			for f, why := range d.lacks {
				v.lacks[f] = v.version + " " + why + src
			}
			if d.noLock != "" {
				v.noLock = v.version + " " + d.noLock + src
			}
			return v
		}
	}
	return nil
}

// detectDistributed asks a PostgreSQL or MySQL server's version() which product it is.
func detectDistributed(ctx context.Context, e *Engine, q Queryer) (*variant, error) {
	var v string
	if err := q.QueryRowContext(ctx, e.stmt("variant").SQL).Scan(&v); err != nil {
		return nil, err
	}
	return distributedOf(e, v), nil
}

// Product is the distributed SQL product and version behind the target ("CockroachDB v23.1.11"), "" for the
// engine's own product or when the server cannot be reached.
func (t *Target) Product(ctx context.Context) string {
	if v := t.variant(ctx); v != nil {
		return v.version
	}
	return ""
}

// server is what a target's server was found to be when dbdyno first connected to it: its variant (nil for the
// engine's own product). Shared by the copies of a target (WithDatabase): one server.
type server struct {
	mu      sync.Mutex
	known   bool
	variant *variant
}

// hasDistributed says whether a distributed SQL database may be behind the engine's wire.
func hasDistributed(e *Engine) bool {
	for _, d := range distributedProducts {
		if d.engine == e.Name {
			return true
		}
	}
	return false
}

// learn records, at the target's first connection, which distributed SQL product its server is (one version()
// query per target, before anything is measured); a no-op on engines without one.
func (t *Target) learn(ctx context.Context, q Queryer) *variant {
	if !hasDistributed(t.Engine) {
		return nil
	}
	if t.server == nil {
		v, _ := t.Engine.askVariant(ctx, q, detectDistributed)
		return v
	}
	t.server.mu.Lock()
	defer t.server.mu.Unlock()
	if !t.server.known {
		// the connection's answer kept for the engine's own questions on it too (variantOf)
		v, err := t.Engine.askVariant(ctx, q, detectDistributed)
		if err != nil { // asked again at the next connection
			return nil
		}
		t.server.variant, t.server.known = v, true
	}
	return t.server.variant
}

// variant is the distributed SQL product behind the target, asked once (a connection of its own within the
// connect timeout) when no connection has told yet; nil for the engine's own product, or when the server cannot
// be reached (the command's own connection then says why).
func (t *Target) variant(ctx context.Context) *variant {
	if !hasDistributed(t.Engine) {
		return nil
	}
	if t.server != nil {
		t.server.mu.Lock()
		known, v := t.server.known, t.server.variant
		t.server.mu.Unlock()
		if known {
			return v
		}
	}
	db, err := t.Engine.open(ctx, t)
	if err != nil {
		return nil
	}
	defer db.Close()
	return t.learn(ctx, db)
}

// Procedures says whether dbdyno's stored procedures are installed and called on the target's server: its
// engine has them and the server is not a variant without them (a distributed SQL database behind the engine's
// wire). The OLTP workloads' mode default is procedures where this holds, else sql.
func (t *Target) Procedures(ctx context.Context) bool {
	if !t.Engine.Procedures {
		return false
	}
	v := t.variant(ctx)
	return v == nil || v.noProcedures == ""
}

// NoProcedures says why the target's server has no procedures of dbdyno's, "" when it has them.
func (t *Target) NoProcedures(ctx context.Context) string {
	if !t.Engine.Procedures {
		return t.Engine.Title + " has no stored procedures in dbdyno"
	}
	if v := t.variant(ctx); v != nil {
		return v.noProcedures
	}
	return ""
}

// BulkPath is the path generated rows load through on the target's server: its engine's, unless the server is
// a variant that loads another way.
func (t *Target) BulkPath(ctx context.Context) BulkPath {
	if v := t.variant(ctx); v != nil && v.bulk != "" {
		return v.bulk
	}
	return t.Engine.Bulk
}

// tidbRetryable are TiDB's own errors after which the whole transaction may run again (its error reference): a
// SELECT FOR UPDATE's commit conflict (8002), a stale write conflict (8005), a commit that failed and rolled
// back (8022), the schema changed under the transaction (8028), a write conflict (9007). MySQL and MariaDB use
// none of these numbers.
var tidbRetryable = map[uint16]bool{8002: true, 8005: true, 8022: true, 8028: true, 9007: true}

// cannot is how a statement the distributed product failed to answer is recorded: not collected, naming the
// product and the server's error (its first line).
func (v *variant) cannot(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return NotCollected + v.version + " could not answer it: " + msg
}

// catalogRead runs one of the engine's catalog statements (catalog.sql's, by name) through read, on a server
// that may be a distributed SQL product: there, a statement the product is documented not to answer is not
// asked, and one that fails (its server still up, the command not cancelled) does not fail the command. Either
// is noted as not collected in ctx's run (WithSideTally), which its result's settings record (Settings), and
// asked is false: the caller takes the fact as one the engine does not keep. On the engine's own product read
// runs and its error is returned as it is.
func (e *Engine) catalogRead(ctx context.Context, q Queryer, name string, read func() error) (asked bool, err error) {
	vr := e.variantOf(ctx, q)
	if vr == nil || !vr.distributed {
		return true, read()
	}
	if why, ok := vr.missing[name]; ok {
		noteNotCollected(ctx, name, NotCollected+why)
		return false, nil
	}
	err = read()
	if err == nil || ctx.Err() != nil || e.Classify(err) == ConnLost {
		return true, err
	}
	noteNotCollected(ctx, name, Redact(vr.cannot(err)))
	return false, nil
}

// probeCounters asks a distributed SQL product each of the engine's counters statements once, when its
// settings are read: those it fails are recorded in the settings as not collected (the counters' own reads
// leave a failing statement out), so the result and its report say which figures the product did not give.
func (e *Engine) probeCounters(ctx context.Context, q Queryer, vr *variant, out map[string]string) {
	if e.counters == nil {
		return
	}
	for _, st := range e.counters.Statements {
		if _, known := out[st.Name]; known || st.Name == "waits_enabled" {
			continue
		}
		rows, err := q.QueryContext(ctx, st.SQL)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		if err != nil && ctx.Err() == nil {
			out[st.Name] = vr.cannot(err)
		}
	}
}
