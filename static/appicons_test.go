package static

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "write the app's icons to icons/")

// appIcons are the PNG files of icons/ that AppIcon draws.
var appIcons = []struct {
	name     string
	size     int
	maskable bool
}{
	{"app-180.png", 180, false}, // iOS's home screen
	{"app-192.png", 192, false},
	{"app-512.png", 512, false},
	{"app-maskable-512.png", 512, true},
}

// The PNG icons the manifest names are the ones AppIcon draws: change
// the drawing, then run `go test ./static -run TestAppIcons -update`.
func TestAppIconsAreDrawnFromTheirSource(t *testing.T) {
	for _, ic := range appIcons {
		var b bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&b, AppIcon(ic.size, ic.maskable)); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("icons", ic.name)
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := FS.ReadFile("icons/" + ic.name)
		if err != nil || !bytes.Equal(got, b.Bytes()) {
			t.Errorf("icons/%s is not what AppIcon(%d, %v) draws (%v): run go test ./static -run TestAppIcons -update", ic.name, ic.size, ic.maskable, err)
		}
		img, err := png.Decode(bytes.NewReader(got))
		if err != nil || img.Bounds().Dx() != ic.size || img.Bounds().Dy() != ic.size {
			t.Errorf("icons/%s does not decode as a %d px square: %v", ic.name, ic.size, err)
			continue
		}
		// The middle is the drop's white; a maskable icon's corner is the
		// navy, the other's is see-through.
		if r, g, b, _ := img.At(ic.size/2, ic.size*2/3).RGBA(); r>>8 != 0xff || g>>8 != 0xff || b>>8 != 0xff {
			t.Errorf("icons/%s: the middle is not the drop's white", ic.name)
		}
		if _, _, _, a := img.At(0, 0).RGBA(); (a != 0) != ic.maskable {
			t.Errorf("icons/%s: the corner's alpha is %d; maskable %v", ic.name, a>>8, ic.maskable)
		}
	}
}
