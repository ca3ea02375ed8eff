package web

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/syncer"
	"washboard/views"
)

// A wall screen's event stream: its heartbeat, and "changed" when what it
// shows changes (docs/wall-screens.md).

type screenBeat struct {
	Version  string `json:"version"`
	AsOf     string `json:"asOf"`
	Stale    bool   `json:"stale"`
	Rejected bool   `json:"rejected,omitempty"`
	// Stopped, when set, says why the screen shows no more data, in the
	// words it shows.
	Stopped *stopWords `json:"stopped,omitempty"`
	// Unlinked is what screens running the script of an earlier version
	// understand, until the version change reloads them.
	Unlinked bool `json:"unlinked,omitempty"`
	// Now is the server's time, when screens keep time with the server's
	// clock (Config.ClockSpeed).
	Now string `json:"now,omitempty"`
}

// stopWords say why a screen stopped, in its language.
type stopWords struct {
	Title   string `json:"title"`
	Message string `json:"message"`
}

// screenStopWords are the words of a screen's stop, in the request's
// language: the screen's.
func screenStopWords(c echo.Context, stop views.ScreenStop) *stopWords {
	ctx := c.Request().Context()
	return &stopWords{Title: views.ScreenStopTitle(ctx, stop), Message: views.ScreenStopMessage(ctx, stop)}
}

// screenRetry is how long a screen waits before reconnecting a stream
// that ended; screen.js shows a lost connection 5 s after an error.
const screenRetry = 2 * time.Second

// streamScreenEvents sends a screen "changed" when its data changed, and a
// heartbeat (every Config.ScreenHeartbeat) with the server's version and
// the age of the data; it tells an unlinked screen so within one heartbeat.
func (s *Server) streamScreenEvents(c echo.Context) error {
	sc := c.Get(ctxScreen).(screenCtx)
	st := startStream(c)
	// Soon enough that a screen whose server restarts reconnects (to
	// another replica, behind a load balancer) before it shows a banner.
	if !st.retry(screenRetry) {
		return nil
	}
	send := st.send
	var generation uint64 // of a portfolio screen's clients, at the last heartbeat
	beat := func() (screenBeat, bool) {
		hb := screenBeat{Version: s.version}
		if s.cfg.ClockSpeed > 0 {
			hb.Now = s.clock.Now().UTC().Format(time.RFC3339Nano)
		}
		cur, err := s.screenOf(c)
		switch {
		case err != nil:
			hb.Stopped, hb.Unlinked = screenStopWords(c, views.StopUnlinked), true
		case !cur.stopped.IsZero():
			hb.Stopped, hb.Unlinked = screenStopWords(c, cur.stopped), cur.stopped == views.StopUnlinked
		}
		if hb.Stopped != nil {
			return hb, send("heartbeat", mustJSON(hb))
		}
		s.checkIn(c, cur)
		var f domain.Freshness
		if cur.screen.Portfolio() {
			var key uint64
			var err error
			var stop views.ScreenStop
			if f, stop, key, err = s.portfolioBeat(c.Request().Context(), cur.screen); err != nil {
				s.logOf(c).Warn("reading a portfolio screen's clients", "screen", cur.screen.ID, "error", err.Error())
			}
			if !stop.IsZero() {
				hb.Stopped = screenStopWords(c, stop)
				return hb, send("heartbeat", mustJSON(hb))
			}
			// Its clients' data changed since the last heartbeat: the
			// screen reads it again.
			if changed := generation != 0 && key != generation; changed && !send("changed", s.clock.Now().UTC().Format(time.RFC3339)) {
				return hb, false
			}
			generation = key
		} else {
			f = s.freshness(c.Request().Context(), session{Account: cur.screen.Account, Cred: cur.cred})
		}
		if !f.AsOf.IsZero() {
			hb.AsOf = f.AsOf.UTC().Format(time.RFC3339)
		}
		hb.Stale, hb.Rejected = f.Stale || f.Failed, f.Rejected
		return hb, send("heartbeat", mustJSON(hb))
	}
	if !sc.stopped.IsZero() {
		beat()
		return nil
	}
	// A portfolio screen (of no one account) hears here only that the
	// other replicas' announcements were missed; its clients' changes
	// come with its heartbeats (portfolioBeat).
	events, stop := s.sync.Subscribe(sc.screen.Account)
	defer stop()
	defer s.metrics.StreamOpened("screen")()
	if _, ok := beat(); !ok {
		return nil
	}
	ticker := time.NewTicker(s.cfg.ScreenHeartbeat)
	defer ticker.Stop()
	ctx := c.Request().Context()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.closing:
			return nil // shutting down: the screen reconnects by itself
		case <-ticker.C:
			hb, ok := beat()
			if !ok || hb.Stopped != nil {
				return nil
			}
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			if ev.Kind == syncer.EventChanged || ev.Kind == syncer.EventRejected || ev.Kind == syncer.EventFailed {
				if !send("changed", ev.At.UTC().Format(time.RFC3339)) {
					return nil
				}
			}
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v) // plain structs always encode
	return strings.TrimSpace(string(b))
}
