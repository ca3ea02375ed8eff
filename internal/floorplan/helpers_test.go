package floorplan

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"regexp"
	"strings"
	"testing"
)

// accept runs a Checker with the default limits on data.
func accept(t *testing.T, data []byte) (Plan, error) {
	t.Helper()
	return NewChecker(DefaultLimits()).Accept(context.Background(), bytes.NewReader(data))
}

// mustAccept accepts data, failing the test if it is refused.
func mustAccept(t *testing.T, data []byte) Plan {
	t.Helper()
	p, err := accept(t, data)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	return p
}

// refusedAs checks that err is a refusal of kind, whose words hold each of
// words.
func refusedAs(t *testing.T, err error, kind Kind, words ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (%T), want a refusal of kind %s", err, err, kind)
	}
	if e.Kind != kind {
		t.Errorf("refused as %s (%q), want %s", e.Kind, e.Msg, kind)
	}
	for _, w := range words {
		if !strings.Contains(e.Msg, w) {
			t.Errorf("the refusal %q does not say %q", e.Msg, w)
		}
	}
}

// harmlessSVG checks what a sanitised SVG may hold: SVG's drawing
// elements only, and style sheets of class rules only; no handler, no
// reference but to itself or to an embedded PNG or JPEG (whose own bytes
// are checked too), no CSS that fetches or runs anything, nothing of the
// dangers named.
func harmlessSVG(t *testing.T, out []byte, dangers ...string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(out))
	inStyle := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the output is not well-formed XML: %v\n%s", err, out)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inStyle = tok.Name.Local == "style"
			if tok.Name.Space != svgNS || !drawing[tok.Name.Local] && !inStyle || inStyle && len(tok.Attr) > 0 {
				t.Errorf("the output keeps the element %s %s", tok.Name.Space, tok.Name.Local)
			}
			for _, a := range tok.Attr {
				harmlessAttr(t, tok.Name.Local, a)
			}
		case xml.CharData:
			if inStyle && !classRules.Match(tok) {
				t.Errorf("the output keeps the style sheet %q", tok)
			}
		case xml.EndElement:
			inStyle = false
		case xml.Directive, xml.ProcInst, xml.Comment:
			t.Errorf("the output keeps %T %q", tok, tok)
		}
	}
	lower := strings.Map(func(r rune) rune {
		if r <= ' ' {
			return -1
		}
		return r
	}, strings.ToLower(string(out)))
	for _, d := range append([]string{"<script", "script:", "foreignobject", "expression(", "@import", "<!doctype", "<!entity",
		"<set", "<animate", "<iframe", "<html", "<body", "evil.test", "url(http", "url(//", "url(data", "xml:base"}, dangers...) {
		if strings.Contains(lower, strings.ToLower(d)) {
			t.Errorf("the output holds %q:\n%s", d, out)
		}
	}
}

// classRules are style sheets of rules that select classes of the plan's
// own and set plain values.
var classRules = regexp.MustCompile(`^(\.plan-[A-Za-z_][\w-]*(,\.plan-[A-Za-z_][\w-]*)*\{[^{}<>@\\]*\})*$`)

var dataImage = regexp.MustCompile(`^data:image/(png|jpeg);base64,([A-Za-z0-9+/=]+)$`)

func harmlessAttr(t *testing.T, element string, a xml.Attr) {
	t.Helper()
	name := strings.ToLower(a.Name.Local)
	if strings.HasPrefix(name, "on") {
		t.Errorf("<%s> keeps the handler %s=%q", element, a.Name.Local, a.Value)
	}
	if name != "href" {
		return
	}
	if strings.HasPrefix(a.Value, "#") {
		return
	}
	m := dataImage.FindStringSubmatch(a.Value)
	if m == nil || element != "image" {
		t.Errorf("<%s> keeps the reference %q", element, shorten(a.Value))
		return
	}
	raw, err := base64.StdEncoding.DecodeString(m[2])
	if err != nil {
		t.Errorf("<image> holds a data URL that is not base64: %v", err)
		return
	}
	if _, _, err := image.Decode(bytes.NewReader(raw)); err != nil {
		t.Errorf("<image> holds an image that does not decode: %v", err)
	}
	if bytes.Contains(bytes.ToLower(raw), []byte("script")) || bytes.Contains(raw, []byte("tEXt")) {
		t.Errorf("<image> holds an image with more than pixels in it: %q", shorten(string(raw)))
	}
}

// pngOf encodes a small image: w × h, a dark rectangle on white.
func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{255, 255, 255, 255}
			if x > w/4 && x < 3*w/4 && y > h/4 && y < 3*h/4 {
				c = color.RGBA{20, 40, 60, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// chunk is a PNG chunk of type typ holding data, with its CRC.
func chunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(len(data))) //nolint:errcheck // a bytes.Buffer does not fail
	b.WriteString(typ)
	b.Write(data)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...))) //nolint:errcheck // as above
	return b.Bytes()
}

// withChunks puts chunks into a PNG just before its IEND chunk, and after
// appends trailer.
func withChunks(pngData []byte, trailer []byte, chunks ...[]byte) []byte {
	iend := len(pngData) - 12
	out := append([]byte{}, pngData[:iend]...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	out = append(out, pngData[iend:]...)
	return append(out, trailer...)
}

// pngHeader is a PNG that claims to be w × h pixels of 1-bit grey,
// followed by idat as its image data.
func pngHeader(w, h int, idat []byte) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 1, 0 // 1 bit a pixel, grey
	out := append([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr)...)
	out = append(out, chunk("IDAT", idat)...)
	return append(out, chunk("IEND", nil)...)
}

// pdfFile writes a PDF whose objects are objs, numbered from 1, the first
// the catalog, with a correct cross-reference table.
func pdfFile(objs ...string) []byte { return pdfWithTrailer("", objs...) }

// pdfWithTrailer is pdfFile with entries added to its trailer.
func pdfWithTrailer(trailer string, objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return b.Bytes()
}

// stream is a PDF stream object holding content.
func stream(content string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content)
}

// pdfPages is a PDF of n A4 pages, each with a dark rectangle; catalog
// adds entries to its catalog, extra objects after its own (numbered from
// 4+n).
func pdfPages(n int, catalog string, extra ...string) []byte {
	kids := make([]string, n)
	objs := []string{"<< /Type /Catalog /Pages 2 0 R " + catalog + " >>", "", stream("0.1 0.2 0.3 rg 100 100 395 642 re f")}
	for i := range n {
		kids[i] = fmt.Sprintf("%d 0 R", 4+i)
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 3 0 R >>")
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	return pdfFile(append(objs, extra...)...)
}
