package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
	"washboard/web/httpkit"
)

func errNotFound(msg string) error { return &httpkit.Error{Code: http.StatusNotFound, Msg: msg} }

// handleError maps every error to a status and a page, or an inline
// fragment for htmx. A 500 gets an error id shown on the page and written
// in the log line.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	loc := i18n.From(c.Request().Context())
	he := &httpkit.Error{Code: http.StatusInternalServerError, Msg: loc.T("error.our_side"), Err: err}
	var ee *echo.HTTPError
	switch {
	case errors.As(err, &he):
	case errors.Is(err, domain.ErrNotFound):
		he = &httpkit.Error{Code: http.StatusNotFound, Msg: loc.T("error.nothing_here"), Err: err}
	case errors.As(err, &ee):
		he = &httpkit.Error{Code: ee.Code, Msg: http.StatusText(ee.Code), Err: err}
		if ee.Code == http.StatusNotFound {
			he.Msg = loc.T("error.no_page")
		}
	case errors.Is(err, context.Canceled):
		return // the client went away
	}
	page := views.ErrorPage{Status: he.Code, Message: he.Msg}
	page.Page = s.page(c, views.ErrorHeading(c.Request().Context(), page), "")
	if he.Code >= 500 {
		page.ErrorID = httpkit.RandomHex(6)
		s.logOf(c).Error("request failed", "error_id", page.ErrorID, "error", fmt.Sprint(err), "path", s.logging().LoggedPath(c.Request().URL.Path))
	}
	if isHookPath(c.Request().URL.Path) {
		// The service reads the answers of its receivers: JSON, as
		// receiveEvent's own.
		why := he.Msg
		switch {
		case he.Code == http.StatusRequestEntityTooLarge:
			why = fmt.Sprintf("the body is larger than %d bytes, the most an event may be", maxEventBody)
		case page.ErrorID != "":
			why += " Error " + page.ErrorID + "."
		}
		if rerr := hookAnswer(c, he.Code, why); rerr != nil {
			s.logOf(c).Error("answering a delivery", "error", rerr.Error())
		}
		return
	}
	if wantsJSON(c.Request()) {
		why := he.Msg
		if page.ErrorID != "" {
			why += " Error " + page.ErrorID + "."
		}
		if rerr := c.JSON(he.Code, jsonError{Error: why}); rerr != nil {
			s.logOf(c).Error("answering with an error", "error", rerr.Error())
		}
		return
	}
	comp := views.ErrorView(page)
	if isHTMX(c) {
		comp = views.ErrorFragment(page)
	}
	if rerr := render(c, he.Code, comp); rerr != nil {
		s.logOf(c).Error("rendering the error page", "error", rerr.Error())
		c.String(he.Code, he.Msg) //nolint:errcheck // nothing left to do
	}
}

// jsonError is an error in words, for a script that asked for JSON.
type jsonError struct {
	Error string `json:"error"`
}

// wantsJSON says whether a request is a script's that reads JSON answers
// only (static/js/passkeys.js): its Accept header names JSON first.
func wantsJSON(r *http.Request) bool {
	accept := r.Header.Get(echo.HeaderAccept)
	return strings.HasPrefix(accept, echo.MIMEApplicationJSON)
}
