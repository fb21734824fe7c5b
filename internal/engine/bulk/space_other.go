//go:build !unix

package bulk

import "os"

func allocated(os.FileInfo) (uint64, bool) { return 0, false }
