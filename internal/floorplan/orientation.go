package floorplan

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
)

// exifOrientation reads the orientation a JPEG's EXIF gives its pixels,
// from 1 (as they are) to 8; 1 when it gives none. Phones store a photo as
// the sensor saw it and say in EXIF how to turn it: as encoding the JPEG
// again drops EXIF, the turn is made on the pixels instead.
func exifOrientation(data []byte) int {
	for i := 2; i+4 <= len(data) && data[i] == 0xff; {
		marker, length := data[i+1], int(binary.BigEndian.Uint16(data[i+2:]))
		if marker == 0xda || length < 2 || i+2+length > len(data) {
			return 1 // the image data starts: no EXIF before it
		}
		segment := data[i+4 : i+2+length]
		if marker == 0xe1 && len(segment) > 6 && string(segment[:6]) == "Exif\x00\x00" {
			return tiffOrientation(segment[6:])
		}
		i += 2 + length
	}
	return 1
}

// tiffOrientation reads the Orientation tag (0x0112) of the first IFD of
// EXIF's TIFF structure.
func tiffOrientation(tiff []byte) int {
	if len(tiff) < 8 {
		return 1
	}
	var order binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 1
	}
	ifd := int(order.Uint32(tiff[4:]))
	if ifd < 8 || ifd+2 > len(tiff) {
		return 1
	}
	n := int(order.Uint16(tiff[ifd:]))
	for e := ifd + 2; e+12 <= len(tiff) && n > 0; e, n = e+12, n-1 {
		if order.Uint16(tiff[e:]) == 0x0112 && order.Uint16(tiff[e+2:]) == 3 {
			if o := int(order.Uint16(tiff[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 1
		}
	}
	return 1
}

// orient turns and mirrors img as EXIF orientation o says.
func orient(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	// A JPEG decodes as YCbCr, read as it is; anything else is drawn as
	// RGBA first.
	var pixel func(x, y int) [4]byte
	if ycc, ok := img.(*image.YCbCr); ok {
		pixel = func(x, y int) [4]byte {
			yi, ci := ycc.YOffset(b.Min.X+x, b.Min.Y+y), ycc.COffset(b.Min.X+x, b.Min.Y+y)
			r, g, bl := color.YCbCrToRGB(ycc.Y[yi], ycc.Cb[ci], ycc.Cr[ci])
			return [4]byte{r, g, bl, 0xff}
		}
	} else {
		src := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(src, src.Bounds(), img, b.Min, draw.Src)
		pixel = func(x, y int) [4]byte {
			i := src.PixOffset(x, y)
			return [4]byte(src.Pix[i : i+4])
		}
	}
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		for x := range dw {
			var sx, sy int
			switch o {
			case 2:
				sx, sy = w-1-x, y
			case 3:
				sx, sy = w-1-x, h-1-y
			case 4:
				sx, sy = x, h-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, h-1-x
			case 7:
				sx, sy = w-1-y, h-1-x
			case 8:
				sx, sy = w-1-y, x
			}
			p := pixel(sx, sy)
			copy(dst.Pix[dst.PixOffset(x, y):][:4], p[:])
		}
	}
	return dst
}
