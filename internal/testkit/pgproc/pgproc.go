// Package pgproc starts a throwaway PostgreSQL instance for a test: its own data directory in a temporary
// directory, its own free port on 127.0.0.1, stopped and removed when the test ends. Fault tests freeze it
// (SIGSTOP on the postmaster and every backend), thaw it, or kill it, which the shared servers must never see.
//
// The binaries are DBDYNO_PG_BIN's, or the newest /usr/lib/postgresql/*/bin. Without them the test skips with the
// reason, except in CI (CI=true), where it fails. PostgreSQL refuses to run as root: as root, the instance runs
// as the postgres OS user (as .ci/services does), which must exist.
package pgproc

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Instance is a running private PostgreSQL server.
type Instance struct {
	URL  string // postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable (trust on loopback)
	Port int
	bin  string
	dir  string
	cmd  *exec.Cmd
	done chan struct{} // closed when the postmaster has exited
	cred *syscall.Credential

	mu     sync.Mutex
	frozen []int
}

// BinDir is the directory of PostgreSQL's server binaries, or "" when there is none.
func BinDir() string {
	if d := os.Getenv("DBDYNO_PG_BIN"); d != "" {
		return d
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	return ""
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func unavailable(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("private PostgreSQL instance: %s (in CI this test must run)", why)
	}
	t.Skipf("private PostgreSQL instance: %s", why)
}

// Start initialises and starts an instance; the test's cleanup stops it (thawing it first) and removes it.
func Start(t testing.TB) *Instance {
	t.Helper()
	bin := BinDir()
	if bin == "" {
		unavailable(t, "no PostgreSQL binaries (set DBDYNO_PG_BIN or install postgresql)")
	}
	for _, b := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			unavailable(t, fmt.Sprintf("%s missing in %s", b, bin))
		}
	}
	in := &Instance{bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			unavailable(t, "running as root and there is no postgres OS user to run the server as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		in.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "dbdyno-pgproc-")
	if err != nil {
		t.Fatal(err)
	}
	in.dir = dir
	t.Cleanup(func() { in.stop(); os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if in.cred != nil {
		for _, p := range []string{dir, data} {
			if err := os.Chown(p, int(in.cred.Uid), int(in.cred.Gid)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if out, err := in.command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		if lastErr = in.start(bin, data, port); lastErr == nil {
			in.Port = port
			in.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
			return in
		}
	}
	t.Fatalf("postgres did not start: %v", lastErr)
	return nil
}

func (in *Instance) command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir = in.dir
	c.SysProcAttr = &syscall.SysProcAttr{Credential: in.cred}
	return c
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (in *Instance) start(bin, data string, port int) error {
	var log bytes.Buffer
	c := in.command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories="+in.dir, "-c", "fsync=off", "-c", "max_connections=50", "-c", "shared_buffers=32MB")
	c.Stdout, c.Stderr = &log, &log
	if err := c.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { c.Wait(); close(exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("postgres exited: %s", strings.TrimSpace(log.String()))
		default:
		}
		if nc, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			nc.Close()
			if _, err := os.Stat(filepath.Join(data, "postmaster.pid")); err == nil && in.ready(bin, port) {
				in.cmd, in.done = c, exited
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.Process.Kill()
	<-exited
	return fmt.Errorf("postgres not ready within 60s: %s", strings.TrimSpace(log.String()))
}

// ready asks pg_isready when it is there (the port alone may accept before the server takes logins).
func (in *Instance) ready(bin string, port int) bool {
	p := filepath.Join(bin, "pg_isready")
	if _, err := os.Stat(p); err != nil {
		return true
	}
	return exec.Command(p, "-q", "-h", "127.0.0.1", "-p", strconv.Itoa(port)).Run() == nil
}

// Pid is the postmaster's process id.
func (in *Instance) Pid() int { return in.cmd.Process.Pid }

// processes are the postmaster and its children (backends and auxiliary processes).
func (in *Instance) processes() []int {
	pm := in.Pid()
	out := []int{pm}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			if ppid, _ := strconv.Atoi(f[1]); ppid == pm {
				out = append(out, pid)
			}
		}
	}
	return out
}

// Freeze stops the server with SIGSTOP, the postmaster first (so that it forks no new backend) and then every
// child: connections stay open and nothing answers, as a hung server's would.
func (in *Instance) Freeze() {
	in.mu.Lock()
	defer in.mu.Unlock()
	syscall.Kill(in.Pid(), syscall.SIGSTOP)
	for _, p := range in.processes() {
		syscall.Kill(p, syscall.SIGSTOP)
		in.frozen = append(in.frozen, p)
	}
}

// Thaw resumes a frozen server.
func (in *Instance) Thaw() {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, p := range in.frozen {
		syscall.Kill(p, syscall.SIGCONT)
	}
	in.frozen = nil
}

// RestartCommand is a shell command that restarts the server with pg_ctl (as its OS user) without waiting
// for it to take connections again, as a test's --cold-cmd; the options and port stay the same (pg_ctl reuses
// the postmaster's command line), and the test's cleanup stops the restarted server too.
func (in *Instance) RestartCommand() string {
	c := fmt.Sprintf("%s -D %s -m fast -W restart -l %s >/dev/null", filepath.Join(in.bin, "pg_ctl"), filepath.Join(in.dir, "data"), filepath.Join(in.dir, "restarted.log"))
	if in.cred != nil {
		return "su postgres -c '" + c + "'"
	}
	return c
}

// PostmasterPid is the running postmaster's process id, read from its data directory (0 when there is none).
func (in *Instance) PostmasterPid() int {
	b, err := os.ReadFile(filepath.Join(in.dir, "data", "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return pid
}

func (in *Instance) stop() {
	if in.cmd == nil {
		return
	}
	select {
	case <-in.done: // restarted by pg_ctl (RestartCommand): stop whichever postmaster runs now
		in.command(filepath.Join(in.bin, "pg_ctl"), "-D", filepath.Join(in.dir, "data"), "-m", "immediate", "-w", "stop").Run()
		return
	default:
	}
	in.Thaw()
	in.cmd.Process.Signal(syscall.SIGQUIT) // immediate shutdown
	select {
	case <-in.done:
	case <-time.After(30 * time.Second):
		in.cmd.Process.Kill()
		<-in.done
	}
}
