package result

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DigestPrefix starts every result's digest: the hash it is ("sha256:" and 64 hexadecimal digits).
const DigestPrefix = "sha256:"

// ErrChanged means a result document's content no longer matches its digest: it was changed after the run
// wrote it (a figure edited by hand, a truncated copy).
var ErrChanged = errors.New("its digest does not match its content: the document was changed after the run wrote it")

// changedFileError is ErrChanged for a result file, naming it.
type changedFileError struct{ path string }

func (e *changedFileError) Error() string {
	return fmt.Sprintf("%s was changed after the run wrote it (its digest does not match): compare the files runs wrote", e.path)
}

func (e *changedFileError) Is(target error) bool { return target == ErrChanged }

func changedFile(path string) error { return &changedFileError{path} }

// Canonical is a result document's canonical content, which its digest is the SHA-256 of: the document without
// its top-level "digest" field, as compact JSON with every object's keys in order and every number as it is
// written. Whitespace and key order do not change it; any other edit does.
func Canonical(doc []byte) ([]byte, error) {
	m, err := decodeObject(doc)
	if err != nil {
		return nil, err
	}
	return canonical(m)
}

// canonical is a decoded document's canonical content (the digest field dropped from m).
func canonical(m map[string]any) ([]byte, error) {
	delete(m, "digest")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// decodeObject decodes a JSON object keeping each number as written (json.Number); trailing data is an error.
func decodeObject(doc []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("not JSON: data after the document")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("a result is a JSON object")
	}
	return m, nil
}

// digestOf is the digest of a document's canonical content.
func digestOf(doc []byte) (string, error) {
	m, err := decodeObject(doc)
	if err != nil {
		return "", err
	}
	return digestOfObject(m)
}

func digestOfObject(m map[string]any) (string, error) {
	c, err := canonical(m)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return DigestPrefix + hex.EncodeToString(sum[:]), nil
}

// Verify checks a result document's digest against its content: has says it carries one (a document written
// before results carried digests has none, and is not an error); a digest that does not match is ErrChanged.
func Verify(doc []byte) (has bool, err error) {
	m, err := decodeObject(doc)
	if err != nil {
		return false, err
	}
	d, present := m["digest"]
	if !present {
		return false, nil
	}
	s, _ := d.(string)
	if !strings.HasPrefix(s, DigestPrefix) {
		return true, ErrChanged
	}
	want, err := digestOfObject(m)
	if err != nil {
		return true, err
	}
	if s != want {
		return true, ErrChanged
	}
	return true, nil
}
