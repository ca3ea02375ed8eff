package upstream

import (
	"os/exec"
	"strings"
	"testing"
)

// The client must stay free of the web layer: no echo, no templ, nothing
// under web/.
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
	for _, pkg := range strings.Fields(string(out)) {
		if strings.Contains(pkg, "labstack/echo") || strings.Contains(pkg, "a-h/templ") ||
			pkg == "washboard/web" || strings.HasPrefix(pkg, "washboard/web/") || strings.HasPrefix(pkg, "washboard/views") {
			t.Errorf("upstream depends on %s", pkg)
		}
	}
	if !strings.Contains(string(out), "washboard/internal/version") {
		t.Errorf("go list -deps printed no washboard package:\n%s", out)
	}
}
