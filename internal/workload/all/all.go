// Package all registers every workload with the registry the CLI and plans are built from: adding a workload
// is its package plus one line here.
package all

import (
	_ "github.com/dbdyno/dbdyno/internal/ioprobe"
	_ "github.com/dbdyno/dbdyno/internal/ping"
	_ "github.com/dbdyno/dbdyno/internal/probe"
	_ "github.com/dbdyno/dbdyno/internal/tpcc"
	_ "github.com/dbdyno/dbdyno/internal/tpch"
	_ "github.com/dbdyno/dbdyno/internal/webstore"
)
