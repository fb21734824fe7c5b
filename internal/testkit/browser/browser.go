// Package browser opens the HTML pages dbdyno writes in headless Chromium for the tests: where there is no
// browser the test is skipped, except in CI (.ci/run installs one), where it fails.
package browser

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path is the Chromium binary: the test is skipped when there is none (failed in CI).
func Path(t testing.TB) string {
	t.Helper()
	for _, b := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(b); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: .ci/run installs it")
	}
	t.Skip("no Chromium binary")
	return ""
}

// Open starts a headless Chromium with a profile in dir and returns its context, ended with the test; guard
// bounds a hung browser (it is not a speed limit).
func Open(t testing.TB, dir string, guard time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(Path(t)), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(filepath.Join(dir, "profile")))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(ctx, guard)
	t.Cleanup(func() { cancel(); cancelCtx(); cancelAlloc() })
	return ctx
}
