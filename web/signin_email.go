package web

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// letterTimeout bounds the sending of one letter.
const letterTimeout = 30 * time.Second

// showEmailSignIn asks for an e-mail address to send a one-time sign-in
// link to.
func (s *Server) showEmailSignIn(c echo.Context) error {
	m := views.EmailSignIn{Page: s.page(c, tr(c, "signinmail.title"), "")}
	if s.mail == nil {
		m.Unavailable = tr(c, "signinmail.no_mail")
	}
	return render(c, http.StatusOK, views.EmailSignInPage(m))
}

// requestSignInLink makes a one-time sign-in link for an address and
// mails it, when the address is someone's. The answer is the same either
// way, and comes before the letter is sent: neither its words nor its
// time tell whether the address is known. Requests are bounded by the
// people service's limits (per address, and for the server) and by the
// sign-in limiter: requests refused by the service count as failures
// against the client's address.
func (s *Server) requestSignInLink(c echo.Context) error {
	var email string
	problem, err := readForm(c, textField(c, "email", tr(c, "me.email"), &email, domain.MaxEmail).Required().
		SaysFor(form.Missing, tr(c, "signinmail.email_missing")))
	if err != nil {
		return err
	}
	m := views.EmailSignIn{Page: s.page(c, tr(c, "signinmail.title"), ""), Email: email}
	if s.mail == nil {
		m.Unavailable = tr(c, "signinmail.no_mail")
		return render(c, http.StatusNotFound, views.EmailSignInPage(m))
	}
	if problem != nil {
		m.Error = problem.Msg
		return render(c, http.StatusUnprocessableEntity, views.EmailSignInPage(m))
	}
	tried := httpkit.SignInAttempt(c.RealIP(), "signin-link\x00"+strings.ToLower(email))
	if why, until := s.limiter.Held(tried); why != httpkit.HeldNot {
		m.Error = s.waitWords(c, until, tr(c, "signinmail.limited_address"))
		if why == httpkit.HeldAPIKey {
			m.Error = s.waitWords(c, until, tr(c, "signinmail.limited_email"))
		}
		return render(c, http.StatusTooManyRequests, views.EmailSignInPage(m))
	}
	link, err := s.people.RequestSignInLink(c.Request().Context(), email)
	var soon *domain.TooSoonError
	switch {
	case errors.As(err, &soon):
		s.limiter.Fail(tried)
		m.Error = problemIn(c, soon)
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(int(math.Ceil(soon.Wait.Seconds())), 1)))
		return render(c, http.StatusTooManyRequests, views.EmailSignInPage(m))
	case problemIn(c, err) != "":
		m.Error = problemIn(c, err)
		return render(c, http.StatusUnprocessableEntity, views.EmailSignInPage(m))
	case err != nil:
		return err
	}
	if link.Token != "" {
		s.mailSignInLink(c, link)
	}
	m.Sent, m.Email = true, ""
	return render(c, http.StatusOK, views.EmailSignInPage(m))
}

// waitWords says why a request waits, and until when, and sets the
// answer's Retry-After.
func (s *Server) waitWords(c echo.Context, until time.Time, why string) string {
	wait := max(int(math.Ceil(until.Sub(s.clock.Now()).Seconds())), 1)
	c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
	return trn(c, "signinmail.try_again", wait, "why", why, "at", until.In(s.cfg.Zone).Format("15:04:05"))
}

// mailSignInLink sends a sign-in link's letter in the background, so that
// the answer takes as long for an address that is nobody's; Close waits
// for the letters being sent. A letter that cannot be sent is logged,
// without its link. It is in the language of the person it goes to, or
// when they chose none, of the request.
func (s *Server) mailSignInLink(c echo.Context, link people.SignInLink) {
	url := s.publicURL(c, "/signin/email/"+link.Token)
	loc := i18n.From(c.Request().Context())
	if link.Person.Language != "" {
		loc = i18n.For(link.Person.Language)
	}
	subject := loc.T("signinmail.mail_subject")
	body := loc.T("signinmail.mail_body", "name", link.Person.Name, "until", loc.DateTime(link.Expires, s.cfg.Zone), "link", url)
	log := s.logOf(c)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), letterTimeout)
	s.letters.Add(1)
	go func() {
		defer s.letters.Done()
		defer cancel()
		if err := s.mail(ctx, link.Person.Email, subject, body); err != nil {
			log.Warn("a sign-in link could not be mailed", "person", link.Person.ID, "error", err.Error())
			return
		}
		log.Info("mailed a sign-in link", "person", link.Person.ID)
	}()
}

// publicURL is the address of a path of this server as people reach it:
// Config.PublicURL's, or when it is not set, the one the request reached.
func (s *Server) publicURL(c echo.Context, path string) string {
	if s.cfg.PublicURL != "" {
		return strings.TrimSuffix(s.cfg.PublicURL, "/") + path
	}
	return s.absoluteURL(c, path)
}

// showSignInLink shows the page of an e-mailed link: a button that signs
// in. Following the link uses nothing, so that mail scanners that open
// links do not use it up. The token is in the address only: the request
// log redacts it.
func (s *Server) showSignInLink(c echo.Context) error {
	return render(c, http.StatusOK, views.SignInLinkPage(views.SignInLink{Page: s.page(c, tr(c, "signin.title"), ""), Token: c.Param("token")}))
}

// useSignInLink signs the link's person in, once, to the account the
// browser was in if the person belongs to it, otherwise to the first of
// their accounts; or says why the link cannot be used: 404 for a link not
// known, 410 for one used or expired.
func (s *Server) useSignInLink(c echo.Context) error {
	ctx := c.Request().Context()
	refuse := func(status int, words string) error {
		return render(c, status, views.SignInLinkPage(views.SignInLink{Page: s.page(c, tr(c, "signin.title"), ""), Problem: words}))
	}
	if _, err := readForm(c); err != nil {
		return err
	}
	tried := httpkit.SignInAttempt(c.RealIP(), "signin-link-token")
	if why, until := s.limiter.Held(tried); why != httpkit.HeldNot {
		return refuse(http.StatusTooManyRequests, s.waitWords(c, until, tr(c, "signinmail.limited_tokens")))
	}
	p, err := s.people.UseSignInLink(ctx, c.Param("token"))
	switch {
	case errors.Is(err, domain.ErrSignInLinkUnknown):
		s.limiter.Fail(tried)
		return refuse(http.StatusNotFound, problemIn(c, err))
	case errors.Is(err, domain.ErrSignInLinkUsed), errors.Is(err, domain.ErrSignInLinkExpired):
		return refuse(http.StatusGone, problemIn(c, err))
	case err != nil:
		return err
	}
	accounts, err := s.people.AccountsOf(ctx, p.ID)
	if err != nil {
		return err
	}
	if len(accounts) == 0 {
		return refuse(http.StatusForbidden, tr(c, "signinmail.no_account"))
	}
	chosen, err := s.signInToOneOf(c, p, accounts, "with an e-mailed link")
	if err != nil {
		return err
	}
	s.logOf(c).Info("signed in with an e-mailed link", "account", chosen)
	return redirect(c, "/")
}
