//go:build !linux

package monitor

import "io"

func isTerminal(io.Writer) bool { return false }
