package runner

import (
	"context"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// CheckCommand is `WORKLOAD check`: it opens the target, runs the database's consistency checks and prints them
// (RunChecks).
func CheckCommand[D interface {
	Close()
	Check(ctx context.Context) ([]result.Check, error)
}](short string, open func(context.Context, *engine.Target) (D, error)) *workload.Command {
	return &workload.Command{Name: "check", Short: short, Target: workload.OneTarget, Existing: true,
		Do: workload.OnTarget(open, func(ctx context.Context, env *workload.Env, db D) error {
			_, err := RunChecks(ctx, env.Out, db.Check)
			return err
		})}
}
