package livepage

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// An address that is not loopback is refused without a token; with one, the page and its events are served
// only to an address that carries it.
func TestLivePageAccess(t *testing.T) {
	if _, err := Listen("0.0.0.0:0", ""); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("a non-loopback address without a token: %v", err)
	}
	s, err := Listen("127.0.0.1:0", "t0ken-0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := &http.Client{Timeout: 10 * time.Second}
	for q, want := range map[string]int{"": http.StatusUnauthorized, "?token=wrong": http.StatusUnauthorized, "?token=t0ken-0123456789abcdef": http.StatusOK} {
		r, err := c.Get(s.URL() + q)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != want {
			t.Errorf("GET /%s: %d, want %d", q, r.StatusCode, want)
		}
	}
}
