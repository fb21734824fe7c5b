//go:build !linux

package rawconn

import "net"

// Wrap returns c: the raw read and write path exists on Linux only.
func Wrap(c net.Conn) net.Conn { return c }
