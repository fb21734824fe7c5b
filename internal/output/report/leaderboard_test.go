package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/leaderboard"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// publishedFixture are figures of the layout fixture's workload as dbdyno results import reads them: one far above the
// fixture's runs per core (about 125 NOPM per core), one far below, with long names.
func publishedFixture(t *testing.T) []*result.Result {
	t.Helper()
	csv := "workload,metric,score,system,processor,cores,sockets,threads_per_core,source,engine\n" +
		"layouttest,NOPM,64000,A vendor's flagship four-socket system with a long product name,Intel Xeon Platinum 8490H with a long name,240,4,2,vendor's disclosure report of 2023,Some DB 2022 Enterprise Edition\n" +
		"layouttest,NOPM,800,Small box,Intel Xeon E5-2667 v3,16,2,2,a blog,\n"
	runs, err := leaderboard.Parse("fixture.csv", strings.NewReader(csv), time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), "test")
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// A report of measured runs and published figures ranks them in a leaderboard section (a table, best first,
// and a ranked bar chart); published figures are not compared metric by metric with the runs; a report without
// published figures has no leaderboard.
func TestReportLeaderboard(t *testing.T) {
	runs := fixture(6)
	without := render(t, runs)
	if strings.Contains(without, "Leaderboard") {
		t.Fatal("a report without published figures has a leaderboard")
	}
	page := render(t, append(runs, publishedFixture(t)...))
	i := strings.Index(page, `<h2 id="leaderboard-layouttest">`)
	if i < 0 || !strings.Contains(page, `<a href="#leaderboard-layouttest">Leaderboard</a>`) {
		t.Fatal("no leaderboard section, or not in the contents")
	}
	section := page[i : i+strings.Index(page[i:], "</svg>")]
	// the ranks' order: 64000/240 = 266.67 per core, the sweep's three points (1120, 1110, 1100 NOPM on 8 cores), the
	// repeated configuration by its median (1010), then 800/16 = 50
	rows := regexp.MustCompile(`<tr><td>(\d+)</td><td[^>]*>([0-9.]+)</td>`).FindAllStringSubmatch(section, -1)
	var got []string
	for _, r := range rows {
		got = append(got, r[1]+":"+r[2])
	}
	if want := "1:266.67 2:140.00 3:138.75 4:137.50 5:126.25 6:50.00"; strings.Join(got, " ") != want {
		t.Fatalf("ranks %v, want %s", got, want)
	}
	if !strings.Contains(section, `aria-label="NOPM per physical core of layouttest, best first"`) || strings.Count(section, `<rect class="bar"`) != 6 ||
		!strings.Contains(section, "published: vendor&#39;s disclosure report of 2023") || !strings.Contains(section, "240 / 4 / 2") {
		t.Fatalf("the section:\n%s", section)
	}
	// the comparison is of the measured configurations (A to D) alone, not of the published figures (E, F); each
	// point of the sweep is a point of its own, compared with no other point
	c := page[strings.Index(page, `<h2 id="comparison`):]
	c = c[:strings.Index(c[1:], "<h2")+1]
	if !strings.Contains(c, "Not compared with any other configuration (each did other work or measured another headline): A, B, C, D.") || strings.Contains(c, "<th>E") || strings.Contains(c, "<th>F") {
		t.Fatalf("the comparison:\n%s", c)
	}
}

// The seed study's leaderboard with its license cost: the 2014 figures (examples/) ranked per core, each with
// the license per core and for the box at about $6,872 a core, as the study priced 16 cores ($109,952) and 36
// ($247,392).
func TestLeaderboardWithLicenseCost(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "..", "examples", "tpce-score-per-core-2014.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := leaderboard.Parse("2014.csv", f, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), "test")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteWith(&b, Options{Title: "per core", Runs: runs, LicensePerCore: 6872}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, "<th>license per core</th><th>license for the box</th>") {
		t.Fatal("no license columns")
	}
	first := regexp.MustCompile(`<tr><td>1</td><td[^>]*>117.61</td><td>1882</td>.*?<td>6,872</td><td>109,952</td>`)
	if !first.MatchString(page) || !strings.Contains(page, "<td>6,872</td><td>247,392</td>") {
		t.Errorf("the leaderboard's license cells:\n%s", page[strings.Index(page, `<table class="leaderboard">`):][:1500])
	}
	var plain strings.Builder
	if err := Write(&plain, "per core", runs); err != nil || strings.Contains(plain.String(), "license per core") {
		t.Errorf("license columns without a price (%v)", err)
	}
}
