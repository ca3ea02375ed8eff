package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/syncer"
	"washboard/web/httpkit"
)

// logOf is the request's logger: every line carries its request id.
func (s *Server) logOf(c echo.Context) *slog.Logger { return httpkit.LogOf(c, s.log) }

// secureRequest reports whether the request came over TLS, directly or
// through a trusted proxy that says so.
func (s *Server) secureRequest(c echo.Context) bool {
	return httpkit.Proxies(s.cfg.TrustedProxies).Secure(c.Request())
}

// The CSRF defence: every state-changing request must carry, in the form
// field csrf_token or the X-CSRF-Token header, a token the server derives
// from the session it belongs to, with a key of its own. A signed-in
// session's token is a MAC of the session's random identity, which only
// the server knows, so a token cannot be forged even by someone who can
// set cookies for the host (a sibling subdomain, plain HTTP on the same
// name). Before sign-in, the token is a MAC of a random value in an
// HttpOnly cookie; that cookie is named with the __Host- prefix over TLS,
// so that no other host and no plain-HTTP page can set it, and it is
// replaced at sign-in and at sign-out.
const (
	csrfCookie       = "washboard_csrf"
	csrfCookieSecure = "__Host-washboard_csrf"
	csrfField        = "csrf_token"
	csrfHeader       = "X-CSRF-Token"
	ctxCSRF          = "csrf"
)

func (s *Server) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		kind, id := s.csrfIdentity(c)
		c.Set(ctxCSRF, maskToken(s.keys.MAC(keyring.FormTokens, kind, id)))
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if ok, err := s.pushAction(c); ok || err != nil {
			if err != nil {
				return err
			}
			return next(c)
		}
		sent := c.Request().Header.Get(csrfHeader)
		if sent == "" {
			sent = c.FormValue(csrfField)
		}
		if got, ok := unmaskToken(sent); !ok || !s.keys.VerifyMAC(keyring.FormTokens, got, kind, id) {
			return &httpkit.Error{Code: http.StatusForbidden, Msg: "This form has expired or did not come from Washboard. Reload the page and try again."}
		}
		return next(c)
	}
}

// csrfIdentity is what the request's form tokens are derived from: the
// signed-in session's random identity, or else the browser's anonymous
// token cookie, set here when it has none.
func (s *Server) csrfIdentity(c echo.Context) (kind, id string) {
	if holder := s.sessions.GetString(c.Request().Context(), keyHolder); holder != "" {
		return "session", holder
	}
	name := s.csrfCookieName(c)
	if ck, err := c.Cookie(name); err == nil && len(ck.Value) == 64 {
		if _, err := hex.DecodeString(ck.Value); err == nil {
			return "anonymous", ck.Value
		}
	}
	return "anonymous", s.renewAnonymousToken(c)
}

// renewAnonymousToken gives the browser a new anonymous token cookie, so
// that forms shown before sign-in (or before sign-out) stop working.
func (s *Server) renewAnonymousToken(c echo.Context) string {
	v := httpkit.RandomHex(32)
	c.SetCookie(&http.Cookie{Name: s.csrfCookieName(c), Value: v, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureRequest(c)})
	return v
}

func (s *Server) csrfCookieName(c echo.Context) string {
	if s.secureRequest(c) {
		return csrfCookieSecure
	}
	return csrfCookie
}

// csrfToken is the CSRF token the response carries.
func csrfToken(c echo.Context) string {
	t, _ := c.Get(ctxCSRF).(string)
	return t
}

// The token a response carries is masked afresh for each one: a random pad,
// then the cookie's token XORed with the pad. Pages are sent gzipped, and a
// page that repeats what its address asked for (a search, a filter) beside
// a secret that never changes would let someone who can make a browser
// load pages and watch their sizes work the secret out a byte at a time
// (BREACH). A masked token has no bytes in common from one response to the
// next.

// maskToken masks a token with a fresh pad.
func maskToken(token []byte) string {
	b := make([]byte, 2*len(token))
	pad, masked := b[:len(token)], b[len(token):]
	if _, err := rand.Read(pad); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	subtle.XORBytes(masked, pad, token)
	return hex.EncodeToString(b)
}

// unmaskToken returns the token a masked token carries.
func unmaskToken(s string) ([]byte, bool) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 64 {
		return nil, false
	}
	subtle.XORBytes(b[32:], b[:32], b[32:])
	return b[32:], true
}

// requireAccount lets signed-in sessions through, keeps their account's
// sync running, and sends everyone else (and sessions whose credentials the
// service rejected) to sign in.
func (s *Server) requireAccount(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		ss, ok := s.currentSession(ctx)
		if !ok {
			if key := enrolledKey(c); key != "" {
				return s.resumeDevice(c, key)
			}
			return s.redirectToSignIn(c, "")
		}
		if _, rejected := s.sync.Rejected(syncer.CredentialID(ss.Cred)); rejected && ss.PersonID != "" {
			// The account's credentials may have been replaced since:
			// a person's session takes those it is connected with now.
			if cred, err := s.people.Credentials(ctx, ss.Account); err == nil && syncer.CredentialID(cred) != syncer.CredentialID(ss.Cred) {
				s.putCredentials(ctx, cred)
				ss.Cred = cred
			}
		}
		if why, rejected := s.sync.Rejected(syncer.CredentialID(ss.Cred)); rejected {
			s.sync.Release(holderID(ss.Holder))
			if err := s.sessions.Destroy(ctx); err != nil {
				return err
			}
			return s.redirectToSignIn(c, string(why))
		}
		if ss.PersonID == "" {
			var err error
			if ss, err = s.adoptLegacySession(c, ss); err != nil {
				return peopleProblem(err)
			}
		}
		s.sync.Hold(holderID(ss.Holder), ss.Account, ss.Cred, s.clock.Now().Add(s.sessions.IdleTimeout))
		c.Set(ctxSession, ss)
		return next(c)
	}
}

const ctxSession = "session"

func sessionOf(c echo.Context) session {
	ss, _ := c.Get(ctxSession).(session)
	return ss
}

// redirectToSignIn sends the browser to the sign-in page, coming back to
// the page asked for afterwards, saying why (a syncer.Rejection) when the
// service rejected the session's credentials. An htmx request gets
// HX-Redirect.
func (s *Server) redirectToSignIn(c echo.Context, rejected string) error {
	q := url.Values{}
	if r := c.Request(); r.Method == http.MethodGet && !isHTMX(c) && r.URL.Path != "/" {
		q.Set("next", r.URL.RequestURI())
	}
	if rejected != "" {
		q.Set("reason", rejected)
	}
	target := "/signin"
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	return redirect(c, target)
}

// redirect leaves the page: a 303 for a browser, HX-Redirect for htmx.
func redirect(c echo.Context, target string) error {
	if isHTMX(c) {
		c.Response().Header().Set(hxRedirect, target)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, target)
}

// requireRole lets through only the sessions whose person holds the role
// least, or one above it, in the session's account; others get a page
// saying what their role is and what the page needs.
func requireRole(least domain.Role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ss := sessionOf(c); ss.Role < least {
				return &httpkit.Error{Code: http.StatusForbidden, Msg: roleRefusal(ss.Role, least)}
			}
			c.Set(ctxLeastRole, least)
			return next(c)
		}
	}
}

// ctxLeastRole holds the least role of the request's route, for the pages
// of several accounts, which ask it of each account as well.
const ctxLeastRole = "least-role"

// leastRoleOf is the least role of the request's route (requireRole).
func leastRoleOf(c echo.Context) domain.Role {
	r, _ := c.Get(ctxLeastRole).(domain.Role)
	return max(r, viewer)
}

// roleRefusal says why a role may not do what needs the role least.
func roleRefusal(have, least domain.Role) string {
	return fmt.Sprintf("This needs the role %s or above, and your role in this account is %s. Ask an admin of the account if you need it.",
		least, have)
}

// requireFirstSync shows the progress bar until the account's first sync
// is done.
func (s *Server) requireFirstSync(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ss := sessionOf(c)
		done, err := s.firstSyncDone(c, ss.Account)
		if err != nil {
			return err
		}
		if done {
			return next(c)
		}
		if isHTMX(c) {
			c.Response().Header().Set(hxRefresh, "true")
			return c.NoContent(http.StatusNoContent)
		}
		return s.showProgress(c)
	}
}
