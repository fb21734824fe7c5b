//go:build unix

package engine

import (
	"errors"
	"os"
	"sync"
	"syscall"
)

// An embedded database's file is locked with flock(2), which the engines' own fcntl(2) locks do not see. The
// descriptors are kept open for the process's life and reused: closing a descriptor of the file would drop
// the engine's fcntl locks on it, which belong to the process.
type fileLock struct {
	f   *os.File
	key fileKey
}

type fileKey struct{ dev, ino uint64 }

var (
	fileLocksMu sync.Mutex
	fileLocks   = map[fileKey][]*os.File{} // unlocked descriptors, by file
)

func lockFile(path string, exclusive bool) (*fileLock, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return nil, nil
	}
	key := fileKey{uint64(st.Dev), uint64(st.Ino)}
	fileLocksMu.Lock()
	var f *os.File
	if free := fileLocks[key]; len(free) > 0 {
		f, fileLocks[key] = free[len(free)-1], free[:len(free)-1]
	}
	fileLocksMu.Unlock()
	if f == nil {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, nil // a file dbdyno cannot open again is left to the engine
		}
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	l := &fileLock{f: f, key: key}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		l.unlock()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, nil
	}
	return l, nil
}

func (l *fileLock) unlock() {
	if l == nil {
		return
	}
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	fileLocksMu.Lock()
	fileLocks[l.key] = append(fileLocks[l.key], l.f)
	fileLocksMu.Unlock()
}
