package monitor

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal says whether the status goes to a terminal (the line is then rewritten in place).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
