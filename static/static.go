// Package static holds Washboard's browser assets: the stylesheet, the
// script, the icon sprite and the vendored htmx (refreshed from package.json
// with `npm run vendor`). The web layer serves FS under /static/.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"sync"
)

// FS holds css/, js/, vendor/ and icons/, under those names.
//
//go:embed css js vendor icons
var FS embed.FS

// Version is a short hash of the content of the asset at path in FS, ""
// when there is none. It changes whenever the asset does.
func Version(path string) string { return versions()[path] }

// URL is the address of the asset at path in FS, with its version: a
// browser may keep what it fetched from such an address for good, and a
// new release's pages name new addresses.
func URL(path string) string {
	if v := Version(path); v != "" {
		return "/static/" + path + "?v=" + v
	}
	return "/static/" + path
}

var versions = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := FS.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		m[path] = hex.EncodeToString(sum[:6])
		return nil
	})
	return m
})
