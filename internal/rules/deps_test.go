package rules

import (
	"os/exec"
	"strings"
	"testing"
)

// The rules stay pure and free of the web layer: of Washboard's own
// packages they use only the domain, the notification kinds and formats,
// the webhook secrets, and what those use.
func TestDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"washboard/internal/rules": true, "washboard/internal/domain": true, "washboard/internal/notify": true,
		"washboard/internal/webhook": true, "washboard/internal/clock": true, "washboard/internal/version": true,
		"washboard/internal/i18n": true,
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case strings.Contains(pkg, "labstack/echo"), strings.Contains(pkg, "a-h/templ"):
			t.Errorf("rules depends on %s", pkg)
		case strings.HasPrefix(pkg, "washboard/") && !allowed[pkg]:
			t.Errorf("rules depends on %s; it may use only the domain, notify and webhook packages", pkg)
		}
	}
	if !strings.Contains(string(out), "washboard/internal/notify") {
		t.Errorf("go list -deps printed no washboard package:\n%s", out)
	}
}
