package runner

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// latencyLog is --log-latency's file: one line per unit of work finished in the measured window, in the order
// they finished, written to a temporary file beside the path and renamed onto it when the run ends (completed,
// failed or cancelled: the log always matches the result's counts). A line is
//
//	client_id transaction_no elapsed_us transaction_name outcome start_epoch_s start_us
//
// client_id is the virtual user (from 0), transaction_no counts its measured units of work (from 0), elapsed_us
// is the latency as the result counts it (from the intended start in an open-loop run), outcome is ok,
// rollback or error, and start_epoch_s/start_us are when the unit of work began (Unix seconds and their
// microseconds).
type latencyLog struct {
	path string
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	err  error
}

func openLatencyLog(path string) (*latencyLog, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, fmt.Errorf("--log-latency %s: %v", path, err)
	}
	f.Chmod(0o644)
	return &latencyLog{path: path, f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

func (l *latencyLog) line(vu int, n int64, elapsed time.Duration, name string, out Outcome, start time.Time) {
	var b [128]byte
	p := strconv.AppendInt(b[:0], int64(vu), 10)
	p = append(p, ' ')
	p = strconv.AppendInt(p, n, 10)
	p = append(p, ' ')
	p = strconv.AppendInt(p, max(elapsed.Microseconds(), 1), 10)
	p = append(p, ' ')
	p = append(p, name...)
	switch {
	case out.Err != nil:
		p = append(p, " error "...)
	case out.RolledBack:
		p = append(p, " rollback "...)
	default:
		p = append(p, " ok "...)
	}
	us := start.UnixMicro()
	p = strconv.AppendInt(p, us/1e6, 10)
	p = append(p, ' ')
	p = strconv.AppendInt(p, us%1e6, 10)
	p = append(p, '\n')
	l.mu.Lock()
	if l.err == nil {
		_, l.err = l.w.Write(p)
	}
	l.mu.Unlock()
}

// close flushes the log and puts it in place.
func (l *latencyLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		l.err = l.w.Flush()
	}
	if err := l.f.Close(); l.err == nil {
		l.err = err
	}
	if l.err == nil {
		l.err = os.Rename(l.f.Name(), l.path)
	}
	if l.err != nil {
		os.Remove(l.f.Name())
		return fmt.Errorf("--log-latency %s: %v", l.path, l.err)
	}
	return nil
}
