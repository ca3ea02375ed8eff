package floorplan

import (
	"bytes"
	"image/color"
	"image/jpeg"
	"image/png"

	"washboard/internal/i18n"
)

// jpegQuality is the quality a JPEG plan is encoded again at: high enough
// that the lines of a scanned plan stay sharp.
const jpegQuality = 90

// acceptImage decodes a PNG or JPEG and encodes it again as the same type,
// which keeps its pixels and nothing else: no text or EXIF chunk (GPS
// positions, the camera, comments), no bytes after the image's end. A
// JPEG's pixels are turned first as its EXIF orientation says.
func (c *Checker) acceptImage(data []byte, t Type) (Plan, error) {
	out, w, h, err := reencode(data, t, c.limits, c.limits.MaxPixels)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Type: t, From: t, Data: out, Width: w, Height: h}, nil
}

// reencode decodes an image of type t, PNG or JPEG, whose pixels must not
// be more than budget, and encodes it again. It reads the image's size
// first and refuses one past the limits before decoding it.
func reencode(data []byte, t Type, l Limits, budget int) (out []byte, width, height int, err error) {
	decodeConfig, decode := png.DecodeConfig, png.Decode
	if t == JPEG {
		decodeConfig, decode = jpeg.DecodeConfig, jpeg.Decode
	}
	cfg, err := decodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, unreadable(t, err)
	}
	if err := checkSize(cfg.Width, cfg.Height, l, budget); err != nil {
		return nil, 0, 0, err
	}
	if deep := cfg.ColorModel == color.RGBA64Model || cfg.ColorModel == color.NRGBA64Model; deep && 2*cfg.Width*cfg.Height > budget {
		// 8 bytes a pixel decoded, twice what the limit of pixels is
		// measured for.
		return nil, 0, 0, refuse(TooBig, func(lo *i18n.Localizer) string {
			return lo.T("floorplan.too_many_deep_pixels", "pixels", lo.Number(cfg.Width*cfg.Height),
				"width", lo.Number(cfg.Width), "height", lo.Number(cfg.Height), "max", lo.Number(l.MaxPixels/2))
		})
	}
	img, err := decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, unreadable(t, err)
	}
	if t == JPEG {
		img = orient(img, exifOrientation(data))
	}
	var buf bytes.Buffer
	if t == JPEG {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, img)
	}
	if err != nil {
		return nil, 0, 0, unreadable(t, err)
	}
	b := img.Bounds()
	return buf.Bytes(), b.Dx(), b.Dy(), nil
}

// checkSize refuses an image of w × h pixels past the limits.
func checkSize(w, h int, l Limits, budget int) error {
	switch {
	case w < 1 || h < 1:
		return refuse(Unreadable, func(lo *i18n.Localizer) string {
			return lo.T("floorplan.no_pixels", "width", lo.Number(w), "height", lo.Number(h))
		})
	case w > l.MaxSide || h > l.MaxSide:
		return refuse(TooBig, func(lo *i18n.Localizer) string {
			return lo.T("floorplan.too_wide", "width", lo.Number(w), "height", lo.Number(h), "max", lo.Number(l.MaxSide))
		})
	case w*h > budget:
		return refuse(TooBig, func(lo *i18n.Localizer) string {
			return lo.T("floorplan.too_many_pixels", "pixels", lo.Number(w*h), "width", lo.Number(w), "height", lo.Number(h), "max", lo.Number(l.MaxPixels))
		})
	}
	return nil
}

func unreadable(t Type, err error) *Error {
	return refuse(Unreadable, func(l *i18n.Localizer) string { return l.T("floorplan.unreadable", "type", t.Name()) }).because(err)
}

// imageType tells an embedded image's type from its first bytes: PNG,
// JPEG or "".
func imageType(data []byte) Type {
	if t := sniff(data); t == PNG || t == JPEG {
		return t
	}
	return ""
}
