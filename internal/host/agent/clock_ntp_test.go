package agent

import (
	"context"
	"encoding/binary"
	"net"
	"strings"
	"testing"
	"time"
)

// ntpServer answers NTP requests on 127.0.0.1 with its clock shift ahead of this host's, as stratum (0: a
// kiss of death); answer false: it reads requests and answers none. Its address is returned.
func ntpServer(t *testing.T, shift time.Duration, stratum byte, answer bool) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	// NTP's timestamps: seconds since 1900 and a binary fraction
	put := func(b []byte, at time.Time) {
		d := at.Sub(time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC))
		sec := uint64(d / time.Second)
		frac := uint64(d%time.Second) << 32 / uint64(time.Second)
		binary.BigEndian.PutUint32(b, uint32(sec))
		binary.BigEndian.PutUint32(b[4:], uint32(frac))
	}
	go func() {
		buf := make([]byte, 512)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			received := time.Now().Add(shift)
			if !answer || n < 48 {
				continue
			}
			out := make([]byte, 48)
			out[0] = 0<<6 | 4<<3 | 4 // in sync, version 4, a server's answer
			out[1] = stratum
			out[2], out[3] = 6, 0xEC                   // poll 64 s, precision about a microsecond
			binary.BigEndian.PutUint32(out[8:], 1<<12) // root dispersion: 1/16 s
			copy(out[12:16], "LOCL")
			put(out[16:], received.Add(-time.Minute)) // the reference time: set a minute ago
			copy(out[24:32], buf[40:48])              // the request's transmit time, as the origin
			put(out[32:], received)
			put(out[40:], time.Now().Add(shift))
			pc.WriteTo(out, from)
		}
	}()
	return pc.LocalAddr().String()
}

// --clock-ref ntp://HOST:PORT measures this host's offset against an NTP server, as against an agent: a server
// 1.5 s ahead is read 1.5 s ahead (within half the round trip and NTP's timestamp resolution); a server whose
// answer is not fit to set a clock by (a kiss of death) and one that never answers are refused in one line
// naming it, the silent one within the command's deadline.
func TestClockOffsetAgainstNTP(t *testing.T) {
	ctx := context.Background()
	ahead := ntpServer(t, 1500*time.Millisecond, 2, true)
	off, err := ClockOffset(ctx, "ntp://"+ahead, nil, 8)
	if err != nil {
		t.Fatal(err)
	}
	if off.Ref != "ntp://"+ahead || off.RoundTrip < 0 || (off.Offset-1500*time.Millisecond).Abs() > off.RoundTrip/2+time.Millisecond {
		t.Errorf("offset %s (round trip %s) against a server 1.5 s ahead, ref %s", off.Offset, off.RoundTrip, off.Ref)
	}

	kod := ntpServer(t, 0, 0, true)
	if _, err := ClockOffset(ctx, "ntp://"+kod, nil, 2); err == nil || !strings.Contains(err.Error(), "not fit to set a clock by") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a kiss of death: %v", err)
	}

	silent := ntpServer(t, 0, 2, false)
	dctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	began := time.Now()
	if _, err := ClockOffset(dctx, "ntp://"+silent, nil, 8); err == nil || !strings.Contains(err.Error(), "--clock-ref ntp://"+silent+": no answer") {
		t.Errorf("a silent server: %v", err)
	}
	if took := time.Since(began); took > ntpTimeout {
		t.Errorf("a silent server held the command %s, past its deadline and the exchange's own bound", took)
	}

	for _, bad := range []string{"ntp://user:pw@" + ahead, "ntp://" + ahead + "/path", "ntp://" + ahead + "?key=1"} {
		if _, err := ClockOffset(ctx, bad, nil, 1); err == nil || !strings.Contains(err.Error(), "nothing else in the URL") || strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// NTPServer is ntpServer for the package's external tests.
var NTPServer = ntpServer
