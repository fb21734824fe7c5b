package report

import (
	"strings"
	"unicode"
)

// SeriesName words a series' key the way a reader reads it, with its unit: "cpu_busy_pct" is "CPU busy (%)",
// "disk.vda.avg_latency_ms" is "Disk vda average latency (ms)", "mem_used_bytes" is "Memory used (GB)". div is
// what the key's values are divided by to be in that unit (1e9 for bytes). It knows the words and unit
// suffixes series keys are made of, not any workload's series: a key it cannot read comes back as it is.
func SeriesName(key string) (name string, div float64) {
	segs := strings.Split(key, ".")
	last := segs[len(segs)-1]
	words := strings.Split(last, "_")
	unit, div := "", 1.0
	for _, u := range unitSuffixes {
		n := len(u.words)
		if len(words) > n && strings.Join(words[len(words)-n:], "_") == strings.Join(u.words, "_") {
			unit, div, words = u.unit, u.div, words[:len(words)-n]
			break
		}
	}
	var out []string
	for i, s := range segs[:len(segs)-1] {
		if i == 0 {
			out = append(out, word(s))
		} else {
			out = append(out, s) // a device or interface: its own name
		}
	}
	for _, w := range words {
		out = append(out, word(w))
	}
	name = strings.Join(strings.Fields(strings.Join(out, " ")), " ")
	if name == "" {
		return key, 1
	}
	r := []rune(name)
	r[0] = unicode.ToUpper(r[0])
	name = string(r)
	if unit != "" {
		name += " (" + unit + ")"
	}
	return name, div
}

var unitSuffixes = []struct {
	words []string
	unit  string
	div   float64
}{
	{[]string{"mb", "s"}, "MB/s", 1}, {[]string{"packets", "s"}, "packets/s", 1}, {[]string{"per", "s"}, "/s", 1},
	{[]string{"pct"}, "%", 1}, {[]string{"ms"}, "ms", 1}, {[]string{"us"}, "µs", 1}, {[]string{"s"}, "s", 1},
	{[]string{"bytes"}, "GB", 1e9}, {[]string{"mb"}, "MB", 1}, {[]string{"iops"}, "IOPS", 1},
}

// word spells out the abbreviations series keys use; a word followed by digits ("core12") is split.
func word(w string) string {
	if i := strings.IndexFunc(w, unicode.IsDigit); i > 0 && strings.TrimLeftFunc(w[i:], unicode.IsDigit) == "" {
		return word(w[:i]) + " " + w[i:]
	}
	if s, ok := spelled[w]; ok {
		return s
	}
	return w
}

var spelled = map[string]string{
	"cpu": "CPU", "avg": "average", "mem": "memory", "net": "network", "rx": "received", "tx": "sent", "io": "I/O",
	"iowait": "I/O wait", "iops": "IOPS", "mb": "MB", "gb": "GB", "kb": "KB", "db": "database", "pct": "per cent",
	"qd": "queue depth", "lat": "latency", "max": "maximum", "min": "minimum", "wal": "WAL",
}
