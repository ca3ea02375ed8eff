package trends

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencies keeps trends pure functions of what they are fed: the
// standard library, the domain, the store's types (not an engine), the
// forecast's rule of what a refill is and the report's ordering of names.
func TestDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "washboard/internal/trends").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{"washboard/internal/domain", "washboard/internal/store", "washboard/internal/forecast", "washboard/internal/report"}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") || strings.HasPrefix(imp, "washboard/") && !slices.Contains(allowed, imp) {
			t.Errorf("internal/trends imports %s: it may import only the standard library and %s", imp, strings.Join(allowed, ", "))
		}
	}
}
