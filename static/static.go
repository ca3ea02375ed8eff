// Package static holds Washboard's browser assets: the stylesheet, the
// script, the icon sprite and the vendored htmx (refreshed from package.json
// with `npm run vendor`). The web layer serves FS under /static/.
package static

import "embed"

// FS holds css/, js/, vendor/ and icons/, under those names.
//
//go:embed css js vendor icons
var FS embed.FS
