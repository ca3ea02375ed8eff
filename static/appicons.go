package static

import (
	"image"
	"image/color"
	"math"
)

// The app's colours: the header's navy, as the home screen and the
// splash screen show it, and the white of its drop.
var (
	AppColour   = color.NRGBA{0x1d, 0x2a, 0x3a, 0xff}
	appDropFill = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

// AppIcon draws the app's icon, the drop of icons/favicon.svg on the
// header's navy, size × size pixels. A maskable icon fills its square and
// keeps the drop inside the middle 60 %, which every launcher's mask
// leaves; the other has the favicon's rounded corners. The PNG files of
// icons/ are made from it (TestAppIconsAreDrawnFromTheirSource).
func AppIcon(size int, maskable bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const samples = 4 // per side: 16 samples a pixel smooth the edges
	scale := 32 / float64(size)
	for py := range size {
		for px := range size {
			var bg, drop int
			for sy := range samples {
				for sx := range samples {
					x := (float64(px) + (float64(sx)+0.5)/samples) * scale
					y := (float64(py) + (float64(sy)+0.5)/samples) * scale
					if maskable || inRoundedSquare(x, y) {
						bg++
					}
					dx, dy := x, y
					if maskable {
						// The drop at 60 % around the middle.
						dx, dy = 16+(x-16)/0.6, 16+(y-16)/0.6+1.5
					}
					if inDrop(dx, dy) {
						drop++
					}
				}
			}
			img.SetNRGBA(px, py, blend(bg, drop, samples*samples))
		}
	}
	return img
}

// blend is a pixel of bg samples of the background, drop of them in the
// drop, of n.
func blend(bg, drop, n int) color.NRGBA {
	if bg == 0 {
		return color.NRGBA{}
	}
	mix := func(a, b uint8) uint8 {
		return uint8((int(a)*(bg-drop) + int(b)*drop + bg/2) / bg)
	}
	return color.NRGBA{mix(AppColour.R, appDropFill.R), mix(AppColour.G, appDropFill.G), mix(AppColour.B, appDropFill.B), uint8((255*bg + n/2) / n)}
}

// inRoundedSquare says whether (x, y) of the 32-unit square is inside its
// corners of radius 7.
func inRoundedSquare(x, y float64) bool {
	const r = 7.0
	cx, cy := math.Max(r, math.Min(32-r, x)), math.Max(r, math.Min(32-r, y))
	return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
}

// inDrop says whether (x, y) is inside the drop: a circle of radius 7.5
// at (16, 19.5), narrowing to its tip at (16, 5.5).
func inDrop(x, y float64) bool {
	const cx, cy, r, tip = 16.0, 19.5, 7.5, 5.5
	if (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r {
		return true
	}
	if y < tip || y > cy {
		return false
	}
	half := r * math.Pow((y-tip)/(cy-tip), 0.8)
	return math.Abs(x-cx) <= half
}
