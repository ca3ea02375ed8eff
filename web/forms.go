package web

import (
	"github.com/labstack/echo/v4"

	"washboard/internal/i18n"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// readForm reads the request's form into the fields declared (form.ReadIn)
// and returns the first problem of a field, in the page's language; the
// error is a form that cannot be read at all.
func readForm(c echo.Context, fields ...*form.Field) (*form.Problem, error) {
	values, err := httpkit.FormValues(c)
	if err != nil {
		return nil, err
	}
	return form.ReadIn(i18n.From(c.Request().Context()), values, fields...), nil
}

// problemWords is what a form's problem says; "" for none.
func problemWords(p *form.Problem) string {
	if p == nil {
		return ""
	}
	return p.Msg
}
