package web

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/push"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// PushDevices subscribes people's devices to pushes (internal/push).
type PushDevices interface {
	// PublicKey is the key a browser subscribes with.
	PublicKey() string
	// Subscribe keeps a person's device; a *push.Problem says in words
	// why one is refused.
	Subscribe(ctx context.Context, person, device string, sub push.Subscription) (push.Device, error)
	Devices(ctx context.Context, person string) ([]push.Device, error)
	// Remove removes a person's device; domain.ErrNotFound when they have
	// none of the id.
	Remove(ctx context.Context, person, id string) error
	// Test pushes a test to the person's devices and says what happened.
	Test(ctx context.Context, person string) (string, error)
	// CheckAction checks the token of a push's "I'm on it" sent by the
	// person, on the account's alert, and answers the action's
	// idempotency key; push.ErrActionExpired, push.ErrActionRefused.
	CheckAction(token, person, account, alert string) (key string, err error)
}

// errNoPush answers the push routes of a server that sends no pushes.
var errNoPush = errNotFound("This server sends no pushes.")

// pushModel is the person's devices that receive pushes, for /me.
func (s *Server) pushModel(ctx context.Context, person string) (views.PushDevices, error) {
	if s.push == nil {
		return views.PushDevices{Off: true}, nil
	}
	m := views.PushDevices{Key: s.push.PublicKey()}
	devices, err := s.push.Devices(ctx, person)
	for _, d := range devices {
		m.Devices = append(m.Devices, views.PushDeviceRow{ID: d.ID, Name: d.Name, Service: d.Service, Since: d.Created})
	}
	return m, err
}

// subscribePush keeps the device the browser subscribed from /me.
func (s *Server) subscribePush(c echo.Context) error {
	if s.push == nil {
		return errNoPush
	}
	var sub push.Subscription
	var device string
	problem, err := readForm(c,
		form.Text("endpoint", tr(c, "form.push_endpoint"), &sub.Endpoint).Trim().Required().MaxChars(push.MaxEndpointLen),
		form.Text("p256dh", tr(c, "form.push_key"), &sub.P256dh).Trim().Required().MaxChars(200),
		form.Text("auth", tr(c, "form.push_secret"), &sub.Auth).Trim().Required().MaxChars(200),
		form.Text("device", tr(c, "me.push_device_name"), &device).Trim().MaxChars(domain.MaxDeviceName))
	if err != nil {
		return err
	}
	words := problemWords(problem)
	if words == "" {
		_, err := s.push.Subscribe(c.Request().Context(), sessionOf(c).PersonID, device, sub)
		var p *push.Problem
		switch {
		case errors.As(err, &p):
			words = p.Msg
		case err != nil:
			return err
		default:
			s.logOf(c).Info("subscribed a device to pushes")
			return redirect(c, "/me#push")
		}
	}
	return s.showMeWithPush(c, http.StatusUnprocessableEntity, func(m *views.PushDevices) { m.Error = words })
}

// removePush removes one of the person's devices.
func (s *Server) removePush(c echo.Context) error {
	if s.push == nil {
		return errNoPush
	}
	err := s.push.Remove(c.Request().Context(), sessionOf(c).PersonID, c.Param("id"))
	if errors.Is(err, domain.ErrNotFound) {
		return errNotFound("No device of yours that receives pushes has this id.")
	}
	if err != nil {
		return err
	}
	return redirect(c, "/me#push")
}

// testPush pushes a test to the person's devices, and says what
// happened.
func (s *Server) testPush(c echo.Context) error {
	if s.push == nil {
		return errNoPush
	}
	said, err := s.push.Test(c.Request().Context(), sessionOf(c).PersonID)
	status := http.StatusOK
	if err != nil {
		status = http.StatusUnprocessableEntity
	}
	return s.showMeWithPush(c, status, func(m *views.PushDevices) {
		if err != nil {
			m.Error = said
		} else {
			m.Said = said
		}
	})
}

// showMeWithPush renders /me, its push section changed.
func (s *Server) showMeWithPush(c echo.Context, status int, change func(*views.PushDevices)) error {
	m, err := s.meModel(c)
	if err != nil {
		return err
	}
	change(&m.Push)
	return render(c, status, views.PersonView(m))
}

// A push's "I'm on it" is posted by the service worker, which has no
// page and so no form token: it brings the push's action token instead
// (internal/push, ActionToken), in a header, with the session's cookie.
// The token opens this one route, for the person and alert it was made
// for, once: its key is the action's idempotency key.

// pushActionRoute is the route a push's action token opens.
const pushActionRoute = "/my/alerts/:id/claim"

// ctxPushActionKey is the idempotency key of the push's action token a
// request brought.
const ctxPushActionKey = "push-action-key"

// pushAction checks a push's action token in place of the form token:
// false when the request brings none, or the route is not the one it
// opens; a 403 saying why when it is not good.
func (s *Server) pushAction(c echo.Context) (bool, error) {
	token := c.Request().Header.Get(push.ActionHeader)
	if token == "" || s.push == nil || c.Path() != pushActionRoute || c.Request().Method != http.MethodPost {
		return false, nil
	}
	ss, _ := s.currentSession(c.Request().Context())
	key, err := s.push.CheckAction(token, ss.PersonID, ss.Account, c.Param("id"))
	switch {
	case errors.Is(err, push.ErrActionExpired):
		return false, &httpkit.Error{Code: http.StatusForbidden, Msg: tr(c, "my.push_expired")}
	case err != nil || ss.PersonID == "":
		return false, &httpkit.Error{Code: http.StatusForbidden, Msg: tr(c, "my.push_refused")}
	}
	c.Set(ctxPushActionKey, key)
	return true, nil
}
