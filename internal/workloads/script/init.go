package script

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// InitFlags are `script init`'s options.
type InitFlags struct {
	Scale int  `flag:"pgbench-scale" default:"1" min:"1" max:"20000" help:"pgbench's scale: 100,000 accounts, 1 branch and 10 tellers per unit" why:"pgbench's integer account ids hold up to 20,000 (2,000,000,000 accounts)"`
	Drop  bool `flag:"drop" help:"replace existing pgbench_ tables (as pgbench -i does); without it init refuses to touch them"`
	Batch int  `flag:"batch" default:"1000" min:"1" max:"10000" help:"rows per INSERT statement while loading"`
}

func initCommand(ctx context.Context, env *workload.Env, o *InitFlags) error {
	t := env.Target()
	db, err := t.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	fs, err := Files(t.Engine)
	if err != nil {
		return err
	}
	set := sqlfile.Merge(fs)
	var n int64
	if err := db.QueryRowContext(ctx, set["scale"].SQL).Scan(&n); err == nil && !o.Drop {
		return fmt.Errorf("pgbench's tables exist on %s (pgbench_branches has %d rows): give --drop to replace them", t, n)
	}
	start := time.Now()
	for _, name := range []string{"drop_history", "drop_tellers", "drop_accounts", "drop_branches",
		"create_history", "create_tellers", "create_accounts", "create_branches"} {
		if _, err := db.ExecContext(ctx, set[name].SQL); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	s := int64(o.Scale)
	fmt.Fprintf(env.Out, "creating pgbench's tables on %s at scale %d: %d branches, %d tellers, %d accounts\n", t, s, s, 10*s, 100000*s)
	load := func(table, cols string, rows int64, row func(i int64) string) error {
		conn, err := db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		var b strings.Builder
		for lo := int64(1); lo <= rows; lo += int64(o.Batch) {
			b.Reset()
			fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", table, cols)
			for i := lo; i < lo+int64(o.Batch) && i <= rows; i++ {
				if i > lo {
					b.WriteByte(',')
				}
				b.WriteString(row(i))
			}
			if err := insert(ctx, conn, b.String(), set); err != nil {
				return fmt.Errorf("loading %s: %w", table, err)
			}
		}
		return nil
	}
	if err := load("pgbench_branches", "bid, bbalance", s, func(i int64) string { return fmt.Sprintf("(%d,0)", i) }); err != nil {
		return err
	}
	if err := load("pgbench_tellers", "tid, bid, tbalance", 10*s, func(i int64) string { return fmt.Sprintf("(%d,%d,0)", i, (i-1)/10+1) }); err != nil {
		return err
	}
	if err := load("pgbench_accounts", "aid, bid, abalance, filler", 100000*s, func(i int64) string {
		return fmt.Sprintf("(%d,%d,0,'')", i, (i-1)/100000+1)
	}); err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "done in %.1fs\n", time.Since(start).Seconds())
	return nil
}

// insert runs one batch in its own transaction.
func insert(ctx context.Context, conn *sql.Conn, stmt string, set sqlfile.Set) error {
	if _, err := conn.ExecContext(ctx, set["begin"].SQL); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, stmt); err != nil {
		conn.ExecContext(context.WithoutCancel(ctx), set["rollback"].SQL)
		return err
	}
	_, err := conn.ExecContext(ctx, set["commit"].SQL)
	return err
}
