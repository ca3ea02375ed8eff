package web

import (
	"cmp"
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/people"
	"washboard/internal/syncer"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

func (s *Server) showSignIn(c echo.Context) error {
	// Signed in, the form shows only to add another account (from
	// /accounts): signing in with its credentials adds it to the person.
	if _, ok := s.currentSession(c.Request().Context()); ok && c.QueryParam("add") == "" {
		return redirect(c, returnPath(c.QueryParam("next"), "/"))
	}
	m := s.signInModel(c, c.QueryParam("next"))
	loc := i18n.From(c.Request().Context())
	switch syncer.Rejection(c.QueryParam("reason")) {
	case syncer.RejectedRevoked:
		m.Kind = "revoked"
		m.Error = loc.T("signin.session_revoked")
	case syncer.RejectedExpired:
		m.Kind = "expired"
		m.Error = loc.T("signin.session_expired")
	case syncer.RejectedAPIKey, syncer.RejectedOther:
		m.Kind = "rejected"
		m.Error = loc.T("signin.session_rejected")
	}
	if c.QueryParam("signed_out") != "" {
		m.Flash = loc.T("signin.signed_out")
	}
	if c.QueryParam("device") == "revoked" {
		m.Flash, m.FlashFailed = people.ErrDeviceRevoked.Error(), true
	}
	return render(c, http.StatusOK, views.SignInPage(m))
}

// signInModel is the sign-in page, which goes to next once signed in.
func (s *Server) signInModel(c echo.Context, next string) views.SignIn {
	// A person signed in, adding an account, signs in with its
	// credentials: a passkey would sign in a person, not add an account.
	_, signedIn := s.currentSession(c.Request().Context())
	return views.SignIn{Page: s.page(c, i18n.From(c.Request().Context()).T("signin.title"), ""), Demo: s.cfg.Demo != nil, Next: returnPath(next, "/"),
		SingleSignOn: s.singleSignOnName(c), Email: s.mail != nil, Passkeys: s.passkeys != nil && !signedIn}
}

// signIn checks the credentials with one small call to the service and,
// if it accepts them, starts a session holding them.
func (s *Server) signIn(c echo.Context) error {
	var cred domain.Credentials
	var next, name string
	problem, err := readForm(c,
		textField(c, "name", tr(c, "signin.your_name"), &name, domain.MaxPersonName),
		credentialField(c, "api_key", tr(c, "signin.api_key"), &cred.APIKey),
		credentialField(c, "authorization", tr(c, "account.authorization"), &cred.Authorization),
		credentialField(c, "client_id", tr(c, "signin.client_id"), &cred.ClientID),
		credentialField(c, "client_secret", tr(c, "signin.client_secret"), &cred.ClientSecret),
		nextField(&next))
	if err != nil {
		return err
	}
	// Which fields the credentials need comes first: a missing or extra
	// one, then a value that cannot be sent in a header or a form.
	var ce *domain.CredentialsError
	if err := cred.Validate(); errors.As(err, &ce) {
		return s.refuseCredentials(c, next, credentialsProblemIn(c, ce))
	}
	if problem != nil {
		return s.refuseCredentials(c, next, problem.Msg)
	}
	return s.startSession(c, cred, name, "", next)
}

// maxCredential is the longest API key or Authorization value accepted.
const maxCredential = 8 << 10

// credentialField is a field of credentials: the value pasted, without
// the spaces around it, that can be sent in a header or a form. Its label
// is in the request's language.
func credentialField(c echo.Context, name, label string, dst *string) *form.Field {
	return form.Text(name, label, dst).Trim().MaxChars(maxCredential).Printable().
		SaysFor(form.TooLong, tr(c, "account.credential_too_long", "field", label, "max", maxCredential)).
		SaysFor(form.NotPrintable, tr(c, "account.credential_not_printable", "field", label))
}

// credentialsProblemIn says what makes credentials unusable, in the
// request's language.
func credentialsProblemIn(c echo.Context, ce *domain.CredentialsError) string {
	switch ce.Reason {
	case domain.CredentialsBothKinds:
		return tr(c, "account.cred_both_kinds")
	case domain.CredentialsEmpty:
		return tr(c, "account.cred_empty")
	case domain.CredentialsNoAPIKey:
		return tr(c, "account.cred_no_api_key")
	case domain.CredentialsNoSecondHalf:
		return tr(c, "account.cred_no_second_half")
	case domain.CredentialsNoClientID:
		return tr(c, "account.cred_no_client_id")
	case domain.CredentialsNoClientSecret:
		return tr(c, "account.cred_no_client_secret")
	}
	return ce.Problem
}

// nextField is the page to go to once signed in.
func nextField(dst *string) *form.Field { return form.Text("next", "Next page", dst) }

// refuseCredentials shows the form again, saying what is wrong with the
// credentials.
func (s *Server) refuseCredentials(c echo.Context, next, problem string) error {
	m := s.signInModel(c, next)
	m.Kind, m.Error = "invalid", problem
	return render(c, http.StatusBadRequest, views.SignInPage(m))
}

func (s *Server) signInDemo(c echo.Context) error {
	if s.cfg.Demo == nil {
		return errNotFound(tr(c, "account.no_demo"))
	}
	var next string
	if _, err := readForm(c, nextField(&next)); err != nil {
		return err
	}
	return s.startSession(c, *s.cfg.Demo, "", s.cfg.DemoPerson, next)
}

// startSession starts a session with credentials, unless too many failed
// from the client's address or with the API key lately, or the service
// rejects them; signed in, the browser goes to next. A browser signed in
// as nobody signs in as the person asPerson, when given, else as someone
// new.
func (s *Server) startSession(c echo.Context, cred domain.Credentials, name, asPerson, next string) error {
	// Failed attempts count against the client's address and the API key
	// tried; successful ones count against nothing (see httpkit.FailureLimiter).
	tried := httpkit.SignInAttempt(c.RealIP(), cred.APIKey)
	if why, until := s.limiter.Held(tried); why != httpkit.HeldNot {
		wait := max(int(math.Ceil(until.Sub(s.clock.Now()).Seconds())), 1)
		at := until.In(s.cfg.Zone).Format("15:04:05")
		m := s.signInModel(c, next)
		loc := i18n.From(c.Request().Context())
		m.Kind = "limited"
		m.Error = loc.N("signin.limited_address", wait, "at", at)
		if why == httpkit.HeldAPIKey {
			m.Error = loc.N("signin.limited_key", wait, "at", at)
		}
		c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
		return render(c, http.StatusTooManyRequests, views.SignInPage(m))
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), 15*time.Second)
	defer cancel()
	account, err := s.dash.VerifyCredentials(ctx, cred)
	if err != nil {
		s.limiter.Fail(tried)
		m := s.signInModel(c, next)
		loc := i18n.From(c.Request().Context())
		status := http.StatusBadGateway
		switch {
		case errors.Is(err, dashboard.ErrRevoked):
			status, m.Kind = http.StatusUnauthorized, "revoked"
			m.Error = loc.T("signin.client_refused")
		case errors.Is(err, dashboard.ErrAPIKey):
			status, m.Kind = http.StatusUnauthorized, "rejected"
			m.Error = loc.T("signin.api_key_rejected")
		case errors.Is(err, dashboard.ErrRejected):
			status, m.Kind = http.StatusUnauthorized, "rejected"
			m.Error = loc.T("signin.authorization_rejected")
			if cred.OAuth() {
				m.Error = loc.T("signin.client_rejected")
			}
		case errors.Is(err, dashboard.ErrNoAccount):
			m.Kind, m.Error = "unreachable", loc.T("signin.no_account")
		default:
			m.Kind = "unreachable"
			m.Error = loc.T("signin.unreachable")
			s.logOf(c).Warn("sign-in check failed", "error", err.Error())
		}
		return render(c, status, views.SignInPage(m))
	}

	rctx := c.Request().Context()
	// A person signed in already joins the account (or keeps their role
	// in it); anyone else is a new person. A session signed in to this
	// account before people existed signs in as one who was.
	personID := cmp.Or(s.sessions.GetString(rctx, keyPerson), asPerson)
	in := people.CredentialsSignIn{Account: account.ID, Cred: cred, PersonID: personID, Name: cmp.Or(name, defaultPersonName),
		Legacy: personID == "" && s.sessions.GetString(rctx, keyAccount) == account.ID}
	p, membership, err := s.people.SignInWithCredentials(ctx, in)
	if errors.Is(err, domain.ErrNotFound) && personID != "" {
		// The person was removed meanwhile: they sign in as someone new.
		in.PersonID = ""
		p, membership, err = s.people.SignInWithCredentials(ctx, in)
	}
	var refused *httpkit.Error
	if errors.As(peopleProblem(err), &refused) {
		m := s.signInModel(c, next)
		m.Kind, m.Error = "invalid", refused.Msg
		return render(c, refused.Code, views.SignInPage(m))
	}
	if err != nil {
		return err
	}
	if err := s.startPersonSession(c, signedInPerson{person: p, membership: membership, accountName: account.Name, cred: cred, accounts: s.accountCount(c, p.ID)},
		"with the service's credentials"); err != nil {
		return err
	}
	s.logOf(c).Info("signed in", "account", account.ID)
	return redirect(c, returnPath(next, "/"))
}

func (s *Server) signOut(c echo.Context) error {
	ctx := c.Request().Context()
	if ss, ok := s.currentSession(ctx); ok {
		s.sync.Release(holderID(ss.Holder))
	}
	if token := s.sessions.Token(ctx); token != "" {
		s.streams.end(storedToken(token))
	}
	lang := s.sessions.GetString(ctx, keyLanguage)
	if err := s.sessions.Destroy(ctx); err != nil {
		return err
	}
	if lang != "" {
		s.sessions.Put(ctx, keyLanguage, lang) // the sign-in page stays in their language
	}
	s.renewAnonymousToken(c)
	s.forgetEnrolment(c) // an enrolled device signed out is enrolled no more
	return redirect(c, "/signin?signed_out=1")
}
