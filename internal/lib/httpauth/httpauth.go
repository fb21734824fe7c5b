// Package httpauth is what dbdyno's HTTP endpoints (the agent, --metrics-addr, --live) share about who may
// read them: whether an address is loopback, and a bearer token's check.
package httpauth

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// Loopback says whether a listen address's host (not HOST:PORT) is on loopback only.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Bearer lets a request through when it carries token as its bearer credentials (every request when token is
// ""), else answers 401 with refusal.
func Bearer(token, refusal string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				http.Error(w, refusal, http.StatusUnauthorized)
				return
			}
		}
		h(w, r)
	}
}
