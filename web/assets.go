package web

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/static"
	"washboard/web/httpkit"
)

// asset is an embedded file, ready to send: as it is and, when that is
// smaller, gzipped at the best ratio once at start.
type asset struct {
	contentType string
	version     string // static.Version of the file
	plain       []byte
	gzipped     []byte // nil when gzip does not make the file smaller
}

// embeddedAssets are the files of static.FS, read and gzipped once per
// process: they cannot change while it runs, and every Server (one per
// test, or per replica in one process) serves the same, read-only.
var embeddedAssets = sync.OnceValues(func() (map[string]*asset, error) { return loadAssets(static.FS) })

// loadAssets reads every file of the embedded assets.
func loadAssets(files fs.FS) (map[string]*asset, error) {
	assets := map[string]*asset{}
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		a := &asset{contentType: mime.TypeByExtension(path.Ext(name)), version: static.Version(name), plain: b}
		if a.contentType == "" {
			a.contentType = http.DetectContentType(b)
		}
		if httpkit.Compressible(a.contentType) {
			var z bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
			zw.Write(b)
			zw.Close()
			if z.Len() < len(b) {
				a.gzipped = z.Bytes()
			}
		}
		assets[name] = a
		return nil
	})
	return assets, err
}

// serveAssets serves the embedded assets under /static/. An address
// carrying the file's current version (static.URL) may be kept by the
// browser for good; any other is checked again on every use, by its ETag.
func serveAssets(assets map[string]*asset) echo.HandlerFunc {
	return func(c echo.Context) error {
		name := strings.TrimPrefix(c.Request().URL.Path, "/static/")
		a, ok := assets[name]
		if !ok {
			return errNotFound("There is no such file.")
		}
		h := c.Response().Header()
		if v := c.QueryParam("v"); v != "" && v == a.version {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		h.Set(echo.HeaderContentType, a.contentType)
		body, etag := a.plain, `"`+a.version+`"`
		if a.gzipped != nil && httpkit.AcceptsGzip(c.Request()) {
			body, etag = a.gzipped, `"`+a.version+`-gzip"`
			h.Set(echo.HeaderContentEncoding, "gzip")
		}
		h.Set("ETag", etag)
		http.ServeContent(c.Response(), c.Request(), "", time.Time{}, bytes.NewReader(body))
		return nil
	}
}

// showFavicon sends browsers that ask for /favicon.ico, where a page names
// no icon (the JSON of /healthz, a CSV opened in a tab), to the icon.
func showFavicon(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Redirect(http.StatusFound, static.URL("icons/favicon.svg"))
}
