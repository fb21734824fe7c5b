package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A written result carries the SHA-256 of its canonical content: it reads back verified, also re-indented; a
// figure edited by hand (or its digest) is refused naming the file; a document without a digest (written before
// results carried one) reads, marked Undigested, and is written again without one.
func TestDigestCatchesAnEditedResult(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a1.json")
	r := sample()
	r.Metrics = []Metric{{Name: "NOPM", Better: Higher, Value: 99, Headline: true}}
	if err := r.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	d, _ := doc["digest"].(string)
	if !strings.HasPrefix(d, DigestPrefix) || len(d) != len(DigestPrefix)+64 {
		t.Fatalf("digest %q", d)
	}
	if got, err := Read(path); err != nil || got.Undigested || got.Digest != d {
		t.Fatalf("the file as written: %v (undigested %v)", err, got != nil && got.Undigested)
	}
	// whitespace is not content: the file re-indented still verifies
	var compact bytes.Buffer
	json.Compact(&compact, b)
	if _, err := Parse(compact.Bytes()); err != nil {
		t.Fatalf("re-indented: %v", err)
	}

	write := func(name string, edit func(map[string]any)) string {
		var m map[string]any
		json.Unmarshal(b, &m)
		edit(m)
		out, _ := json.MarshalIndent(m, "", "  ")
		p := filepath.Join(dir, name)
		os.WriteFile(p, out, 0o644)
		return p
	}
	edited := write("edited.json", func(m map[string]any) {
		m["metrics"].([]any)[0].(map[string]any)["value"] = 9900.0
	})
	_, err := Read(edited)
	if !errors.Is(err, ErrChanged) || err.Error() != edited+" was changed after the run wrote it (its digest does not match): compare the files runs wrote" {
		t.Fatalf("an edited headline: %v", err)
	}
	forged := write("forged.json", func(m map[string]any) { m["digest"] = DigestPrefix + strings.Repeat("0", 64) })
	if _, err := Read(forged); !errors.Is(err, ErrChanged) {
		t.Fatalf("a digest that is not the content's: %v", err)
	}
	if _, err := Parse(bytes.Replace(b, []byte(`"value": 99`), []byte(`"value": 99.0`), 1)); !errors.Is(err, ErrChanged) {
		t.Fatalf("a number written otherwise: %v", err)
	}

	old := write("old.json", func(m map[string]any) { delete(m, "digest") })
	got, err := Read(old)
	if err != nil || !got.Undigested {
		t.Fatalf("a result without a digest: %v", err)
	}
	again, err := got.Marshal()
	if err != nil || bytes.Contains(again, []byte(`"digest"`)) {
		t.Fatalf("an unverified result was written with a digest (%v):\n%s", err, again)
	}
}
