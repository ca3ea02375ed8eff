package cluster

import (
	"os/exec"
	"strings"
	"testing"
)

// The package stands alone: the syncer and the web layer call it through
// interfaces they declare. It uses the standard library and pgx, and none
// of Washboard's packages (pgx brings golang.org/x/text and x/sync).
func TestDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	for _, pkg := range pkgs {
		first, _, _ := strings.Cut(pkg, "/")
		switch {
		case pkg == "washboard/internal/cluster":
		case strings.HasPrefix(pkg, "washboard/"):
			t.Errorf("cluster depends on %s", pkg)
		case strings.Contains(first, ".") && !strings.HasPrefix(pkg, "github.com/jackc/") &&
			!strings.HasPrefix(pkg, "golang.org/x/"):
			t.Errorf("cluster depends on %s; it may use only the standard library and pgx", pkg)
		}
	}
	if len(pkgs) < 2 || pkgs[len(pkgs)-1] != "washboard/internal/cluster" {
		t.Errorf("go list -deps printed no cluster package last:\n%s", out)
	}
}
