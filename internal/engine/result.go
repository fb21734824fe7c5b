package engine

import "github.com/dbdyno/dbdyno/internal/output/result"

// The result layer knows no engine: it asks this one which engine names a result may carry.
func init() {
	result.KnownEngine = func(name string) bool {
		e, ok := Lookup(name)
		return ok && e.Name == name
	}
}
