// Package chromium finds the browser that the browser tests and the
// screenshot script drive.
package chromium

import (
	"os"
	"os/exec"
)

// Missing says what to do when no browser is found, in the words every
// browser test skips with.
const Missing = "Chromium: install it (apt-get install chromium-headless-shell, or chromium) or set WASHBOARD_CHROMIUM to its path"

// candidates are the names looked for on PATH, in order. Debian's
// chromium-headless-shell comes first: it is Chromium's own headless
// build, without the windows and the browser's user interface, and runs
// the same pages with about a third less CPU than chromium --headless,
// which is what the browser tests spend most.
var candidates = []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Path is the browser to drive: the one WASHBOARD_CHROMIUM names, else the
// first of candidates found on PATH, else "".
func Path() string {
	if p := os.Getenv("WASHBOARD_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
