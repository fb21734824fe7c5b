// Package abort holds the one error every layer wraps when a run or a build was stopped by its context (Ctrl-C),
// low enough that the engine's bulk loads and the workloads above them report the same abort
// (workload.ErrAborted is this same error).
package abort

import "errors"

// ErrAborted is returned (wrapped) when a run was stopped by its context, e.g. by Ctrl-C.
var ErrAborted = errors.New("run aborted")
