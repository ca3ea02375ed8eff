package web

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/passkey"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/httpkit"
)

// keyPasskeyCeremony is the session's passkey ceremony under way (a
// passkey.Session), between its options and the browser's answer: kept on
// the server only, sealed with the rest of the session.
const keyPasskeyCeremony = "passkey_ceremony"

// The browser's answers and the server's replies to them are JSON
// (static/js/passkeys.js): an answer is {"credential": …} with the name of
// a new passkey or the page to go to once signed in; a reply is
// {"location": …} to go on, or an error in words (jsonError, from
// handleError).
type passkeyAnswer struct {
	Credential json.RawMessage `json:"credential"`
	Name       string          `json:"name"`
	Next       string          `json:"next"`
}

type passkeyReply struct {
	Location string `json:"location"`
}

// errNoPasskeys answers the passkeys' routes of a server that offers none.
func errNoPasskeys(c echo.Context) error {
	return &httpkit.Error{Code: http.StatusNotFound, Msg: tr(c, "passkeys.not_offered")}
}

// readPasskeyAnswer reads the browser's answer: one JSON object of the
// fields above, whose size the body limit bounds.
func readPasskeyAnswer(c echo.Context) (passkeyAnswer, error) {
	var a passkeyAnswer
	d := json.NewDecoder(c.Request().Body)
	d.DisallowUnknownFields()
	if err := d.Decode(&a); err != nil || d.More() || len(bytes.TrimSpace(a.Credential)) == 0 {
		if err == nil {
			err = errors.New("no credential, or more than one object")
		}
		return a, &httpkit.Error{Code: http.StatusBadRequest, Msg: tr(c, "passkeys.garbled"), Err: err}
	}
	return a, nil
}

// refusedPasskey is a passkey answer the ceremony refused, with its
// reason in words; other errors stay as they are.
func (s *Server) refusedPasskey(c echo.Context, err error) error {
	var pe *passkey.Error
	switch {
	case errors.As(err, &pe):
		s.logOf(c).Info("a passkey answer was refused", "why", pe.LogDetail())
		return &httpkit.Error{Code: http.StatusBadRequest, Msg: cmp.Or(passkeyProblemIn(c, err), pe.Error()), Err: err}
	case errors.Is(err, people.ErrPasskeyCloned), errors.Is(err, domain.ErrPasskeyRegistered):
		return &httpkit.Error{Code: http.StatusBadRequest, Msg: problemIn(c, err), Err: err}
	}
	return peopleProblemIn(c, err)
}

// beginCeremony keeps a ceremony's state in the session and sends its
// options to the browser.
func (s *Server) beginCeremony(c echo.Context, options []byte, ceremony passkey.Session) error {
	ctx := c.Request().Context()
	s.sessions.Put(ctx, keyPasskeyCeremony, []byte(ceremony))
	s.sessionChanged(ctx)
	return c.JSONBlob(http.StatusOK, options)
}

// ceremony takes the session's ceremony out of it: an answer is checked
// against it once, whatever the outcome.
func (s *Server) ceremony(c echo.Context) passkey.Session {
	ctx := c.Request().Context()
	b := s.sessions.PopBytes(ctx, keyPasskeyCeremony)
	s.sessionChanged(ctx)
	return passkey.Session(b)
}

// beginPasskeyRegistration starts adding a passkey for the signed-in
// person: the options of navigator.credentials.create.
func (s *Server) beginPasskeyRegistration(c echo.Context) error {
	if s.passkeys == nil {
		return errNoPasskeys(c)
	}
	ctx := c.Request().Context()
	p, err := s.people.Person(ctx, sessionOf(c).PersonID)
	if err != nil {
		return err
	}
	have, err := s.people.Passkeys(ctx, p.ID)
	if err != nil {
		return err
	}
	options, ceremony, err := s.passkeys.BeginRegistration(p, have)
	if err != nil {
		return peopleProblemIn(c, err)
	}
	return s.beginCeremony(c, options, ceremony)
}

// addPasskey checks the browser's answer to the registration's options
// and keeps the new passkey under the name given.
func (s *Server) addPasskey(c echo.Context) error {
	if s.passkeys == nil {
		return errNoPasskeys(c)
	}
	ctx := c.Request().Context()
	ceremony := s.ceremony(c)
	answer, err := readPasskeyAnswer(c)
	if err != nil {
		return err
	}
	p, err := s.people.Person(ctx, sessionOf(c).PersonID)
	if err != nil {
		return err
	}
	have, err := s.people.Passkeys(ctx, p.ID)
	if err != nil {
		return err
	}
	k, err := s.passkeys.FinishRegistration(p, have, ceremony, answer.Credential, answer.Name)
	if err != nil {
		return s.refusedPasskey(c, err)
	}
	if _, err := s.people.AddPasskey(ctx, p, k); err != nil {
		return s.refusedPasskey(c, err)
	}
	s.logOf(c).Info("added a passkey")
	return c.JSON(http.StatusOK, passkeyReply{Location: "/me#passkeys"})
}

// passkeyID is the credential id of the passkey an address names; a
// malformed one names none.
func passkeyID(c echo.Context) ([]byte, error) {
	id, err := base64.RawURLEncoding.DecodeString(c.Param("id"))
	if err != nil || len(id) == 0 || len(id) > people.MaxCredentialID {
		return nil, errNotFound(tr(c, "passkeys.not_found"))
	}
	return id, nil
}

// renamePasskey renames one of the person's own passkeys.
func (s *Server) renamePasskey(c echo.Context) error {
	id, err := passkeyID(c)
	if err != nil {
		return err
	}
	var name string
	problem, err := readForm(c, textField(c, "name", tr(c, "passkeys.name_field"), &name, domain.MaxPasskeyName).Required())
	if err != nil {
		return err
	}
	if problem == nil {
		err = s.people.RenamePasskey(c.Request().Context(), sessionOf(c).PersonID, id, name)
	}
	var words domain.Problem
	switch {
	case problem != nil:
		return s.refusePasskeyChange(c, problem.Msg)
	case errors.As(err, &words):
		return s.refusePasskeyChange(c, problemIn(c, err))
	case errors.Is(err, domain.ErrNotFound):
		return errNotFound(tr(c, "passkeys.not_found"))
	case err != nil:
		return err
	}
	return redirect(c, "/me#passkeys")
}

// removePasskey removes one of the person's own passkeys: it signs no one
// in any more.
func (s *Server) removePasskey(c echo.Context) error {
	id, err := passkeyID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p, err := s.people.Person(ctx, sessionOf(c).PersonID)
	if err != nil {
		return err
	}
	err = s.people.RemovePasskey(ctx, p, id)
	if errors.Is(err, domain.ErrNotFound) {
		return errNotFound(tr(c, "passkeys.not_found"))
	} else if err != nil {
		return err
	}
	s.logOf(c).Info("removed a passkey")
	return redirect(c, "/me#passkeys")
}

// refusePasskeyChange shows the person's page again, saying what is wrong
// with a change to a passkey.
func (s *Server) refusePasskeyChange(c echo.Context, words string) error {
	m, err := s.meModel(c)
	if err != nil {
		return err
	}
	m.Passkeys.Error = words
	return render(c, http.StatusUnprocessableEntity, views.PersonView(m))
}

// passkeysModel is the passkeys section of the person's page.
func (s *Server) passkeysModel(c echo.Context, personID string) (views.Passkeys, error) {
	m := views.Passkeys{Offered: s.passkeys != nil}
	keys, err := s.people.Passkeys(c.Request().Context(), personID)
	if err != nil {
		return m, err
	}
	for _, k := range keys {
		m.Keys = append(m.Keys, views.PasskeyRow{ID: base64.RawURLEncoding.EncodeToString(k.CredentialID), Name: k.Name, Created: k.Created, LastUsed: k.LastUsed})
	}
	return m, nil
}

// passkeyAttempt is a sign-in with a passkey as the sign-in limits count
// it: by the client's address and the passkey it names.
func passkeyAttempt(c echo.Context, credential []byte) httpkit.Attempt {
	var named struct {
		ID string `json:"id"`
	}
	json.Unmarshal(credential, &named) //nolint:errcheck // an answer naming nothing counts as one
	return httpkit.SignInAttempt(c.RealIP(), "passkey\x00"+named.ID)
}

// beginPasskeySignIn starts a sign-in with a passkey: the options of
// navigator.credentials.get, for whichever passkey of this site the
// browser holds (no name is asked). A browser not signed in keeps the
// ceremony only as long as it may take.
func (s *Server) beginPasskeySignIn(c echo.Context) error {
	if s.passkeys == nil {
		return errNoPasskeys(c)
	}
	ctx := c.Request().Context()
	if why, until := s.limiter.Held(httpkit.SignInAttempt(c.RealIP(), "")); why == httpkit.HeldAddress {
		return s.tooManySignIns(c, until)
	}
	options, ceremony, err := s.passkeys.BeginLogin(domain.Person{}, nil)
	if err != nil {
		return err
	}
	if _, signedIn := s.currentSession(ctx); !signedIn {
		// scs writes deadlines by the real clock.
		s.sessions.SetDeadline(ctx, time.Now().Add(passkey.Timeout))
	}
	return s.beginCeremony(c, options, ceremony)
}

// tooManySignIns refuses a sign-in while the client's address or the
// passkey it names failed too often lately.
func (s *Server) tooManySignIns(c echo.Context, until time.Time) error {
	wait := max(int(math.Ceil(until.Sub(s.clock.Now()).Seconds())), 1)
	c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
	at := until.In(s.cfg.Zone).Format("15:04:05")
	return &httpkit.Error{Code: http.StatusTooManyRequests, Msg: trn(c, "signin.limited_address", wait, "at", at)}
}

// signInWithPasskey checks the browser's answer to the sign-in's options
// and signs its passkey's person in, to the first of their accounts.
func (s *Server) signInWithPasskey(c echo.Context) error {
	if s.passkeys == nil {
		return errNoPasskeys(c)
	}
	ctx := c.Request().Context()
	ceremony := s.ceremony(c)
	answer, err := readPasskeyAnswer(c)
	if err != nil {
		return err
	}
	tried := passkeyAttempt(c, answer.Credential)
	if why, until := s.limiter.Held(tried); why != httpkit.HeldNot {
		return s.tooManySignIns(c, until)
	}
	login, err := s.passkeys.FinishLogin(ctx, s.people, ceremony, answer.Credential)
	if err == nil {
		err = s.people.UsePasskey(ctx, login.CredentialID, login.Credential, login.SignCount)
	}
	if err != nil {
		var pe *passkey.Error
		if errors.As(err, &pe) || errors.Is(err, people.ErrPasskeyCloned) {
			s.limiter.Fail(tried)
		}
		return s.refusedPasskey(c, err)
	}
	accounts, err := s.people.AccountsOf(ctx, login.Person.ID)
	if err != nil {
		return err
	}
	if len(accounts) == 0 {
		return &httpkit.Error{Code: http.StatusForbidden, Msg: tr(c, "passkeys.no_account")}
	}
	account, err := s.signInToOneOf(c, login.Person, accounts, "with a passkey")
	if err != nil {
		return err
	}
	s.logOf(c).Info("signed in with a passkey", "account", account)
	return c.JSON(http.StatusOK, passkeyReply{Location: returnPath(answer.Next, "/")})
}
