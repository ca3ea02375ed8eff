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
	m := views.AccountSettingsPage{Page: s.page(c, "The account", "")}
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
		credentialField("api_key", "API key", &cred.APIKey),
		credentialField("authorization", "Authorization value", &cred.Authorization),
		credentialField("client_id", "client ID", &cred.ClientID),
		credentialField("client_secret", "client secret", &cred.ClientSecret))
	if err != nil {
		return err
	}
	refuse := func(status int, words string) error {
		m := views.AccountSettingsPage{Page: s.page(c, "The account", ""), Error: words}
		return render(c, status, views.AccountSettings(m))
	}
	var ce *domain.CredentialsError
	if err := cred.Validate(); errors.As(err, &ce) {
		return refuse(http.StatusUnprocessableEntity, ce.Problem)
	}
	if problem != nil {
		return refuse(http.StatusUnprocessableEntity, problem.Msg)
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), 15*time.Second)
	defer cancel()
	account, err := s.dash.VerifyCredentials(ctx, cred)
	switch {
	case err != nil:
		return refuse(http.StatusUnprocessableEntity, "The service did not accept these credentials, so the account keeps the ones it has. Check them and try again.")
	case account.ID != ss.Account:
		return refuse(http.StatusUnprocessableEntity, "These credentials are of another account ("+account.Name+"), so this one keeps the ones it has.")
	}
	if err := s.people.ReplaceCredentials(ctx, ss.member(), cred); err != nil {
		return peopleProblem(err)
	}
	rctx := c.Request().Context()
	s.putCredentials(rctx, cred)
	s.sync.Accept(cred)
	s.sync.Hold(holderID(ss.Holder), ss.Account, cred, s.clock.Now().Add(s.sessions.IdleTimeout))
	s.sync.Hold(people.SyncHolder(ss.Account), ss.Account, cred, s.clock.Now().Add(time.Hour))
	s.sessions.Put(rctx, keyAccountFlash, "The account's credentials were replaced: the service accepted them.")
	s.sessionChanged(rctx)
	s.logOf(c).Info("the account's credentials were replaced", "account", ss.Account)
	return redirect(c, "/account")
}

// confirmDisconnect says how much disconnecting the account removes, and
// asks to confirm.
func (s *Server) confirmDisconnect(c echo.Context) error {
	sum, err := s.people.Summary(c.Request().Context(), sessionOf(c).member())
	if err != nil {
		return peopleProblem(err)
	}
	m := views.AccountSettingsPage{Page: s.page(c, "Disconnect the account", ""), Confirming: true, Summary: sum.String(),
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
		return peopleProblem(err) // an owner's, checked before the sync stops
	}
	// Only the confirmation page's form disconnects: it names the account.
	var confirm string
	if _, err := readForm(c, form.Text("confirm", "Confirmation", &confirm).MaxChars(200)); err != nil {
		return err
	}
	if confirm != ss.Account {
		return &httpkit.Error{Code: http.StatusBadRequest, Msg: "Nothing was disconnected: confirm on the page that says how much goes."}
	}
	s.sync.StopAccount(ss.Account)
	ended, err := s.people.Disconnect(context.WithoutCancel(ctx), ss.member())
	if err != nil {
		return peopleProblem(err)
	}
	s.endSessions(c, ended)
	s.logOf(c).Info("the account was disconnected", "account", ss.Account)
	return s.endOwnSession(c)
}
