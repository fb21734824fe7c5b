package probe

import "golang.org/x/sys/unix"

// fadviseDontNeed asks the kernel to drop a file's clean cached pages.
func fadviseDontNeed(fd int) { unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED) }
