// Package enginenames holds the names of the engines this build drives: internal/engine adds each engine's
// own name as it registers it, and the result layer, which knows no engine, asks here which engine a result
// may name. Neither imports the other.
package enginenames

import "sync"

var (
	mu    sync.RWMutex
	names = map[string]bool{}
)

// Add records an engine's own name (not another scheme of it).
func Add(name string) {
	mu.Lock()
	defer mu.Unlock()
	names[name] = true
}

// Known reports whether an engine of this name was added.
func Known(name string) bool {
	mu.RLock()
	defer mu.RUnlock()
	return names[name]
}
