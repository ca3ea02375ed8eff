package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyDirection holds the layers' direction (the README's
// "Architecture" draws it): cmd → web → dashboard, syncer, receiver →
// store (interfaces) ← store/sqlite, store/postgres; everything → domain.
// echo and templ stay in web and views; web reads the data only through
// the dashboard, never the store or the service's client; the store knows
// only the domain; views know only the domain, the report and trends
// models and the assets' addresses. The HTTP plumbing (web/httpkit) and
// the form reader (web/form) know nothing of the application: neither the
// views nor the handlers nor any package of Washboard but the clock (and,
// for the form reader, the message catalogs it words its problems with).
func TestDependencyDirection(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "washboard/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	inside := func(pkg, tree string) bool { return pkg == tree || strings.HasPrefix(pkg, tree+"/") }
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		for _, imp := range imports {
			switch {
			case strings.HasPrefix(pkg, "washboard/internal/") &&
				(strings.HasPrefix(imp, "github.com/labstack/echo") || strings.HasPrefix(imp, "github.com/a-h/templ") ||
					imp == "washboard/web" || imp == "washboard/views"):
				t.Errorf("%s imports %s: internal packages must not know the HTTP layer or the views", pkg, imp)
			case (pkg == "washboard/web/httpkit" || pkg == "washboard/web/form") && (strings.HasPrefix(imp, "github.com/a-h/templ") ||
				strings.HasPrefix(imp, "washboard/") && imp != "washboard/internal/clock" && imp != "washboard/web/httpkit" &&
					(pkg != "washboard/web/form" || imp != "washboard/internal/i18n")):
				t.Errorf("%s imports %s: the HTTP plumbing and the form reader must not know the views, the handlers or the application", pkg, imp)
			case inside(pkg, "washboard/web") && (inside(imp, "washboard/internal/store") || inside(imp, "washboard/internal/upstream") || inside(imp, "washboard/internal/sim")):
				t.Errorf("web imports %s: the web layer reads through the dashboard, not the store or the service's client", imp)
			case inside(pkg, "washboard/internal/store") && strings.HasPrefix(imp, "washboard/") &&
				!inside(imp, "washboard/internal/store") && imp != "washboard/internal/domain":
				t.Errorf("%s imports %s: the store knows only the domain", pkg, imp)
			case pkg == "washboard/internal/domain" && strings.HasPrefix(imp, "washboard/"):
				t.Errorf("domain imports %s: the domain is the shared vocabulary and imports no other package of Washboard", imp)
			case pkg == "washboard/views" && strings.HasPrefix(imp, "washboard/") && imp != "washboard/internal/domain" && imp != "washboard/internal/report" &&
				imp != "washboard/internal/trends" && imp != "washboard/internal/i18n" && imp != "washboard/static":
				t.Errorf("views imports %s: views may import only the domain, the report and trends models, the message catalogs, the assets' addresses and templ", imp)
			case pkg == "washboard/internal/i18n" && strings.HasPrefix(imp, "washboard/"):
				t.Errorf("i18n imports %s: the message catalogs know no other package of Washboard", imp)
			case pkg == "washboard/views" && strings.Contains(imp, ".") && !strings.HasPrefix(imp, "github.com/a-h/templ") && !strings.HasPrefix(imp, "washboard/"):
				t.Errorf("views imports %s: views may import only the domain and templ", imp)
			}
		}
	}
}
