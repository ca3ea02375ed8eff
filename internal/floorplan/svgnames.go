package floorplan

import "strings"

// The namespaces an SVG's names are in.
const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
)

// drawing are the elements a plan keeps: shapes, text, and what shapes are
// filled, clipped and repeated with. Any other element is dropped with all
// it holds (script, style, foreignObject, animate, set, metadata, an
// editor's own elements), but for those of transparent.
var drawing = set(
	"svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
	"text", "tspan", "title", "desc", "defs", "use", "symbol",
	"linearGradient", "radialGradient", "stop", "clipPath", "mask", "pattern", "image",
)

// transparent are elements dropped without what they hold, which is kept
// as if it stood in their place: a link's shapes stay, not the link.
var transparent = set("a", "switch")

// withText are the elements whose character data is kept.
var withText = set("text", "tspan", "title", "desc")

// presentation are the properties that style a shape: allowed as
// attributes and in a style attribute.
var presentation = set(
	"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
	"stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset",
	"opacity", "color", "display", "visibility", "overflow",
	"font", "font-family", "font-size", "font-weight", "font-style", "font-variant", "font-stretch",
	"text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift",
	"letter-spacing", "word-spacing", "text-decoration", "writing-mode", "direction",
	"clip-path", "clip-rule", "mask", "stop-color", "stop-opacity",
	"vector-effect", "shape-rendering", "text-rendering", "image-rendering",
	"color-interpolation", "paint-order", "transform-origin",
)

// geometry are the attributes, other than presentation ones, that place
// and size what is drawn.
var geometry = set(
	"id", "transform", "x", "y", "width", "height", "rx", "ry", "cx", "cy", "r",
	"x1", "y1", "x2", "y2", "points", "d", "pathLength",
	"dx", "dy", "rotate", "textLength", "lengthAdjust",
	"viewBox", "preserveAspectRatio", "refX", "refY",
	"offset", "gradientUnits", "gradientTransform", "spreadMethod", "fx", "fy", "fr",
	"clipPathUnits", "maskUnits", "maskContentUnits",
	"patternUnits", "patternContentUnits", "patternTransform",
)

// withHref are the elements that may refer to another: use and the paint
// servers to an element of the plan itself, image to an image embedded in
// it.
var withHref = set("use", "image", "linearGradient", "radialGradient", "pattern")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// safeValue says whether an attribute's or a style property's value is
// plain: no url() but to an element of the plan itself (url(#id)), no
// script URL, no CSS escapes, comments, at-rules or expressions that could
// hide one.
func safeValue(v string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(v) {
		if r > ' ' {
			b.WriteRune(r)
		}
	}
	c := b.String()
	if strings.ContainsAny(c, `\<>@{}`) || strings.Count(c, `"`)%2 != 0 || strings.Count(c, "'")%2 != 0 || strings.Contains(c, "/*") ||
		strings.Contains(c, "expression") || strings.Contains(c, "script:") {
		return false
	}
	for rest := c; ; {
		i := strings.Index(rest, "url(")
		if i < 0 {
			return true
		}
		rest = strings.TrimLeft(rest[i+len("url("):], `"'`)
		if !strings.HasPrefix(rest, "#") {
			return false
		}
		end := strings.IndexAny(rest, `)"'`)
		if end < 0 || !localID(rest[1:end]) {
			return false
		}
	}
}

// localHref says whether an href is a reference to an element of the plan
// itself: #id.
func localHref(v string) bool {
	return strings.HasPrefix(v, "#") && localID(v[1:])
}

// localID says whether s is an id a reference may name: letters, digits
// and . _ - only.
func localID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		ok := r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' ||
			r > 0x7f && r != 0xfffd
		if !ok {
			return false
		}
	}
	return true
}

// cleanStyle keeps of a style attribute the presentation properties with
// plain values, and says whether any was kept.
func cleanStyle(v string) (string, bool) {
	var kept []string
	for _, decl := range strings.Split(v, ";") {
		name, value, ok := strings.Cut(decl, ":")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		if !ok || !presentation[name] || value == "" || !safeValue(value) {
			continue
		}
		kept = append(kept, name+":"+value)
	}
	return strings.Join(kept, ";"), len(kept) > 0
}

// classPrefix starts every class a plan keeps, in its class attributes
// and its style sheets alike: were a plan ever put inside a page, its
// styles would not reach the page's own elements.
const classPrefix = "plan-"

// cleanClass keeps of a class attribute the names a style sheet can
// select, each with classPrefix, and says whether any was kept.
func cleanClass(v string) (string, bool) {
	var kept []string
	for _, name := range strings.Fields(v) {
		if className(name) {
			kept = append(kept, prefixed(name))
		}
	}
	return strings.Join(kept, " "), len(kept) > 0
}

// prefixed is a class name with classPrefix: once, so that a plan
// sanitised again is the same.
func prefixed(name string) string {
	if strings.HasPrefix(name, classPrefix) {
		return name
	}
	return classPrefix + name
}

// className says whether s is a class name a style sheet selects as it
// is: a letter or _ first, then letters, digits, _ and -.
func className(s string) bool {
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r != '-' && (r < '0' || r > '9')) {
			return false
		}
	}
	return s != ""
}

// cleanSheet writes a style element's rules anew, keeping those that
// select classes only (.st0, .cls-1, as drawing programs write them),
// with the presentation properties of a style attribute; any other rule,
// at-rule (@import, @media, @font-face) or comment is dropped.
func cleanSheet(css string) string {
	for {
		start := strings.Index(css, "/*")
		if start < 0 {
			break
		}
		end := strings.Index(css[start+2:], "*/")
		if end < 0 {
			css = css[:start]
			break
		}
		css = css[:start] + " " + css[start+2+end+2:]
	}
	var out strings.Builder
	begin, depth, open := 0, 0, 0
	for i, r := range css {
		switch {
		case r == ';' && depth == 0:
			begin = i + 1 // a statement such as @import: dropped
		case r == '{':
			if depth == 0 {
				open = i
			}
			depth++
		case r == '}' && depth > 0:
			depth--
			if depth == 0 {
				out.WriteString(cleanRule(css[begin:open], css[open+1:i]))
				begin = i + 1
			}
		}
	}
	return out.String()
}

// cleanRule writes a rule anew: its class selectors with classPrefix, its
// presentation properties; "" when either is left with nothing.
func cleanRule(selectors, body string) string {
	var kept []string
	for _, sel := range strings.Split(selectors, ",") {
		sel = strings.TrimSpace(sel)
		if name, ok := strings.CutPrefix(sel, "."); ok && className(name) {
			kept = append(kept, "."+prefixed(name))
		}
	}
	decls, ok := cleanStyle(body)
	if len(kept) == 0 || !ok {
		return ""
	}
	return strings.Join(kept, ",") + "{" + decls + "}"
}
