package web

import (
	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
)

// keyBuildings holds the ids of the buildings the session's person is
// limited to, a []string; a session without it sees every building.
const keyBuildings = "buildings"

// scopeOf is the buildings the request's person sees: every read of the
// dashboard takes it, and answers an id outside it as an unknown one.
func (s *Server) scopeOf(c echo.Context) domain.BuildingScope {
	if ids, ok := s.sessions.Get(c.Request().Context(), keyBuildings).([]string); ok {
		return domain.OnlyBuildings(ids...)
	}
	return domain.EveryBuilding()
}
