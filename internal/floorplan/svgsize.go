package floorplan

import (
	"math"
	"strconv"
	"strings"

	"washboard/internal/i18n"
)

// svgSize is an SVG plan's size: in pixels, and the viewBox that maps its
// drawing onto them.
type svgSize struct {
	width, height int
	viewBox       string
}

// planSize reads an SVG root's width, height and viewBox as a plan's size
// in pixels. A side missing is had from the viewBox's proportions; a plan
// larger than maxSide a side is scaled down to it, which a drawing takes
// without loss. The viewBox written is the one read, or, without one, the
// drawing's own space in pixels, so that it is drawn as before.
func planSize(width, height, viewBox string, maxSide int) (svgSize, error) {
	vb, vbOK := parseViewBox(viewBox)
	w, wOK := parseLength(width)
	h, hOK := parseLength(height)
	switch {
	case wOK && hOK:
	case wOK && vbOK:
		h = w * vb[3] / vb[2]
	case hOK && vbOK:
		w = h * vb[2] / vb[3]
	case vbOK:
		w, h = vb[2], vb[3]
	default:
		return svgSize{}, errNoSize
	}
	if !vbOK {
		vb = [4]float64{0, 0, w, h}
	}
	if long := math.Max(w, h); long > float64(maxSide) {
		w, h = w*float64(maxSide)/long, h*float64(maxSide)/long
	}
	size := svgSize{width: int(math.Round(w)), height: int(math.Round(h))}
	if size.width < 1 || size.height < 1 || size.width > maxSide || size.height > maxSide {
		return svgSize{}, errNoSize
	}
	parts := make([]string, 4)
	for i, v := range vb {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	size.viewBox = strings.Join(parts, " ")
	return size, nil
}

var errNoSize = refuse(NoSize, func(l *i18n.Localizer) string { return l.T("floorplan.no_size") })

// units are the absolute lengths of CSS in pixels.
var units = map[string]float64{"": 1, "px": 1, "pt": 96.0 / 72, "pc": 16, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6}

// parseLength reads an absolute length in pixels: false for a relative
// one (%, em), none, or one not above 0.
func parseLength(v string) (float64, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	i := strings.LastIndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' || r == '.' })
	if i < 0 {
		return 0, false
	}
	scale, ok := units[strings.TrimSpace(v[i+1:])]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseFloat(v[:i+1], 64)
	if err != nil || !(n > 0) || math.IsInf(n*scale, 0) {
		return 0, false
	}
	return n * scale, true
}

// parseViewBox reads a viewBox: four numbers apart by spaces or commas,
// the width and height above 0.
func parseViewBox(v string) ([4]float64, bool) {
	var vb [4]float64
	fields := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if len(fields) != 4 {
		return vb, false
	}
	for i, f := range fields {
		n, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return vb, false
		}
		vb[i] = n
	}
	return vb, vb[2] > 0 && vb[3] > 0 && !math.IsInf(vb[2]/vb[3], 0) && vb[3]/vb[2] < math.Inf(1)
}
