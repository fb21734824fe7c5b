package engine

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// A server that accepts TCP and never answers holds no engine's login past the connect timeout, SQL Server's
// included (its driver's handshake ignored the timeout and the signals: stuck > 90 s with --connect-timeout 3s),
// and Ctrl-C ends a login in progress at once, whatever the timeout.
func TestLoginToASilentServerHonoursTimeoutAndCancel(t *testing.T) {
	addr := listen(t, func(net.Conn) {})
	for _, scheme := range []string{"postgres", "mysql", "sqlserver"} {
		tg, err := Parse(scheme + "://u:secret-pw@" + addr + "?database=d")
		if scheme != "sqlserver" {
			tg, err = Parse(scheme + "://u:secret-pw@" + addr + "/d")
		}
		if err != nil {
			t.Fatal(err)
		}
		open := func(ctx context.Context, timeout time.Duration) (time.Duration, error) {
			tg.ConnectTimeout = timeout
			t0 := time.Now()
			done := make(chan error, 1)
			go func() { _, err := tg.Open(ctx); done <- err }()
			select {
			case err := <-done:
				return time.Since(t0), err
			case <-time.After(60 * time.Second):
				t.Fatalf("%s: the login was still waiting after 60s", scheme)
				return 0, nil
			}
		}
		took, err := open(context.Background(), time.Second)
		if err == nil || took > 20*time.Second || strings.Contains(err.Error(), "secret-pw") {
			t.Errorf("%s: connect timeout 1s: after %s: %v", scheme, took.Round(time.Millisecond), err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(500*time.Millisecond, cancel)
		took, err = open(ctx, 5*time.Minute)
		if err == nil || took > 20*time.Second {
			t.Errorf("%s: cancelled after 0.5s: after %s: %v", scheme, took.Round(time.Millisecond), err)
		}
	}
}
