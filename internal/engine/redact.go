package engine

import (
	"net/url"
	"strings"
)

// secretParams are URL parameters that carry credentials: their values are never printed.
var secretParams = map[string]bool{"password": true, "sslpassword": true, "passwd": true, "pwd": true, "token": true,
	"access_token": true, "secret": true, "client_secret": true}

func redactParams(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		if secretParams[strings.ToLower(k)] {
			v = []string{"xxxxx"}
		}
		out[k] = v
	}
	return out
}

// Scrub removes the password and every credential parameter's value from a message, in case a driver echoes
// them.
func (t *Target) Scrub(s string) string {
	if t == nil {
		return s
	}
	if len(t.password) >= 3 {
		s = strings.ReplaceAll(s, t.password, "xxxxx")
	}
	for k, vs := range t.Params {
		if secretParams[strings.ToLower(k)] {
			for _, v := range vs {
				if len(v) >= 3 {
					s = strings.ReplaceAll(s, v, "xxxxx")
				}
			}
		}
	}
	return s
}

// Redact returns raw with any URL password replaced; other text is returned unchanged.
func Redact(raw string) string {
	if !strings.Contains(raw, "://") {
		return raw
	}
	scheme, rest, _ := strings.Cut(raw, "://")
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		// whatever the URL's shape, the part before the last @ after the first : is the password
		if colon := strings.Index(rest[:at], ":"); colon >= 0 {
			rest = rest[:colon] + ":xxxxx" + rest[at:]
		}
	}
	if path, query, ok := strings.Cut(rest, "?"); ok {
		if q, err := url.ParseQuery(query); err == nil {
			rest = path + "?" + redactParams(q).Encode()
		} else {
			rest = path + "?xxxxx"
		}
	}
	return scheme + "://" + rest
}

// RedactArgs redacts every argument that carries a URL password (either "--target=URL" or "URL").
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			out[i] = k + "=" + Redact(v)
		} else {
			out[i] = Redact(a)
		}
	}
	return out
}
