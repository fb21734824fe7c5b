// Package sizing picks storage for a measured load: the cheapest VM size plus N identical striped disks (or a
// mix of any of its sizes, placed: see Size) whose advertised caps (per-disk IOPS and MB/s, the VM's uncached IOPS and
// MB/s, its data-disk slots) meet every requirement of a checklist, from a catalogue of offerings the user edits (YAML). It is the third step of the
// premium-storage planning workflow: measure (dbdyno monitor), fill the checklist, size, then prototype.
package sizing

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Money is an amount in ten-thousandths of a dollar: catalogue prices are read exactly from their decimal text
// (a P30 at $136.085 a month, four of them $544.34), never through a float.
type Money int64

// String is the amount to the cent, with thousands separators: $1,548.00.
func (m Money) String() string {
	neg := m < 0
	if neg {
		m = -m
	}
	cents := (int64(m) + 50) / 100
	s := fmt.Sprintf("%s.%02d", group(cents/100), cents%100)
	if neg {
		return "-$" + s
	}
	return "$" + s
}

// Cents is the amount rounded to the cent.
func (m Money) Cents() int64 { return (int64(m) + 50) / 100 }

func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// ParseMoney reads a price such as 1003.66, 136.085 or "$1,570.58" (at most four decimals).
func ParseMoney(s string) (Money, error) {
	t := strings.ReplaceAll(strings.TrimPrefix(strings.TrimSpace(s), "$"), ",", "")
	whole, frac, _ := strings.Cut(t, ".")
	if whole == "" && frac == "" || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") {
		return 0, fmt.Errorf("%q is not a price (dollars a month, e.g. 136.085)", s)
	}
	if len(frac) > 4 {
		return 0, fmt.Errorf("%q has more than four decimals", s)
	}
	w := int64(0)
	if whole != "" {
		var err error
		if w, err = strconv.ParseInt(whole, 10, 64); err != nil {
			return 0, fmt.Errorf("%q is not a price (dollars a month, e.g. 136.085)", s)
		}
	}
	f := int64(0)
	if frac != "" {
		var err error
		if f, err = strconv.ParseInt(frac+strings.Repeat("0", 4-len(frac)), 10, 64); err != nil || f < 0 {
			return 0, fmt.Errorf("%q is not a price (dollars a month, e.g. 136.085)", s)
		}
	}
	return Money(w*10000 + f), nil
}

// Disk is one disk offering: a striped set of N of them has N times its caps.
type Disk struct {
	Name    string
	Tier    string  // premium, standard ...: which VMs may attach it (VM.Tiers)
	SizeGiB float64 // capacity
	IOPS    float64 // the disk's IOPS cap
	MBps    float64 // its throughput cap (MiB/s); 0: not stated, not a limit
	Price   Money   // a month
	Priced  bool    // false: the catalogue has no price for it (listed, never the cheapest)
	Line    int
}

// VM is one VM size: its caps apply to all its disks together, independently of theirs (the lower binds).
type VM struct {
	Name      string
	Cores     int
	MemoryGiB float64
	IOPS      float64 // uncached IOPS cap; 0: not stated, not a limit
	MBps      float64 // uncached MB/s cap; 0: not stated, not a limit
	MaxDisks  int     // data disk slots
	Tiers     []string
	Caching   string  // host caching it offers ("ReadOnly, ReadWrite" or "")
	CacheIOPS float64 // the host cache's own limits (reads it serves do not count against disk caps)
	CacheMBps float64
	Price     Money
	Priced    bool
	Line      int
}

// Catalog is a catalogue of disks and VM sizes.
type Catalog struct {
	File  string
	Disks []Disk
	VMs   []VM
}

// Load reads and validates a catalogue file.
func Load(path string) (*Catalog, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	return Parse(path, b)
}

// posError is a validation failure at a line of the file, for one field.
func posErr(file string, n *yaml.Node, field, format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s: %s", file, n.Line, field, fmt.Sprintf(format, a...))
}

var (
	diskKeys = []string{"name", "tier", "size_gib", "iops", "mbps", "price_month"}
	vmKeys   = []string{"name", "cores", "memory_gib", "uncached_iops", "uncached_mbps", "max_data_disks", "disk_tiers",
		"caching", "cache_iops", "cache_mbps", "price_month"}
)

// Parse validates a catalogue strictly: an unknown key, a negative or missing cap, a VM without data disk
// slots or a duplicate name is one error naming the file, the line and the field.
func Parse(file string, b []byte) (*Catalog, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty catalogue: it needs a disks section and a vms section", file)
		}
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, posErr(file, root, "catalogue", "a mapping with disks: and vms: is expected")
	}
	c := &Catalog{File: file}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "disks", "vms":
			if seen[k.Value] {
				return nil, posErr(file, k, k.Value, "given twice")
			}
			seen[k.Value] = true
			if v.Kind != yaml.SequenceNode {
				return nil, posErr(file, v, k.Value, "a list is expected")
			}
			for j, item := range v.Content {
				field := fmt.Sprintf("%s[%d]", k.Value, j)
				if item.Kind != yaml.MappingNode {
					return nil, posErr(file, item, field, "a mapping is expected")
				}
				var err error
				if k.Value == "disks" {
					err = c.addDisk(file, field, item)
				} else {
					err = c.addVM(file, field, item)
				}
				if err != nil {
					return nil, err
				}
			}
		default:
			return nil, posErr(file, k, k.Value, "unknown key (known: disks, vms)")
		}
	}
	if len(c.Disks) == 0 {
		return nil, fmt.Errorf("%s: no disks: the catalogue needs at least one", file)
	}
	if len(c.VMs) == 0 {
		return nil, fmt.Errorf("%s: no vms: the catalogue needs at least one", file)
	}
	return c, nil
}

// fields reads a mapping's keys, refusing unknown and repeated ones.
type fields struct {
	file, field string
	keys        map[string]*yaml.Node
	keyNode     map[string]*yaml.Node
	at          *yaml.Node
}

func readFields(file, field string, m *yaml.Node, known []string) (*fields, error) {
	f := &fields{file: file, field: field, keys: map[string]*yaml.Node{}, keyNode: map[string]*yaml.Node{}, at: m}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "name" && m.Content[i+1].Kind == yaml.ScalarNode && m.Content[i+1].Value != "" {
			// entries are named by their name in messages: disks[P30].iops
			field = field[:strings.Index(field, "[")] + "[" + m.Content[i+1].Value + "]"
			f.field = field
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		name := field + "." + k.Value
		if !contains(known, k.Value) {
			return nil, posErr(file, k, name, "unknown key (known: %s)", strings.Join(known, ", "))
		}
		if f.keys[k.Value] != nil {
			return nil, posErr(file, k, name, "given twice")
		}
		f.keys[k.Value], f.keyNode[k.Value] = v, k
	}
	return f, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (f *fields) str(key string, required bool) (string, error) {
	v := f.keys[key]
	if v == nil {
		if required {
			return "", posErr(f.file, f.at, f.field+"."+key, "missing")
		}
		return "", nil
	}
	if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
		return "", posErr(f.file, v, f.field+"."+key, "a non-empty string is expected")
	}
	return v.Value, nil
}

// num reads a non-negative number; positive says 0 is refused too.
func (f *fields) num(key string, required, positive bool) (float64, bool, error) {
	v := f.keys[key]
	name := f.field + "." + key
	if v == nil {
		if required {
			return 0, false, posErr(f.file, f.at, name, "missing")
		}
		return 0, false, nil
	}
	x, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
	if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false, posErr(f.file, v, name, "%q is not a number", v.Value)
	}
	if x < 0 {
		return 0, false, posErr(f.file, v, name, "%s is negative", v.Value)
	}
	if positive && x == 0 {
		return 0, false, posErr(f.file, v, name, "must be more than 0")
	}
	return x, true, nil
}

func (f *fields) price() (Money, bool, error) {
	v := f.keys["price_month"]
	if v == nil {
		return 0, false, nil
	}
	if strings.HasPrefix(strings.TrimSpace(v.Value), "-") {
		return 0, false, posErr(f.file, v, f.field+".price_month", "%s is negative", v.Value)
	}
	m, err := ParseMoney(v.Value)
	if err != nil {
		return 0, false, posErr(f.file, v, f.field+".price_month", "%v", err)
	}
	return m, true, nil
}

func (c *Catalog) addDisk(file, field string, m *yaml.Node) error {
	f, err := readFields(file, field, m, diskKeys)
	if err != nil {
		return err
	}
	d := Disk{Line: m.Line}
	if d.Name, err = f.str("name", true); err != nil {
		return err
	}
	f.field = fmt.Sprintf("disks[%s]", d.Name)
	for _, x := range c.Disks {
		if x.Name == d.Name {
			return posErr(file, f.keys["name"], f.field+".name", "a disk of that name is already on line %d", x.Line)
		}
	}
	if d.Tier, err = f.str("tier", false); err != nil {
		return err
	}
	if d.SizeGiB, _, err = f.num("size_gib", true, true); err != nil {
		return err
	}
	if d.IOPS, _, err = f.num("iops", true, true); err != nil {
		return err
	}
	if d.MBps, _, err = f.num("mbps", false, true); err != nil {
		return err
	}
	if d.Price, d.Priced, err = f.price(); err != nil {
		return err
	}
	c.Disks = append(c.Disks, d)
	return nil
}

func (c *Catalog) addVM(file, field string, m *yaml.Node) error {
	f, err := readFields(file, field, m, vmKeys)
	if err != nil {
		return err
	}
	v := VM{Line: m.Line}
	if v.Name, err = f.str("name", true); err != nil {
		return err
	}
	f.field = fmt.Sprintf("vms[%s]", v.Name)
	for _, x := range c.VMs {
		if x.Name == v.Name {
			return posErr(file, f.keys["name"], f.field+".name", "a VM of that name is already on line %d", x.Line)
		}
	}
	cores, _, err := f.num("cores", false, true)
	if err != nil {
		return err
	}
	v.Cores = int(cores)
	if v.MemoryGiB, _, err = f.num("memory_gib", false, true); err != nil {
		return err
	}
	if v.IOPS, _, err = f.num("uncached_iops", false, true); err != nil {
		return err
	}
	if v.MBps, _, err = f.num("uncached_mbps", false, true); err != nil {
		return err
	}
	slots, given, err := f.num("max_data_disks", false, false)
	if err != nil {
		return err
	}
	if !given {
		return posErr(file, m, f.field+".max_data_disks", "missing: a VM needs its number of data disk slots")
	}
	if slots < 1 || slots != math.Trunc(slots) {
		return posErr(file, f.keys["max_data_disks"], f.field+".max_data_disks", "%s: a VM with no data disk slots cannot hold a striped set (a whole number of at least 1)", f.keys["max_data_disks"].Value)
	}
	v.MaxDisks = int(slots)
	if t := f.keys["disk_tiers"]; t != nil {
		if t.Kind != yaml.SequenceNode || len(t.Content) == 0 {
			return posErr(file, t, f.field+".disk_tiers", "a list of disk tiers is expected, e.g. [premium, standard]")
		}
		for _, x := range t.Content {
			v.Tiers = append(v.Tiers, x.Value)
		}
	}
	if v.Caching, err = f.str("caching", false); err != nil {
		return err
	}
	if v.CacheIOPS, _, err = f.num("cache_iops", false, true); err != nil {
		return err
	}
	if v.CacheMBps, _, err = f.num("cache_mbps", false, true); err != nil {
		return err
	}
	if v.Price, v.Priced, err = f.price(); err != nil {
		return err
	}
	c.VMs = append(c.VMs, v)
	return nil
}

// Attaches says whether the VM takes the disk: its tier is among the VM's (a VM or disk naming no tier takes
// or fits any).
func (v VM) Attaches(d Disk) bool {
	if len(v.Tiers) == 0 || d.Tier == "" {
		return true
	}
	return contains(v.Tiers, d.Tier)
}

// Disk finds a disk by name.
func (c *Catalog) Disk(name string) (Disk, bool) {
	for _, d := range c.Disks {
		if strings.EqualFold(d.Name, name) {
			return d, true
		}
	}
	return Disk{}, false
}

// sortedNames lists names for a message.
func sortedNames(c *Catalog) string {
	var n []string
	for _, d := range c.Disks {
		n = append(n, d.Name)
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}
