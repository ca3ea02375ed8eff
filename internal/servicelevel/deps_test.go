package servicelevel

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps service levels pure: the standard library and
// the domain, no store, no web, no clock of their own.
func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "washboard/internal/servicelevel").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") || strings.HasPrefix(imp, "washboard/") && imp != "washboard/internal/domain" {
			t.Errorf("internal/servicelevel imports %s: it may import only the standard library and washboard/internal/domain", imp)
		}
	}
}
