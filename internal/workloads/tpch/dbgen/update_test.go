package dbgen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// SHA-256 and line counts of the files the TPC-H 3.0.1 kit's dbgen writes for update sets (`dbgen -s SF -U 3`,
// and `dbgen -s 0.01 -U 1001 -S 999` for sets whose keys use the next sequence), built with gcc from the kit
// (DATABASE=ORACLE MACHINE=LINUX WORKLOAD=TPCH) and run on this project's development machine.
var updateReference = []struct {
	sf    float64
	set   int
	file  string
	lines int
	sha   string
}{
	{0.01, 1, "orders.tbl.u1", 10, "eb9134d683b291367d5fb16fb8abb8a363ed77366a6813658aeab9a8920219dd"},
	{0.01, 2, "orders.tbl.u2", 10, "7096dacb79e9f582308b4fab750e45989be392b4f4231aa2a41f998f30334027"},
	{0.01, 3, "orders.tbl.u3", 10, "ec351d44fbb9be42744e10b3ae71a891e0032ee0f746d26a69586ed5f9cae5dd"},
	{0.01, 1, "lineitem.tbl.u1", 37, "b05bdc0089ae2c14d1923f5f491a3f8017686bc7842053d39799c45026e19acf"},
	{0.01, 2, "lineitem.tbl.u2", 44, "f4f380631028d2b529e69c5f19597f15dfab136c295098f54fa1518a517f1bb0"},
	{0.01, 3, "lineitem.tbl.u3", 37, "b1f2881fb7353e20113e7279b9875cd551b98db4dc4fb7118a17866099754066"},
	{0.01, 1, "delete.1", 10, "4ce4ed89cd87c533647c12b92147da06e7d264184b7d57b1b7488794eb7bb9f3"},
	{0.01, 2, "delete.2", 10, "fc3a9c71ed3b6719cc168e6acafcaf92aaa1625065d6c3a55d4f4f179aeb08dd"},
	{0.01, 3, "delete.3", 10, "32dbbb4f8730d7cb64f41af2b4588c0fa3fc371157caa7e5efcf3fc4399f1837"},
	{0.01, 999, "orders.tbl.u999", 10, "acb968d555a1f7806c0db410a31529d4c895ed46b08260b3d728ccd8ee7425b4"},
	{0.01, 1000, "orders.tbl.u1000", 10, "f7d7c793a71bf9fdddded4f3b516a3685fd1938b941b72e5d2d59014afdae6e8"},
	{0.01, 1001, "orders.tbl.u1001", 10, "e40412915e4e30e9c99456221b143b92f73c83406ed8d83e9b1ca8cacb4c8a78"},
	{0.01, 999, "lineitem.tbl.u999", 43, "b9db89fd5d5c3016d2b7b3edd72e5745ed908b92b0ddba20283e0babd7e81db9"},
	{0.01, 1000, "lineitem.tbl.u1000", 28, "ff1053f229e926062357ae33896209b443bab45f853774adfd8617805c3a9be5"},
	{0.01, 1001, "lineitem.tbl.u1001", 39, "9f142aeed70f56fc89d60567ceb7dddc35a26cf4cae14e3709456a75f93507ce"},
	{0.01, 999, "delete.999", 10, "2a912cde5c0030756d7376c7e4b5aa4008af8b3807f193bcc2013231e0da9195"},
	{0.01, 1000, "delete.1000", 10, "b6292388f8b11c7b557d2d76638baa326e1a4a3f007c0169ae61f14a3b2df366"},
	{0.01, 1001, "delete.1001", 10, "9c6e8286d89636962f0787f1cf04636cdc3ac9d06c60c0c3a98c57563bad1cd6"},
	{0.1, 1, "orders.tbl.u1", 150, "d3b2058d4272061397f7703d124c8d655828af28a1f5a7794059b784951667e4"},
	{0.1, 2, "orders.tbl.u2", 150, "a3d7f5052a691645365d8e619c34d80ba038e281ba95b6ec8f0bbb74f0fb1505"},
	{0.1, 3, "orders.tbl.u3", 150, "bd643fe6a88d14f804bb7582de3f438761c5b6bf28e293bf8a23083ce60aae4a"},
	{0.1, 1, "lineitem.tbl.u1", 592, "e614315aa7582368b43ae671fdcf9dbd260f3c290a47c5699be6f92f7906c564"},
	{0.1, 2, "lineitem.tbl.u2", 618, "3552229150e47cf7269408c860013cea959ac8fb2a30cbf30e2c14557bff5cfd"},
	{0.1, 3, "lineitem.tbl.u3", 630, "827c8cf6e1c6dda8e27ecf95f9a8f64fbb421105f54f36d132fe9f16cfb811f6"},
	{0.1, 1, "delete.1", 150, "95c553661f5a725fc43188c05770f1789da9ee7a48b070b1de81f1f322a906ba"},
	{0.1, 2, "delete.2", 150, "0cd81f4bf811d5bc739a9b04a4045feda7f5fff790e3b63f1417d566930a6e4d"},
	{0.1, 3, "delete.3", 150, "e660f0771cf15fdd0204adfcadf1343bf5704c485f1d7b0cf3f2c9cf439b5f22"},
	{1, 1, "orders.tbl.u1", 1500, "9959cc8fc853d82cc8a424828af2ea4c3a9e9b36f3ec4b0fece52f130a26a8aa"},
	{1, 1, "lineitem.tbl.u1", 5822, "bd924b1d723f906ca63f8b76e8dd19deb7c55374cbb0cc47785c73bb90cdea1f"},
	{1, 1, "delete.1", 1500, "801d3d83fd0735a07ac9c60c247d93f2233bdd17d1e5ff7a7e9c81629c6cb8b9"},
}

func TestUpdateSetsIdenticalToDbgen(t *testing.T) {
	for _, r := range updateReference {
		var data []byte
		switch r.file[0] {
		case 'd':
			var b bytes.Buffer
			if err := WriteDeleteSet(&b, r.sf, r.set); err != nil {
				t.Fatal(err)
			}
			data = b.Bytes()
		default:
			tb := Orders
			if r.file[0] == 'l' {
				tb = LineItem
			}
			var w TBL
			if err := GenerateUpdate(tb, r.sf, r.set, &w); err != nil {
				t.Fatal(err)
			}
			data = w.Buf
		}
		sum := sha256.Sum256(data)
		if n := bytes.Count(data, []byte("\n")); n != r.lines || hex.EncodeToString(sum[:]) != r.sha {
			t.Errorf("SF %g %s: %d lines, SHA-256 %x; dbgen wrote %d lines, %s", r.sf, r.file, n, sum[:6], r.lines, r.sha[:12])
		}
	}
}

func TestUpdateOrdersPerSet(t *testing.T) {
	for sf, want := range map[float64]int64{0.01: 10, 0.05: 70, 0.1: 150, 1: 1500, 10: 15000, 100: 150000} {
		if got := UpdateOrders(sf); got != want {
			t.Errorf("SF %g: %d orders per update set, dbgen makes %d", sf, got, want)
		}
	}
}

// keysOf lists the first column of generated rows.
func keysOf(t *testing.T, gen func(w Writer) error) map[int64]bool {
	t.Helper()
	var w TBL
	if err := gen(&w); err != nil {
		t.Fatal(err)
	}
	keys := map[int64]bool{}
	for _, line := range bytes.Split(bytes.TrimSuffix(w.Buf, []byte("\n")), []byte("\n")) {
		var k int64
		fmt.Sscanf(string(line), "%d|", &k)
		keys[k] = true
	}
	return keys
}

// The restore range holds every key the sets insert or delete, and every loaded key in it is one that
// RestoreSets generates again: nothing else is deleted.
func TestRestoreCoversExactlyTheSets(t *testing.T) {
	const sf = 0.01
	loaded := keysOf(t, func(w Writer) error { return Generate(Orders, sf, 0, BaseRows(Orders, sf), w) })
	for _, c := range [][2]int{{1, 1}, {1, 3}, {2, 2}, {2, 5}, {7, 9}} {
		r := RestoreSets(sf, c[0], c[1])
		again := keysOf(t, func(w Writer) error { return Generate(Orders, sf, r.First-1, r.Count, w) })
		for k := range loaded {
			if in := k >= r.KeyLo && k <= r.KeyHi; in != again[k] {
				t.Errorf("sets %d..%d: loaded key %d in range %v, generated again %v", c[0], c[1], k, in, again[k])
			}
		}
		inRange := func(set int, k int64) {
			if k < r.KeyLo || k > r.KeyHi {
				t.Errorf("sets %d..%d: key %d of set %d outside the restore range [%d, %d]", c[0], c[1], k, set, r.KeyLo, r.KeyHi)
			}
		}
		for set := c[0]; set <= c[1]; set++ {
			for k := range keysOf(t, func(w Writer) error { return GenerateUpdate(Orders, sf, set, w) }) {
				inRange(set, k)
				if loaded[k] {
					t.Errorf("set %d inserts key %d, which is loaded", set, k)
				}
			}
			for _, k := range DeleteKeys(sf, set) {
				inRange(set, k)
				if !loaded[k] {
					t.Errorf("set %d deletes key %d, which is not loaded", set, k)
				}
			}
		}
	}
}
