package httpkit

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// CleanInput refuses a request whose path parameters, query or form
// values hold a NUL byte or text that is not UTF-8: no name or id holds
// them, and a database would refuse them. The routes of ownChecks (by
// their pattern) check their own, and say more about what was sent.
func CleanInput(ownChecks ...string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if slices.Contains(ownChecks, c.Path()) {
				return next(c)
			}
			names := c.ParamNames()
			for i, v := range c.ParamValues() {
				if !cleanText(v) && i < len(names) {
					return errUncleanParam(names[i])
				}
			}
			values := c.QueryParams()
			r := c.Request()
			if r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get(echo.HeaderContentType), echo.MIMEApplicationForm) {
				form, err := FormValues(c)
				if err != nil {
					return err
				}
				values = form
			}
			for k, vs := range values {
				if !cleanText(k) {
					return &Error{Code: http.StatusBadRequest, Msg: "A parameter's name holds a NUL byte or text that is not UTF-8."}
				}
				for _, v := range vs {
					if !cleanText(v) {
						return errUncleanParam(Clip(k))
					}
				}
			}
			return next(c)
		}
	}
}

// FormValues is the request's form, with the query's values; a form that
// cannot be read is a 400 that says why.
func FormValues(c echo.Context) (url.Values, error) {
	form, err := c.FormParams()
	if err != nil {
		return nil, &Error{Code: http.StatusBadRequest, Msg: "The form could not be read: " + Clip(err.Error())}
	}
	return form, nil
}

func cleanText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

func errUncleanParam(name string) error {
	return BadParam(name, "holds a character no name or id has: a NUL byte, or text that is not UTF-8")
}
