package result

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewID is a run or group identifier: prefix, UTC time, random suffix.
func NewID(prefix string) string {
	b := make([]byte, 3)
	rand.Read(b)
	return prefix + time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b)
}
