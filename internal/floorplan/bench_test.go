package floorplan

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkSanitizeSVG sanitises a plan of 20,000 elements: rooms of
// walls, doors and labels, as a large floor exported from a drawing
// program.
func BenchmarkSanitizeSVG(b *testing.B) {
	var s strings.Builder
	s.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4000 3000"><defs><style>.wall{fill:none;stroke:#333;stroke-width:2}</style></defs>`)
	for i := range 5000 {
		x, y := i%100*40, i/100*60
		fmt.Fprintf(&s, `<g id="r%d" transform="translate(%d,%d)"><rect class="wall" width="38" height="58"/>`+
			`<path d="M 0,20 L 10,20 A 10 10 0 0 1 20,30" style="stroke:#999"/><text x="2" y="12" font-size="8">WC %d</text></g>`, i, x, y, i)
	}
	s.WriteString(`</svg>`)
	in := []byte(s.String())
	l := DefaultLimits()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, _, _, err := sanitizeSVG(in, l); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAcceptPNG accepts a scanned plan of 2,400 × 1,700 px.
func BenchmarkAcceptPNG(b *testing.B) {
	in := pngOf(b, 2400, 1700)
	c := NewChecker(DefaultLimits())
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := c.Accept(context.Background(), bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}
