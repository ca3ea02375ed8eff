package qr

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

const link = "https://washboard.example/invitations/Zm9vYmFyYmF6cXV4cXV1eHF1dXpxdXV4cXV1eHF1dXpxdXU"

// drawn reads an SVG as SVG draws it back into modules: it fails on any
// element but the root, rects and their frame, and returns the label.
func drawn(t *testing.T, svg string) (modules [][]bool, label string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	size := -1
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		num := func(k string) int {
			n, err := strconv.Atoi(attr[k])
			if err != nil && k != "x" && k != "y" {
				t.Fatalf("rect %s=%q", k, attr[k])
			}
			return n
		}
		switch se.Name.Local {
		case "svg":
			if attr["role"] != "img" {
				t.Errorf("role=%q, want img", attr["role"])
			}
			label = attr["aria-label"]
			f := strings.Fields(attr["viewBox"])
			if len(f) != 4 || f[2] != f[3] {
				t.Fatalf("viewBox %q is not a square", attr["viewBox"])
			}
			size, _ = strconv.Atoi(f[2])
			modules = make([][]bool, size)
			for i := range modules {
				modules[i] = make([]bool, size)
			}
		case "rect":
			if attr["fill"] == "#fff" {
				if num("width") != size || num("height") != size {
					t.Errorf("the white background is %sx%s, want %d", attr["width"], attr["height"], size)
				}
				continue
			}
			x, y, w := num("x"), num("y"), num("width")
			if attr["fill"] != "#000" || num("height") != 1 || y >= size || x+w > size {
				t.Fatalf("a rect that is no run of dark modules: %v", se.Attr)
			}
			for i := x; i < x+w; i++ {
				modules[y][i] = true
			}
		default:
			t.Fatalf("the SVG holds a <%s>: only rects are expected", se.Name.Local)
		}
	}
	return modules, label
}

// The SVG draws exactly the code's modules, and the code is a QR code: a
// version's size, a quiet zone of four light modules, and the three
// finder patterns a reader looks for in their corners.
func TestSVGDrawsTheCode(t *testing.T) {
	c, err := New(link)
	if err != nil {
		t.Fatal(err)
	}
	modules, label := drawn(t, c.SVG("QR code of the invitation link"))
	if label != "QR code of the invitation link" {
		t.Errorf("label %q", label)
	}
	n := c.Size()
	if len(modules) != n {
		t.Fatalf("the SVG is %d modules wide, the code %d", len(modules), n)
	}
	for y := range n {
		for x := range n {
			if modules[y][x] != c.Modules[y][x] {
				t.Fatalf("module (%d,%d) drawn %v, coded %v", x, y, modules[y][x], c.Modules[y][x])
			}
		}
	}
	const quiet = 4
	if v := (n - 2*quiet - 17) / 4; v < 1 || v > 40 || 17+4*v+2*quiet != n {
		t.Fatalf("%d modules a side is no QR version with a quiet zone", n)
	}
	for i := range n {
		for q := range quiet {
			if modules[q][i] || modules[n-1-q][i] || modules[i][q] || modules[i][n-1-q] {
				t.Fatalf("the quiet zone has a dark module on line %d", i)
			}
		}
	}
	inner := n - 2*quiet
	for _, corner := range [][2]int{{quiet, quiet}, {quiet + inner - 7, quiet}, {quiet, quiet + inner - 7}} {
		for dy := range 7 {
			for dx := range 7 {
				ring := max(abs(dx-3), abs(dy-3))
				want := ring != 2 // dark outer ring, light ring, dark 3x3 centre
				if got := modules[corner[1]+dy][corner[0]+dx]; got != want {
					t.Fatalf("finder pattern at %v: module (%d,%d) is %v", corner, dx, dy, got)
				}
			}
		}
	}
}

func abs(n int) int { return max(n, -n) }

// Two links give two codes; a longer link a code at least as large.
func TestCodesDifferByLink(t *testing.T) {
	a, _ := New(link)
	b, _ := New(link + "x")
	if a.SVG("") == b.SVG("") {
		t.Error("two links drew the same code")
	}
	long, _ := New(link + strings.Repeat("y", 300))
	if long.Size() <= a.Size() {
		t.Errorf("a link 300 bytes longer drew a code of %d modules, the short one %d", long.Size(), a.Size())
	}
}

// The caller's label cannot break out of its attribute.
func TestSVGEscapesTheLabel(t *testing.T) {
	svg, err := SVG(link, `Code "of" <Ana> & co`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(svg, "<Ana>") || strings.Contains(svg, `"of"`) {
		t.Fatalf("the label is not escaped: %s", svg[:200])
	}
	if _, label := drawn(t, svg); label != `Code "of" <Ana> & co` {
		t.Errorf("label read back %q", label)
	}
}

// No link, and a link too long for a phone to read, are refused in words.
func TestRefusesWhatItCannotDraw(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "there is no link"},
		{"https://x.example/" + strings.Repeat("a", MaxLength), "too long for a QR code"},
	} {
		_, err := SVG(tc.text, "code")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d bytes: error %v, want %q", len(tc.text), err, tc.want)
		}
	}
}
