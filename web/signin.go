package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/syncer"
	"washboard/views"
	"washboard/web/httpkit"
)

func (s *Server) showSignIn(c echo.Context) error {
	if _, ok := s.currentSession(c.Request().Context()); ok {
		return redirect(c, returnPath(c.QueryParam("next"), "/"))
	}
	m := s.signInModel(c)
	switch syncer.Rejection(c.QueryParam("reason")) {
	case syncer.RejectedRevoked:
		m.Kind = "revoked"
		m.Error = "The service revoked the client your session signed in with: its token endpoint refuses the client ID and secret. Sign in again with valid ones."
	case syncer.RejectedExpired:
		m.Kind = "expired"
		m.Error = "The Authorization value was refused — it may have expired. Sign in again with a valid one, or with a client ID and secret."
	case syncer.RejectedAPIKey, syncer.RejectedOther:
		m.Kind = "rejected"
		m.Error = "The Device Monitoring Service rejected the credentials of your session. Sign in again with valid ones."
	}
	if c.QueryParam("signed_out") != "" {
		m.Flash = "You have signed out."
	}
	return render(c, http.StatusOK, views.SignInPage(m))
}

func (s *Server) signInModel(c echo.Context) views.SignIn {
	next := c.QueryParam("next")
	if c.Request().Method == http.MethodPost {
		next = c.FormValue("next")
	}
	return views.SignIn{Page: s.page(c, "Sign in", ""), Demo: s.cfg.Demo != nil, Next: returnPath(next, "/")}
}

// signIn checks the credentials with one small call to the service and,
// if it accepts them, starts a session holding them.
func (s *Server) signIn(c echo.Context) error {
	cred := domain.Credentials{
		APIKey:        strings.TrimSpace(c.FormValue("api_key")),
		Authorization: strings.TrimSpace(c.FormValue("authorization")),
		ClientID:      strings.TrimSpace(c.FormValue("client_id")),
		ClientSecret:  strings.TrimSpace(c.FormValue("client_secret")),
	}
	if problem := credentialsProblem(cred); problem != "" {
		m := s.signInModel(c)
		m.Kind, m.Error = "invalid", problem
		return render(c, http.StatusBadRequest, views.SignInPage(m))
	}
	return s.startSession(c, cred)
}

// maxCredential is the longest API key or Authorization value accepted.
const maxCredential = 8 << 10

// credentialsProblem says what makes credentials impossible to use, "" if
// nothing does: a missing or extra field, or a value that cannot be sent
// in a header or a form.
func credentialsProblem(cred domain.Credentials) string {
	var ce *domain.CredentialsError
	if err := cred.Validate(); errors.As(err, &ce) {
		return ce.Problem
	}
	for _, f := range []struct{ name, value string }{
		{"API key", cred.APIKey}, {"Authorization value", cred.Authorization},
		{"client ID", cred.ClientID}, {"client secret", cred.ClientSecret},
	} {
		if len(f.value) > maxCredential {
			return fmt.Sprintf("The %s is longer than %d characters: check that only the %s was pasted.", f.name, maxCredential, f.name)
		}
		for _, r := range f.value {
			if r < ' ' || r > '~' {
				return fmt.Sprintf("The %s contains a character it cannot have (only letters, digits, spaces and ASCII punctuation): check that only the %s was pasted.", f.name, f.name)
			}
		}
	}
	return ""
}

func (s *Server) signInDemo(c echo.Context) error {
	if s.cfg.Demo == nil {
		return errNotFound("This server has no demo account.")
	}
	return s.startSession(c, *s.cfg.Demo)
}

func (s *Server) startSession(c echo.Context, cred domain.Credentials) error {
	// Failed attempts count against the client's address and the API key
	// tried; successful ones count against nothing (see httpkit.FailureLimiter).
	tried := httpkit.SignInAttempt(c.RealIP(), cred.APIKey)
	if why, until := s.limiter.Held(tried); why != httpkit.HeldNot {
		wait := max(int(math.Ceil(until.Sub(s.clock.Now()).Seconds())), 1)
		at := until.In(s.cfg.Zone).Format("15:04:05")
		m := s.signInModel(c)
		m.Kind = "limited"
		m.Error = fmt.Sprintf("Too many failed sign-ins from your address. Try again at %s (in %s).", at, plural(wait, "second"))
		if why == httpkit.HeldAPIKey {
			m.Error = fmt.Sprintf("Sign-ins with this API key failed many times lately, from several addresses, yours among them: from your address, try again at %s (in %s).",
				at, plural(wait, "second"))
		}
		c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
		return render(c, http.StatusTooManyRequests, views.SignInPage(m))
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), 15*time.Second)
	defer cancel()
	account, err := s.dash.VerifyCredentials(ctx, cred)
	if err != nil {
		s.limiter.Fail(tried)
		m := s.signInModel(c)
		status := http.StatusBadGateway
		switch {
		case errors.Is(err, dashboard.ErrRevoked):
			status, m.Kind = http.StatusUnauthorized, "revoked"
			m.Error = "The service's token endpoint refused the client ID and secret: the client was revoked, or they are wrong. Check them with your supplier."
		case errors.Is(err, dashboard.ErrAPIKey):
			status, m.Kind = http.StatusUnauthorized, "rejected"
			m.Error = "The Device Monitoring Service rejected the API key. Check it and try again."
		case errors.Is(err, dashboard.ErrRejected):
			status, m.Kind = http.StatusUnauthorized, "rejected"
			m.Error = "The Device Monitoring Service rejected these credentials. Check the API key and the Authorization value."
			if cred.OAuth() {
				m.Error = "The Device Monitoring Service rejected these credentials. Check the API key, the client ID and the client secret."
			}
		case errors.Is(err, dashboard.ErrNoAccount):
			m.Kind, m.Error = "unreachable", "The Device Monitoring Service answered without an account. Try again in a moment."
		default:
			m.Kind = "unreachable"
			m.Error = "The Device Monitoring Service could not be reached, so the credentials could not be checked. Try again in a moment."
			s.logOf(c).Warn("sign-in check failed", "error", err.Error())
		}
		return render(c, status, views.SignInPage(m))
	}

	rctx := c.Request().Context()
	if err := s.sessions.RenewToken(rctx); err != nil {
		return err
	}
	// A session signing in again (a sign-in form left open in another tab)
	// was touched lately; its new token must be written all the same.
	s.sessions.Remove(rctx, keyTouched)
	holder := httpkit.RandomHex(16)
	s.sessions.Put(rctx, keyAccount, account.ID)
	s.sessions.Put(rctx, keyAccountName, account.Name)
	s.sessions.Put(rctx, keyAPIKey, cred.APIKey)
	s.sessions.Put(rctx, keyAuth, cred.Authorization)
	s.sessions.Put(rctx, keyClientID, cred.ClientID)
	s.sessions.Put(rctx, keyClientSecret, cred.ClientSecret)
	s.sessions.Put(rctx, keyHolder, holder)
	s.renewAnonymousToken(c) // forms shown before sign-in stop working
	s.sync.Accept(cred)
	s.sync.Hold(holderID(holder), account.ID, cred, s.clock.Now().Add(s.sessions.IdleTimeout))
	s.logOf(c).Info("signed in", "account", account.ID)
	return redirect(c, returnPath(c.FormValue("next"), "/"))
}

func (s *Server) signOut(c echo.Context) error {
	ctx := c.Request().Context()
	if ss, ok := s.currentSession(ctx); ok {
		s.sync.Release(holderID(ss.Holder))
	}
	if err := s.sessions.Destroy(ctx); err != nil {
		return err
	}
	s.renewAnonymousToken(c)
	return redirect(c, "/signin?signed_out=1")
}
