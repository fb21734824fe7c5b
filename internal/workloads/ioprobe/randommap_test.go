package ioprobe_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dbdyno/dbdyno/internal/workloads/ioprobe"
)

// ioSizes are the lengths of a run's IOs per direction (0 read, 1 write).
type ioSizes [2][]int

func (s ioSizes) all() []int { return append(append([]int(nil), s[0]...), s[1]...) }

func (s ioSizes) bytes() (n int64) {
	for _, x := range s.all() {
		n += int64(x)
	}
	return n
}

func (s ioSizes) mean() float64 { return float64(s.bytes()) / float64(len(s.all())) }

// shares are the shares of the IOs by size class (up to 512 bytes, up to 1k, ... up to 64k, larger) and, last,
// the share of IOs whose length is none of the sizes the job asks for (trimmed).
func (s ioSizes) shares(asked []int) []float64 {
	out := make([]float64, 10)
	all := s.all()
	for _, x := range all {
		c := 0
		for lim := 512; c < 8 && x > lim; lim *= 2 {
			c++
		}
		out[c]++
		trimmed := true
		for _, a := range asked {
			trimmed = trimmed && x != a
		}
		if trimmed {
			out[9]++
		}
	}
	for i := range out {
		out[i] /= float64(len(all))
	}
	return out
}

// fioSizes runs fio on a job file in dir (fio lays its file out itself) and gives every IO's length as fio's
// iolog records it, checked against the IOs and bytes of fio's JSON output.
func fioSizes(t *testing.T, fio, dir, job string) ioSizes {
	t.Helper()
	log := filepath.Join(dir, "fio.iolog")
	cmd := exec.Command(fio, "--output-format=json", "--write_iolog="+log, job)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fio %s: %v\n%s", job, err, out)
	}
	var js struct {
		Jobs []struct {
			Read, Write struct {
				IOBytes  int64 `json:"io_bytes"`
				TotalIOs int   `json:"total_ios"`
			}
		}
	}
	if err := json.Unmarshal(out[strings.IndexByte(string(out), '{'):], &js); err != nil || len(js.Jobs) != 1 {
		t.Fatalf("fio's JSON (%v):\n%s", err, out)
	}
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s ioSizes
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// version 3: "TIME FILE read|write OFFSET LENGTH"
		fs := strings.Fields(sc.Text())
		if len(fs) != 5 || fs[2] != "read" && fs[2] != "write" {
			continue
		}
		n, err := strconv.Atoi(fs[4])
		if err != nil {
			t.Fatalf("fio's iolog: %q", sc.Text())
		}
		d := 0
		if fs[2] == "write" {
			d = 1
		}
		s[d] = append(s[d], n)
	}
	r, w := js.Jobs[0].Read, js.Jobs[0].Write
	if len(s[0]) != r.TotalIOs || len(s[1]) != w.TotalIOs || s.bytes() != r.IOBytes+w.IOBytes {
		t.Fatalf("fio's iolog has %d reads and %d writes of %d bytes, its JSON %d and %d of %d", len(s[0]), len(s[1]), s.bytes(), r.TotalIOs, w.TotalIOs, r.IOBytes+w.IOBytes)
	}
	return s
}

// dbdynoSizes runs the job file through dbdyno and gives every IO's length as its clone prepared it.
func dbdynoSizes(t *testing.T, dir, job string) ioSizes {
	t.Helper()
	var mu sync.Mutex
	var s ioSizes
	defer ioprobe.WatchIOs(func(_ string, _, d int, _ int64, n int) {
		mu.Lock()
		s[d] = append(s[d], n)
		mu.Unlock()
	})()
	r, _ := run(t, dir, "--job", job)
	tt := r.IO.Tests[0]
	if int64(len(s[0])) != tt.Read.IOs || int64(len(s[1])) != tt.Write.IOs {
		t.Fatalf("dbdyno prepared %d reads and %d writes, its result counts %d and %d", len(s[0]), len(s[1]), tt.Read.IOs, tt.Write.IOs)
	}
	return s
}

// fio trims a random IO to the blocks of its random map not yet done this pass (io_u.c's mark_random_map): with
// bssplit's spread of sizes the map fills in pieces, so the IOs shrink as it fills and the job moves its size
// once in IOs far smaller than the split's mean. dbdyno runs fio's IOmeter file server example as fio does:
// the same bytes (the file once), about as many IOs of about the same mean size, spread over the sizes alike,
// as many trimmed to sizes the split does not name; and neither trims with norandommap or sequential IO.
// fio runs it here; what is compared is sizes and counts, never rates.
func TestRandomMapTrimsIOsAsFio(t *testing.T) {
	fio, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed (apt-get install fio): dbdyno's IO sizes are compared with fio's own run where it is")
	}
	text, err := os.ReadFile("testdata/fio/iometer-file-access-server.fio")
	if err != nil {
		t.Fatal(err)
	}
	split := []int{512, 1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10}
	const size = 8 << 20
	for _, c := range []struct {
		name, extra string
		trims       bool
	}{{"random map", "", true}, {"norandommap", "norandommap=1\n", false}, {"sequential", "rw=rw\n", false}} {
		t.Run(c.name, func(t *testing.T) {
			var got [2]ioSizes
			for i, tool := range []string{"fio", "dbdyno"} {
				dir := t.TempDir()
				job := filepath.Join(dir, "iometer.fio")
				s := strings.Replace(string(text), "[global]\n", "[global]\ndirectory="+dir+"\n", 1) + c.extra
				if err := os.WriteFile(job, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
				if tool == "fio" {
					got[i] = fioSizes(t, fio, dir, job)
				} else {
					got[i] = dbdynoSizes(t, dir, job)
				}
			}
			f, d := got[0], got[1]
			fs, ds := f.shares(split), d.shares(split)
			t.Logf("fio: %d IOs, %.0f bytes each, shares %.3f", len(f.all()), f.mean(), fs)
			t.Logf("dbdyno: %d IOs, %.0f bytes each, shares %.3f", len(d.all()), d.mean(), ds)
			// with the map, the file once exactly; without, its size and the last IO's part
			if c.trims && (f.bytes() != size || d.bytes() != size) {
				t.Errorf("fio moved %d bytes, dbdyno %d: want the file's %d once", f.bytes(), d.bytes(), size)
			}
			if !c.trims && (d.bytes() < size || d.bytes() >= size+64<<10) {
				t.Errorf("dbdyno moved %d bytes, want %d and part of the last IO", d.bytes(), size)
			}
			if r := d.mean() / f.mean(); math.Abs(r-1) > 0.2 {
				t.Errorf("dbdyno's IOs are %.0f bytes on average, fio's %.0f: ratio %.2f", d.mean(), f.mean(), r)
			}
			if r := float64(len(d.all())) / float64(len(f.all())); math.Abs(r-1) > 0.2 {
				t.Errorf("dbdyno did %d IOs, fio %d", len(d.all()), len(f.all()))
			}
			tvd := 0.0
			for i := range 9 {
				tvd += math.Abs(fs[i]-ds[i]) / 2
			}
			if tvd > 0.08 {
				t.Errorf("the IOs' sizes differ by %.3f (total variation over the size classes): fio %.3f, dbdyno %.3f", tvd, fs[:9], ds[:9])
			}
			trimmed := fmt.Sprintf("%.1f%% of fio's IOs and %.1f%% of dbdyno's are trimmed to a size the split does not name", fs[9]*100, ds[9]*100)
			switch {
			case c.trims && (fs[9] < 0.05 || math.Abs(fs[9]-ds[9]) > 0.05):
				t.Errorf("with the random map %s", trimmed)
			case !c.trims && (fs[9] != 0 || ds[9] != 0):
				t.Errorf("without a random map %s", trimmed)
			}
		})
	}
}
