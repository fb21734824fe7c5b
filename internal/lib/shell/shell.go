// Package shell quotes the command lines dbdyno suggests, so that each pastes into a POSIX shell as it is meant:
// a name holding a quote, a semicolon or a space stays one word.
package shell

import "strings"

// Quote quotes a word of a command line for a POSIX shell when it needs it.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=@:+,%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Line is a command line, each word quoted where it needs it.
func Line(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}
