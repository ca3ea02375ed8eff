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
