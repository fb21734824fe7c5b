package workload

import (
	"context"

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
