package views

import (
	"time"

	"washboard/internal/domain"
)

// The pages a room's code opens (docs/visitors.md) are light on purpose:
// no script, one small stylesheet, nothing but what the page says.

// VisitorForm is the page a visitor gets from a room's code: what is
// wrong, a rating, Send. It shows again as it was sent, with Error, when
// a report is refused.
type VisitorForm struct {
	Room      string // the room's name
	Where     string // its building and floor
	Action    string // the code's address, which the form posts to
	FormToken string // the visitors' form token (visitors.FormToken)
	Kind      domain.VisitorKind
	Text      string
	Rating    int
	Error     string // what is wrong with what was sent, in words
}

// VisitorNoticeKind is what a visitor's notice says.
type VisitorNoticeKind int

// The notices of a room's code.
const (
	NoticeThanks      VisitorNoticeKind = iota // a report was recorded
	NoticeTooMany                              // a report was refused for coming too fast
	NoticeUnknownCode                          // no room has the code
	NoticeReplaced                             // the code was replaced
	NoticeRoomGone                             // the code's room is no longer in the layout
)

// VisitorNotice is a page of a room's code that says one thing.
type VisitorNotice struct {
	Kind VisitorNoticeKind
	Room string // the room's name, when the code opened one
	// Again is the address of the visitors' form, to send something else
	// (after thanks); "" for none.
	Again string
}

// Presence is the page a person of the room's account gets from its code:
// their presence recorded, or (for a link that came from another site)
// asked to be.
type Presence struct {
	Room, Where string
	At          time.Time
	Zone        *time.Location
	RoomHref    string // the room's page
	ReportHref  string // the visitors' form, to report something as a visitor would
	// Confirm asks before recording, with a form to Action.
	Confirm   bool
	Action    string
	FormToken string
}

// FloorCodes is a floor's printable sheet of room codes.
type FloorCodes struct {
	Page
	Building, Floor string
	Action          string // where the form that replaces a code posts
	Codes           []RoomCodeCard
	Replaced        string // the room whose code was just replaced
}

// RoomCodeCard is a room's code on the sheet.
type RoomCodeCard struct {
	RoomID, Room string
	Link         string // the code's address; "" when it cannot be shown again
	QR           QRCode
}
