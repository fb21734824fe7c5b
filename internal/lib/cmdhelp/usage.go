// Package cmdhelp is how dbdyno's commands present themselves: a workload command's help in groups, wrapped at the
// terminal's width, and the defaults the help shows with their secrets masked.
package cmdhelp

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// StudyGroup is the annotation marking the flags of a workload's command that are the method's (repeats,
// sweeps, results, the host's samples, cold starts, knee searches, stepped loads), not the workload's own.
const StudyGroup = "dbdyno_study"

// Grouped prints a workload command's help with its own options first, in the order its options struct
// declares them (--target among them), then the study's, each group wrapped at the terminal's width, then the
// command's examples: the flags a user needs are not lost among thirty a study needs.
func Grouped(c *cobra.Command) error {
	w := c.OutOrStderr()
	fmt.Fprintf(w, "Usage:\n  %s\n", c.UseLine())
	own, study := pflag.NewFlagSet("own", pflag.ContinueOnError), pflag.NewFlagSet("study", pflag.ContinueOnError)
	own.SortFlags, study.SortFlags = false, false
	var rest []*pflag.Flag
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		switch _, ok := f.Annotations[StudyGroup]; {
		case ok:
			study.AddFlag(f)
		case f.Name == "target":
			own.AddFlag(f) // what it runs on first
		default:
			rest = append(rest, f)
		}
	})
	for _, f := range rest {
		own.AddFlag(f)
	}
	cols := width()
	fmt.Fprintf(w, "\nOptions:\n%s", own.FlagUsagesWrapped(cols))
	if study.HasFlags() {
		fmt.Fprintf(w, "\nStudy options (repeats, sweeps, results, labels, the host's samples, cold starts, knee searches, steps, shards):\n%s", study.FlagUsagesWrapped(cols))
	}
	if c.HasAvailableInheritedFlags() {
		fmt.Fprintf(w, "\nGlobal options:\n%s", c.InheritedFlags().FlagUsagesWrapped(cols))
	}
	if c.Example != "" {
		fmt.Fprintf(w, "\nExamples:\n%s\n", c.Example)
	}
	return nil
}

// width is the terminal's width as $COLUMNS says (100 when it does not), at least 60.
func width() int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return max(n, 60)
	}
	return 100
}

// RedactDefaults masks, with mask, the secrets in the defaults every command under c shows in its help (a
// --store default from $DBDYNO_STORE holds a shared store's URL, password and all); the flags' values keep
// them.
func RedactDefaults(c *cobra.Command, mask func(string) string) {
	m := func(f *pflag.Flag) { f.DefValue = mask(f.DefValue) }
	c.Flags().VisitAll(m)
	c.PersistentFlags().VisitAll(m)
	for _, sub := range c.Commands() {
		RedactDefaults(sub, mask)
	}
}
