package views

import "time"

// PortfolioScreens is the page where the people of an organisation manage
// its wall screens, each showing its clients.
type PortfolioScreens struct {
	Page
	Organisation string
	// MayKeep: the person's role in the organisation lets them make and
	// change its screens (supervisor or above).
	MayKeep bool
	Screens []ScreenRow // Scope says which clients: "Every client", or their names
	Form    PortfolioScreenForm
	// NewLink is the link of a screen just made or given a new link. It
	// holds the screen's token and is shown once, never again.
	NewLink     string
	NewLinkName string
	Error       string // what is wrong with the form, in words
	Removal     string // why a screen of the list was not removed, in words
	Now         time.Time
}

// PortfolioScreenForm makes or edits a portfolio screen. Field names:
// name, account (repeated checkbox; none ticked: every client),
// page_seconds, dim_from, dim_to, language, contact.
type PortfolioScreenForm struct {
	Action  string // /portfolio/screens or /portfolio/screens/{id}
	Editing bool
	Name    string
	Clients []Option // the clients the person's role covers: value the account id
	// EveryClient: the person's role covers every client, so that no
	// client ticked means every client, now and later.
	EveryClient bool
	PageSeconds int
	DimFrom     string
	DimTo       string
	Language    string // the code of the language the screen speaks
	Contact     string
}
