package workload

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dbdyno/dbdyno/internal/lib/abort"
)

// An abort wrapped below workload (a bulk load's) is the workloads' abort and the other way round.
func TestErrAbortedIsTheLowerLayers(t *testing.T) {
	if !errors.Is(fmt.Errorf("build: %w", abort.ErrAborted), ErrAborted) {
		t.Error("abort.ErrAborted wrapped is not workload.ErrAborted")
	}
	if !errors.Is(fmt.Errorf("run: %w", ErrAborted), abort.ErrAborted) {
		t.Error("workload.ErrAborted wrapped is not abort.ErrAborted")
	}
}
