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
	// Removal, when set, is why a screen of the list was not removed, in
	// words.
	Removal string
	// Now is the present, for "last checked in 5 min ago"; when zero the
	// times are absolute only.
	Now time.Time
}

// ScreenRow is one screen in the list.
type ScreenRow struct {
	ID        string
	Name      string
	Scope     string // in words: "Whole account", "North Tower", "North Tower › Level 3"
	Settings  ScreenSettings
	Language  string // the code of the language it speaks: "de"; "" for English
	Contact   string // who to ask to re-link it
	Created   time.Time
	LastSeen  time.Time // zero: never opened
	Revoked   bool
	NeedsLink bool // what the server keeps for it cannot be opened with its key: only a new link brings it back
	// Rejection, when set, is why the service refused the screen's
	// credentials ("revoked", "expired", "rejected"): a new link gives it
	// those of the user who asks for it.
	Rejection  string
	EditHref   string // GET: the form filled with this screen
	RevokeHref string // POST with csrf_token: unlink
	RelinkHref string // POST with csrf_token: a new link, the old one stops working
	// RemoveHref, set for a revoked screen only: POST with csrf_token
	// removes it from the list for good.
	RemoveHref string
}

// ScreenSettings are how a screen shows what it shows, which the list
// says in words: "Needs action, Offline · pages every 15 s · dims
// 22:00–06:00".
type ScreenSettings struct {
	Healths     []domain.Health // none for a portfolio screen
	PageSeconds int
	DimFrom     string // "22:00", or "" for no dimming
	DimTo       string
}

// ScreenForm creates or edits a screen. Field names: name, scope, health
// (repeated checkbox), page_seconds, dim_from, dim_to, language, contact.
type ScreenForm struct {
	Action      string // where the form posts: /screens or /screens/{id}
	Editing     bool
	Name        string
	Scopes      []Option // values "account", "building:{id}", "floor:{id}"
	Healths     []Option // checkboxes named health, values ok/attention/action/offline
	PageSeconds int
	DimFrom     string // "22:00" or ""
	DimTo       string // "06:00" or ""
	Language    string // the code of the language the screen speaks
	Contact     string
	Rounds      bool // shows the rounds running in its place
	// Plans are the choices of floor plans it shows: none, the busy
	// floors in turn, or one floor.
	Plans []Option
}

// ScreenView is what a wall screen shows: its scope's state from a
// distance, what needs action first.
type ScreenView struct {
	Name      string // the screen's name
	ScopeName string // "North Tower › Level 3"
	Zone      *time.Location
	Now       time.Time
	Version   string // the server's version; a change makes the screen reload once
	// ClockSpeed, when set, says that the server's clock is not the real
	// one and runs this many times faster (the demo's): the screen keeps
	// time with it, from Now, rather than with its own clock.
	ClockSpeed float64

	Freshness Freshness
	Contact   string     // who should re-link the screen when its access is rejected
	Stopped   ScreenStop // set when the screen shows no more data: it says why and nothing else

	Counts        domain.Counts
	OpenAlerts    int
	OverdueAlerts int
	AllClear      bool          // nothing to show: say so, with the counts
	Groups        []ScreenGroup // what needs action, by room, the most urgent first
	Attention     []ScreenGroup // what only needs attention (product or battery low), by room
	// RunningOut are the rooms where dispensers run out soon, the rooms
	// with the most first: "Level 3 › Men's 3.12: 3 dispensers run out
	// before 14:00".
	RunningOut []ScreenRunningOut
	// Levels counts the open alerts at risk of missing a target and past
	// one; nil when the account has no service level.
	Levels *LevelCounts
	// Rounds are the rounds running in its place, for a screen that shows
	// them.
	Rounds []ScreenRound

	PageSeconds int    // how long each page of items shows
	DimFrom     string // "22:00", or "" for no dimming
	DimTo       string

	// Portfolio says the screen shows an organisation's clients rather
	// than places: Clients, worst first; Counts then counts clients by
	// state, and the alerts are theirs summed.
	Portfolio bool
	Clients   []ScreenClient
	// Plans are the floor plans it shows in turn instead of its list,
	// for a screen that shows plans and has some to show.
	Plans []ScreenPlan
}

// ScreenClient is a client of a portfolio screen: its row of the
// portfolio, and its service level in words.
type ScreenClient struct {
	PortfolioRow
	// Level says how the client's service level stands: "This week: 13
	// met, 2 missed · 1 open alert at risk"; "No service level targets".
	Level string
	// LevelWarning: an open alert is at risk or past its target, or an
	// alert closed this week missed one.
	LevelWarning bool
}

// ScreenRunningOut is a room where dispensers run out before a time.
type ScreenRunningOut struct {
	Where      string
	Dispensers int
	Before     time.Time
}

// ScreenGroup is the items of one room, on one floor.
type ScreenGroup struct {
	Where string // "Level 3 › Men's Restroom 3.12" (with the building when the scope is the account)
	Items []ScreenItem
}

// ScreenItem is one thing that needs doing at a location.
type ScreenItem struct {
	Location string
	// What is the problem, which the screen says in its language;
	// Problem says it as it is when What has no kind.
	What     domain.ScreenProblem
	Problem  string
	Severity domain.Health
	Since    time.Time // zero when unknown
	Overdue  bool
	// ClaimedBy is who is on the location, since ClaimedAt; empty when
	// nobody is.
	ClaimedBy string
	ClaimedAt time.Time
	// Level is where its alert stands against its targets when it is at
	// risk of missing one or past one; nil otherwise.
	Level *Level
}

// ScreenStop says why a screen shows no more data (ScreenStopTitle and
// ScreenStopMessage say it in words). The zero value: it shows its data.
type ScreenStop string

// The reasons a screen stops.
const (
	// StopUnlinked: the screen was unlinked, or linked anew elsewhere.
	StopUnlinked ScreenStop = "unlinked"
	// StopNeedsLink: what the server keeps for the screen cannot be opened
	// with the server's key any more (the key changed).
	StopNeedsLink ScreenStop = "needs-link"
	// StopMakerLeft: the person whose view a portfolio screen shows left
	// its organisation.
	StopMakerLeft ScreenStop = "maker-left"
)

// IsZero reports whether the screen shows its data.
func (s ScreenStop) IsZero() bool { return s == "" }

// screensNeedingLinks counts the screens that only a new link brings back.
func screensNeedingLinks(rows []ScreenRow) int {
	n := 0
	for _, r := range rows {
		if r.NeedsLink && !r.Revoked {
			n++
		}
	}
	return n
}
