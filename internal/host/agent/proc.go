package agent

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"time"
)

// Proc is the host's raw counters at one moment, as the kernel prints them: what dbdyno monitor --agent
// computes an interval's IO counts, request sizes, latencies and queue depth from (the samples the agent keeps
// are rates, without them). Diskstats and Meminfo are the files' text, CPU the first line of /proc/stat.
type Proc struct {
	At        time.Time `json:"at"`
	Diskstats string    `json:"diskstats"`
	CPU       string    `json:"stat_cpu"`
	Meminfo   string    `json:"meminfo"`
}

// ProcRoot is where the agent reads the counters ("/proc"; tests may point it elsewhere).
var ProcRoot = "/proc"

// ReadProc reads the counters now.
func ReadProc() (Proc, error) {
	p := Proc{At: time.Now().UTC()}
	d, err := os.ReadFile(ProcRoot + "/diskstats")
	if err != nil {
		return p, fmt.Errorf("this host's block device counters: %v (the agent's host must be Linux)", err)
	}
	st, err := os.ReadFile(ProcRoot + "/stat")
	if err != nil {
		return p, err
	}
	line, _, _ := bufio.NewReader(bytes.NewReader(st)).ReadLine()
	m, err := os.ReadFile(ProcRoot + "/meminfo")
	if err != nil {
		return p, err
	}
	p.Diskstats, p.CPU, p.Meminfo = string(d), string(line), string(m)
	return p, nil
}

// handleProc answers the raw counters now.
func (s *Server) handleProc(w http.ResponseWriter, _ *http.Request) {
	p, err := ReadProc()
	if err != nil {
		http.Error(w, "dbdyno agent: "+err.Error(), http.StatusNotImplemented)
		return
	}
	reply(w, p)
}

// Client asks an agent for its host's raw counters (dbdyno monitor --agent).
type Client struct {
	r *Recorder
}

// NewClient is a client of the agent at raw (checked with CheckURL); the token may be empty.
func NewClient(raw, token string, tlsConf *tls.Config) (*Client, error) {
	if err := CheckURL(raw); err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsConf
	return &Client{r: &Recorder{base: Where(raw), token: token, client: &http.Client{Timeout: 5 * time.Second, Transport: tr}}}, nil
}

// Where is the agent's address without anything but scheme, host, port and path.
func (c *Client) Where() string { return c.r.base }

// Host is the agent's host.
func (c *Client) Host(ctx context.Context) (Host, error) {
	var h Host
	err := c.r.get(ctx, "/v1/host", &h)
	return h, err
}

// Proc is the agent host's raw counters now; an agent that predates them says so.
func (c *Client) Proc(ctx context.Context) (Proc, error) {
	var p Proc
	err := c.r.get(ctx, "/v1/proc", &p)
	if err != nil && err.Error() == "answered HTTP 404" {
		return p, fmt.Errorf("agent %s serves no raw counters (an agent older than dbdyno monitor --agent): upgrade the agent", c.r.base)
	}
	if err != nil {
		return p, fmt.Errorf("agent %s: %v", c.r.base, err)
	}
	return p, nil
}
