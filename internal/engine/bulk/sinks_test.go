package bulk

import (
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// Every engine's bulk path has a loader here: an engine that names a path no file of this package registers
// would fail its first build.
func TestEveryBulkPathHasASink(t *testing.T) {
	if len(engine.All()) == 0 {
		t.Fatal("no engines registered")
	}
	for _, e := range engine.All() {
		if e.Bulk == "" {
			t.Errorf("%s names no bulk path", e.Name)
		}
		if sinks[e.Bulk] == nil {
			t.Errorf("%s: no sink registered for its bulk path %q", e.Name, e.Bulk)
		}
	}
}
