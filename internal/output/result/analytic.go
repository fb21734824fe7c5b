package result

import "math"

// Geomean is the geometric mean (each time at least 1 ns), as a TPC-H-derived test's geomean_s holds it.
func Geomean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range v {
		s += math.Log(math.Max(x, 1e-9))
	}
	return math.Exp(s / float64(len(v)))
}

// QueryTimes are the streams' query times, stream by stream in order.
func QueryTimes(streams []QueryStream) []float64 {
	var out []float64
	for _, s := range streams {
		for _, q := range s.Queries {
			out = append(out, q.Seconds)
		}
	}
	return out
}

// ThroughputAtSize is the throughput test's metric (clause 5.4.2): streams x queries per stream x 3600 over
// the test's elapsed seconds (Ts), times the scale factor. A single run and a merge of its shards both
// compute it here.
func ThroughputAtSize(streams, queries int, seconds, sf float64) float64 {
	return float64(streams) * float64(queries) * 3600 / seconds * sf
}
