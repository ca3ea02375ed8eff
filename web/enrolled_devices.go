package web

import (
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/views"
)

// An enrolled device (a shared tablet) keeps its key, which the people
// service gave it when its enrolment link was opened, in a cookie that
// lasts enrolledCookieAge from its last use. Its sessions are ordinary
// ones (SessionConfig's idle timeout and lifetime), bound to the device
// (keyEnrolledDevice, recorded with the session): when one ends by time,
// the next request signs the device in again with its key (resumeDevice),
// so that the device stays signed in while it is used at least once in
// enrolledCookieAge. Revoking the device ends its sessions on every
// replica, and its key opens nothing more.
const (
	enrolledCookie    = "washboard_enrolled"
	enrolledCookieAge = 90 * 24 * time.Hour
	// keyEnrolledDevice is the id of the enrolled device a session is
	// signed in by; "" for none.
	keyEnrolledDevice = "enrolled_device"
	// keyDevicesFlash is the message /people/devices shows once, after a
	// change.
	keyDevicesFlash = "devices_flash"
)

// showEnrolledDevices lists the account's enrolled devices the supervisor
// sees, with the enrol form.
func (s *Server) showEnrolledDevices(c echo.Context) error {
	m, err := s.enrolledDevicesModel(c)
	if err != nil {
		return err
	}
	if msg := s.sessions.PopString(c.Request().Context(), keyDevicesFlash); msg != "" {
		m.Flash = msg
		s.sessionChanged(c.Request().Context())
	}
	return render(c, http.StatusOK, views.EnrolledDevicesView(m))
}

// enrolledDevicesModel is the page of the account's enrolled devices, as
// the session's person sees them.
func (s *Server) enrolledDevicesModel(c echo.Context) (views.EnrolledDevicesPage, error) {
	ctx := c.Request().Context()
	me := sessionOf(c).member()
	m := views.EnrolledDevicesPage{Page: s.page(c, tr(c, "devices.heading"), "people")}
	devices, err := s.people.DevicesSeenBy(ctx, me)
	if err != nil {
		return m, peopleProblemIn(c, err)
	}
	m.Devices = enrolledDeviceRows(devices)
	choices, err := s.people.EnrolmentChoices(ctx, me)
	if err != nil {
		return m, err
	}
	for _, p := range choices {
		m.People = append(m.People, views.PersonChoice{ID: p.PersonID, Name: p.Name})
	}
	return m, nil
}

// enrolledDeviceRows are devices as the pages list them.
func enrolledDeviceRows(devices []domain.EnrolledDevice) []views.EnrolledDeviceRow {
	rows := make([]views.EnrolledDeviceRow, 0, len(devices))
	for _, d := range devices {
		rows = append(rows, views.EnrolledDeviceRow{ID: d.ID, Name: d.Name, Person: d.PersonName, MadeBy: d.MadeByName,
			Created: d.Created, LastSeen: d.LastSeen, Revoked: d.Revoked})
	}
	return rows
}

// enrolDevice enrols a device for a person and shows its link once, with
// a QR code, to open on the device.
func (s *Server) enrolDevice(c echo.Context) error {
	ctx := c.Request().Context()
	var name, person string
	problem, err := readForm(c,
		textField(c, "name", tr(c, "devices.name"), &name, domain.MaxDeviceName).Required(),
		textField(c, "person", tr(c, "devices.signs_in_as"), &person, 100).Required().Says(tr(c, "devices.person_unknown")))
	if err != nil {
		return err
	}
	m, err := s.enrolledDevicesModel(c)
	if err != nil {
		return err
	}
	m.Form.Name = name
	for i := range m.People {
		m.People[i].Selected = m.People[i].ID == person
	}
	if problem != nil {
		m.Form.Error = problem.Msg
		return render(c, http.StatusUnprocessableEntity, views.EnrolledDevicesView(m))
	}
	d, token, err := s.people.Enrol(ctx, sessionOf(c).member(), person, name)
	if errors.Is(err, domain.ErrNotFound) {
		err = domain.Problem(tr(c, "devices.person_unknown"))
	}
	if words := problemIn(c, err); words != "" {
		m.Form.Error = words
		status := http.StatusUnprocessableEntity
		if errors.Is(err, domain.ErrForbidden) {
			status = http.StatusForbidden
		}
		return render(c, status, views.EnrolledDevicesView(m))
	}
	if err != nil {
		return err
	}
	m.NewLink, m.NewFor = s.absoluteURL(c, "/enrol/"+token), d.PersonName
	if m.NewLinkQR, err = qrCode(m.NewLink); err != nil {
		return err
	}
	fresh, err := s.enrolledDevicesModel(c)
	if err != nil {
		return err
	}
	m.Devices, m.Form = fresh.Devices, views.EnrolForm{}
	s.logOf(c).Info("enrolled a device", "device", d.ID, "person", d.PersonID)
	return render(c, http.StatusOK, views.EnrolledDevicesView(m))
}

// revokeDevice signs out an enrolled device: its sessions end at once, on
// every replica, and its key opens nothing more.
func (s *Server) revokeDevice(c echo.Context) error {
	ended, err := s.people.RevokeDevice(c.Request().Context(), sessionOf(c).member(), c.Param("id"))
	if err != nil {
		return s.refuseDeviceChange(c, err)
	}
	s.endSessions(c, ended)
	s.logOf(c).Info("revoked an enrolled device", "device", c.Param("id"))
	return s.flashDevices(c, tr(c, "devices.revoked"))
}

// removeDevice removes a revoked device from the list.
func (s *Server) removeDevice(c echo.Context) error {
	if err := s.people.RemoveDevice(c.Request().Context(), sessionOf(c).member(), c.Param("id")); err != nil {
		return s.refuseDeviceChange(c, err)
	}
	return s.flashDevices(c, tr(c, "devices.removed"))
}

// revokeOwnDevice signs out a device enrolled for the session's person,
// from their own page.
func (s *Server) revokeOwnDevice(c echo.Context) error {
	ended, err := s.people.RevokeOwnDevice(c.Request().Context(), sessionOf(c).member(), c.Param("id"))
	if errors.Is(err, domain.ErrNotFound) {
		return errNotFound(tr(c, "devices.not_yours"))
	}
	if err != nil {
		return err
	}
	s.endSessions(c, ended)
	if s.sessions.GetString(c.Request().Context(), keyEnrolledDevice) == c.Param("id") {
		s.forgetEnrolment(c)
		return s.endOwnSession(c)
	}
	return redirect(c, "/me")
}

// refuseDeviceChange says why a change of a device was not made: 404 for
// a device the person does not see, the page again otherwise.
func (s *Server) refuseDeviceChange(c echo.Context, err error) error {
	if errors.Is(err, domain.ErrNotFound) {
		return errNotFound(tr(c, "devices.not_found"))
	}
	words := problemIn(c, err)
	if words == "" {
		return err
	}
	m, merr := s.enrolledDevicesModel(c)
	if merr != nil {
		return merr
	}
	m.Error = words
	return render(c, refusedStatus(err), views.EnrolledDevicesView(m))
}

// flashDevices goes back to the devices' page, which shows msg once.
func (s *Server) flashDevices(c echo.Context, msg string) error {
	return s.flashTo(c, keyDevicesFlash, msg, "/people/devices")
}

// showEnrolment shows the page of an enrolment link: a button that signs
// the device in. Following the link uses nothing. The token is in the
// address only: the request log redacts it.
func (s *Server) showEnrolment(c echo.Context) error {
	return render(c, http.StatusOK, views.Enrolment(views.EnrolmentPage{Page: s.page(c, tr(c, "devices.sign_in_heading"), ""), Token: c.Param("token")}))
}

// openEnrolment opens an enrolment link, once: the device keeps the key
// it is given, and is signed in as the person it was enrolled for; or the
// page says why the link cannot be used: 404 for a link not known, 410
// for one opened already or revoked.
func (s *Server) openEnrolment(c echo.Context) error {
	if _, err := readForm(c); err != nil {
		return err
	}
	refuse := func(status int, words string) error {
		return render(c, status, views.Enrolment(views.EnrolmentPage{Page: s.page(c, tr(c, "devices.sign_in_heading"), ""), Problem: words}))
	}
	d, m, key, err := s.people.OpenDevice(c.Request().Context(), c.Param("token"))
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return refuse(http.StatusNotFound, tr(c, "devices.link_unknown"))
	case errors.Is(err, domain.ErrEnrolmentUsed), errors.Is(err, domain.ErrEnrolmentRevoked):
		return refuse(http.StatusGone, problemIn(c, err))
	case err != nil:
		return err
	}
	if err := s.signInDevice(c, d, m, key); err != nil {
		return err
	}
	s.logOf(c).Info("an enrolled device was opened", "device", d.ID, "account", d.Account)
	return redirect(c, "/")
}

// resumeDevice signs an enrolled device in again with its key, when its
// session ended by time, and sends it back where it was going; a device
// revoked, or whose person left the account, forgets its key and goes to
// sign in, told why.
func (s *Server) resumeDevice(c echo.Context, key string) error {
	d, m, err := s.people.Device(c.Request().Context(), key)
	switch {
	case errors.Is(err, people.ErrDeviceRevoked), errors.Is(err, domain.ErrNotFound):
		s.forgetEnrolment(c)
		return redirect(c, "/signin?"+url.Values{"device": {"revoked"}}.Encode())
	case err != nil:
		return err
	}
	if err := s.signInDevice(c, d, m, key); err != nil {
		return err
	}
	if r := c.Request(); r.Method == http.MethodGet && !isHTMX(c) {
		return redirect(c, r.URL.RequestURI())
	}
	return redirect(c, "/")
}

// signInDevice starts a session of an enrolled device: its person, in
// its account, bound to the device; and gives the device its key again,
// for another enrolledCookieAge.
func (s *Server) signInDevice(c echo.Context, d domain.EnrolledDevice, m domain.Member, key string) error {
	ctx := c.Request().Context()
	cred, err := s.people.Credentials(ctx, d.Account)
	if err != nil {
		return peopleProblemIn(c, err)
	}
	accountName, err := s.people.AccountName(ctx, d.Account)
	if err != nil {
		return err
	}
	p, err := s.people.Person(ctx, d.PersonID)
	if err != nil {
		return err
	}
	// One account: a device signs in where it was enrolled, and its
	// person switches nowhere else on it.
	if err := s.startPersonSession(c, signedInPerson{person: p, membership: m.Membership, accountName: accountName, cred: cred, accounts: 1},
		"on an enrolled device"); err != nil {
		return err
	}
	s.sessions.Put(ctx, keyEnrolledDevice, d.ID)
	c.SetCookie(&http.Cookie{Name: enrolledCookie, Value: key, Path: "/", MaxAge: int(enrolledCookieAge.Seconds()), HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureRequest(c)})
	return nil
}

// enrolledKey is the key of the enrolled device the browser is, or "".
func enrolledKey(c echo.Context) string {
	if ck, err := c.Cookie(enrolledCookie); err == nil {
		return ck.Value
	}
	return ""
}

// forgetEnrolment makes the browser forget its key of an enrolled device.
func (s *Server) forgetEnrolment(c echo.Context) {
	if enrolledKey(c) == "" {
		return
	}
	c.SetCookie(&http.Cookie{Name: enrolledCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureRequest(c)})
}
