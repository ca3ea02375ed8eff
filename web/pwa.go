package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/static"
	"washboard/views"
)

// Washboard installs as an app on a phone's home screen (docs/my-work.md):
// the web app manifest names it, its icons and colours, and "My work" as
// where it opens; the service worker (static/js/sw.js, served at /sw.js
// so that its scope is the whole site) keeps the app shell and the last
// "My work" for when there is no signal, sends the actions kept meanwhile,
// and shows pushes.

// manifest is the web app manifest, the same for everyone.
type manifest struct {
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	ID              string         `json:"id"`
	StartURL        string         `json:"start_url"`
	Scope           string         `json:"scope"`
	Display         string         `json:"display"`
	ThemeColor      string         `json:"theme_color"`
	BackgroundColor string         `json:"background_color"`
	Icons           []manifestIcon `json:"icons"`
}

type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose,omitempty"`
}

// The app's colours: the header's navy (the status bar, the splash
// screen's icon) and the light theme's background (the splash screen).
const (
	themeColour      = "#1d2a3a"
	backgroundColour = "#f4f6f8"
)

// appShell is what the service worker keeps for a page without signal:
// the files every page of the layout loads, "My work"'s own, the icons.
var appShell = []string{"css/app.css", "js/app.js", "js/live.js", "js/mywork.js", "js/queue.js",
	"vendor/htmx.min.js", "vendor/sse.js", "icons/favicon.svg", "icons/icons.svg", "icons/app-192.png"}

// pwaFiles are the manifest and the service worker as served, made once
// at start: they change only with a release.
type pwaFiles struct {
	manifest, worker []byte
	version          string // the release's and its assets' versions, hashed
}

func newPWAFiles(release string) (*pwaFiles, error) {
	m := manifest{Name: "Washboard", ShortName: "Washboard", ID: "/my", StartURL: "/my", Scope: "/", Display: "standalone",
		ThemeColor: themeColour, BackgroundColor: backgroundColour,
		Icons: []manifestIcon{
			{Src: static.URL("icons/app-192.png"), Sizes: "192x192", Type: "image/png", Purpose: "any"},
			{Src: static.URL("icons/app-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "any"},
			{Src: static.URL("icons/app-maskable-512.png"), Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
			{Src: static.URL("icons/favicon.svg"), Sizes: "any", Type: "image/svg+xml", Purpose: "any"},
		}}
	man, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	h.Write([]byte(release))
	shell := make([]string, 0, len(appShell))
	for _, name := range slices.Sorted(slices.Values(appShell)) {
		h.Write([]byte(name + "=" + static.Version(name) + ";"))
		shell = append(shell, static.URL(name))
	}
	version := hex.EncodeToString(h.Sum(nil)[:8])
	src, err := static.FS.ReadFile("js/sw.js")
	if err != nil {
		return nil, err
	}
	worker := strings.NewReplacer(`{{VERSION}}`, version, `{{SHELL}}`, strings.Join(shell, `", "`),
		`{{QUEUE}}`, static.URL("js/queue.js")).Replace(string(src))
	return &pwaFiles{manifest: man, worker: []byte(worker), version: version}, nil
}

// serveFile sends a file made at start, checked again on every use by
// its ETag.
func serveFile(c echo.Context, contentType, etag string, body []byte) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", `"`+etag+`"`)
	http.ServeContent(c.Response(), c.Request(), "", time.Time{}, bytes.NewReader(body))
	return nil
}

// showManifest sends the web app manifest.
func (s *Server) showManifest(c echo.Context) error {
	return serveFile(c, "application/manifest+json", s.pwa.version, s.pwa.manifest)
}

// showServiceWorker sends the service worker. Browsers look for a new one
// on every visit (no-cache); a new release's names new shell files and a
// new cache.
func (s *Server) showServiceWorker(c echo.Context) error {
	return serveFile(c, "text/javascript; charset=utf-8", s.pwa.version, s.pwa.worker)
}

// showOffline is the page the service worker shows for a page it cannot
// fetch and has not kept.
func (s *Server) showOffline(c echo.Context) error {
	p := s.page(c, tr(c, "pwa.offline_title"), "")
	p.SignedIn, p.Still, p.Live = false, true, false
	return render(c, http.StatusOK, views.OfflinePage(views.Offline{Page: p}))
}
