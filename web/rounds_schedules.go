package web

import (
	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/views"
)

// Schedules of rounds (docs/rounds.md): the form of /rounds also asks
// for such a round at each shift start; /rounds lists the schedules, and
// a supervisor removes one.

// addRoundSchedule keeps a schedule from the form of a round.
func (s *Server) addRoundSchedule(c echo.Context) error {
	in, nr, problem, err := s.readRound(c)
	if err != nil || problem != "" {
		return s.refuseRound(c, in, problem, err)
	}
	if _, err := s.dash.AddRoundSchedule(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c), nr); err != nil {
		return s.refuseRound(c, in, "", err)
	}
	return redirect(c, "/rounds")
}

// removeRoundSchedule removes a schedule.
func (s *Server) removeRoundSchedule(c echo.Context) error {
	if err := s.dash.RemoveRoundSchedule(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c), c.Param("id")); err != nil {
		return err
	}
	return redirect(c, "/rounds")
}

// roundSchedules are the schedules /rounds lists, with the form to remove
// each for a supervisor.
func (s *Server) roundSchedules(c echo.Context, names roundPlaces) ([]views.RoundScheduleLine, error) {
	list, err := s.dash.RoundSchedules(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c))
	if err != nil {
		return nil, err
	}
	out := make([]views.RoundScheduleLine, 0, len(list))
	for _, rs := range list {
		who := rs.Name
		if rs.PersonID == "" {
			who = tr(c, "rounds.team_who", "team", rs.Team)
		}
		line := views.RoundScheduleLine{Who: who, Part: names.part(domain.Round{Buildings: rs.Buildings, Floors: rs.Floors}),
			Rooms: rs.Limits.Rooms, Minutes: rs.Limits.Minutes}
		if sessionOf(c).Role >= domain.Supervisor {
			line.RemoveAction = "/rounds/schedules/" + rs.ID + "/remove"
		}
		out = append(out, line)
	}
	return out, nil
}
