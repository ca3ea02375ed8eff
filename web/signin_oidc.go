package web

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/oidc"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/httpkit"
)

// SingleSignOn signs people in through an OpenID provider: the
// *oidc.Provider of --oidc-issuer.
type SingleSignOn interface {
	Begin(ctx context.Context) (string, oidc.Pending, error)
	Finish(ctx context.Context, cb oidc.Callback, pending oidc.Pending) (oidc.Identity, error)
	Mappings() []people.GroupMapping
}

// keyPendingSignIn holds, between the two steps of a sign-in through the
// provider, its pendingSignIn as JSON. Sessions are sealed at rest: its
// state, nonce and verifier never leave the server.
const keyPendingSignIn = "oidc_pending"

// pendingSignIn is a sign-in sent to the provider, and the page to go to
// once it is finished.
type pendingSignIn struct {
	oidc.Pending
	Next string
}

// singleSignOnBegins is the most sign-ins through the provider one
// address may begin within a minute: each begun keeps a session (of
// oidc.PendingTTL) until it is finished.
const singleSignOnBegins = 60

// maxGroupsShown is the most of a person's groups the page that lets them
// in nowhere names.
const maxGroupsShown = 10

// singleSignOnName is the provider's name on the sign-in page's button;
// "" when there is no single sign-on.
func (s *Server) singleSignOnName(c echo.Context) string {
	if s.sso == nil {
		return ""
	}
	return cmp.Or(s.cfg.SingleSignOnName, tr(c, "sso.default_name"))
}

// beginSingleSignOn sends the browser to the provider, keeping the
// sign-in's state, nonce and PKCE verifier in the session.
func (s *Server) beginSingleSignOn(c echo.Context) error {
	ctx := c.Request().Context()
	next := returnPath(c.QueryParam("next"), "/")
	from := httpkit.AddressAttempt(c.RealIP())
	if why, until := s.ssoBegins.Held(from); why != httpkit.HeldNot {
		wait := max(int(math.Ceil(until.Sub(s.clock.Now()).Seconds())), 1)
		m := s.signInModel(c, next)
		m.Kind = "limited"
		m.Error = trn(c, "sso.limited", wait, "at", until.In(s.cfg.Zone).Format("15:04:05"))
		c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
		return render(c, http.StatusTooManyRequests, views.SignInPage(m))
	}
	s.ssoBegins.Fail(from) // every sign-in begun counts, finished or not
	to, pending, err := s.sso.Begin(ctx)
	if err != nil {
		return s.refuseSingleSignOn(c, next, err)
	}
	b, err := json.Marshal(pendingSignIn{Pending: pending, Next: next})
	if err != nil {
		return err
	}
	if _, ok := s.currentSession(ctx); !ok {
		// A session kept only for this sign-in lasts as long as it may.
		s.sessions.SetDeadline(ctx, pending.Expires)
	}
	s.sessions.Put(ctx, keyPendingSignIn, string(b))
	return redirect(c, to)
}

// finishSingleSignOn takes the provider's answer: once its checks pass,
// the person is created or updated with the memberships their groups
// give, and signed in to the first account they may enter. The pending
// sign-in leaves the session whatever happens, so an answer is taken
// once.
func (s *Server) finishSingleSignOn(c echo.Context) error {
	ctx := c.Request().Context()
	var pending pendingSignIn
	if raw := s.sessions.PopString(ctx, keyPendingSignIn); raw != "" {
		if err := json.Unmarshal([]byte(raw), &pending); err != nil {
			pending = pendingSignIn{}
		}
	}
	next := returnPath(pending.Next, "/")
	id, err := s.sso.Finish(ctx, oidc.CallbackFrom(c.QueryParams()), pending.Pending)
	if err != nil {
		return s.refuseSingleSignOn(c, next, err)
	}
	in, err := s.people.SignInOIDC(ctx, id.Claims(), s.sso.Mappings())
	if err != nil {
		return peopleProblemIn(c, err)
	}
	s.endSessions(c, in.Ended)
	m, cred, closed, err := s.firstOpenAccount(ctx, in.Memberships)
	if err != nil {
		return err
	}
	if m.Account == "" {
		s.logOf(c).Info("signed in through single sign-on to no account", "groups", len(id.Groups), "accounts_not_connected", len(closed))
		model := s.signInModel(c, next)
		model.Kind, model.Error = "no-account", noAccountProblem(c, in.Person.Name, id.Groups, closed)
		return render(c, http.StatusForbidden, views.SignInPage(model))
	}
	accountName, err := s.people.AccountName(ctx, m.Account)
	if err != nil {
		return err
	}
	if err := s.startPersonSession(c, signedInPerson{person: in.Person, membership: m, accountName: accountName, cred: cred, accounts: len(in.Memberships)},
		"through single sign-on"); err != nil {
		return err
	}
	s.logOf(c).Info("signed in through single sign-on", "account", m.Account, "role", m.Role.String())
	return redirect(c, next)
}

// firstOpenAccount is the first of the memberships whose account is
// connected, and its credentials; none when no account is, with the
// accounts that are not.
func (s *Server) firstOpenAccount(ctx context.Context, ms []domain.Membership) (domain.Membership, domain.Credentials, []string, error) {
	var closed []string
	for _, m := range ms {
		cred, err := s.people.Credentials(ctx, m.Account)
		var p domain.Problem
		switch {
		case errors.Is(err, domain.ErrNotFound), errors.As(err, &p):
			closed = append(closed, m.Account) // not connected, or its credentials do not open
			continue
		case err != nil:
			return domain.Membership{}, domain.Credentials{}, nil, err
		}
		return m, cred, nil, nil
	}
	return domain.Membership{}, domain.Credentials{}, closed, nil
}

// noAccountProblem says why a person who signed in through the provider
// enters no account: their groups, as the provider named them, give no
// role here, or only in accounts not connected.
func noAccountProblem(c echo.Context, name string, groups, closed []string) string {
	switch {
	case len(closed) == 1:
		return tr(c, "sso.account_closed", "name", name, "account", quoted(c, closed))
	case len(closed) > 1:
		return tr(c, "sso.accounts_closed", "name", name, "accounts", quoted(c, closed))
	case len(groups) == 0:
		return tr(c, "sso.no_groups", "name", name)
	}
	return tr(c, "sso.groups_unmapped", "name", name, "groups", quoted(c, groups))
}

// quoted is at most maxGroupsShown of names, quoted, and how many more
// there are.
func quoted(c echo.Context, names []string) string {
	shown := names[:min(len(names), maxGroupsShown)]
	q := make([]string, len(shown))
	for i, n := range shown {
		q[i] = strconv.Quote(n)
	}
	s := strings.Join(q, ", ")
	if more := len(names) - len(shown); more > 0 {
		s += trn(c, "sso.more", more)
	}
	return s
}

// refuseSingleSignOn shows the sign-in page saying in words why the
// sign-in through the provider failed, and logs the detail (which holds
// no code, token or secret). A provider that cannot be reached, answers
// what no provider does, or is not the one set up is the provider's
// failure (424); the others are the sign-in's (400, or 403 when the
// provider refused).
func (s *Server) refuseSingleSignOn(c echo.Context, next string, err error) error {
	var e *oidc.Error
	if !errors.As(err, &e) {
		return err
	}
	status := http.StatusBadRequest
	switch {
	case errors.Is(e.Reason, oidc.ErrRefused):
		status = http.StatusForbidden
	case errors.Is(e.Reason, oidc.ErrUnreachable), errors.Is(e.Reason, oidc.ErrGarbage), errors.Is(e.Reason, oidc.ErrIssuer),
		errors.Is(e.Reason, oidc.ErrNotAllowed):
		status = http.StatusFailedDependency
	}
	s.logOf(c).Warn("single sign-on failed", "reason", e.LogDetail())
	m := s.signInModel(c, next)
	m.Kind, m.Error = "single-sign-on", cmp.Or(ssoProblemIn(c, e), e.Error())
	return render(c, status, views.SignInPage(m))
}
