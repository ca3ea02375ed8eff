package views

import "time"

// EnrolledDevicesPage lists the account's enrolled devices, with the
// enrol form; after a device is enrolled, its link, shown once with a QR
// code.
type EnrolledDevicesPage struct {
	Page
	Devices []EnrolledDeviceRow
	// People are those the supervisor may enrol a device for: within
	// their role and buildings.
	People []PersonChoice
	Form   EnrolForm
	// NewLink is the link of the device just enrolled, shown once with
	// its QR code, for NewFor; "" otherwise.
	NewLink   string
	NewLinkQR QRCode
	NewFor    string
	Error     string // what went wrong with a change, in words
}

// EnrolledDeviceRow is an enrolled device.
type EnrolledDeviceRow struct {
	ID, Name, Person, MadeBy string
	Created                  time.Time
	LastSeen                 time.Time // zero: never opened
	Revoked                  time.Time // zero: active
}

// PersonChoice is a person a device may be enrolled for.
type PersonChoice struct {
	ID, Name string
	Selected bool
}

// EnrolForm is the enrol form as typed.
type EnrolForm struct {
	Name  string
	Error string
}

// EnrolmentPage is the page of a device's enrolment link: a button that
// signs the device in, or why the link cannot be used.
type EnrolmentPage struct {
	Page
	// Token is the link's own token, for the form posting back to the
	// page's own address; never shown.
	Token   string
	Problem string
}
