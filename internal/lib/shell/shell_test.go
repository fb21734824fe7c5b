package shell

import (
	"os/exec"
	"testing"
)

// Every word quoted reads back, through a real shell, as itself.
func TestQuoteReadsBack(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, w := range []string{"plain", "m1';drop table results;--", "a b", "", "$HOME", "`id`", "x\"y", "it's", "../../escape.html"} {
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("Quote(%q) = %s read back as %q (%v)", w, Quote(w), out, err)
		}
	}
}
