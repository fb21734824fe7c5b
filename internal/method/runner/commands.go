package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// CheckCommand is `WORKLOAD check`: it opens the target, runs the database's consistency checks and, where the
// database compares its tables' contents with their build (a Contents method, as bulk.TxDB's), that comparison
// too, and prints them (RunChecks).
func CheckCommand[D interface {
	Close()
	Check(ctx context.Context) ([]result.Check, error)
}](short string, open func(context.Context, *engine.Target) (D, error)) *workload.Command {
	return &workload.Command{Name: "check", Short: short, Target: workload.OneTarget, Existing: true,
		Do: workload.OnTarget(open, func(ctx context.Context, env *workload.Env, db D) error {
			check := db.Check
			if c, ok := any(db).(Contents); ok {
				check = func(ctx context.Context) ([]result.Check, error) {
					checks, err := db.Check(ctx)
					if err != nil {
						return nil, err
					}
					cc, err := ContentsCheck(ctx, c)
					if err != nil {
						return nil, err
					}
					if cc != nil {
						checks = append(checks, *cc)
					}
					return checks, nil
				}
			}
			_, err := RunChecks(ctx, env.Out, check)
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
	r := &result.Check{Name: fmt.Sprintf("contents: %s as the build loaded (checksums)", strings.Join(compared, ", ")), Passed: len(differ) == 0}
	if !r.Passed {
		r.Detail = strings.Join(differ, "; ")
	}
	return r, nil
}
