// Package all registers every workload with the registry the CLI and plans are built from: adding a workload
// is its package plus one line here.
package all

import (
	_ "github.com/dbdyno/dbdyno/internal/workloads/ch"
	_ "github.com/dbdyno/dbdyno/internal/workloads/ioprobe"
	_ "github.com/dbdyno/dbdyno/internal/workloads/ping"
	_ "github.com/dbdyno/dbdyno/internal/workloads/probe"
	_ "github.com/dbdyno/dbdyno/internal/workloads/script"
	_ "github.com/dbdyno/dbdyno/internal/workloads/tpcc"
	_ "github.com/dbdyno/dbdyno/internal/workloads/tpce"
	_ "github.com/dbdyno/dbdyno/internal/workloads/tpch"
	_ "github.com/dbdyno/dbdyno/internal/workloads/webstore"
	_ "github.com/dbdyno/dbdyno/internal/workloads/ycsb"
)
