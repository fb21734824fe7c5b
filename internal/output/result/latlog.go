package result

import "regexp"

// LatencyLogLine matches one line of a run's latency log (--log-latency): client, its transaction number,
// latency in µs, name, outcome, start (epoch s and µs). dbdyno recognises its own files by it before it
// writes over one.
var LatencyLogLine = regexp.MustCompile(`^\d+ \d+ \d+ \S+ (ok|rollback|error) \d+ \d+$`)
