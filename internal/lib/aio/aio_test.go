package aio

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Every engine reads what the file holds at the offsets asked, and writes land where asked, at depth.
func TestEnginesReadAndWriteTheRightBlocks(t *testing.T) {
	const bs, blocks, depth = 4096, 256, 8
	want := make([]byte, bs*blocks)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range want {
		want[i] = byte(rng.Uint32())
	}
	for _, engine := range Engines {
		t.Run(engine, func(t *testing.T) {
			runtime.LockOSThread() // a queue is used from one thread
			defer runtime.UnlockOSThread()
			path := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(path, want, 0o600); err != nil {
				t.Fatal(err)
			}
			fd, err := unix.Open(path, unix.O_RDWR|unix.O_DIRECT, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(fd)
			d := depth
			if engine == "psync" {
				d = 1
			}
			q, err := Open(engine, fd, d)
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			bufs, free, err := Buffers(d, bs)
			if err != nil {
				t.Fatal(err)
			}
			defer free()
			offs := make([]int64, d)
			done := make([]Done, d)
			// reads: 200 random blocks, depth kept full
			issued, checked := 0, 0
			for s := 0; s < d; s++ {
				offs[s] = int64(rng.IntN(blocks)) * bs
				q.Prep(s, false, offs[s], bufs[s])
				issued++
			}
			if err := q.Submit(); err != nil {
				t.Fatal(err)
			}
			for checked < issued {
				n, err := q.Wait(1, done)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range done[:n] {
					if err := c.Err(bs); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(bufs[c.Slot], want[offs[c.Slot]:offs[c.Slot]+bs]) {
						t.Fatalf("slot %d: block at %d read wrong bytes", c.Slot, offs[c.Slot])
					}
					checked++
					if issued < 200 {
						offs[c.Slot] = int64(rng.IntN(blocks)) * bs
						q.Prep(c.Slot, false, offs[c.Slot], bufs[c.Slot])
						issued++
					}
				}
				if err := q.Submit(); err != nil {
					t.Fatal(err)
				}
			}
			// writes: block 3 gets the buffer's bytes
			for i := range bufs[0] {
				bufs[0][i] = 0xAB
			}
			q.Prep(0, true, 3*bs, bufs[0])
			if err := q.Submit(); err != nil {
				t.Fatal(err)
			}
			if n, err := q.Wait(1, done); err != nil || n != 1 || done[0].Err(bs) != nil {
				t.Fatalf("write: n=%d err=%v res=%d", n, err, done[0].Res)
			}
			got, _ := os.ReadFile(path)
			if !bytes.Equal(got[3*bs:4*bs], bytes.Repeat([]byte{0xAB}, bs)) || !bytes.Equal(got[4*bs:], want[4*bs:]) {
				t.Fatal("the write did not land on block 3 alone")
			}
			// a read past the end is a short IO, reported as such
			q.Prep(0, false, blocks*bs, bufs[0])
			q.Submit()
			if n, err := q.Wait(1, done); err != nil || n != 1 || done[0].Err(bs) == nil {
				t.Fatalf("read past the end: n=%d err=%v res=%d, want a short IO", n, err, done[0].Res)
			}
		})
	}
}

func TestOpenRefusesBadSettings(t *testing.T) {
	if _, err := Open("posixaio", 0, 1); err == nil {
		t.Fatal("an unknown engine was accepted")
	}
	if _, err := Open("io_uring", 0, 0); err == nil {
		t.Fatal("depth 0 was accepted")
	}
}

// At depth 32, whatever the batching (1 to 8 IOs per submit, completions asked for by at least 0 to 8 and at
// most 1 to 32 at a time, as fio's iodepth_batch_submit and iodepth_batch_complete_min/_max), every IO
// submitted completes exactly once, on its own slot, no completion comes for a slot not in flight, and a wait
// returns at least what it was asked for though signals (as the runtime's preemption signal) interrupt it.
func TestEveryIOCompletesOnceAtDepth(t *testing.T) {
	const bs, blocks, depth, total = 4096, 1024, 32, 5000
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, make([]byte, bs*blocks), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"io_uring", "libaio"} {
		t.Run(engine, func(t *testing.T) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECT, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer unix.Close(fd)
			// the queue's thread gets SIGURG (the runtime's own preemption signal, which it ignores
			// otherwise) every 50 µs until the test ends
			tid, stop, pumped := unix.Gettid(), make(chan struct{}), make(chan struct{})
			go func() {
				defer close(pumped)
				for {
					select {
					case <-stop:
						return
					default:
					}
					unix.Tgkill(unix.Getpid(), tid, unix.SIGURG)
					time.Sleep(50 * time.Microsecond)
				}
			}()
			defer func() { close(stop); <-pumped }()
			q, err := Open(engine, fd, depth)
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			bufs, free, err := Buffers(depth, bs)
			if err != nil {
				t.Fatal(err)
			}
			defer free()
			rng := rand.New(rand.NewPCG(3, 4))
			inFlight := make([]bool, depth)
			var freeSlots []int
			for s := depth - 1; s >= 0; s-- {
				freeSlots = append(freeSlots, s)
			}
			done := make([]Done, depth)
			submitted, completed, waits := 0, 0, 0
			for completed < total {
				// fill the free slots, submitting every batch IOs
				batch, queued := 1+rng.IntN(8), 0
				for len(freeSlots) > 0 && submitted < total {
					s := freeSlots[len(freeSlots)-1]
					freeSlots = freeSlots[:len(freeSlots)-1]
					q.Prep(s, false, int64(rng.IntN(blocks))*bs, bufs[s])
					inFlight[s] = true
					submitted++
					if queued++; queued == batch {
						if err := q.Submit(); err != nil {
							t.Fatal(err)
						}
						queued = 0
					}
				}
				if err := q.Submit(); err != nil {
					t.Fatal(err)
				}
				outstanding := submitted - completed
				lo, hi := rng.IntN(9), 1+rng.IntN(depth)
				lo, hi = min(lo, outstanding), max(min(hi, outstanding), min(lo, outstanding))
				n, err := q.Wait(lo, done[:hi])
				if err != nil {
					t.Fatal(err)
				}
				waits++
				if n < lo || n > hi {
					t.Fatalf("Wait(%d, %d slots) returned %d completions", lo, hi, n)
				}
				for _, c := range done[:n] {
					if c.Slot < 0 || c.Slot >= depth || !inFlight[c.Slot] {
						t.Fatalf("a completion for slot %d, which has no IO in flight", c.Slot)
					}
					if err := c.Err(bs); err != nil {
						t.Fatal(err)
					}
					inFlight[c.Slot] = false
					freeSlots = append(freeSlots, c.Slot)
					completed++
				}
			}
			if submitted != total || completed != total {
				t.Fatalf("%d IOs submitted, %d completed, want %d each", submitted, completed, total)
			}
			// nothing more comes: polling finds no completion left
			if n, err := q.Wait(0, done); err != nil || n != 0 {
				t.Fatalf("after every IO completed, a poll returned %d completions (err %v)", n, err)
			}
		})
	}
}
