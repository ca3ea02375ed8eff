package web

import (
	"crypto/rand"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// "My work" at /my (docs/my-work.md): what needs doing now for the person
// signed in, on their phone. Staff and above say "I'm on it" and "done"
// from it; a viewer sees it without the actions. Every action form
// carries an idempotency key made when the page was drawn: the same form
// sent twice is done once, and answered as done both times.

// showMyWork shows the person's work now.
func (s *Server) showMyWork(c echo.Context) error {
	return s.renderMyWork(c, http.StatusOK, "", myWorkInput{})
}

// myWorkInput is what an action form of "My work" holds.
type myWorkInput struct {
	Key, Outcome, Reason string
}

func (s *Server) renderMyWork(c echo.Context, status int, problem string, in myWorkInput) error {
	ss := sessionOf(c)
	w, err := s.dash.MyWork(c.Request().Context(), ss.Account, s.scopeOf(c), ss.PersonID, s.cfg.Zone)
	if err != nil {
		return err
	}
	m := views.MyWork{Page: s.page(c, "My work", "my"), Shift: w.Shift, ShiftEnd: w.ShiftEnd, Bring: bringItems(w.Bring),
		MayAct: ss.Role >= domain.Staff, Cut: w.Cut, Problem: problem}
	for _, list := range []struct {
		from []dashboard.WorkItem
		to   *[]views.WorkItem
	}{{w.Mine, &m.Mine}, {w.Open, &m.Open}, {w.RunsOut, &m.RunsOut}} {
		for _, it := range list.from {
			v := s.workLine(c, it)
			if problem != "" && v.ID == "alert-"+c.Param("id") {
				v.Reason, v.Problem = in.Reason, problem
			}
			*list.to = append(*list.to, v)
		}
	}
	return render(c, status, views.MyWorkPage(m))
}

// workLine is an item of "My work" as the page shows it, with fresh
// idempotency keys for its forms.
func (s *Server) workLine(c echo.Context, it dashboard.WorkItem) views.WorkItem {
	ss := sessionOf(c)
	v := views.WorkItem{Where: joinNonEmpty(" › ", it.Room, it.Location.Name), Building: it.Building, Floor: it.Floor,
		Bring: bringItems(it.Bring)}
	if it.Alert.ID == "" {
		v.ID = "device-" + strings.ReplaceAll(it.MAC, ":", "")
		v.What = "Runs out at " + it.RunsOut.In(s.cfg.Zone).Format("15:04")
		return v
	}
	v.ID, v.What = "alert-"+it.Alert.ID, it.Alert.Type.Label()
	v.Mine = ss.PersonID != "" && it.Claim.PersonID == ss.PersonID
	if it.Claim.Name != "" && !v.Mine {
		v.Claim = it.Claim.Name + " is on it"
	}
	if it.Done.Name != "" {
		v.Done = doneWords(it.Done, s.cfg.Zone)
	}
	v.ClaimAction, v.DoneAction = "/my/alerts/"+it.Alert.ID+"/claim", "/my/alerts/"+it.Alert.ID+"/done"
	v.ClaimKey, v.DoneKey = rand.Text(), rand.Text()
	for _, o := range domain.Outcomes {
		v.Outcomes = append(v.Outcomes, views.Option{Value: string(o), Label: o.Label()})
	}
	return v
}

// doneWords is a "done" report in words: "Marked done by Ana at 14:05
// (refilled)", "… (could not fix: the lid is broken)".
func doneWords(r domain.DoneReport, zone *time.Location) string {
	what := strings.ToLower(r.Outcome.Label())
	if r.Reason != "" {
		what += ": " + r.Reason
	}
	return "Marked done by " + r.Name + " at " + r.At.In(zone).Format("15:04") + " (" + what + ")"
}

// joinNonEmpty joins the parts that are not empty.
func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// bringItems are what to carry, in words.
func bringItems(items []dashboard.RefillItem) []views.RefillItem {
	return refillTotals([]dashboard.FloorRefill{{Items: items}})[0].Items
}

// readMyWork reads an action form of "My work".
func readMyWork(c echo.Context) (myWorkInput, error) {
	var in myWorkInput
	_, err := readForm(c, form.Text("key", "Key", &in.Key), form.Text("outcome", "What was done", &in.Outcome), form.Text("reason", "Reason", &in.Reason))
	return in, err
}

// claimMyWork says "I'm on it" in the person's own name, once per key.
func (s *Server) claimMyWork(c echo.Context) error {
	ss := sessionOf(c)
	in, err := readMyWork(c)
	if err != nil {
		return err
	}
	_, err = s.dash.ClaimOnce(c.Request().Context(), ss.Account, s.scopeOf(c), c.Param("id"),
		dashboard.NewClaim{PersonID: ss.PersonID, Name: ss.PersonName}, in.Key)
	return s.afterMyWork(c, in, err)
}

// markMyWorkDone keeps what the person did about an alert, once per key.
func (s *Server) markMyWorkDone(c echo.Context) error {
	ss := sessionOf(c)
	in, err := readMyWork(c)
	if err != nil {
		return err
	}
	_, err = s.dash.MarkDone(c.Request().Context(), ss.Account, s.scopeOf(c), c.Param("id"),
		dashboard.NewDone{PersonID: ss.PersonID, Name: ss.PersonName, Outcome: domain.Outcome(in.Outcome), Reason: in.Reason, Key: in.Key})
	return s.afterMyWork(c, in, err)
}

// afterMyWork answers an action of "My work": back to /my, or for htmx
// the item as it is now; a refusal in words (422), or the alert gone
// (404) said as such.
func (s *Server) afterMyWork(c echo.Context, in myWorkInput, err error) error {
	var ce dashboard.ClaimError
	switch {
	case errors.As(err, &ce):
		if isHTMX(c) {
			return &httpkit.Error{Code: http.StatusUnprocessableEntity, Msg: ce.Error() + "."}
		}
		return s.renderMyWork(c, http.StatusUnprocessableEntity, ce.Error()+".", in)
	case errors.Is(err, dashboard.ErrNoOpenAlert):
		return &httpkit.Error{Code: http.StatusNotFound, Msg: "This alert is no longer open, or not in your buildings: nothing was changed."}
	case err != nil:
		return err
	}
	if !isHTMX(c) {
		return redirect(c, "/my")
	}
	ss := sessionOf(c)
	w, err := s.dash.MyWork(c.Request().Context(), ss.Account, s.scopeOf(c), ss.PersonID, s.cfg.Zone)
	if err != nil {
		return err
	}
	id := c.Param("id")
	for _, list := range [][]dashboard.WorkItem{w.Mine, w.Open} {
		for _, it := range list {
			if it.Alert.ID == id {
				return render(c, http.StatusOK, views.WorkLine(s.workLine(c, it), true, csrfToken(c)))
			}
		}
	}
	// The alert closed: its line goes.
	return c.NoContent(http.StatusOK)
}
