package forecast

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the forecast a pure function of what it is fed:
// the standard library and the domain types, nothing that does I/O on
// Washboard's behalf. The tests may use the simulator.
func TestDependencies(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "washboard/internal/forecast").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") || strings.HasPrefix(imp, "washboard/") && imp != "washboard/internal/domain" {
			t.Errorf("internal/forecast imports %s: it may import only the standard library and internal/domain", imp)
		}
	}
}
