package web

import (
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/httpkit"
)

// auditCSVPages bounds /audit.csv: at most this many pages of the log.
const auditCSVPages = 50

// auditPageSize is how many entries a page of /audit shows.
const auditPageSize = 100

// auditQuery reads the audit log's filters from the address: person,
// action, from and to (dates, in the server's zone, both included), and
// after (the page to continue after). A person limited to some buildings
// may not read it.
func (s *Server) auditQuery(c echo.Context) (people.AuditQuery, views.AuditFilter, error) {
	f := views.AuditFilter{Person: c.QueryParam("person"), Action: c.QueryParam("action"), From: c.QueryParam("from"), To: c.QueryParam("to")}
	q := people.AuditQuery{ActorID: f.Person, Cursor: c.QueryParam("after"), Limit: auditPageSize}
	if len(sessionOf(c).Buildings) > 0 {
		// Its entries name screens, rules and people of every building.
		return q, f, &httpkit.Error{Code: http.StatusForbidden,
			Msg: tr(c, "people.audit_limited")}
	}
	if len(f.Person) > 100 {
		return q, f, httpkit.BadParam("person", "is not a person of this account")
	}
	if f.Action != "" {
		a, err := domain.ParseAuditAction(f.Action)
		if err != nil {
			return q, f, httpkit.BadParam("action", "is not an action the audit log records")
		}
		q.Action = a
	}
	for _, d := range []struct {
		name, value string
		dst         *time.Time
		next        bool
	}{{"from", f.From, &q.From, false}, {"to", f.To, &q.To, true}} {
		if d.value == "" {
			continue
		}
		day, err := time.ParseInLocation("2006-01-02", d.value, s.cfg.Zone)
		if err != nil {
			return q, f, httpkit.BadParam(d.name, "%q is not a date written as 2026-11-18", httpkit.Clip(d.value))
		}
		if d.next {
			day = day.AddDate(0, 0, 1) // the day written is included
		}
		*d.dst = day
	}
	return q, f, nil
}

// showAudit shows a page of the account's audit log, newest first, with
// its filters.
func (s *Server) showAudit(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	q, f, err := s.auditQuery(c)
	if err != nil {
		return err
	}
	page, err := s.people.AuditLog(ctx, ss.Account, q)
	if words := problemIn(c, err); words != "" {
		return &httpkit.Error{Code: http.StatusBadRequest, Msg: words, Err: err}
	}
	if err != nil {
		return err
	}
	m := views.AuditPage{Page: s.page(c, tr(c, "people.audit_heading"), "audit"), Filter: f, Actions: domain.AuditActions()}
	members, err := s.people.Members(ctx, ss.Account)
	if err != nil {
		return err
	}
	for _, p := range members {
		m.People = append(m.People, views.PersonRow{ID: p.PersonID, Name: p.Name})
	}
	for _, e := range page.Entries {
		m.Entries = append(m.Entries, views.AuditRow{At: e.At, Who: e.ActorName, Action: e.Action, Subject: e.Subject})
	}
	v := url.Values{}
	for k, val := range map[string]string{"person": f.Person, "action": f.Action, "from": f.From, "to": f.To} {
		if val != "" {
			v.Set(k, val)
		}
	}
	m.CSVHref = "/audit.csv?" + v.Encode()
	if page.Next != "" {
		v.Set("after", page.Next)
		m.NextHref = "/audit?" + v.Encode()
	}
	return render(c, http.StatusOK, views.AuditLog(m))
}

// exportAudit answers /audit.csv: the entries of the filters, newest
// first, at most auditCSVPages pages of them.
func (s *Server) exportAudit(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	q, _, err := s.auditQuery(c)
	if err != nil {
		return err
	}
	q.Limit = 0 // the most a page holds
	w := csvResponse(c, "audit.csv")
	w.Write([]string{"at", "person", "action", "subject"})
	for range auditCSVPages {
		page, err := s.people.AuditLog(ctx, ss.Account, q)
		if err != nil {
			return err
		}
		for _, e := range page.Entries {
			w.Write(cells(isoTime(e.At), e.ActorName, string(e.Action), e.Subject))
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	w.Flush()
	return w.Error()
}
