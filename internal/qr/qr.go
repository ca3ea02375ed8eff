// Package qr draws a link as a QR code, an inline SVG a page can show
// beside the link (an invitation, a device's enrolment), so that a phone
// can open it by its camera.
package qr

import (
	"errors"
	"fmt"
	"html"
	"strconv"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// MaxLength is the longest text drawn, in bytes: a link past it would
// make a code too dense for a phone's camera across a room.
const MaxLength = 1024

// Code is a QR code: its modules, dark or light, row by row, with the
// quiet zone of four light modules on every side that readers need.
type Code struct {
	Modules [][]bool // true: dark
}

// New encodes text (a URL) with medium error correction (15 % of the
// code may be hidden or dirty). Its error says what is wrong with text.
func New(text string) (Code, error) {
	switch {
	case text == "":
		return Code{}, errors.New("there is no link to draw as a QR code")
	case len(text) > MaxLength:
		return Code{}, fmt.Errorf("a link of %d bytes is too long for a QR code a phone reads well: at most %d", len(text), MaxLength)
	}
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return Code{}, fmt.Errorf("the link could not be drawn as a QR code: %w", err)
	}
	return Code{Modules: q.Bitmap()}, nil
}

// Size is the number of modules on a side, the quiet zone included.
func (c Code) Size() int { return len(c.Modules) }

// SVG draws the code as an inline SVG element, dark modules as black
// rectangles (one per run of dark modules in a row) on a white square,
// scaled to fill its box: set its width with CSS. It is an image to
// assistive technology, named by label (escaped here, as is everything
// in it), for example "QR code of the invitation link".
func (c Code) SVG(label string) string {
	n := strconv.Itoa(c.Size())
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + n + ` ` + n + `" role="img" aria-label="`)
	b.WriteString(html.EscapeString(label))
	b.WriteString(`" shape-rendering="crispEdges"><rect width="` + n + `" height="` + n + `" fill="#fff"/>`)
	for y, row := range c.Modules {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			end := x
			for end < len(row) && row[end] {
				end++
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="1" fill="#000"/>`, x, y, end-x)
			x = end
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// SVG draws text (a URL) as a QR code in an inline SVG named by label;
// see Code.SVG.
func SVG(text, label string) (string, error) {
	c, err := New(text)
	if err != nil {
		return "", err
	}
	return c.SVG(label), nil
}
