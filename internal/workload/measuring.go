package workload

import "time"

// Measuring are the options every measured command shares, the method's own (repeats, labels, where results
// go, system metrics): the method declares them with its prototype (the default store) and reads them as
// fields; a workload that needs one (the cpu probe's --reference looks a run up in the store) decodes them from
// its values too.
type Measuring struct {
	Repeat          int           `flag:"repeat" default:"1" help:"run each configuration this many times and report the median"`
	Labels          []string      `flag:"label" plan:"-" help:"label the results, key=value (repeatable), e.g. system=E16ds_v4, price_per_hour=1.008, db_cores=16"`
	Store           string        `flag:"store" plan:"-" help:"results store: a SQLite file or a postgres:// URL; \"\" to keep results out of it"`
	MetricsInterval time.Duration `flag:"metrics-interval" default:"1s" help:"system metrics sampling interval"`
	Result          string        `flag:"result" help:"write the result JSON to this file (FILE.2.json, FILE.3.json ... for further runs)"`
	OutputFormat    string        `flag:"output-format" default:"normal" plan:"-" help:"normal, or json (as fio's): the runs' summary as one JSON object on standard output, the progress lines on standard error"`
	StartAt         string        `flag:"start-at" plan:"-" help:"start the measured window at this instant (RFC 3339, or +30s from now), the set-up and ramp-up before it: the shards of one run (--shard) start together"`
	ClockRef        string        `flag:"clock-ref" plan:"-" help:"a dbdyno agent (http://HOST:PORT) or an NTP server (ntp://HOST) whose clock --start-at is read on: the run measures its clock's offset against it and records it (the merge corrects the shards' windows by it)"`
}

// Cold are the cold start's options, every measured command's (the method's, as Measuring): a shell command
// run before each measured repeat (restart the server, drop the OS cache), then the wait for the targets to
// answer again. A workload that places the cold start itself reads them too (Group).
type Cold struct {
	ColdCmd     string        `flag:"cold-cmd" help:"a shell command run before each measured repeat to start cold (restart the server, drop the OS caches); the run waits for the target to answer again (--cold-timeout) and records what ran, its exit status and how long the target took to come back"`
	ColdTimeout time.Duration `flag:"cold-timeout" default:"2m" help:"with --cold-cmd: how long after the command the target may take to answer a query before the run fails"`
}
