package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// keyAccountFlash is the session's value of the message /account shows
// once.
const keyAccountFlash = "account_flash"

// showAccount is the owner's page of the account.
func (s *Server) showAccount(c echo.Context) error {
	m := views.AccountSettingsPage{Page: s.page(c, tr(c, "account.heading"), "")}
	if msg := s.sessions.PopString(c.Request().Context(), keyAccountFlash); msg != "" {
		m.Flash = msg
		s.sessionChanged(c.Request().Context())
	}
	return render(c, http.StatusOK, views.AccountSettings(m))
}

// replaceCredentials replaces the credentials the account is connected
// with, once the service accepts them as the same account's.
func (s *Server) replaceCredentials(c echo.Context) error {
	ss := sessionOf(c)
	var cred domain.Credentials
	problem, err := readForm(c,
		credentialField(c, "api_key", tr(c, "signin.api_key"), &cred.APIKey),
		credentialField(c, "authorization", tr(c, "account.authorization"), &cred.Authorization),
		credentialField(c, "client_id", tr(c, "signin.client_id"), &cred.ClientID),
		credentialField(c, "client_secret", tr(c, "signin.client_secret"), &cred.ClientSecret))
	if err != nil {
		return err
	}
	refuse := func(status int, words string) error {
		m := views.AccountSettingsPage{Page: s.page(c, tr(c, "account.heading"), ""), Error: words}
		return render(c, status, views.AccountSettings(m))
	}
	var ce *domain.CredentialsError
	if err := cred.Validate(); errors.As(err, &ce) {
		return refuse(http.StatusUnprocessableEntity, credentialsProblemIn(c, ce))
	}
	if problem != nil {
		return refuse(http.StatusUnprocessableEntity, problem.Msg)
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), 15*time.Second)
	defer cancel()
	account, err := s.dash.VerifyCredentials(ctx, cred)
	switch {
	case err != nil:
		return refuse(http.StatusUnprocessableEntity, tr(c, "account.credentials_refused"))
	case account.ID != ss.Account:
		return refuse(http.StatusUnprocessableEntity, tr(c, "account.credentials_other", "account", account.Name))
	}
	if err := s.people.ReplaceCredentials(ctx, ss.member(), cred); err != nil {
		return peopleProblemIn(c, err)
	}
	rctx := c.Request().Context()
	s.putCredentials(rctx, cred)
	s.sync.Accept(cred)
	s.sync.Hold(holderID(ss.Holder), ss.Account, cred, s.clock.Now().Add(s.sessions.IdleTimeout))
	s.sync.Hold(people.SyncHolder(ss.Account), ss.Account, cred, s.clock.Now().Add(time.Hour))
	s.sessions.Put(rctx, keyAccountFlash, tr(c, "account.credentials_replaced"))
	s.sessionChanged(rctx)
	s.logOf(c).Info("the account's credentials were replaced", "account", ss.Account)
	return redirect(c, "/account")
}

// confirmDisconnect says how much disconnecting the account removes, and
// asks to confirm.
func (s *Server) confirmDisconnect(c echo.Context) error {
	sum, err := s.people.Summary(c.Request().Context(), sessionOf(c).member())
	if err != nil {
		return peopleProblemIn(c, err)
	}
	m := views.AccountSettingsPage{Page: s.page(c, tr(c, "account.disconnect_heading"), ""), Confirming: true, Summary: sum,
		ConfirmWith: sessionOf(c).Account}
	return render(c, http.StatusOK, views.AccountSettings(m))
}

// disconnectAccount stops the account's sync, removes everything kept of
// it, and ends the sessions of its people in it, here and on the other
// replicas.
func (s *Server) disconnectAccount(c echo.Context) error {
	ss := sessionOf(c)
	ctx := c.Request().Context()
	if _, err := s.people.Summary(ctx, ss.member()); err != nil {
		return peopleProblemIn(c, err) // an owner's, checked before the sync stops
	}
	// Only the confirmation page's form disconnects: it names the account.
	var confirm string
	if _, err := readForm(c, form.Text("confirm", "Confirmation", &confirm).MaxChars(200)); err != nil {
		return err
	}
	if confirm != ss.Account {
		return &httpkit.Error{Code: http.StatusBadRequest, Msg: tr(c, "account.confirm_missing")}
	}
	s.sync.StopAccount(ss.Account)
	ended, err := s.people.Disconnect(context.WithoutCancel(ctx), ss.member())
	if err != nil {
		return peopleProblemIn(c, err)
	}
	s.endSessions(c, ended)
	s.logOf(c).Info("the account was disconnected", "account", ss.Account)
	return s.endOwnSession(c)
}
