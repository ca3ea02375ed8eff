package web

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/rounds"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// A round's page (docs/rounds.md): its rooms in walking order, where
// staff tick their own round's rooms done or skip them with a reason and
// a supervisor ends it; and what of a round "My work" and a wall screen
// show.

// showRound shows a round.
func (s *Server) showRound(c echo.Context) error {
	return s.renderRound(c, http.StatusOK, -1, "", "")
}

// renderRound shows a round; problem, when set, is why the stop at
// position was not ticked, with the reason typed.
func (s *Server) renderRound(c echo.Context, status, position int, reason, problem string) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	v, err := s.dash.Round(ctx, ss.Account, s.scopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	r := v.Round
	choices, err := s.dash.RoundChoices(ctx, ss.Account, s.scopeOf(c))
	if err != nil {
		return err
	}
	done, skipped, all := r.Progress()
	m := views.RoundPage{Page: s.page(c, tr(c, "rounds.round_title", "who", roundWho(c, r)), "rounds"), ID: r.ID, Who: roundWho(c, r),
		Part: roundNames(choices).part(r), MadeAt: r.MadeAt, Ended: r.Ended, Minutes: int(v.Duration() / time.Minute),
		Done: done, Skipped: skipped, All: all, Bring: bringWords(c, v.Bring),
		MayEnd: r.Running() && ss.Role >= domain.Supervisor}
	m.Crumbs = []views.Crumb{{Label: tr(c, "rounds.heading"), Href: "/rounds"}, {Label: m.Who}}
	mayTick := r.Running() && dashboard.MayTick(r, s.ticker(c))
	for i, st := range r.Stops {
		line := s.stopLine(c, v, i, st, mayTick)
		if i == position {
			line.Reason, line.Problem = reason, problem
		}
		b, f, _ := v.Places.Parts(st.RoomID)
		if n := len(m.Floors); n == 0 || m.Floors[n-1].Floor != f || m.Floors[n-1].Building != b {
			m.Floors = append(m.Floors, views.RoundFloor{Building: b, Floor: f})
			if plan, ok := v.Plans[v.Places.Rooms[st.RoomID].FloorID]; ok {
				m.Floors[len(m.Floors)-1].Plan = printPlan(c, plan, b+" › "+f, tr(c, "planshow.round_key"))
			}
		}
		fl := &m.Floors[len(m.Floors)-1]
		fl.Stops = append(fl.Stops, line)
		if fl.Plan != nil {
			if at, ok := v.Plans[v.Places.Rooms[st.RoomID].FloorID].Spots[st.RoomID]; ok {
				fl.Plan.Marks = append(fl.Plan.Marks, views.PrintMark{Number: len(fl.Stops), At: at, Words: line.Room})
			}
		}
	}
	for i, st := range r.Left {
		m.Left = append(m.Left, s.stopLine(c, v, i, st, false))
	}
	return render(c, status, views.RoundPagePage(m))
}

// ticker is the session's person, as one who ticks rooms.
func (s *Server) ticker(c echo.Context) dashboard.Ticker {
	ss := sessionOf(c)
	return dashboard.Ticker{PersonID: ss.PersonID, Name: ss.PersonName, Role: ss.Role}
}

// stopLine is a room of a round as its page shows it.
func (s *Server) stopLine(c echo.Context, v dashboard.RoundView, i int, st domain.RoundStop, mayTick bool) views.RoundStopLine {
	loc := i18n.From(c.Request().Context())
	b, f, room := v.Places.Parts(st.RoomID)
	line := views.RoundStopLine{ID: "stop-" + strconv.Itoa(i), Action: "/rounds/" + v.Round.ID + "/stops/" + strconv.Itoa(i),
		Room: room, Building: b, Floor: f, Status: string(st.Status), Bring: bringWords(c, v.StopBring(st)), MayTick: mayTick}
	switch st.Status {
	case domain.StopDone:
		line.StatusWords = tr(c, "rounds.status_done", "name", st.Name, "time", loc.Time(st.At, s.cfg.Zone))
	case domain.StopSkipped:
		line.StatusWords = tr(c, "rounds.status_skipped", "name", st.Name, "time", loc.Time(st.At, s.cfg.Zone), "reason", st.Reason)
	default:
		line.Status, line.StatusWords = string(domain.StopToDo), tr(c, "rounds.status_todo")
	}
	for _, n := range st.Needs {
		line.Since = line.Since || n.Since
		line.Needs = append(line.Needs, s.needWords(c, v, n))
	}
	return line
}

// needWords is a need of a room in words: "Sink Left: empty".
func (s *Server) needWords(c echo.Context, v dashboard.RoundView, n domain.RoundNeed) string {
	place := v.Locations[n.LocationID].Name
	switch {
	case n.Kind == string(rounds.NeedOut) && n.Batteries > 0:
		return tr(c, "rounds.need_batteries", "place", place)
	case n.Kind == string(rounds.NeedOut):
		return tr(c, "rounds.need_out", "place", place)
	case n.Kind == string(rounds.NeedVisitor) && n.Visitor != "":
		return visitorNeedWords(c, n)
	case n.Kind == string(rounds.NeedVisitor):
		return tr(c, "rounds.need_visitor", "place", place)
	case n.Kind == string(rounds.NeedRunsOut):
		return tr(c, "rounds.need_runs_out", "place", place, "time", i18n.From(c.Request().Context()).Time(n.RunsOut, s.cfg.Zone))
	}
	return tr(c, "rounds.need_fault", "place", place)
}

// tickRoundStop ticks a room of a round done, or skips it with a reason:
// back to the round, or for htmx the room as it is now.
func (s *Server) tickRoundStop(c echo.Context) error {
	ss := sessionOf(c)
	var outcome, reason string
	if _, err := readForm(c, form.Text("outcome", "outcome", &outcome), form.Text("reason", tr(c, "rounds.skip_reason"), &reason)); err != nil {
		return err
	}
	if outcome != "done" && outcome != "skip" {
		return httpkit.BadParam("outcome", "is not done or skip")
	}
	position, err := strconv.Atoi(c.Param("n"))
	if err != nil || position < 0 {
		return httpkit.BadParam("n", "is not a stop's number")
	}
	ctx := c.Request().Context()
	err = s.dash.TickStop(ctx, ss.Account, s.scopeOf(c), c.Param("id"), position, s.ticker(c), outcome == "done", reason)
	var re dashboard.RoundError
	switch {
	case errors.As(err, &re):
		if isHTMX(c) {
			return &httpkit.Error{Code: http.StatusUnprocessableEntity, Msg: roundProblem(c, re)}
		}
		return s.renderRound(c, http.StatusUnprocessableEntity, position, reason, roundProblem(c, re))
	case errors.Is(err, dashboard.ErrNotYourRound):
		return &httpkit.Error{Code: http.StatusForbidden, Msg: tr(c, "rounds.not_yours")}
	case errors.Is(err, dashboard.ErrRoundEnded):
		return &httpkit.Error{Code: http.StatusConflict, Msg: tr(c, "rounds.ended")}
	case err != nil:
		return err
	}
	if !isHTMX(c) {
		return redirect(c, "/rounds/"+c.Param("id"))
	}
	v, err := s.dash.Round(ctx, ss.Account, s.scopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	line := s.stopLine(c, v, position, v.Round.Stops[position], dashboard.MayTick(v.Round, s.ticker(c)))
	return render(c, http.StatusOK, views.RoundStop(line, csrfToken(c)))
}

// endRound ends a round, and shows what it did and left.
func (s *Server) endRound(c echo.Context) error {
	ss := sessionOf(c)
	_, err := s.dash.EndRound(c.Request().Context(), ss.Account, s.scopeOf(c), c.Param("id"), s.cfg.Zone)
	if errors.Is(err, dashboard.ErrRoundEnded) {
		return &httpkit.Error{Code: http.StatusConflict, Msg: tr(c, "rounds.ended")}
	}
	if err != nil {
		return err
	}
	return redirect(c, "/rounds/"+c.Param("id"))
}

// myRound is the person's running round for the top of "My work": its
// progress, the next three rooms to do and a link to it; nil for none.
func myRound(c echo.Context, v *dashboard.RoundView) *views.MyRound {
	if v == nil {
		return nil
	}
	done, skipped, all := v.Round.Progress()
	m := &views.MyRound{Href: "/rounds/" + v.Round.ID, Done: done, Skipped: skipped, All: all}
	for _, st := range v.Round.Stops {
		if st.Status == domain.StopToDo && len(m.Next) < 3 {
			_, f, room := v.Places.Parts(st.RoomID)
			m.Next = append(m.Next, joinNonEmpty(" › ", f, room))
		}
	}
	return m
}

// screenRounds are the rounds a wall screen shows.
func screenRounds(list []domain.Round) []views.ScreenRound {
	var out []views.ScreenRound
	for _, r := range list {
		done, skipped, all := r.Progress()
		out = append(out, views.ScreenRound{Person: r.Name, Team: r.Team, Done: done, Skipped: skipped, All: all})
	}
	return out
}
