//go:build !linux

package monitor

import "errors"

func mountTracefs(string) error { return errors.New("tracefs is Linux's") }
