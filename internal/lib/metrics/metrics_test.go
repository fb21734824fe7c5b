package metrics

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Every series the Grafana dashboard (deploy/grafana/dbdyno.json) queries is one the server serves, and an
// address that is not loopback is refused without a token.
func TestDashboardQueriesServedSeries(t *testing.T) {
	s, err := Listen("127.0.0.1:0", "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := s.Run("r1", "w", "sqlite://x.db", map[string]string{"k": "v"})
	r.Done("t", time.Millisecond, "committed", 1, true)
	r.Done("t", time.Millisecond, "serialization", 0, true)
	r.Users(2)
	r.Lag(time.Millisecond)
	r.Phase("measure")
	resp, err := http.Get("http://" + s.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	dash, err := os.ReadFile("../../../deploy/grafana/dbdyno.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range regexp.MustCompile(`dbdyno_[a-z_]+`).FindAllString(string(dash), -1) {
		if name == "dbdyno_live" {
			continue
		}
		if !strings.Contains(string(body), "\n"+strings.TrimSuffix(name, "_bucket")) {
			t.Errorf("the dashboard queries %s, which is not served", name)
		}
	}
	if _, err := Listen("0.0.0.0:0", ""); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("a non-loopback address without a token: %v", err)
	}
}
