package agent_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

func TestMain(m *testing.M) { clitest.Main(m) }

const token = "s3cret-t0ken-that-must-never-show"

// start runs an agent on loopback (a port of its own) until the returned stop is called.
func start(t *testing.T, tokenFile string, interval time.Duration) (url string, stop func()) {
	t.Helper()
	s, err := agent.New(context.Background(), agent.Options{Listen: "127.0.0.1:0", TokenFile: tokenFile, Interval: interval})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := s.Serve(ctx, os.Stderr, func(a string) { addr <- a }); err != nil {
			t.Error(err)
		}
	}()
	a := <-addr
	var once bool
	stop = func() {
		if !once {
			once = true
			cancel()
			<-done
		}
	}
	t.Cleanup(stop)
	return "http://" + a, stop
}

func tokenFile(t *testing.T, tok string) string {
	p := filepath.Join(t.TempDir(), "token")
	os.WriteFile(p, []byte(tok+"\n"), 0o600)
	return p
}

// A run with --agent stores the database host's samples over its measured window, and per-core figures then
// use the agent's cores; the token shows nowhere.
func TestRunRecordsTheAgentsSamples(t *testing.T) {
	tf := tokenFile(t, token)
	url, _ := start(t, tf, 200*time.Millisecond)
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	out := clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "500ms", "--duration", "2s",
		"--agent", url, "--agent-token-file", tf, "--result", res)
	r, text := clitest.ReadResult(t, res)
	s := r.ServerSystem
	if s == nil || s.Source != url || len(s.Gaps) != 0 {
		t.Fatalf("server metrics: %+v", s)
	}
	if s.MeasureFromS < 0.4 || s.MeasureToS-s.MeasureFromS < 1.9 {
		t.Fatalf("measured window %g..%g s", s.MeasureFromS, s.MeasureToS)
	}
	// samples every 200 ms over the whole run: the measured window is covered
	var inWindow int
	for _, x := range s.Samples {
		if x.T >= s.MeasureFromS && x.T <= s.MeasureToS+0.2 {
			inWindow++
		}
	}
	if inWindow < 8 || s.Summary["cpu_busy_pct"].Max <= 0 {
		t.Fatalf("%d samples in the measured window; summary %+v", inWindow, s.Summary["cpu_busy_pct"])
	}
	if !strings.Contains(r.Environment.DBHostCoresSource, "dbdyno agent at "+url) || r.Environment.DBHostCores <= 0 {
		t.Fatalf("cores %d from %q", r.Environment.DBHostCores, r.Environment.DBHostCoresSource)
	}
	// the database host's fingerprint is the agent's (its source names it), the same machine's here
	if h := r.Environment.DBHost; h == nil || !strings.Contains(h.Source, "dbdyno agent at "+url) || h.PhysicalCores != r.Environment.DBHostCores ||
		h.Model != r.Environment.CPU.Model || h.ThreadsPerCore < 1 || h.Sockets < 1 {
		t.Fatalf("database host fingerprint %+v (this machine %+v)", h, r.Environment.CPU)
	}
	html := filepath.Join(dir, "r.html")
	if _, err := results.Report(context.Background(), os.Stderr, store.DefaultPath, []string{r.RunID}, store.Filter{}, "r", html); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "Database host metrics") {
		t.Fatal("the report lacks the database host's metrics")
	}
	for what, s := range map[string]string{"output": out.Stdout + out.Stderr, "result": text, "report": string(page), "store": storeText(t)} {
		if strings.Contains(s, token) {
			t.Fatalf("the token shows in the %s", what)
		}
	}
}

func storeText(t *testing.T) string {
	b, err := os.ReadFile(store.DefaultPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A wrong or missing token is refused (HTTP 401); the run says so in one line and goes on without server
// metrics.
func TestWrongTokenCostsOnlyTheServerMetrics(t *testing.T) {
	url, _ := start(t, tokenFile(t, token), 200*time.Millisecond)
	req, _ := http.NewRequest(http.MethodGet, url+"/v1/host", nil)
	req.Header.Set("Authorization", "Bearer "+token[:len(token)-1]+"X")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a wrong token: %v %v", err, resp)
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"--agent-token-file", tokenFile(t, "another-token-of-enough-length")}, nil} {
		res := filepath.Join(dir, "r.json")
		out := clitest.Must(t, append([]string{"ping", "--target", "sqlite://" + filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "500ms",
			"--agent", url, "--result", res}, args...)...)
		if strings.Count(out.Stdout, "refused the token (HTTP 401)") != 1 {
			t.Fatalf("output:\n%s", out.Stdout)
		}
		if r, _ := clitest.ReadResult(t, res); r.ServerSystem != nil || r.Status != "ok" {
			t.Fatalf("status %s, server metrics %v", r.Status, r.ServerSystem)
		}
	}
}

// An agent that goes away mid-run leaves a gap in the series, marked, and the run ends ok.
func TestAgentGoneMidRunLeavesAGap(t *testing.T) {
	tf := tokenFile(t, token)
	url, stop := start(t, tf, 200*time.Millisecond)
	// the run talks to the agent through a proxy that goes away (closes, refusing connections from then on) once
	// it has passed on samples twice (the run fetches them about every second): an event, not a time a loaded machine's setup may outlast
	target, _ := neturl.Parse(url)
	served := 0
	var proxy *httptest.Server
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rp.ServeHTTP(w, r)
		if strings.HasPrefix(r.URL.Path, "/v1/samples") {
			if served++; served == 2 {
				go func() { proxy.Close(); stop() }()
			}
		}
	}))
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	out := clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "3s",
		"--agent", proxy.URL, "--agent-token-file", tf, "--result", res)
	r, _ := clitest.ReadResult(t, res)
	s := r.ServerSystem
	if r.Status != "ok" || s == nil || len(s.Gaps) != 1 || len(s.Samples) < 3 {
		t.Fatalf("status %s, server metrics %+v\n%s", r.Status, s, out.Stdout)
	}
	g := s.Gaps[0]
	end := r.EndedAt.Sub(r.StartedAt).Seconds()
	if served < 2 || g.ToS < end-0.1 || !strings.Contains(out.Stdout, "will have a gap") {
		t.Fatalf("gap %+v in a run of %.1fs\n%s", g, end, out.Stdout)
	}
}

// The agent refuses to listen beyond loopback without a token, and a short token; bad --agent URLs are one
// line before anything runs.
func TestAgentRefusals(t *testing.T) {
	for _, o := range []agent.Options{
		{Listen: "0.0.0.0:0", Interval: time.Second},
		{Listen: "[::]:0", Interval: time.Second},
	} {
		if _, err := agent.New(context.Background(), o); err == nil || !strings.Contains(err.Error(), "--token-file") {
			t.Fatalf("listen %s without a token: %v", o.Listen, err)
		}
	}
	if _, err := agent.New(context.Background(), agent.Options{Listen: "127.0.0.1:0", Interval: time.Second, TokenFile: tokenFile(t, "short")}); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Fatalf("a short token: %v", err)
	}
	dir := t.TempDir()
	for _, bad := range []string{"ftp://127.0.0.1:1", "http://user:pw@127.0.0.1:1", "http://127.0.0.1:1/?token=x"} {
		r := clitest.Run(context.Background(), "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--agent", bad, "--store", "")
		if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || strings.Contains(r.Stderr, "pw") {
			t.Fatalf("--agent %s: %d %q", bad, r.Code, r.Stderr)
		}
	}
}

// A token file others may read is refused like ssh refuses such a private key, by the agent (--token-file) and
// by the driver (--agent-token-file): one line naming the file, its mode and the fix.
func TestTokenFileOpenToOthersIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows files have no mode bits for others")
	}
	tf := tokenFile(t, token)
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o620} {
		if err := os.Chmod(tf, mode); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("token file %s has mode %04o, open to other users: run chmod 600 %s", tf, mode, tf)
		if _, err := agent.New(context.Background(), agent.Options{Listen: "127.0.0.1:0", TokenFile: tf, Interval: time.Second}); err == nil || err.Error() != want {
			t.Fatalf("agent --token-file (mode %04o): %v", mode, err)
		}
		dir := t.TempDir()
		r := clitest.Run(context.Background(), "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--agent", "http://127.0.0.1:1",
			"--agent-token-file", tf, "--store", "")
		if r.Code == 0 || r.Stderr != "dbdyno: --agent-token-file: "+want+"\n" {
			t.Fatalf("--agent-token-file (mode %04o): %d %q", mode, r.Code, r.Stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "p.db")); err == nil {
			t.Fatalf("--agent-token-file (mode %04o) refused after the database was opened", mode)
		}
	}
	for _, mode := range []os.FileMode{0o600, 0o400} {
		os.Chmod(tf, mode)
		if _, err := agent.ReadToken(tf); err != nil {
			t.Fatalf("mode %04o: %v", mode, err)
		}
	}
}

// An https agent (--tls-cert, --tls-key) is followed when its certificate checks out against --agent-ca, and
// refused (one line, the run goes on) when it does not.
func TestAgentOverTLS(t *testing.T) {
	dir := t.TempDir()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "dbdyno agent test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	tf := tokenFile(t, token)
	s, err := agent.New(context.Background(), agent.Options{Listen: "127.0.0.1:0", TokenFile: tf, TLSCert: certFile, TLSKey: keyFile, Interval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	go s.Serve(ctx, os.Stderr, func(a string) { addr <- a })
	url := "https://" + <-addr
	res := filepath.Join(dir, "r.json")
	clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "1s",
		"--agent", url, "--agent-token-file", tf, "--agent-ca", certFile, "--result", res)
	if r, _ := clitest.ReadResult(t, res); r.ServerSystem == nil || len(r.ServerSystem.Samples) < 3 {
		t.Fatalf("over TLS: %+v", r.ServerSystem)
	}
	out := clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "300ms",
		"--agent", url, "--agent-token-file", tf, "--result", res)
	if r, _ := clitest.ReadResult(t, res); r.ServerSystem != nil || !strings.Contains(out.Stdout, "certificate") {
		t.Fatalf("an unknown certificate was trusted:\n%s", out.Stdout)
	}
}

// A stepped run with --agent gives each step the database host's samples within its own window (their times
// between its window's edges, in seconds from the run's start), their mean CPU busy % in the step's row of
// the progress table, beside this machine's.
func TestSteppedRunHasTheAgentsSamplesPerStep(t *testing.T) {
	tf := tokenFile(t, token)
	url, _ := start(t, tf, 100*time.Millisecond)
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	out := clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--steps", "2,1", "--step-duration", "1500ms", "--step-rampup", "300ms",
		"--agent", url, "--agent-token-file", tf, "--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	if len(r.Steps) != 2 || r.ServerSystem == nil {
		t.Fatalf("%d steps, server metrics %+v", len(r.Steps), r.ServerSystem)
	}
	if !strings.Contains(out.Stdout, ", database host CPU busy %") {
		t.Fatalf("the steps table has no database host CPU column:\n%s", out.Stdout)
	}
	for i, s := range r.Steps {
		m := s.ServerSystem
		if m == nil || len(m.Samples) == 0 || m.Source != url {
			t.Fatalf("step %d has no database host samples of its own: %+v", i+1, m)
		}
		if w := m.MeasureToS - m.MeasureFromS; w < s.MeasuredS-0.01 || w > s.MeasuredS+0.01 || len(m.Samples) >= len(r.ServerSystem.Samples) {
			t.Fatalf("step %d: window %g..%g s for %g s measured; %d samples of the run's %d", i+1, m.MeasureFromS, m.MeasureToS, s.MeasuredS, len(m.Samples), len(r.ServerSystem.Samples))
		}
		for _, x := range m.Samples {
			if x.T < m.MeasureFromS || x.T > m.MeasureToS {
				t.Fatalf("step %d: a sample at %g s, outside its window %g..%g s", i+1, x.T, m.MeasureFromS, m.MeasureToS)
			}
		}
		if s.ServerCPUBusyPct != m.Summary["cpu_busy_pct"].Mean || !strings.Contains(out.Stdout, fmt.Sprintf("  %d. vus=%g: ", i+1, s.Load)) {
			t.Fatalf("step %d: database host CPU busy %g%%, its samples' mean %g%%", i+1, s.ServerCPUBusyPct, m.Summary["cpu_busy_pct"].Mean)
		}
	}
	if r.Steps[1].ServerSystem.MeasureFromS < r.Steps[0].ServerSystem.MeasureToS {
		t.Fatalf("step 2's window (from %g s) begins before step 1's ends (%g s)", r.Steps[1].ServerSystem.MeasureFromS, r.Steps[0].ServerSystem.MeasureToS)
	}
}
