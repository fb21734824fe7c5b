package dbgen

import (
	"fmt"
	"strconv"
	"strings"
)

// QGen draws the queries' substitution parameters exactly as the TPC-H kit's qgen does when run with `-r seed`
// (clause 2.4.N.3's rules, qgen's random streams): query q draws from its own stream, seeded from the run seed,
// so a query's parameters depend only on the seed and q.
type QGen struct {
	streams [23]rowRand
	sizes   [50]int64 // Q16's sizes and Q22's country codes: permuted in place, as qgen's static arrays are
	codes   [25]int64
	sf      float64
}

var (
	distNations2 = func() *distribution {
		names := make([]string, len(nations))
		for i, n := range nations {
			names[i] = n.name
		}
		return newDist(strings.Join(names, ";"))
	}()
	distQ13a = newDist("special:20;pending:20;unusual:20;express:20")
	distQ13b = newDist("packages:40;requests:40;accounts:40;deposits:40")
)

// NewQGen seeds the streams as qgen does: the seed, and for query q the seed advanced q times.
func NewQGen(seed int64, sf float64) *QGen {
	if seed < 0 {
		seed += prngModulus
	}
	g := &QGen{sf: sf}
	s := seed
	for q := 1; q <= 22; q++ {
		s = (s * prngMultiplier) % prngModulus
		g.streams[q] = newRowRand(s, 0)
	}
	for i := range g.sizes {
		g.sizes[i] = int64(i + 1)
	}
	for i := range g.codes {
		g.codes[i] = int64(i)
	}
	return g
}

// pick is dbgen's pick_str: a value of a weighted distribution, and its index.
func pick(d *distribution, r *rowRand) (string, int) {
	j := r.intn(1, d.weights[len(d.weights)-1])
	i := 0
	for d.weights[i] < j {
		i++
	}
	return d.values[i], i
}

func permute(a []int64, r *rowRand) {
	for i := range a {
		k := r.intn(int32(i), int32(len(a)-1))
		a[i], a[k] = a[k], a[i]
	}
}

// Params returns query q's parameters as qgen's parameter log (-l) writes them, in qgen's order.
func (g *QGen) Params(q int) []string {
	r := &g.streams[q]
	in := func(lo, hi int32) int32 { return r.intn(lo, hi) }
	num := func(v int32) string { return strconv.Itoa(int(v)) }
	month := func(k int32) string { return fmt.Sprintf("19%02d-%02d-01", 93+k/12, k%12+1) }
	year := func() string { return fmt.Sprintf("19%02d-01-01", in(93, 97)) }
	str := func(d *distribution) string { s, _ := pick(d, r); return s }
	brand := func() string { a := in(1, 5); return fmt.Sprintf("Brand#%d%d", a, in(1, 5)) }
	switch q {
	case 1:
		return []string{num(in(60, 120))}
	case 2:
		size := num(in(1, 50))
		t := str(distPartTypes)
		return []string{size, t[strings.LastIndexByte(t, ' ')+1:], str(distRegions)}
	case 3:
		return []string{str(distSegments), DateString(in(0, 30) + 1155)} // a day of March 1995
	case 4:
		return []string{month(in(0, 57))}
	case 5:
		return []string{str(distRegions), year()}
	case 6:
		y := year()
		d := fmt.Sprintf("0.%02d", in(2, 9))
		return []string{y, d, num(in(24, 25))}
	case 7:
		a, i := pick(distNations2, r)
		b, j := pick(distNations2, r)
		for j == i {
			b, j = pick(distNations2, r)
		}
		return []string{a, b}
	case 8:
		n, i := pick(distNations2, r)
		return []string{n, distRegions.values[nations[i].region], str(distPartTypes)}
	case 9:
		return []string{str(distColors)}
	case 10:
		return []string{month(in(1, 24))}
	case 11:
		return []string{str(distNations2), fmt.Sprintf("%11.10f", 0.0001/g.sf)}
	case 12:
		a, i := pick(distShipModes, r)
		b, j := pick(distShipModes, r)
		for j == i {
			b, j = pick(distShipModes, r)
		}
		return []string{a, b, year()}
	case 13:
		a := str(distQ13a)
		return []string{a, str(distQ13b)}
	case 14:
		return []string{month(in(0, 59))}
	case 15:
		return []string{month(in(0, 57))}
	case 16:
		b := brand()
		t := str(distPartTypes)
		out := []string{b, t[:strings.LastIndexByte(t, ' ')]}
		permute(g.sizes[:], r)
		for _, s := range g.sizes[:8] {
			out = append(out, strconv.FormatInt(s, 10))
		}
		return out
	case 17:
		b := brand()
		return []string{b, str(distPartContainers)}
	case 18:
		return []string{num(in(312, 315))}
	case 19:
		b1, b2, b3 := brand(), brand(), brand()
		q1 := num(in(1, 10))
		q2 := num(in(10, 20))
		return []string{b1, b2, b3, q1, q2, num(in(20, 30))}
	case 20:
		c := str(distColors)
		y := year()
		return []string{c, y, str(distNations2)}
	case 21:
		return []string{str(distNations2)}
	case 22:
		permute(g.codes[:], r)
		out := make([]string, 7)
		for i := range out {
			out[i] = strconv.FormatInt(10+g.codes[i], 10)
		}
		return out
	}
	return nil
}
