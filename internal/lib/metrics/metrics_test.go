package metrics

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
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

// The latency histogram is served twice over in the protobuf exposition (what a Prometheus with native
// histograms asks for): its classic buckets and a native histogram (a schema, exponential buckets) of the same
// observations; the text exposition keeps the classic buckets alone. Read with the client library's own parser.
func TestLatencyIsANativeHistogramToo(t *testing.T) {
	s, err := Listen("127.0.0.1:0", "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := s.Run("r1", "w", "sqlite://x.db", nil)
	for _, d := range []time.Duration{300 * time.Microsecond, 2 * time.Millisecond, 2 * time.Millisecond, 40 * time.Millisecond} {
		r.Done("t", d, "committed", 1, true)
	}
	req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/metrics", nil)
	req.Header.Set("Accept", string(expfmt.NewFormat(expfmt.TypeProtoDelim)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	dec := expfmt.NewDecoder(resp.Body, expfmt.ResponseFormat(resp.Header))
	found := false
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding the protobuf exposition (%s): %v", resp.Header.Get("Content-Type"), err)
		}
		if mf.GetName() != "dbdyno_unit_latency_seconds" {
			continue
		}
		found = true
		h := mf.GetMetric()[0].GetHistogram()
		var count, prev int64
		for _, d := range h.GetPositiveDelta() { // each populated bucket's count as a delta from the one before
			prev += d
			count += prev
		}
		if h.Schema == nil || len(h.GetPositiveSpan()) == 0 || count+int64(h.GetZeroCount()) != 4 {
			t.Errorf("no native histogram of the 4 observations: schema %v, spans %v, bucket counts %d, zero %d", h.Schema, h.GetPositiveSpan(), count, h.GetZeroCount())
		}
		if h.GetSampleCount() != 4 || len(h.GetBucket()) != len(Buckets) {
			t.Errorf("the classic histogram: %d observations in %d buckets, want 4 in %d", h.GetSampleCount(), len(h.GetBucket()), len(Buckets))
		}
	}
	if !found {
		t.Fatal("no dbdyno_unit_latency_seconds in the protobuf exposition")
	}
}
