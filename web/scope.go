package web

import (
	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
)

// scopeOf is the buildings the request's person sees, from their
// membership in the session's account (every building when it names
// none): every read of the dashboard takes it, and answers an id outside
// it as an unknown one.
func (s *Server) scopeOf(c echo.Context) domain.BuildingScope {
	if b := sessionOf(c).Buildings; len(b) > 0 {
		return domain.OnlyBuildings(b...)
	}
	return domain.EveryBuilding()
}
