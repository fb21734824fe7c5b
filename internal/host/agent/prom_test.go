package agent_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The agent serves its host's last sample at /metrics in Prometheus's format, behind its token: the client
// library's parser reads the CPU by mode, the memory, the cores and each disk's figures, labelled with the host.
func TestAgentMetrics(t *testing.T) {
	url, _ := start(t, tokenFile(t, token), 100*time.Millisecond)
	get := func(tok string) (*http.Response, error) {
		req, _ := http.NewRequest("GET", url+"/metrics", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		return (&http.Client{Timeout: 10 * time.Second}).Do(req)
	}
	if r, err := get(""); err != nil || r.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the token: %v %v", r, err)
	}
	for end := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) { // a first interval sampled
		r, err := get(token)
		if err != nil {
			t.Fatal(err)
		}
		p := expfmt.NewTextParser(model.LegacyValidation)
		fams, err := p.TextToMetricFamilies(r.Body)
		r.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if cpu := fams["dbdyno_host_cpu_percent"]; cpu != nil && len(cpu.GetMetric()) == 5 {
			if fams["dbdyno_host_memory_used_bytes"].GetMetric()[0].GetGauge().GetValue() <= 0 || fams["dbdyno_host_physical_cores"].GetMetric()[0].GetGauge().GetValue() < 1 ||
				fams["dbdyno_host_disk_iops"] == nil {
				t.Errorf("host figures: %v", fams)
			}
			if h := cpu.GetMetric()[0].GetLabel()[0]; h.GetName() != "host" || h.GetValue() == "" {
				t.Errorf("labels %v", cpu.GetMetric()[0].GetLabel())
			}
			return
		}
		if time.Now().After(end) {
			t.Fatalf("no sample's figures served: %v", fams)
		}
	}
}
