package floorplan

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzSanitizeSVG: whatever it is given, sanitizing either refuses in
// words or writes well-formed XML with nothing but drawing in it, which
// sanitizing again leaves as it is.
func FuzzSanitizeSVG(f *testing.F) {
	for _, seed := range []string{
		svgDoc(`<script>alert(1)</script><rect onclick="x" style="fill:url(javascript:x)"/>`),
		svgDoc(`<a href="javascript:x"><use href="#room"/><text>a<tspan>b</tspan>&amp;</text></a><foreignObject/>`),
		`<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="5mm"><g id="a"><use href="#a"/></g></svg>`,
		`<!DOCTYPE svg [<!ENTITY a "b">]><svg/>`,
		svgDoc(`<style>.a{fill:red} @media x{.b{}} rect{fill:url(http://x)}</style><rect class="a b"/>`),
	} {
		f.Add([]byte(seed))
	}
	l := DefaultLimits()
	l.MaxElements, l.MaxDrawn = 2_000, 8_000
	f.Fuzz(func(t *testing.T, in []byte) {
		out, w, h, err := sanitizeSVG(in, l)
		if err != nil {
			var refused *Error
			if !errors.As(err, &refused) || refused.Msg == "" {
				t.Fatalf("refused without words: %v (%T)", err, err)
			}
			return
		}
		if w < 1 || h < 1 || w > l.MaxSide || h > l.MaxSide {
			t.Errorf("a plan of %d × %d", w, h)
		}
		harmlessSVG(t, out)
		again, w2, h2, err := sanitizeSVG(out, l)
		if err != nil || !bytes.Equal(again, out) || w2 != w || h2 != h {
			t.Errorf("sanitizing again changes the plan (%v):\n%s\n%s", err, out, again)
		}
	})
}

// FuzzEXIFOrientation: whatever a JPEG's segments hold, reading its
// orientation neither panics nor gives one outside 1 to 8.
func FuzzEXIFOrientation(f *testing.F) {
	f.Add([]byte("\xff\xd8\xff\xe1\x00\x20Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00"))
	f.Add([]byte("\xff\xd8\xff\xe1\x00\x10Exif\x00\x00II\x2a\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if o := exifOrientation(in); o < 1 || o > 8 {
			t.Errorf("orientation %d", o)
		}
	})
}
