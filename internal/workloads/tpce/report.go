package tpce

import "github.com/dbdyno/dbdyno/internal/output/report"

// A run's part of a report is its measurement: throughput over time and the transactions' latencies.
func init() { report.RegisterSection("tpce", report.MeasurementSection) }
