package web

import (
	"net/url"
	"strings"
)

// maxReturnPath is the longest return address kept; a longer one is
// replaced by the page's default.
const maxReturnPath = 2048

// returnPath is the one rule for every address a request says to go back
// to (sign-in's next, the claim page's back): target when it is a path of
// this site, else fallback. A path of this site begins with one "/" and
// holds only printable ASCII other than a backslash: browsers drop tabs
// and line breaks from an address and read a backslash as a slash, so
// that "/\t/evil.example" or "/\evil.example" would lead to another host.
// Sign-in itself is no return address: it would come back to itself.
func returnPath(target, fallback string) string {
	if target == "" || len(target) > maxReturnPath || target[0] != '/' || strings.HasPrefix(target, "//") {
		return fallback
	}
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return fallback
		}
	}
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || u.Path == "/signin" || strings.HasPrefix(u.Path, "/signin/") {
		return fallback
	}
	return target
}
