package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// CheckCommand is `WORKLOAD check`: it opens the target, runs the database's consistency checks and, where the
// database compares its tables' contents with their build (a Contents method, as bulk.TxDB's), that comparison
// too (a line of its own: "contents as built: ..." or "contents differ: ..."), and prints them (RunChecks).
func CheckCommand[D interface {
	Close()
	Check(ctx context.Context) ([]result.Check, error)
}](short string, open func(context.Context, *engine.Target) (D, error)) *workload.Command {
	return &workload.Command{Name: "check", Short: short, Target: workload.OneTarget, Existing: true,
		Do: workload.OnTarget(open, func(ctx context.Context, env *workload.Env, db D) error {
			_, err := RunChecks(ctx, env.Out, db.Check)
			if c, ok := any(db).(Contents); ok {
				cc, cerr := ContentsCheck(ctx, c)
				switch {
				case cerr != nil:
					return errors.Join(err, cerr)
				case cc == nil:
				case cc.Passed:
					fmt.Fprintf(env.Out, "%s\n", cc.Name)
				default:
					fmt.Fprintf(env.Out, "contents differ: %s\n", cc.Detail)
					err = errors.Join(err, fmt.Errorf("the tables' contents are not what the build loaded: %s", cc.Detail))
				}
			}
			return err
		})}
}

// Contents is a database that compares the contents of its tables no run changes with the checksums their build
// recorded (bulk.DB.Contents): the tables compared, and what differs.
type Contents interface {
	Contents(ctx context.Context) (compared, differ []string, err error)
}

// ContentsCheck is the check of a database's contents against its build, naming each table that differs; nil
// when no table was compared (a build recorded before checksums, an engine without them).
func ContentsCheck(ctx context.Context, c Contents) (*result.Check, error) {
	compared, differ, err := c.Contents(ctx)
	if err != nil {
		return nil, fmt.Errorf("comparing the tables with their build: %w", err)
	}
	if len(compared) == 0 {
		return nil, nil
	}
	r := &result.Check{Name: fmt.Sprintf("contents as built: %s (checksums)", strings.Join(compared, ", ")), Passed: len(differ) == 0}
	if !r.Passed {
		r.Detail = strings.Join(differ, "; ")
	}
	return r, nil
}
