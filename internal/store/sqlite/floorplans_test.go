package sqlite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"washboard/internal/domain"
)

// TestRemovedPlanLeavesNothingOnDisk: once a plan is removed, its image
// is in none of the database's files, nor in its write-ahead log.
func TestRemovedPlanLeavesNothingOnDisk(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	image := bytes.Repeat([]byte("PLAN-OF-LEVEL-3;"), 20_000) // 320 KB, over many pages
	p := domain.FloorPlan{FloorID: "f3", ContentType: "image/png", Width: 10, Height: 10, Updated: time.Now(), UpdatedBy: "p1"}
	if _, err := s.PutFloorPlan(ctx, "a", p, image); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveFloorPlan(ctx, "a", "f3"); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(path + "*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("PLAN-OF-LEVEL-3;")); n > 0 {
			t.Errorf("%s holds the removed plan's image (%d pieces)", filepath.Base(f), n)
		}
	}
}
