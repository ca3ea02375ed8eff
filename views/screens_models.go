package views

import (
	"time"

	"washboard/internal/domain"
)

// Screens is the page where signed-in users manage the account's wall
// screens.
type Screens struct {
	Page
	Screens []ScreenRow
	Form    ScreenForm // the form for a new screen, or the one being edited
	// NewLink is the link of a screen just created or re-linked. It holds
	// the screen's token and is shown once, never again.
	NewLink     string
	NewLinkName string
	Error       string // what is wrong with the form, in words
	// Now is the present, for "last checked in 5 min ago"; when zero the
	// times are absolute only.
	Now time.Time
}

// ScreenRow is one screen in the list.
type ScreenRow struct {
	ID         string
	Name       string
	Scope      string // in words: "Whole account", "North Tower", "North Tower › Level 3"
	Settings   string // in words: "Needs action, offline · pages every 15 s · dims 22:00–06:00"
	Contact    string // who to ask to re-link it
	Created    time.Time
	LastSeen   time.Time // zero: never opened
	Revoked    bool
	EditHref   string // GET: the form filled with this screen
	RevokeHref string // POST with csrf_token: unlink
	RelinkHref string // POST with csrf_token: a new link, the old one stops working
}

// ScreenForm creates or edits a screen. Field names: name, scope, health
// (repeated checkbox), page_seconds, dim_from, dim_to, contact.
type ScreenForm struct {
	Action      string // where the form posts: /screens or /screens/{id}
	Editing     bool
	Name        string
	Scopes      []Option // values "account", "building:{id}", "floor:{id}"
	Healths     []Option // checkboxes named health, values ok/attention/action/offline
	PageSeconds int
	DimFrom     string // "22:00" or ""
	DimTo       string // "06:00" or ""
	Contact     string
}

// ScreenView is what a wall screen shows: its scope's state from a
// distance, what needs action first.
type ScreenView struct {
	Name      string // the screen's name
	ScopeName string // "North Tower › Level 3"
	Zone      *time.Location
	Now       time.Time
	Version   string // the server's version; a change makes the screen reload once

	Freshness Freshness
	Contact   string // who should re-link the screen when its access is rejected
	Unlinked  bool   // the screen was revoked: say so and show nothing else

	Counts        domain.Counts
	OpenAlerts    int
	OverdueAlerts int
	AllClear      bool // nothing to show: say so, with the counts
	Groups        []ScreenGroup

	PageSeconds int    // how long each page of items shows
	DimFrom     string // "22:00", or "" for no dimming
	DimTo       string
}

// ScreenGroup is the items of one room, on one floor.
type ScreenGroup struct {
	Where string // "Level 3 › Men's Restroom 3.12" (with the building when the scope is the account)
	Items []ScreenItem
}

// ScreenItem is one thing that needs doing at a location.
type ScreenItem struct {
	Location string
	Problem  string // in words: "Overdue: Product out", "Jammed", "Battery low", "Offline"
	Severity domain.Health
	Since    time.Time // zero when unknown
	Overdue  bool
}
