package floorplan

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"washboard/internal/i18n"
)

// acceptSVG re-writes an SVG from the allow-list of svgnames.go.
func (c *Checker) acceptSVG(data []byte) (Plan, error) {
	out, w, h, err := sanitizeSVG(data, c.limits)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Type: SVG, From: SVG, Data: out, Width: w, Height: h}, nil
}

// sanitizeSVG reads an SVG with the standard XML decoder and writes anew
// what it may keep: the elements of drawing, their geometry and
// presentation attributes with plain values, references to its own
// elements, images embedded in it decoded and encoded again, text. It
// writes the root's size in pixels, at most l.MaxSide a side, and returns
// it. It refuses an SVG with a DOCTYPE (and so any entity), past the
// limits of elements, depth or elements drawn, or without a size.
func sanitizeSVG(data []byte, l Limits) (out []byte, width, height int, err error) {
	s := &sanitizer{l: l, ids: map[string]*node{}}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var charsetErr error
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "us-ascii") || strings.EqualFold(label, "ascii") {
			return r, nil // a part of UTF-8
		}
		charsetErr = refuse(WrongCharset, func(l *i18n.Localizer) string { return l.T("floorplan.charset", "encoding", quote(label)) })
		return nil, charsetErr
	}
	for done := false; !done; {
		tok, err := dec.Token()
		switch {
		case charsetErr != nil:
			return nil, 0, 0, charsetErr
		case err == io.EOF || err != nil && !s.root:
			return nil, 0, 0, errNotAPlan
		case err != nil:
			return nil, 0, 0, svgUnreadable(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = s.start(t)
		case xml.EndElement:
			done = s.end()
		case xml.CharData:
			s.text(t)
		case xml.Directive:
			if s.root {
				return nil, 0, 0, errEntities
			}
			s.doctype = true
		}
		if err != nil {
			return nil, 0, 0, err
		}
	}
	if drawn := s.drawn(s.top); drawn > l.MaxDrawn {
		return nil, 0, 0, refuse(TooComplex, func(lo *i18n.Localizer) string { return lo.T("floorplan.too_much_drawn", "max", lo.Number(l.MaxDrawn)) })
	}
	return s.out.Bytes(), s.width, s.height, nil
}

var errEntities = refuse(Entities, func(l *i18n.Localizer) string { return l.T("floorplan.entities") })

// svgUnreadable says where the XML of an SVG is broken.
func svgUnreadable(err error) *Error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return refuse(Unreadable, func(l *i18n.Localizer) string {
			return l.T("floorplan.svg_line", "line", l.Number(se.Line), "problem", shorten(se.Msg))
		}).because(err)
	}
	return unreadable(SVG, err)
}

// sanitizer is the state of sanitizeSVG as it reads.
type sanitizer struct {
	l        Limits
	out      bytes.Buffer
	stack    []frame
	elements int  // elements read, kept or not
	pixels   int  // pixels of the images embedded so far
	pending  bool // a start tag is written without its closing '>'
	root     bool // the root element is read
	doctype  bool // a DOCTYPE came before the root
	width    int  // the plan's size in pixels
	height   int
	top      *node            // the root's node
	ids      map[string]*node // the nodes of the elements with an id
}

// frame is an element being read.
type frame struct {
	name  string        // the element as written; "" when dropped or transparent
	drop  bool          // dropped, with all it holds
	text  bool          // its character data is kept
	node  *node         // the nearest element with an id, or the root
	sheet *bytes.Buffer // a style element's text, read to be written anew
}

// node is an element with an id, or the root: what it draws once its use
// elements are followed is its own elements, what its uses draw and what
// its nodes within draw.
type node struct {
	own      int      // kept elements whose nearest node is this one
	uses     []string // the ids its use elements refer to
	children []*node  // the nodes within it
	drawn    int      // what it draws, once counted
	state    int8     // 0 not counted, 1 being counted, 2 counted
}

func (s *sanitizer) start(t xml.StartElement) error {
	s.elements++
	if s.elements > s.l.MaxElements {
		return refuse(TooComplex, func(l *i18n.Localizer) string {
			return l.T("floorplan.too_many_elements", "max", l.Number(s.l.MaxElements))
		})
	}
	if len(s.stack) >= s.l.MaxDepth {
		return refuse(TooComplex, func(l *i18n.Localizer) string { return l.T("floorplan.too_deep", "max", l.Number(s.l.MaxDepth)) })
	}
	if !s.root {
		return s.startRoot(t)
	}
	parent := s.stack[len(s.stack)-1]
	name := t.Name.Local
	switch {
	case parent.drop || parent.sheet != nil || !inSVG(t.Name) || !drawing[name] && !transparent[name] && name != "style":
		s.stack = append(s.stack, frame{drop: true})
		return nil
	case name == "style":
		s.stack = append(s.stack, frame{sheet: &bytes.Buffer{}})
		return nil
	case transparent[name]:
		s.stack = append(s.stack, frame{text: parent.text, node: parent.node})
		return nil
	}
	attrs, keep, err := s.attrs(name, t.Attr)
	if err != nil {
		return err
	}
	if !keep {
		s.stack = append(s.stack, frame{drop: true})
		return nil
	}
	f := frame{name: name, text: withText[name], node: parent.node}
	for _, a := range attrs {
		switch {
		case a.name == "id" && s.ids[a.value] == nil:
			n := &node{}
			s.ids[a.value] = n
			f.node.children = append(f.node.children, n)
			f.node = n
		case a.name == "href" && name == "use":
			f.node.uses = append(f.node.uses, a.value[1:])
		}
	}
	f.node.own++
	s.writeStart(name, attrs)
	s.stack = append(s.stack, f)
	return nil
}

// startRoot writes the root, which must be an svg, with the plan's size.
func (s *sanitizer) startRoot(t xml.StartElement) error {
	if !inSVG(t.Name) || t.Name.Local != "svg" {
		return errNotAPlan
	}
	if s.doctype {
		return errEntities
	}
	s.root = true
	attrs, _, err := s.attrs("svg", t.Attr)
	if err != nil {
		return err
	}
	var width, height, viewBox string
	kept := []attr{{"xmlns", svgNS}}
	for _, a := range attrs {
		switch a.name {
		case "width":
			width = a.value
		case "height":
			height = a.value
		case "viewBox":
			viewBox = a.value
		case "x", "y":
		default:
			kept = append(kept, a)
		}
	}
	size, err := planSize(width, height, viewBox, s.l.MaxSide)
	if err != nil {
		return err
	}
	s.width, s.height = size.width, size.height
	kept = append(kept[:1], append([]attr{
		{"width", strconv.Itoa(size.width)}, {"height", strconv.Itoa(size.height)}, {"viewBox", size.viewBox},
	}, kept[1:]...)...)
	s.top = &node{own: 1}
	s.writeStart("svg", kept)
	s.stack = append(s.stack, frame{name: "svg", node: s.top})
	return nil
}

// end closes the element read last, and says whether it was the root.
func (s *sanitizer) end() bool {
	f := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if f.sheet != nil {
		if sheet := cleanSheet(f.sheet.String()); sheet != "" {
			s.writeStart("style", nil)
			s.closeStart()
			xml.EscapeText(&s.out, []byte(sheet)) //nolint:errcheck // a bytes.Buffer does not fail
			s.out.WriteString("</style>")
		}
	}
	if f.name != "" {
		if s.pending {
			s.out.WriteString("/>")
			s.pending = false
		} else {
			s.out.WriteString("</" + f.name + ">")
		}
	}
	return len(s.stack) == 0
}

// text writes character data where it is kept: in text, tspan, title and
// desc.
func (s *sanitizer) text(data xml.CharData) {
	if len(s.stack) == 0 {
		return
	}
	f := s.stack[len(s.stack)-1]
	if f.sheet != nil {
		f.sheet.Write(data)
		return
	}
	if f.drop || !f.text {
		return
	}
	s.closeStart()
	xml.EscapeText(&s.out, data) //nolint:errcheck // a bytes.Buffer does not fail
}

// attr is an attribute as it is written.
type attr struct{ name, value string }

// attrs returns the attributes of an element named name that it keeps,
// each once, and whether the element is kept at all: a use must refer to
// an element of the plan, an image must hold an image of its own.
func (s *sanitizer) attrs(name string, in []xml.Attr) (out []attr, keep bool, err error) {
	seen := map[string]bool{}
	for _, a := range in {
		key := attrName(a.Name)
		if key == "" || seen[key] {
			continue
		}
		value := a.Value
		switch {
		case key == "href":
			if !withHref[name] {
				continue
			}
			value = strings.TrimSpace(value)
			if name == "image" {
				var ok bool
				value, ok, err = s.embedded(value)
				if err != nil {
					return nil, false, err
				}
				if !ok {
					continue
				}
			} else if !localHref(value) {
				continue
			}
		case key == "style":
			var ok bool
			if value, ok = cleanStyle(value); !ok {
				continue
			}
		case key == "class":
			var ok bool
			if value, ok = cleanClass(value); !ok {
				continue
			}
		case key == "id":
			if !localID(value) {
				continue
			}
		case key == "xml:space":
			if value != "preserve" && value != "default" {
				continue
			}
		case presentation[key] || geometry[key] || key == "lang" || key == "xml:lang":
			if !safeValue(value) {
				continue
			}
		default:
			continue
		}
		seen[key] = true
		out = append(out, attr{key, value})
	}
	if (name == "use" || name == "image") && !seen["href"] {
		return nil, false, nil
	}
	return out, true, nil
}

// attrName is the name an attribute is written with: its own for one in
// no namespace, href for xlink:href, xml:space and xml:lang; "" for any
// other (an editor's own, a namespace declaration).
func attrName(n xml.Name) string {
	switch n.Space {
	case "":
		return n.Local
	case xlinkNS, "xlink":
		if n.Local == "href" {
			return "href"
		}
	case xmlNS, "xml":
		if n.Local == "space" || n.Local == "lang" {
			return "xml:" + n.Local
		}
	}
	return ""
}

// inSVG says whether an element is SVG's: in its namespace, or in none.
func inSVG(n xml.Name) bool { return n.Space == svgNS || n.Space == "" }

// embedded returns an image's href as a PNG or JPEG embedded in a data:
// URL, decoded and encoded again; false for any other href, which is
// dropped. Embedded images past the pixels a plan may have refuse the SVG.
func (s *sanitizer) embedded(href string) (string, bool, error) {
	lower := strings.ToLower(href)
	var payload string
	for _, prefix := range []string{"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/jpg;base64,"} {
		if strings.HasPrefix(lower, prefix) {
			payload = href[len(prefix):]
		}
	}
	payload = strings.Map(func(r rune) rune {
		if r <= ' ' {
			return -1
		}
		return r
	}, payload)
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil || len(raw) == 0 {
		return "", false, nil
	}
	t := imageType(raw)
	if t == "" {
		return "", false, nil
	}
	out, w, h, err := reencode(raw, t, s.l, s.l.MaxPixels-s.pixels)
	var refused *Error
	switch {
	case errors.As(err, &refused) && refused.Kind == TooBig:
		return "", false, refuse(TooBig, func(l *i18n.Localizer) string {
			return l.T("floorplan.embedded_too_big", "side", l.Number(s.l.MaxSide), "pixels", l.Number(s.l.MaxPixels))
		})
	case err != nil:
		return "", false, nil
	}
	s.pixels += w * h
	return "data:image/" + string(t) + ";base64," + base64.StdEncoding.EncodeToString(out), true, nil
}

// writeStart writes a start tag, leaving it open for what it holds.
func (s *sanitizer) writeStart(name string, attrs []attr) {
	s.closeStart()
	s.out.WriteString("<" + name)
	for _, a := range attrs {
		s.out.WriteString(" " + a.name + `="`)
		xml.EscapeText(&s.out, []byte(a.value)) //nolint:errcheck // a bytes.Buffer does not fail
		s.out.WriteString(`"`)
	}
	s.pending = true
}

// closeStart closes the start tag written last, if it is still open.
func (s *sanitizer) closeStart() {
	if s.pending {
		s.out.WriteString(">")
		s.pending = false
	}
}

// drawn counts what n draws, following its uses, up to limit+1: a use
// that refers to itself, through others or not, draws nothing, as in a
// browser.
func (s *sanitizer) drawn(n *node) int {
	switch n.state {
	case 1:
		return 0
	case 2:
		return n.drawn
	}
	n.state = 1
	total := n.own
	add := func(k int) {
		total = min(total+k, s.l.MaxDrawn+1)
	}
	for _, c := range n.children {
		add(s.drawn(c))
	}
	for _, id := range n.uses {
		if target := s.ids[id]; target != nil {
			add(s.drawn(target))
		}
	}
	n.state, n.drawn = 2, total
	return total
}

// quote writes a value of the upload for an error message: in double
// quotes, cut short.
func quote(s string) string { return `"` + shorten(s) + `"` }

// shorten cuts s at 80 characters.
func shorten(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
