package engine

import (
	"net/url"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// mask is what a credential is printed as.
const mask = "xxxxx"

// secretParams are URL parameters that carry credentials: their values are never printed.
var secretParams = map[string]bool{"password": true, "sslpassword": true, "passwd": true, "pwd": true, "token": true,
	"access_token": true, "secret": true, "client_secret": true}

// secretKey says whether a key=value key names a credential: a credential parameter, or a name ending as one
// (PGPASSWORD, MYSQL_PWD, --password, --agent-token, client_secret), any case.
func secretKey(k string) bool {
	k = strings.ToLower(strings.TrimLeft(k, "-"))
	if secretParams[k] {
		return true
	}
	for _, end := range []string{"password", "passwd", "_pwd", "-pwd", "secret", "token"} {
		if strings.HasSuffix(k, end) {
			return true
		}
	}
	return false
}

func redactParams(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		if secretParams[strings.ToLower(k)] {
			v = []string{mask}
		}
		out[k] = v
	}
	return out
}

// Scrub masks the target's password and every credential parameter's value in a message (in case a driver
// echoes them), and any other credential RedactText finds; each where it stands, not inside other words.
func (t *Target) Scrub(s string) string {
	if t == nil {
		return RedactText(s)
	}
	secrets := []string{t.password}
	for k, vs := range t.Params {
		if secretParams[strings.ToLower(k)] {
			secrets = append(secrets, vs...)
		}
	}
	return RedactText(s, secrets...)
}

// RedactText masks the credentials in free text (a message, a command line, a command's output) where they
// stand, and nothing else:
//   - each of secrets, raw or URL-escaped, as a whole token: its ends not joined to a letter, digit or _ of
//     the text around it (a password "bench" is masked in "u:bench@h" and `"bench"`, not in "pgbench");
//     secrets shorter than 3 characters are not looked for (they could not be told from other text);
//   - a URL's password (SCHEME://USER:PASSWORD@HOST, the user info up to the URL's last @);
//   - the value of a credential parameter, KEY=VALUE in a URL's query, a DSN or a command line
//     (password=, sslpassword=, PGPASSWORD=, MYSQL_PWD=, --password=, ...; a quoted value up to its quote).
func RedactText(s string, secrets ...string) string {
	seen := map[string]bool{}
	for _, p := range secrets {
		if len(p) < 3 {
			continue
		}
		for _, f := range escapedForms(p) {
			if !seen[f] {
				seen[f] = true
				s = maskToken(s, f)
			}
		}
	}
	return maskParams(maskURLPasswords(s))
}

// escapedForms are a password's raw text and the forms a URL gives it (query, path, user info), each with its
// hex digits in either case.
func escapedForms(p string) []string {
	u := url.UserPassword("", p).String() // ":" + the escaped password
	forms := []string{p, url.QueryEscape(p), url.PathEscape(p), strings.TrimPrefix(u, ":")}
	for _, f := range forms[1:] {
		forms = append(forms, lowerHex(f))
	}
	return forms
}

// lowerHex writes a URL-escaped text's %XX escapes in lower case.
func lowerHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lower(b[i+1]), lower(b[i+2])
		}
	}
	return string(b)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// maskToken replaces each occurrence of p in s that stands as a token of its own: where p begins (ends) with a
// letter, digit or _, the text before (after) it does not.
func maskToken(s, p string) string {
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	var b strings.Builder
	from := 0
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], p)
		if j < 0 {
			break
		}
		j += i
		end := j + len(p)
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (j == 0 || !isWord(first) || !isWord(before)) && (end == len(s) || !isWord(last) || !isWord(after)) {
			b.WriteString(s[from:j])
			b.WriteString(mask)
			from, i = end, end
			continue
		}
		_, size := utf8.DecodeRuneInString(s[j:])
		i = j + size
	}
	if from == 0 {
		return s
	}
	b.WriteString(s[from:])
	return b.String()
}

// maskURLPasswords masks the password of every URL in s: after SCHEME://USER: up to the last @ of the URL (the
// text up to the next white space or the next ://), as a malformed URL's password may hold @ / # ? too.
func maskURLPasswords(s string) string {
	for i := 0; ; {
		k := strings.Index(s[i:], "://")
		if k < 0 {
			return s
		}
		k += i
		start := k + 3
		i = start
		end := len(s)
		if w := strings.IndexFunc(s[start:], unicode.IsSpace); w >= 0 {
			end = start + w
		}
		if n := strings.Index(s[start:end], "://"); n >= 0 {
			end = start + n
		}
		at := strings.LastIndex(s[start:end], "@")
		if at < 0 {
			continue
		}
		colon := strings.Index(s[start:start+at], ":")
		if colon < 0 {
			continue
		}
		from, to := start+colon+1, start+at
		if pw := s[from:to]; pw != "" && pw != mask {
			s = s[:from] + mask + s[to:]
		}
		i = from + len(mask)
	}
}

// maskParams masks the values of credential parameters: KEY=VALUE where KEY (letters, digits, _ - .) names a
// credential; VALUE up to white space, & or ; (or a quote), or, quoted, up to its closing quote.
func maskParams(s string) string {
	for i := 0; ; {
		e := strings.IndexByte(s[i:], '=')
		if e < 0 {
			return s
		}
		e += i
		i = e + 1
		k := e
		for k > 0 && keyByte(s[k-1]) {
			k--
		}
		if k == e || !secretKey(s[k:e]) {
			continue
		}
		from := e + 1
		to := len(s)
		if from < len(s) && (s[from] == '"' || s[from] == '\'') {
			q := s[from]
			from++
			if c := strings.IndexByte(s[from:], q); c >= 0 {
				to = from + c
			}
		} else if c := strings.IndexFunc(s[from:], func(r rune) bool {
			return unicode.IsSpace(r) || r == '&' || r == ';' || r == '"' || r == '\''
		}); c >= 0 {
			to = from + c
		}
		if v := s[from:to]; v != "" && v != mask {
			s = s[:from] + mask + s[to:]
		}
		i = from + len(mask)
	}
}

func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// Redact returns a URL with its password and credential parameters masked; text that is not one URL (a
// command line, a message) is masked as RedactText does.
func Redact(raw string) string {
	if !strings.Contains(raw, "://") || strings.IndexFunc(raw, unicode.IsSpace) >= 0 {
		return RedactText(raw)
	}
	scheme, rest, _ := strings.Cut(raw, "://")
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		// whatever the URL's shape, the part before the last @ after the first : is the password
		if colon := strings.Index(rest[:at], ":"); colon >= 0 {
			rest = rest[:colon] + ":" + mask + rest[at:]
		}
	}
	if path, query, ok := strings.Cut(rest, "?"); ok {
		if q, err := url.ParseQuery(query); err == nil {
			rest = path + "?" + redactParams(q).Encode()
		} else {
			rest = path + "?" + mask
		}
	}
	return scheme + "://" + rest
}

// RedactArgs redacts every argument that carries a credential ("--target=URL", "URL", a --cold-cmd's text):
// besides what RedactText finds, the passwords of the URLs among the arguments and DBDYNO_PASSWORD's, wherever
// another argument names them as a whole token.
func RedactArgs(args []string) []string {
	secrets := []string{os.Getenv(PasswordEnv)}
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			a = v
		}
		if strings.Contains(a, "://") && strings.IndexFunc(a, unicode.IsSpace) < 0 {
			if t, err := Parse(a); err == nil {
				secrets = append(secrets, t.password)
				for k, vs := range t.Params {
					if secretParams[strings.ToLower(k)] {
						secrets = append(secrets, vs...)
					}
				}
			}
		}
	}
	out := make([]string, len(args))
	for i, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") && !strings.ContainsAny(k, " \t\n") {
			if secretKey(k) {
				out[i] = k + "=" + mask
			} else {
				out[i] = k + "=" + RedactText(Redact(v), secrets...)
			}
		} else {
			out[i] = RedactText(Redact(a), secrets...)
		}
	}
	return out
}
