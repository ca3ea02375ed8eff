package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/rounds"
	"washboard/views"
	"washboard/web/form"
)

// Rounds from need (docs/rounds.md): /rounds lists the rounds and makes
// one (supervisors); /rounds/{id} shows its rooms in walking order, a
// printed page per floor, where staff tick their own round's rooms done
// or skip them with a reason; a supervisor ends it.

// roundInput is the form that makes a round, as sent.
type roundInput struct {
	Buildings, Floors                 []string
	Person, Team                      string
	Rooms, Minutes, PerRoom, PerFloor int
	typed                             [4]string
}

// listRounds shows the rounds, and the form to make one.
func (s *Server) listRounds(c echo.Context) error {
	return s.renderRounds(c, http.StatusOK, roundInput{}, "")
}

func (s *Server) renderRounds(c echo.Context, status int, in roundInput, problem string) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	running, recent, err := s.dash.Rounds(ctx, ss.Account, s.scopeOf(c))
	if err != nil {
		return err
	}
	choices, err := s.dash.RoundChoices(ctx, ss.Account, s.scopeOf(c))
	if err != nil {
		return err
	}
	m := views.Rounds{Page: s.page(c, tr(c, "rounds.title"), "rounds"), MayMake: ss.Role >= domain.Supervisor}
	names := roundNames(choices)
	for _, list := range []struct {
		from []domain.Round
		to   *[]views.RoundLine
	}{{running, &m.Running}, {recent, &m.Recent}} {
		for _, r := range list.from {
			done, skipped, all := r.Progress()
			*list.to = append(*list.to, views.RoundLine{Href: "/rounds/" + r.ID, Who: roundWho(c, r), Part: names.part(r),
				MadeAt: r.MadeAt, Ended: r.Ended, Done: done, Skipped: skipped, All: all})
		}
	}
	if m.Schedules, err = s.roundSchedules(c, names); err != nil {
		return err
	}
	if !m.MayMake {
		return render(c, status, views.RoundsPage(m))
	}
	people, err := s.roundWalkers(c, choices.Buildings)
	if err != nil {
		return err
	}
	f := views.RoundForm{Team: in.Team, Problem: problem,
		DefaultPerRoom: int(rounds.DefaultLimits.PerRoom / time.Minute), DefaultPerFloor: int(rounds.DefaultLimits.PerFloorChange / time.Minute)}
	f.Rooms, f.Minutes, f.PerRoom, f.PerFloor = in.typed[0], in.typed[1], in.typed[2], in.typed[3]
	if problem == "" {
		f.PerRoom, f.PerFloor = strconv.Itoa(f.DefaultPerRoom), strconv.Itoa(f.DefaultPerFloor)
	}
	for _, b := range choices.Buildings {
		f.Buildings = append(f.Buildings, views.Choice{Value: b.ID, Label: b.Name, Checked: slices.Contains(in.Buildings, b.ID)})
	}
	for _, fl := range choices.Floors {
		f.Floors = append(f.Floors, views.Choice{Value: fl.ID, Label: names.buildings[fl.BuildingID] + " › " + fl.Name, Checked: slices.Contains(in.Floors, fl.ID)})
	}
	for _, p := range people {
		f.People = append(f.People, views.Option{Value: p.PersonID, Label: p.Name, Selected: p.PersonID == in.Person})
	}
	m.Form = f
	return render(c, status, views.RoundsPage(m))
}

// roundPlaces names the buildings and floors of the account a person
// sees.
type roundPlaces struct {
	buildings map[string]string
	floors    map[string]domain.Floor
}

func roundNames(ch dashboard.RoundChoices) roundPlaces {
	p := roundPlaces{buildings: map[string]string{}, floors: map[string]domain.Floor{}}
	for _, b := range ch.Buildings {
		p.buildings[b.ID] = b.Name
	}
	for _, f := range ch.Floors {
		p.floors[f.ID] = f
	}
	return p
}

// part is what a round covers, in words: "North Tower, Annex › Level 2".
func (p roundPlaces) part(r domain.Round) string {
	var out []string
	for _, id := range r.Buildings {
		out = append(out, p.buildings[id])
	}
	for _, id := range r.Floors {
		f := p.floors[id]
		out = append(out, joinNonEmpty(" › ", p.buildings[f.BuildingID], f.Name))
	}
	return strings.Join(out, ", ")
}

// roundWho is who walks a round: the person's name, or the team's.
func roundWho(c echo.Context, r domain.Round) string {
	if r.PersonID != "" {
		return r.Name
	}
	return tr(c, "rounds.team_who", "team", r.Team)
}

// roundWalkers are the people who may walk a round: staff and above who
// see one of the buildings, by name.
func (s *Server) roundWalkers(c echo.Context, buildings []domain.Building) ([]domain.Member, error) {
	ctx := c.Request().Context()
	var out []domain.Member
	seen := map[string]bool{}
	for _, b := range buildings {
		ms, err := s.people.Claimants(ctx, sessionOf(c).Account, b)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if !seen[m.PersonID] {
				seen[m.PersonID] = true
				out = append(out, m)
			}
		}
	}
	slices.SortFunc(out, func(a, b domain.Member) int {
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// makeRound makes a round from the form, and shows it.
func (s *Server) makeRound(c echo.Context) error {
	in, nr, problem, err := s.readRound(c)
	if err != nil || problem != "" {
		return s.refuseRound(c, in, problem, err)
	}
	r, err := s.dash.MakeRound(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c), nr, s.cfg.Zone)
	if err != nil {
		return s.refuseRound(c, in, "", err)
	}
	return redirect(c, "/rounds/"+r.ID)
}

// readRound reads the form of a round: what was sent, the round asked
// for, and in words what is wrong with it.
func (s *Server) readRound(c echo.Context) (roundInput, dashboard.NewRound, string, error) {
	in := roundInput{PerRoom: -1, PerFloor: -1}
	problem, err := readForm(c,
		form.List("building", tr(c, "rounds.buildings"), &in.Buildings),
		form.List("floor", tr(c, "rounds.floors"), &in.Floors),
		form.Text("person", tr(c, "rounds.person"), &in.Person).Trim(),
		form.Text("team", tr(c, "rounds.team"), &in.Team).Trim().MaxChars(dashboard.MaxRoundTeam),
		form.Number("rooms", tr(c, "rounds.limit_rooms"), &in.Rooms).Range(0, dashboard.MaxRoundRooms).Typed(&in.typed[0]),
		form.Number("minutes", tr(c, "rounds.limit_minutes"), &in.Minutes).Range(0, dashboard.MaxRoundMinutes).Typed(&in.typed[1]),
		form.Number("per_room", tr(c, "rounds.per_room"), &in.PerRoom).Required().Range(1, dashboard.MaxPerRoomMinutes).Typed(&in.typed[2]),
		form.Number("per_floor", tr(c, "rounds.per_floor"), &in.PerFloor).Required().Range(0, dashboard.MaxPerFloorMinutes).Typed(&in.typed[3]))
	if err != nil || problem != nil {
		return in, dashboard.NewRound{}, problemWords(problem), err
	}
	nr := dashboard.NewRound{Part: dashboard.RoundPart{Buildings: in.Buildings, Floors: in.Floors}, Team: in.Team, MadeBy: sessionOf(c).PersonID,
		Limits: rounds.Limits{Rooms: in.Rooms, Minutes: in.Minutes, PerRoom: time.Duration(in.PerRoom) * time.Minute, PerFloorChange: time.Duration(in.PerFloor) * time.Minute}}
	if in.Person != "" {
		walker, err := s.roundWalker(c, in)
		if err != nil || walker.PersonID == "" {
			return in, nr, tr(c, "rounds.person_not_walker"), err
		}
		nr.PersonID, nr.Name = walker.PersonID, walker.Name
	}
	return in, nr, "", nil
}

// refuseRound shows the form of a round again, as sent, with what is
// wrong with it: a problem in words, or an error the dashboard said.
func (s *Server) refuseRound(c echo.Context, in roundInput, problem string, err error) error {
	var re dashboard.RoundError
	switch {
	case problem != "" && err == nil:
	case errors.As(err, &re):
		problem = roundProblem(c, re)
	case errors.Is(err, domain.ErrNotFound):
		problem = tr(c, "rounds.part_unknown")
	case errors.Is(err, domain.ErrLimit):
		problem = tr(c, "rounds.schedules_full", "max", i18n.From(c.Request().Context()).Number(dashboard.MaxRoundSchedules))
	default:
		return err
	}
	return s.renderRounds(c, http.StatusUnprocessableEntity, in, problem)
}

// roundWalker is the person chosen to walk a round, when they may walk
// every building of its part (staff or above, seeing them); zero
// otherwise.
func (s *Server) roundWalker(c echo.Context, in roundInput) (domain.Member, error) {
	ctx := c.Request().Context()
	choices, err := s.dash.RoundChoices(ctx, sessionOf(c).Account, s.scopeOf(c))
	if err != nil {
		return domain.Member{}, err
	}
	names := roundNames(choices)
	buildings := slices.Clone(in.Buildings)
	for _, id := range in.Floors {
		buildings = append(buildings, names.floors[id].BuildingID)
	}
	var walker domain.Member
	for _, id := range buildings {
		m, err := s.people.Claimant(ctx, sessionOf(c).Account, in.Person, domain.Building{ID: id, Name: names.buildings[id]})
		if err != nil {
			var p domain.Problem
			if errors.As(err, &p) {
				return domain.Member{}, nil
			}
			return m, err
		}
		walker = m
	}
	return walker, nil
}

// roundProblem says why a round cannot be made, or a room not skipped, in
// the reader's language.
func roundProblem(c echo.Context, re dashboard.RoundError) string {
	loc := i18n.From(c.Request().Context())
	switch re.Problem {
	case dashboard.RoundPartNeeded:
		return tr(c, "rounds.problem_part")
	case dashboard.RoundWhoNeeded:
		return tr(c, "rounds.problem_who")
	case dashboard.RoundTooLong:
		return tr(c, "rounds.problem_too_long", "limit", loc.Number(re.Max))
	case dashboard.RoundNotText:
		return tr(c, "rounds.problem_not_text")
	case dashboard.RoundReasonNeeded:
		return tr(c, "rounds.problem_reason")
	}
	return tr(c, "rounds.problem_range", "min", loc.Number(re.Min), "max", loc.Number(re.Max))
}
