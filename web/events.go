package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/syncer"
	"washboard/views"
)

// heartbeat is how often an idle event stream sends a comment, so that
// proxies keep it open and clients notice a dead connection.
const heartbeat = 20 * time.Second

// streamEvents sends server-sent events telling the page which parts of
// its data changed: "devices", "alerts", "metadata", and "status" when
// the freshness of the data changed. Pages swap the fragments that show
// them. A person limited to some buildings is told of a change only when
// what they see changed.
func (s *Server) streamEvents(c echo.Context) error {
	ss, sc := sessionOf(c), s.scopeOf(c)
	events, stop := s.sync.Subscribe(ss.Account)
	defer stop()
	defer s.metrics.StreamOpened("session")()
	ctx := c.Request().Context()
	seen := s.seenChanges(ctx, ss.Account, sc)
	// The stream is known as its session's before its first byte, and
	// the session is looked for once more: a session ended from now on
	// ends the stream, and one ended since this request loaded it sends
	// none.
	ctx, done := s.streamContext(c)
	defer done()
	if !s.sessionLives(c) {
		return s.redirectToSignIn(c, "")
	}
	st := startStream(c)
	if !st.retry(3 * time.Second) {
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.closing:
			return nil // shutting down: the browser reconnects, to this server's successor
		case <-time.After(heartbeat):
			if !st.ping() {
				return nil
			}
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			name := eventName(ev)
			if name == "" || ev.Kind == syncer.EventChanged && !seen(ev.Resource) {
				continue
			}
			at := ev.At.UTC().Format(time.RFC3339)
			if !st.send(name, at) {
				return nil
			}
			if ev.Kind == syncer.EventChanged && !st.send("status", at) {
				return nil
			}
		}
	}
}

func eventName(ev syncer.Event) string {
	switch ev.Kind {
	case syncer.EventChanged:
		switch ev.Resource {
		case domain.ResourceDevices:
			return "devices"
		case domain.ResourceAlerts:
			return "alerts"
		case domain.ResourceMetadata:
			return "metadata"
		}
	case syncer.EventFailed, syncer.EventRejected, syncer.EventStopped:
		return "status"
	}
	return ""
}

// showStatus answers the freshness banner's fragment.
func (s *Server) showStatus(c echo.Context) error {
	ss := sessionOf(c)
	return render(c, http.StatusOK, views.FreshnessBanner(s.freshness(c.Request().Context(), ss), s.cfg.Zone))
}

// showProgress shows the first sync's progress, until it is done.
func (s *Server) showProgress(c echo.Context) error {
	ss := sessionOf(c)
	done, err := s.firstSyncDone(c, ss.Account)
	if err != nil {
		return err
	}
	if done {
		if isHTMX(c) {
			c.Response().Header().Set(hxRefresh, "true")
			return c.NoContent(http.StatusNoContent)
		}
		if c.Path() == "/sync/progress" {
			return redirect(c, "/")
		}
	}
	p := s.sync.Progress(ss.Account)
	m := views.SyncProgress{Page: s.page(c, tr(c, "progress.title"), ""), Phase: p.Phase, Pages: p.Pages, Devices: p.Devices, Alerts: p.Alerts,
		Failure: p.Failure, RetryEvery: s.sync.Config().Interval}
	m.Live = false
	if isHTMX(c) {
		return render(c, http.StatusOK, views.ProgressFragment(m))
	}
	return render(c, http.StatusOK, views.ProgressPage(m))
}

// seenChanges returns whether a change of a resource changed what the
// scope sees: always, for a scope of every building; otherwise when the
// digest of what it sees differs from the last one (dashboard.Seen). A
// digest that cannot be read counts as a change.
func (s *Server) seenChanges(ctx context.Context, account string, sc domain.BuildingScope) func(domain.Resource) bool {
	if !sc.Limited() {
		return func(domain.Resource) bool { return true }
	}
	last := map[domain.Resource]uint64{}
	for _, res := range []domain.Resource{domain.ResourceDevices, domain.ResourceAlerts, domain.ResourceMetadata} {
		last[res], _ = s.dash.Seen(ctx, account, sc, res)
	}
	return func(res domain.Resource) bool {
		v, err := s.dash.Seen(ctx, account, sc, res)
		if err != nil {
			return true
		}
		changed := v != last[res]
		last[res] = v
		return changed
	}
}
