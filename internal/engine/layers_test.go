package engine

import (
	"os/exec"
	"strings"
	"testing"
)

// The engine layer and the libraries are the bottom floor: internal/engine imports only its own packages and
// internal/lib, and internal/lib only itself (the result layer learns the engines' names through
// lib/enginenames, not by importing the engine, nor the engine it). Before, engine imported output/result and
// lib/pgfast imported engine.
func TestEngineAndLibImportNothingAbove(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	const mod = "github.com/dbdyno/dbdyno/"
	for _, c := range []struct {
		pkgs  string
		below []string
	}{
		{mod + "internal/engine/...", []string{mod + "internal/engine", mod + "internal/lib/"}},
		{mod + "internal/lib/...", []string{mod + "internal/lib/"}},
	} {
		out, err := exec.Command(gobin, "list", "-deps", c.pkgs).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("go list named %d packages: %q", len(deps), out)
		}
		for _, d := range deps {
			if !strings.HasPrefix(d, mod) {
				continue
			}
			ok := false
			for _, b := range c.below {
				ok = ok || strings.HasPrefix(d, b)
			}
			if !ok {
				t.Errorf("%s depends on %s, a layer above it", c.pkgs, d)
			}
		}
	}
}
