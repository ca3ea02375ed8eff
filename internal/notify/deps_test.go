package notify

import (
	"os/exec"
	"strings"
	"testing"
)

// The channels stay free of the web layer: no echo, no templ, nothing
// under web/ or views/. Of Washboard's own packages they use only the
// domain, the webhook signatures, the clock and the version.
func TestDependencies(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"washboard/internal/notify": true, "washboard/internal/domain": true, "washboard/internal/webhook": true,
		"washboard/internal/clock": true, "washboard/internal/version": true, "washboard/internal/i18n": true,
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case strings.Contains(pkg, "labstack/echo"), strings.Contains(pkg, "a-h/templ"):
			t.Errorf("notify depends on %s", pkg)
		case strings.HasPrefix(pkg, "washboard/") && !allowed[pkg]:
			t.Errorf("notify depends on %s; it may use only the domain, webhook, clock, i18n and version packages", pkg)
		}
	}
	if !strings.Contains(string(out), "washboard/internal/domain") {
		t.Errorf("go list -deps printed no washboard package:\n%s", out)
	}
}
