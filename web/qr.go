package web

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"washboard/views"
)

// qrCode draws text as a QR code for an inline SVG: made here, so that no
// request leaves the server and the text (a link with a token) goes
// nowhere else.
func qrCode(text string) (views.QRCode, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return views.QRCode{}, err
	}
	q.DisableBorder = true
	bits := q.Bitmap()
	var path strings.Builder
	for y, row := range bits {
		for x, dark := range row {
			if dark {
				fmt.Fprintf(&path, "M%d %dh1v1h-1z", x, y)
			}
		}
	}
	return views.QRCode{Size: len(bits), Path: path.String()}, nil
}
