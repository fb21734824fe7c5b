package report

import (
	"fmt"
	"io"
	"time"
)

// Page writes a self-contained page in the report's look around body: for what is not a run (a monitor
// recording's section).
func Page(w io.Writer, title, body string) error {
	_, err := fmt.Fprintf(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><meta name=\"generator\" content=\"dbdyno report\"><title>%s</title><style>%s</style></head><body>\n<h1>%s</h1>\n<p class=\"note\">written %s</p>\n%s</body></html>\n",
		esc(title), style, esc(title), time.Now().UTC().Format("2006-01-02 15:04 UTC"), body)
	return err
}
