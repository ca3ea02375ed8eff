package web

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/web/httpkit"
)

// Keys of the values a session of a person holds, beside those of the
// account it is signed in to (sessions.go).
const (
	keyPerson     = "person"      // the person's id
	keyPersonName = "person_name" // their name, as shown on claims
	keyRole       = "role"        // their role in the current account (a domain.Role)
	keyBuildings  = "buildings"   // the buildings it is limited to, one a line; "" for every one
	keyAccounts   = "accounts"    // how many accounts they belong to: several get a switcher
	keyPortfolio  = "portfolio"   // they belong to an organisation: the menu leads to its portfolio
)

// ctxRecordSession marks a request that signed a person in, or switched
// accounts: once the session is written, whose it is is recorded, so
// that removing or demoting the person ends it.
const ctxRecordSession = "record_session"

// defaultPersonName is the name of a person who signs in with the
// service's credentials without giving one; they may change it on /me.
const defaultPersonName = "Key holder"

// signedInPerson is who a session signs in, in the account it is signed
// in to now.
type signedInPerson struct {
	person      domain.Person
	membership  domain.Membership
	accountName string
	cred        domain.Credentials
	accounts    int
}

// putPerson writes a person signed in to an account into the session, and
// holds the account's sync for it. Whatever the way in, the role written
// is the higher of the person's own in the account and their
// organisation's there (people.Effective).
func (s *Server) putPerson(c echo.Context, p signedInPerson) {
	ctx := c.Request().Context()
	if m, err := s.people.EffectiveMembership(ctx, p.membership); err != nil {
		s.logOf(c).Warn("reading a person's role in their organisation", "error", err.Error())
	} else {
		p.membership = m
	}
	_, inOrganisation, err := s.people.OrganisationOf(ctx, p.person.ID)
	if err != nil {
		s.logOf(c).Warn("reading a person's organisation", "error", err.Error())
	}
	s.sessions.Remove(ctx, keyTouched)
	holder := s.sessions.GetString(ctx, keyHolder)
	if holder == "" {
		holder = httpkit.RandomHex(16)
		s.sessions.Put(ctx, keyHolder, holder)
	}
	s.sessions.Put(ctx, keyPerson, p.person.ID)
	s.sessions.Put(ctx, keyPersonName, p.person.Name)
	s.sessions.Put(ctx, keyRole, int(p.membership.Role))
	s.sessions.Put(ctx, keyBuildings, strings.Join(p.membership.Buildings, "\n"))
	s.sessions.Put(ctx, keyAccounts, max(p.accounts, 1))
	s.sessions.Put(ctx, keyPortfolio, inOrganisation)
	s.sessions.Put(ctx, keyAccount, p.membership.Account)
	s.sessions.Put(ctx, keyAccountName, p.accountName)
	s.personLanguageOnSignIn(c, p.person.ID)
	s.putCredentials(ctx, p.cred)
	c.Set(ctxRecordSession, true)
	s.sync.Accept(p.cred)
	s.sync.Hold(holderID(holder), p.membership.Account, p.cred, s.clock.Now().Add(s.sessions.IdleTimeout))
}

// startPersonSession signs a person in on this browser, whatever the way
// in (said in words for the audit log: "with an e-mailed link"); every
// way in calls it where the person's session starts. The session's hold
// on a sync ends, its token is renewed, the person is written into it,
// forms shown before stop working, and a sign-in from a device the
// person has not signed in from before is recorded in the account's
// audit log (seeDevice).
func (s *Server) startPersonSession(c echo.Context, p signedInPerson, way string) error {
	ctx := c.Request().Context()
	if holder := s.sessions.GetString(ctx, keyHolder); holder != "" {
		s.sync.Release(holderID(holder))
	}
	if err := s.sessions.RenewToken(ctx); err != nil {
		return err
	}
	s.sessions.Remove(ctx, keyHolder) // a new hold on the account's sync, under a new name
	s.sessions.Remove(ctx, keyEnrolledDevice)
	s.putPerson(c, p)
	s.renewAnonymousToken(c)
	s.seeDevice(c, domain.Member{Membership: p.membership, Name: p.person.Name}, way)
	return nil
}

// signInToOneOf signs a person in to one of their accounts (at least
// one): the one this browser was last in, when it is theirs, otherwise
// the first. It returns the account's id.
func (s *Server) signInToOneOf(c echo.Context, p domain.Person, accounts []people.AccountOf, way string) (string, error) {
	chosen := accounts[0]
	current := s.sessions.GetString(c.Request().Context(), keyAccount)
	for _, a := range accounts {
		if a.Account == current {
			chosen = a
		}
	}
	cred, err := s.people.Credentials(c.Request().Context(), chosen.Account)
	if err != nil {
		return "", peopleProblemIn(c, err)
	}
	return chosen.Account, s.startPersonSession(c, signedInPerson{person: p, membership: chosen.Membership, accountName: chosen.Name, cred: cred, accounts: len(accounts)}, way)
}

// deviceCookie makes a browser a device, for the audit log's sign-ins
// from new devices: a random value (people.NewDeviceID) given at the first
// sign-in and kept deviceCookieAge, renewed at each sign-in. The server
// keeps only its hash, with each person who signs in with it.
const deviceCookie = "washboard_device"

// deviceCookieAge is how long a browser keeps its device cookie after its
// last sign-in: the most browsers keep a cookie.
const deviceCookieAge = 400 * 24 * time.Hour

// seeDevice records the browser's device as one the member signed in
// from, giving the browser its device cookie when it has none (or one
// not made here); a failure to record is logged, the sign-in made.
func (s *Server) seeDevice(c echo.Context, m domain.Member, way string) {
	id := ""
	if ck, err := c.Cookie(deviceCookie); err == nil {
		id = ck.Value
	}
	if !people.ValidDeviceID(id) {
		id = people.NewDeviceID()
	}
	c.SetCookie(&http.Cookie{Name: deviceCookie, Value: id, Path: "/", MaxAge: int(deviceCookieAge.Seconds()), HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureRequest(c)})
	fresh, err := s.people.SignedIn(context.WithoutCancel(c.Request().Context()), m, id, way)
	if err != nil {
		s.logOf(c).Error("recording the device of a sign-in", "error", err.Error())
		return
	}
	if fresh {
		s.logOf(c).Info("signed in from a new device", "account", m.Account)
	}
}

// recordSession records whose the session just written is, when the
// request signed a person in; token is the session's token as the
// browser holds it.
func (s *Server) recordSession(c echo.Context, token string) {
	if rec, _ := c.Get(ctxRecordSession).(bool); !rec || token == "" {
		return
	}
	ctx := c.Request().Context()
	person, account := s.sessions.GetString(ctx, keyPerson), s.sessions.GetString(ctx, keyAccount)
	if person == "" {
		return
	}
	if err := s.people.RecordSession(context.WithoutCancel(ctx), storedToken(token), person, account); err != nil {
		s.logOf(c).Error("recording whose a session is", "error", err.Error())
		return
	}
	if device := s.sessions.GetString(ctx, keyEnrolledDevice); device != "" {
		if err := s.people.RecordDeviceSession(context.WithoutCancel(ctx), storedToken(token), device); err != nil {
			s.logOf(c).Error("recording the enrolled device of a session", "error", err.Error())
		}
	}
}

// storedToken is a session token as the session store keys it (scs's
// HashTokenInStore).
func storedToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// endSessions drops sessions the people service ended (by their stored
// tokens) from this replica's memory, and tells the other replicas to
// drop them too.
func (s *Server) endSessions(c echo.Context, tokens []string) {
	for _, t := range tokens {
		if err := s.sessionStore.Delete(t); err != nil {
			s.logOf(c).Warn("ending a session", "error", err.Error())
		}
		s.streams.end(t)
	}
}

// member is the signed-in person as the people service knows them in the
// session's account: the value its rules are asked with.
func (ss session) member() domain.Member {
	return domain.Member{Membership: domain.Membership{PersonID: ss.PersonID, Account: ss.Account, Role: ss.Role, Buildings: ss.Buildings},
		Name: ss.PersonName}
}

// adoptLegacySession gives a session signed in before people existed a
// person: it signs in again with the credentials it holds, as one who was
// signed in before the account was connected (people.JoinRole), under the
// default name. Its credentials stay as they were.
func (s *Server) adoptLegacySession(c echo.Context, ss session) (session, error) {
	p, m, err := s.people.SignInWithCredentials(c.Request().Context(), people.CredentialsSignIn{
		Account: ss.Account, Cred: ss.Cred, Name: defaultPersonName, Legacy: true})
	if err != nil {
		return ss, err
	}
	s.putPerson(c, signedInPerson{person: p, membership: m, accountName: ss.AccountName, cred: ss.Cred, accounts: s.accountCount(c, p.ID)})
	s.logOf(c).Info("a session from before people was given a person", "account", ss.Account, "role", m.Role.String())
	ss, _ = s.currentSession(c.Request().Context())
	return ss, nil
}

// accountCount is how many accounts a person belongs to, directly or
// through their organisation; 1 when it cannot be read (the switcher then
// shows once they sign in again).
func (s *Server) accountCount(c echo.Context, personID string) int {
	ms, err := s.people.AccountsOf(c.Request().Context(), personID)
	if err != nil {
		s.logOf(c).Warn("reading a person's accounts", "error", err.Error())
		return 1
	}
	return len(ms)
}

// peopleProblem is an error of the people service shown on a page: its
// words for a problem, a limit or a refusal, with the status they get.
func peopleProblem(err error) error {
	var p domain.Problem
	var l *domain.LimitError
	var f *domain.ForbiddenError
	switch {
	case errors.As(err, &f):
		return &httpkit.Error{Code: http.StatusForbidden, Msg: f.Why, Err: err}
	case errors.As(err, &l):
		return &httpkit.Error{Code: http.StatusUnprocessableEntity, Msg: l.Error(), Err: err}
	case errors.As(err, &p):
		return &httpkit.Error{Code: http.StatusUnprocessableEntity, Msg: string(p), Err: err}
	}
	return err
}

// audit records in the account's audit log what the session's person did,
// for a change the store does not record itself; a failure to record is
// logged, the change being made.
func (s *Server) audit(c echo.Context, action domain.AuditAction, subject string) {
	ss := sessionOf(c)
	if err := s.people.Record(context.WithoutCancel(c.Request().Context()), ss.member(), action, subject); err != nil {
		s.logOf(c).Error("recording in the audit log", "action", string(action), "error", err.Error())
	}
}

// putCredentials writes the credentials of the session's account into it.
func (s *Server) putCredentials(ctx context.Context, cred domain.Credentials) {
	s.sessions.Put(ctx, keyAPIKey, cred.APIKey)
	s.sessions.Put(ctx, keyAuth, cred.Authorization)
	s.sessions.Put(ctx, keyClientID, cred.ClientID)
	s.sessions.Put(ctx, keyClientSecret, cred.ClientSecret)
	s.sessionChanged(ctx)
}
