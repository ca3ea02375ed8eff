package web

import "github.com/labstack/echo/v4"

// htmx request and response headers.
const (
	hxRequest  = "HX-Request"
	hxBoosted  = "HX-Boosted"
	hxRedirect = "HX-Redirect"
	hxRefresh  = "HX-Refresh"
)

// isHTMX reports whether the request came from htmx (and was not a boosted
// navigation, which wants the whole page).
func isHTMX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get(hxRequest) == "true" && h.Get(hxBoosted) != "true"
}
