package chromium

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeBrowsers puts executables of the given names in a directory that is
// the whole PATH.
func fakeBrowsers(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	t.Setenv("WASHBOARD_CHROMIUM", "")
	return dir
}

func TestPathPrefersTheHeadlessShell(t *testing.T) {
	dir := fakeBrowsers(t, "chromium", "chromium-headless-shell")
	if got, want := Path(), filepath.Join(dir, "chromium-headless-shell"); got != want {
		t.Errorf("Path() = %q, want %q", got, want)
	}
}

func TestPathFallsBackToChromium(t *testing.T) {
	dir := fakeBrowsers(t, "google-chrome", "chromium")
	if got, want := Path(), filepath.Join(dir, "chromium"); got != want {
		t.Errorf("Path() = %q, want %q", got, want)
	}
}

func TestPathTakesTheOneNamed(t *testing.T) {
	fakeBrowsers(t, "chromium-headless-shell")
	t.Setenv("WASHBOARD_CHROMIUM", "/opt/chrome/chrome")
	if got := Path(); got != "/opt/chrome/chrome" {
		t.Errorf("Path() = %q, want the one WASHBOARD_CHROMIUM names", got)
	}
}

func TestPathIsEmptyWithoutABrowser(t *testing.T) {
	fakeBrowsers(t)
	if got := Path(); got != "" {
		t.Errorf("Path() = %q without a browser, want \"\"", got)
	}
}
