//go:build !unix

package engine

// fileLock: embedded databases are not locked by dbdyno where flock(2) is missing.
type fileLock struct{}

func lockFile(path string, exclusive bool) (*fileLock, error) { return nil, nil }

func (l *fileLock) unlock() {}
