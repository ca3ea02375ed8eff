package web

import (
	"bytes"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"washboard/web/httpkit"
)

// render renders a component into a buffer and sends it, so that a
// rendering error becomes an error page rather than half a page. Pages
// vary by HX-Request: a fragment for htmx, the whole page otherwise.
func render(c echo.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	h := c.Response().Header()
	httpkit.AddVary(h, hxRequest)
	httpkit.AddVary(h, "Accept-Language")
	h.Set(echo.HeaderContentLength, strconv.Itoa(buf.Len()))
	return c.HTMLBlob(status, buf.Bytes())
}
