package web

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/receiver"
	"washboard/views"
	"washboard/web/form"
)

// The service's events arrive at /hooks/{id}, an address Washboard gives
// out with a signing secret on the Webhooks page. The route takes no
// session, cookie or form token: the signature is what is checked.

// maxEventBody is the largest event Washboard reads.
const maxEventBody = 1 << 20

// receiveEvent checks a delivery and queues its event. It answers at once;
// the event is applied after.
func (s *Server) receiveEvent(c echo.Context) error {
	body, err := io.ReadAll(c.Request().Body) // within maxEventBody: see limitBody
	if err != nil {
		return hookAnswer(c, http.StatusBadRequest, "the body could not be read")
	}
	err = s.receiver.Receive(c.Request().Context(), c.Param("id"), c.Request().Header, body)
	switch {
	case err == nil:
		return c.NoContent(http.StatusNoContent)
	case errors.Is(err, receiver.ErrUnknown):
		return hookAnswer(c, http.StatusNotFound, err.Error())
	case errors.Is(err, receiver.ErrSignature):
		return hookAnswer(c, http.StatusUnauthorized, err.Error())
	case errors.Is(err, receiver.ErrMalformed), errors.Is(err, receiver.ErrOtherAccount):
		return hookAnswer(c, http.StatusBadRequest, err.Error())
	case errors.Is(err, receiver.ErrBusy):
		c.Response().Header().Set("Retry-After", "5")
		return hookAnswer(c, http.StatusServiceUnavailable, err.Error())
	}
	// The cache could not be read: the sender retries later, and polling
	// covers the event meanwhile.
	s.logOf(c).Warn("receiving an event", "error", err.Error())
	c.Response().Header().Set("Retry-After", "30")
	return hookAnswer(c, http.StatusServiceUnavailable, "the event could not be taken now; send it again later")
}

// hookAnswer is a refusal as a sender reads it: JSON with the status and
// why, in words.
func hookAnswer(c echo.Context, status int, why string) error {
	return c.JSON(status, map[string]any{"status": status, "error": why})
}

// listWebhooks shows the account's receivers and the form for a new one.
func (s *Server) listWebhooks(c echo.Context) error {
	m, err := s.webhooksModel(c, "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.WebhooksPage(m))
}

// createWebhook makes a receiver and shows its address and secret, once.
func (s *Server) createWebhook(c echo.Context) error {
	ss := sessionOf(c)
	pasted, err := readSecret(c)
	if err != nil {
		return err
	}
	id, secret, err := s.receiver.Create(c.Request().Context(), ss.Account, pasted, s.clock.Now())
	if errors.Is(err, receiver.ErrBadSecret) {
		return s.webhookFormError(c, err)
	}
	if le := (*domain.LimitError)(nil); errors.As(err, &le) {
		// The pasted secret is not shown again: it is one.
		m, merr := s.webhooksModel(c, le.Error())
		if merr != nil {
			return merr
		}
		return render(c, http.StatusUnprocessableEntity, views.WebhooksPage(m))
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("webhook receiver created", "receiver", id)
	s.audit(c, domain.AuditWebhookAdded, "receiver "+id)
	return s.showNewReceiver(c, id, secret.Text(), false)
}

// rotateWebhook gives a receiver a new secret; the old one is accepted a
// day more, while the service is told the new one.
func (s *Server) rotateWebhook(c echo.Context) error {
	ss := sessionOf(c)
	id := c.Param("id")
	pasted, err := readSecret(c)
	if err != nil {
		return err
	}
	secret, err := s.receiver.Rotate(c.Request().Context(), ss.Account, id, pasted, s.clock.Now())
	if errors.Is(err, receiver.ErrBadSecret) {
		return s.webhookFormError(c, err)
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("webhook receiver given a new secret", "receiver", id)
	s.audit(c, domain.AuditWebhookRotated, "receiver "+id)
	return s.showNewReceiver(c, id, secret.Text(), true)
}

// removeWebhook removes a receiver: its address answers 404.
func (s *Server) removeWebhook(c echo.Context) error {
	ss := sessionOf(c)
	if err := s.receiver.Remove(c.Request().Context(), ss.Account, c.Param("id")); err != nil {
		return err
	}
	s.logOf(c).Info("webhook receiver removed", "receiver", c.Param("id"))
	s.audit(c, domain.AuditWebhookRemoved, "receiver "+c.Param("id"))
	return redirect(c, "/webhooks")
}

// readSecret reads the signing secret pasted in a receiver's form; empty
// for Washboard to make one. Whether it will do is the receiver's to say
// (receiver.ErrBadSecret).
func readSecret(c echo.Context) (string, error) {
	var pasted string
	_, err := readForm(c, form.Text("secret", tr(c, "webhooks.secret"), &pasted).Trim())
	return pasted, err
}

func (s *Server) showNewReceiver(c echo.Context, id, secret string, rotated bool) error {
	m, err := s.webhooksModel(c, "")
	if err != nil {
		return err
	}
	m.New = &views.NewReceiver{URL: s.receiverURL(c, id), Secret: secret, Rotated: rotated}
	return render(c, http.StatusOK, views.WebhooksPage(m))
}

func (s *Server) webhookFormError(c echo.Context, err error) error {
	m, merr := s.webhooksModel(c, tr(c, "webhooks.bad_secret", "reason", strings.TrimPrefix(err.Error(), receiver.ErrBadSecret.Error()+": ")))
	if merr != nil {
		return merr
	}
	return render(c, http.StatusBadRequest, views.WebhooksPage(m))
}

// receiverURL is the address the service is given for a receiver.
func (s *Server) receiverURL(c echo.Context, id string) string {
	scheme := "http"
	if s.secureRequest(c) {
		scheme = "https"
	}
	return scheme + "://" + c.Request().Host + "/hooks/" + id
}

func (s *Server) webhooksModel(c echo.Context, problem string) (views.Webhooks, error) {
	ss := sessionOf(c)
	m := views.Webhooks{Page: s.page(c, tr(c, "webhooks.title"), "webhooks"), Error: problem, Now: s.clock.Now()}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: tr(c, "webhooks.title")}}
	list, err := s.receiver.List(c.Request().Context(), ss.Account)
	if err != nil {
		return m, err
	}
	for _, r := range list {
		m.Receivers = append(m.Receivers, views.ReceiverRow{
			URL: s.receiverURL(c, r.ID), Created: r.Created, Rotated: r.Rotated, LastEvent: r.LastEvent,
			Accepted: r.Accepted, Rejected: r.Rejected, Unreadable: r.Unreadable,
			RotateHref: "/webhooks/" + r.ID + "/rotate", RemoveHref: "/webhooks/" + r.ID + "/remove",
		})
	}
	return m, nil
}
