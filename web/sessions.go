package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/people"
	"washboard/web/httpkit"
)

// sessionCookie is the name of the session cookie.
const sessionCookie = "washboard_session"

// ctxSessionLoaded marks a request whose session is loaded: pages built
// for other requests (a 404 of a static file) have no session to read.
const ctxSessionLoaded = "session_loaded"

// Keys of the values a session holds. The whole session is encrypted at
// rest by encryptedCodec.
const (
	keyAccount     = "account"      // the account the credentials were verified against
	keyAccountName = "account_name" // its name
	keyAPIKey      = "api_key"
	keyAuth        = "authorization"
	// keyClientID and keyClientSecret take the place of keyAuth for a
	// session that obtains the service's tokens itself.
	keyClientID     = "client_id"
	keyClientSecret = "client_secret"
	keyHolder       = "holder"  // random id under which the session holds the account's sync
	keyTouched      = "touched" // when the session's idle deadline was last written, in Unix seconds
)

// touchEvery is how often a request writes a session back only to push its
// idle deadline: not on every request, so that pages and their live
// updates read the database without writing to it.
const touchEvery = 5 * time.Minute

// SessionConfig configures sessions.
type SessionConfig struct {
	IdleTimeout time.Duration // default 12 h
	Lifetime    time.Duration // default 7 days
	// Shared says that other replicas read and write the same sessions:
	// signing out on one replica signs out on all at once. With
	// Deps.SessionAnnouncements, replicas keep sessions in memory and announce
	// their writes to each other; without, none is kept.
	Shared bool
}

// newSessionManager returns a session manager storing sessions, sealed
// with the ring's session key, in the store.
func newSessionManager(st httpkit.SessionStore, cfg SessionConfig, keys *keyring.Ring, announcements httpkit.SessionAnnouncements) *scs.SessionManager {
	codec := newEncryptedCodec(keys)
	sm := scs.New()
	switch {
	case !cfg.Shared:
		sm.Store = httpkit.NewSessionCache(st, httpkit.SessionsKept)
	case announcements != nil:
		sm.Store = httpkit.NewSharedSessionCache(st, httpkit.SessionsKept, announcements)
	default:
		sm.Store = httpkit.NewSessionCache(st, 0)
	}
	sm.Codec = codec
	sm.IdleTimeout = cmpOr(cfg.IdleTimeout, 12*time.Hour)
	sm.Lifetime = cmpOr(cfg.Lifetime, 7*24*time.Hour)
	sm.Cookie.Name = sessionCookie
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Path = "/"
	sm.HashTokenInStore = true // a stolen database yields no usable token
	return sm
}

func cmpOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// encryptedCodec encodes sessions with gob, then seals them with the
// ring's session key, so that credentials never rest in the database in
// clear. It remembers what it opened: a sealed session carries its own
// random nonce, so the same bytes always open to the same values. A
// session sealed with a key the ring replaces opens too, and is sealed
// with the current key when it is next written.
type encryptedCodec struct {
	keys *keyring.Ring

	mu     sync.Mutex
	opened map[string]openedSession // by the sealed bytes
}

type openedSession struct {
	deadline time.Time
	values   map[string]interface{}
}

func newEncryptedCodec(keys *keyring.Ring) *encryptedCodec {
	return &encryptedCodec{keys: keys, opened: map[string]openedSession{}}
}

func (c *encryptedCodec) Encode(deadline time.Time, values map[string]interface{}) ([]byte, error) {
	plain, err := scs.GobCodec{}.Encode(deadline, values)
	if err != nil {
		return nil, err
	}
	return c.keys.Seal(keyring.Sessions, plain, nil), nil
}

// Decode opens a sealed session. The caller gets its own map of values:
// scs changes it in place.
func (c *encryptedCodec) Decode(b []byte) (time.Time, map[string]interface{}, error) {
	c.mu.Lock()
	o, ok := c.opened[string(b)]
	c.mu.Unlock()
	if ok {
		return o.deadline, maps.Clone(o.values), nil
	}
	plain, _, err := c.keys.Open(keyring.Sessions, b, nil)
	if err != nil {
		return time.Time{}, nil, errors.New("session data does not open with this server's key")
	}
	deadline, values, err := scs.GobCodec{}.Decode(plain)
	if err != nil {
		return deadline, values, err
	}
	c.mu.Lock()
	if len(c.opened) >= httpkit.SessionsKept {
		for k := range c.opened { // any one: the map's order is random
			delete(c.opened, k)
			break
		}
	}
	c.opened[string(b)] = openedSession{deadline: deadline, values: maps.Clone(values)}
	c.mu.Unlock()
	return deadline, values, nil
}

// loadSession loads the request's session and commits it just before the
// response is written, on every path: success, error pages and redirects
// alike, with one Set-Cookie header.
func (s *Server) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		httpkit.AddVary(c.Response().Header(), "Cookie")
		var token string
		if ck, err := r.Cookie(sessionCookie); err == nil {
			token = ck.Value
		}
		ctx, err := s.sessions.Load(r.Context(), token)
		var unread httpkit.SessionReadError
		if errors.As(err, &unread) {
			// The database does not answer: the session is not lost, and
			// the user is not sent to sign in again.
			s.log.Error("reading a session", "error", err.Error(), "request_id", httpkit.RequestIDOf(c))
			return &httpkit.Error{Code: http.StatusServiceUnavailable, Msg: "Washboard cannot reach its database just now. Try again in a moment."}
		}
		if err != nil {
			// A session that cannot be read (another key, a damaged row)
			// is treated as none.
			s.log.Warn("session could not be loaded; starting a new one", "error", err.Error())
			ctx, err = s.sessions.Load(r.Context(), "")
			if err != nil {
				return err
			}
		}
		c.SetRequest(r.WithContext(ctx))
		c.Set(ctxSessionLoaded, true)
		c.Response().Before(func() { s.commitSession(c) })
		if err := s.rememberLanguage(c); err != nil {
			return err
		}
		return next(c)
	}
}

// sessionChanged makes the request write its session back: a value other
// than the idle deadline changed.
func (s *Server) sessionChanged(ctx context.Context) { s.sessions.Remove(ctx, keyTouched) }

func (s *Server) commitSession(c echo.Context) {
	ctx := c.Request().Context()
	var token string
	var expiry time.Time
	switch s.sessions.Status(ctx) {
	case scs.Modified:
		// With an idle timeout every loaded session counts as modified.
		// Sessions whose values did not change are written back once in
		// touchEvery, which is when their deadline has moved enough to
		// matter.
		now := time.Now()
		if t := s.sessions.GetInt64(ctx, keyTouched); t != 0 && now.Sub(time.Unix(t, 0)) < touchEvery {
			return
		}
		s.sessions.Put(ctx, keyTouched, now.Unix())
		var err error
		if token, expiry, err = s.sessions.Commit(ctx); err != nil {
			s.log.Error("committing the session", "error", err.Error(), "request_id", httpkit.RequestIDOf(c))
			return
		}
		s.recordSession(c, token)
	case scs.Destroyed:
	default:
		return
	}
	ck := &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureRequest(c),
	}
	if expiry.IsZero() {
		ck.Expires, ck.MaxAge = time.Unix(1, 0), -1
	}
	c.Response().Header().Add("Set-Cookie", ck.String())
	c.Response().Header().Set("Cache-Control", "no-store")
}

// session is what a signed-in request knows of its session: the account
// it is signed in to and, once people sign in, the person and their role
// in it. A session signed in before people existed has no person until
// its first request gives it one (adoptLegacySession).
type session struct {
	Account     string
	AccountName string
	Cred        domain.Credentials
	Holder      string

	PersonID   string
	PersonName string
	Role       domain.Role
	Buildings  []string // empty: every building of the account
	Accounts   int      // how many accounts the person belongs to
	// Portfolio says that the person belongs to an organisation.
	Portfolio bool
}

func (s *Server) currentSession(ctx context.Context) (session, bool) {
	ss := session{
		Account:     s.sessions.GetString(ctx, keyAccount),
		AccountName: s.sessions.GetString(ctx, keyAccountName),
		Cred: domain.Credentials{
			APIKey:        s.sessions.GetString(ctx, keyAPIKey),
			Authorization: s.sessions.GetString(ctx, keyAuth),
			ClientID:      s.sessions.GetString(ctx, keyClientID),
			ClientSecret:  s.sessions.GetString(ctx, keyClientSecret),
		},
		Holder:     s.sessions.GetString(ctx, keyHolder),
		PersonID:   s.sessions.GetString(ctx, keyPerson),
		PersonName: s.sessions.GetString(ctx, keyPersonName),
		Role:       domain.Role(s.sessions.GetInt(ctx, keyRole)),
		Accounts:   s.sessions.GetInt(ctx, keyAccounts),
		Portfolio:  s.sessions.GetBool(ctx, keyPortfolio),
	}
	if b := s.sessions.GetString(ctx, keyBuildings); b != "" {
		ss.Buildings = strings.Split(b, "\n")
	}
	return ss, ss.Account != "" && ss.Cred.APIKey != ""
}

// holderID names a session's hold on its account's sync without revealing
// anything about the session token.
func holderID(random string) string {
	h := sha256.Sum256([]byte("session\x00" + random))
	return "session:" + hex.EncodeToString(h[:8])
}

// OpenSession opens a session's sealed data as this package keeps it, and
// says which account it is signed in to, with which credentials: what
// people.Upgrade reads of the sessions signed in before people existed.
func OpenSession(keys *keyring.Ring) people.SessionOpener {
	codec := newEncryptedCodec(keys)
	return func(data []byte) (string, domain.Credentials, bool) {
		_, values, err := codec.Decode(data)
		if err != nil {
			return "", domain.Credentials{}, false
		}
		str := func(k string) string { v, _ := values[k].(string); return v }
		cred := domain.Credentials{APIKey: str(keyAPIKey), Authorization: str(keyAuth), ClientID: str(keyClientID), ClientSecret: str(keyClientSecret)}
		return str(keyAccount), cred, str(keyAccount) != "" && cred.APIKey != ""
	}
}
