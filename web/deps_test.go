package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyDirection keeps echo inside web/, and views free of
// anything but the domain, the report model (plain data computed without
// I/O), the assets' addresses and templ: cmd → web → views, web → internal/*.
func TestDependencyDirection(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "washboard/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		for _, imp := range imports {
			switch {
			case strings.HasPrefix(pkg, "washboard/internal/") &&
				(strings.HasPrefix(imp, "github.com/labstack/echo") || strings.HasPrefix(imp, "github.com/a-h/templ") ||
					imp == "washboard/web" || imp == "washboard/views"):
				t.Errorf("%s imports %s: internal packages must not know the HTTP layer or the views", pkg, imp)
			case pkg == "washboard/views" && strings.HasPrefix(imp, "washboard/") && imp != "washboard/internal/domain" && imp != "washboard/internal/report" && imp != "washboard/static":
				t.Errorf("views imports %s: views may import only the domain, the report model, the assets' addresses and templ", imp)
			case pkg == "washboard/views" && strings.Contains(imp, ".") && !strings.HasPrefix(imp, "github.com/a-h/templ") && !strings.HasPrefix(imp, "washboard/"):
				t.Errorf("views imports %s: views may import only the domain and templ", imp)
			}
		}
	}
}
