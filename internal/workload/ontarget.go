package workload

import (
	"context"
	"io"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// OnTarget is the Do of a command that works on its target: opened by open for it, closed after.
func OnTarget[D interface{ Close() }](open func(context.Context, *engine.Target) (D, error), do func(context.Context, *Env, D) error) func(context.Context, *Env, *Values) error {
	return func(ctx context.Context, env *Env, _ *Values) error {
		db, err := open(ctx, env.Target())
		if err != nil {
			return err
		}
		defer db.Close()
		return do(ctx, env, db)
	}
}

// DropCommand is `WORKLOAD drop`: it opens the target and removes the workload's objects, and only them, saying
// what it did (the DB's DropCommand).
func DropCommand[D interface {
	Close()
	DropCommand(ctx context.Context, out io.Writer) error
}](short string, open func(context.Context, *engine.Target) (D, error)) *Command {
	return &Command{Name: "drop", Short: short, Target: OneTarget, Existing: true, Do: OnTarget(open, func(ctx context.Context, env *Env, db D) error {
		return db.DropCommand(ctx, env.Out)
	})}
}
