package web

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
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
	Key, Outcome, Reason, Seen string
}

func (s *Server) renderMyWork(c echo.Context, status int, problem string, in myWorkInput) error {
	ss := sessionOf(c)
	w, err := s.dash.MyWork(c.Request().Context(), ss.Account, s.scopeOf(c), ss.PersonID, s.cfg.Zone)
	if err != nil {
		return err
	}
	m := views.MyWork{Page: s.page(c, tr(c, "my.title"), "my"), Shift: w.Shift, ShiftEnd: w.ShiftEnd, Bring: bringWords(c, w.Bring),
		MayAct: ss.Role >= domain.Staff, Cut: w.Cut, Problem: problem, Drawn: s.clock.Now(), Round: myRound(c, w.Round)}
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
	loc := i18n.From(c.Request().Context())
	v := views.WorkItem{Where: joinNonEmpty(" › ", it.Room, it.Location.Name), Building: it.Building, Floor: it.Floor,
		Bring: bringWords(c, it.Bring)}
	if it.Alert.ID == "" {
		v.ID = "device-" + strings.ReplaceAll(it.MAC, ":", "")
		v.What = tr(c, "my.runs_out_at", "time", loc.Time(it.RunsOut, s.cfg.Zone))
		return v
	}
	v.ID, v.What = "alert-"+it.Alert.ID, alertTypeWords(c, it.Alert.Type)
	if r := it.Alert.Visitor; r != nil {
		v.What = visitorSaidWords(c, *r)
	}
	v.Mine = ss.PersonID != "" && it.Claim.PersonID == ss.PersonID
	if it.Claim.Name != "" && !v.Mine {
		v.Claim = tr(c, "my.on_it", "name", it.Claim.Name)
	}
	v.Seen = "0"
	if it.Claim.Name != "" {
		v.Seen = strconv.FormatInt(it.Claim.At.UnixMilli(), 10)
	}
	if it.Done.Name != "" {
		v.Done = doneWords(c, it.Done, s.cfg.Zone)
	}
	v.ClaimAction, v.DoneAction = "/my/alerts/"+it.Alert.ID+"/claim", "/my/alerts/"+it.Alert.ID+"/done"
	v.ClaimKey, v.DoneKey = rand.Text(), rand.Text()
	for _, o := range domain.Outcomes {
		v.Outcomes = append(v.Outcomes, views.Option{Value: string(o), Label: outcomeWords(c, o)})
	}
	return v
}

// alertTypeWords is an alert's type in the page's language: "Product
// out".
func alertTypeWords(c echo.Context, t domain.AlertType) string {
	switch t {
	case domain.AlertConsumableOut:
		return tr(c, "my.type_consumable_out")
	case domain.AlertBatteryOut:
		return tr(c, "my.type_battery_out")
	case domain.AlertJam:
		return tr(c, "my.type_jam_fault")
	case domain.AlertSensor:
		return tr(c, "my.type_sensor_fault")
	case domain.AlertSystem:
		return tr(c, "my.type_system_fault")
	case domain.AlertIncorrectlyLoaded:
		return tr(c, "my.type_incorrectly_loaded")
	case domain.AlertDeviceOff:
		return tr(c, "my.type_device_off")
	}
	return t.Label()
}

// outcomeWords is what was done, in the page's language: "Refilled".
func outcomeWords(c echo.Context, o domain.Outcome) string {
	switch o {
	case domain.Refilled:
		return tr(c, "my.outcome_refilled")
	case domain.BatteriesChanged:
		return tr(c, "my.outcome_batteries_changed")
	case domain.FaultCleared:
		return tr(c, "my.outcome_fault_cleared")
	case domain.CouldNotFix:
		return tr(c, "my.outcome_could_not_fix")
	}
	return o.Label()
}

// doneWords is a "done" report in words: "Marked done by Ana at 14:05
// (refilled)", "… (could not fix: the lid is broken)".
func doneWords(c echo.Context, r domain.DoneReport, zone *time.Location) string {
	at := i18n.From(c.Request().Context()).Time(r.At, zone)
	switch r.Outcome {
	case domain.Refilled:
		return tr(c, "my.done_refilled", "name", r.Name, "time", at)
	case domain.BatteriesChanged:
		return tr(c, "my.done_batteries_changed", "name", r.Name, "time", at)
	case domain.FaultCleared:
		return tr(c, "my.done_fault_cleared", "name", r.Name, "time", at)
	}
	return tr(c, "my.done_could_not_fix", "name", r.Name, "time", at, "reason", r.Reason)
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

// bringWords are what to carry, in words of the page's language: "2
// tissue rolls", "1 battery set".
func bringWords(c echo.Context, items []dashboard.RefillItem) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, refillWords(c, it))
	}
	return out
}

func refillWords(c echo.Context, it dashboard.RefillItem) string {
	if it.Kind == dashboard.RefillBattery {
		return trn(c, "my.bring_batteries", it.Count)
	}
	switch domain.DeviceType(it.Kind) {
	case domain.Tissue:
		return trn(c, "my.bring_tissue", it.Count)
	case domain.Towel:
		return trn(c, "my.bring_towel", it.Count)
	case domain.Soap:
		return trn(c, "my.bring_soap", it.Count)
	case domain.Sanitizer:
		return trn(c, "my.bring_sanitizer", it.Count)
	}
	return trn(c, "my.bring_refills", it.Count)
}

// readMyWork reads an action form of "My work". Seen is sent by a phone
// that kept the action while offline (static/js/mywork.js): the claim the
// page showed, in Unix milliseconds, "0" for none.
func readMyWork(c echo.Context) (myWorkInput, error) {
	var in myWorkInput
	_, err := readForm(c, form.Text("key", "Key", &in.Key), form.Text("outcome", "What was done", &in.Outcome),
		form.Text("reason", "Reason", &in.Reason), form.Text("seen", "Seen", &in.Seen))
	return in, err
}

// claimMyWork says "I'm on it" in the person's own name, once per key.
// Sent later (kept on a phone without signal, with the claim it saw; or
// from a push's button, with the push's action token instead of the
// form's), it does not take the alert from someone who claimed it
// since, and says why it was not done.
func (s *Server) claimMyWork(c echo.Context) error {
	ss := sessionOf(c)
	in, err := readMyWork(c)
	if err != nil {
		return err
	}
	ctx, claim := c.Request().Context(), dashboard.NewClaim{PersonID: ss.PersonID, Name: ss.PersonName}
	if key, ok := c.Get(ctxPushActionKey).(string); ok {
		in.Key, in.Seen = key, "0"
	}
	if in.Seen == "" {
		_, err = s.dash.ClaimOnce(ctx, ss.Account, s.scopeOf(c), c.Param("id"), claim, in.Key)
		return s.afterMyWork(c, in, err)
	}
	ms, perr := strconv.ParseInt(in.Seen, 10, 64)
	if perr != nil || ms < 0 {
		return httpkit.BadParam("seen", "is not a time in milliseconds")
	}
	var seen time.Time
	if ms > 0 {
		seen = time.UnixMilli(ms)
	}
	_, err = s.dash.ClaimLater(ctx, ss.Account, s.scopeOf(c), c.Param("id"), claim, in.Key, seen)
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

// sentAnswer is the answer of an action to a script that asked for JSON
// (static/js/queue.js): it was done, or done before under its key.
type sentAnswer struct {
	Sent bool `json:"sent"`
}

// myWorkProblem says why an action of "My work" cannot be kept, in the
// reader's language.
func myWorkProblem(c echo.Context, ce dashboard.ClaimError) string {
	switch {
	case ce.Field == dashboard.ActionKey:
		return tr(c, "my.problem_key")
	case ce.Field == dashboard.DoneOutcome:
		return tr(c, "my.problem_outcome")
	case ce.Field == dashboard.DoneReason && ce.Reason == dashboard.DoneReasonNeeded:
		return tr(c, "my.problem_reason_needed")
	case ce.Field == dashboard.DoneReason && ce.Reason == fmt.Sprintf(dashboard.ClaimTooLong, dashboard.MaxDoneReason):
		return tr(c, "my.problem_reason_too_long", "limit", i18n.From(c.Request().Context()).Number(dashboard.MaxDoneReason))
	case ce.Field == dashboard.DoneReason:
		return tr(c, "my.problem_reason_text")
	}
	return claimProblem(c, ce)
}

// afterMyWork answers an action of "My work": back to /my, for htmx the
// item as it is now, for a script JSON; a refusal in words (422), an
// alert gone (404) or an action sent later that no longer applies (409)
// said as such.
func (s *Server) afterMyWork(c echo.Context, in myWorkInput, err error) error {
	loc := i18n.From(c.Request().Context())
	var ce dashboard.ClaimError
	var closed dashboard.AlertClosedError
	var taken dashboard.ClaimTakenError
	switch {
	case errors.As(err, &ce):
		said := myWorkProblem(c, ce)
		if isHTMX(c) || wantsJSON(c.Request()) {
			return &httpkit.Error{Code: http.StatusUnprocessableEntity, Msg: said}
		}
		return s.renderMyWork(c, http.StatusUnprocessableEntity, said, in)
	case errors.As(err, &closed):
		return &httpkit.Error{Code: http.StatusConflict, Msg: tr(c, "my.refused_closed", "time", loc.Time(closed.At, s.cfg.Zone))}
	case errors.As(err, &taken):
		return &httpkit.Error{Code: http.StatusConflict, Msg: tr(c, "my.refused_taken", "name", taken.Name, "time", loc.Time(taken.At, s.cfg.Zone))}
	case errors.Is(err, dashboard.ErrNoOpenAlert):
		return &httpkit.Error{Code: http.StatusNotFound, Msg: tr(c, "my.no_open_alert")}
	case err != nil:
		return err
	}
	if wantsJSON(c.Request()) {
		return c.JSON(http.StatusOK, sentAnswer{Sent: true})
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

// visitorSaidWords is a visitor's report as an item of work says it:
// "Reported by a visitor: Out of soap", with the words they wrote.
func visitorSaidWords(c echo.Context, r domain.VisitorReport) string {
	what := views.VisitorKindName(c.Request().Context(), r.Kind)
	if r.Text != "" {
		return tr(c, "vreport.said_text", "what", what, "text", r.Text)
	}
	return tr(c, "vreport.said", "what", what)
}
