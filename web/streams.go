package web

import (
	"context"
	"sync"

	"github.com/labstack/echo/v4"
)

// sessionStreams are the event streams open on this replica, by the
// stored token of the session each belongs to: a session that ends (its
// person removed or demoted, signed out here or on another replica) ends
// its streams at once.
type sessionStreams struct {
	mu   sync.Mutex
	open map[string]map[*context.CancelFunc]struct{}
}

// add registers a stream of a session, and returns the function that
// unregisters it.
func (ss *sessionStreams) add(token string, cancel context.CancelFunc) func() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.open == nil {
		ss.open = map[string]map[*context.CancelFunc]struct{}{}
	}
	if ss.open[token] == nil {
		ss.open[token] = map[*context.CancelFunc]struct{}{}
	}
	key := &cancel
	ss.open[token][key] = struct{}{}
	return func() {
		ss.mu.Lock()
		defer ss.mu.Unlock()
		delete(ss.open[token], key)
		if len(ss.open[token]) == 0 {
			delete(ss.open, token)
		}
	}
}

// has reports whether a session has streams open here.
func (ss *sessionStreams) has(token string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return len(ss.open[token]) > 0
}

// end ends the streams of a session.
func (ss *sessionStreams) end(token string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for cancel := range ss.open[token] {
		(*cancel)()
	}
}

// streamContext is the context of a session's event stream: it ends when
// the request does, or when the session ends.
func (s *Server) streamContext(c echo.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(c.Request().Context())
	token := s.sessions.Token(c.Request().Context())
	if token == "" {
		return ctx, cancel
	}
	remove := s.streams.add(storedToken(token), cancel)
	return ctx, func() { remove(); cancel() }
}

// sessionHeard is told of a session another replica wrote: if it has
// streams here and is gone from the store, they end.
func (s *Server) sessionHeard(token string) {
	if !s.streams.has(token) {
		return
	}
	go func() {
		if _, found, err := s.sessionStore.Find(token); err == nil && !found {
			s.streams.end(token)
		}
	}()
}

// sessionLives reports whether the request's session is still in the
// store: it may have ended (its person removed, on this replica or
// another) since the request loaded it.
func (s *Server) sessionLives(c echo.Context) bool {
	token := s.sessions.Token(c.Request().Context())
	if token == "" {
		return true
	}
	_, found, err := s.sessionStore.Find(storedToken(token))
	return err != nil || found
}
