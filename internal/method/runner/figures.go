package runner

// Round rounds v to digits decimal places (half up), as the workloads' figures are recorded.
func Round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	return float64(int64(v*p+0.5)) / p
}
