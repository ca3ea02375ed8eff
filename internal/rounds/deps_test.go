package rounds

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the planner and the measure pure functions of
// what they are fed: the standard library, the domain types and service
// hours, nothing that does I/O on Washboard's behalf. The tests may use
// the simulator and the store's types.
func TestDependencies(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "washboard/internal/rounds").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") || strings.HasPrefix(imp, "washboard/") && imp != "washboard/internal/domain" && imp != "washboard/internal/servicelevel" {
			t.Errorf("internal/rounds imports %s: it may import only the standard library, internal/domain and internal/servicelevel", imp)
		}
	}
}
