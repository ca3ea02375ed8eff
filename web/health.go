package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// health is the body of /healthz and /readyz. It says nothing about
// accounts, users or the upstream.
type health struct {
	Status  string `json:"status"`
	Version string `json:"version"`
	Problem string `json:"problem,omitempty"`
}

// showHealth answers /healthz: the process answers.
func (s *Server) showHealth(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, health{Status: "ok", Version: s.version})
}

// showReady answers /readyz: 200 when the database answers and every
// migration is applied, 503 otherwise.
func (s *Server) showReady(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	ok, err := s.dash.Ready(ctx)
	switch {
	case err != nil:
		s.logOf(c).Warn("readiness check failed", "error", err.Error())
		return c.JSON(http.StatusServiceUnavailable, health{Status: "unavailable", Version: s.version, Problem: "the database does not answer"})
	case !ok:
		return c.JSON(http.StatusServiceUnavailable, health{Status: "unavailable", Version: s.version, Problem: "the database is not migrated"})
	}
	return c.JSON(http.StatusOK, health{Status: "ok", Version: s.version})
}
