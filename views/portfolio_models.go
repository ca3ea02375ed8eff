package views

import (
	"time"

	"washboard/internal/domain"
)

// OrganisationPage is the person's organisation: its accounts and people,
// and what they may change; or, for a person of none, how to make one.
type OrganisationPage struct {
	Page
	Error string // what went wrong with the last form, in words
	// Name is the organisation's; "" when the person belongs to none.
	Name string
	Role domain.Role // the person's in the organisation
	// MayCreate: the person belongs to no organisation and owns the
	// account they are in.
	MayCreate bool
	// MayManage: an admin or owner of the organisation.
	MayManage bool
	// MayAddCurrent: they manage it and own the account they are in,
	// which is of no organisation yet.
	MayAddCurrent  bool
	CurrentAccount string
	Accounts       []OrganisationAccountRow
	People         []OrganisationPersonRow
	Grantable      []domain.Role
	Hidden         int // accounts of the organisation the person does not see
}

// OrganisationAccountRow is an account of the organisation.
type OrganisationAccountRow struct {
	ID, Name, Client, Region string
}

// OrganisationPersonRow is a person of the organisation.
type OrganisationPersonRow struct {
	ID, Name, Email string
	Role            domain.Role
	Accounts        string // "every account", or the client names
	Self            bool
}

// Portfolio is the portfolio page: every account of the organisation the
// person sees, worst first, filtered.
type Portfolio struct {
	Page
	Organisation string
	Filter       PortfolioFilter
	Clients      []string // to filter by
	Regions      []string
	Rows         []PortfolioRow
	Total        int // accounts before the filter
	Hidden       int // accounts of the organisation the person does not see
	Now          time.Time
	// Query is the filter as a query string, for the CSV link.
	Query string
}

// PortfolioFilter is the portfolio's filter: "" for any.
type PortfolioFilter struct {
	Client, Region, State string
}

// Active reports whether the filter leaves accounts out.
func (f PortfolioFilter) Active() bool { return f.Client != "" || f.Region != "" || f.State != "" }

// PortfolioRow is an account of the portfolio.
type PortfolioRow struct {
	Account, Client, Region string
	Health                  domain.Health
	Open, Overdue           int
	Unclaimed               int // visitors' reports among them
	Visitors                int // visitors' reports open
	Out, Offline            int
	RunOuts                 int
	Shift                   string
	ShiftEnd                time.Time
	// ServiceLevel is this week's share of alerts that met their targets,
	// in words; "" when the account has no targets.
	ServiceLevel string
	Current      bool // the account the session is in
	// Problem says why the account's state could not be read; the counts
	// are then zero.
	Problem string
}

// PortfolioSearch is the search across the portfolio's accounts.
type PortfolioSearch struct {
	Page
	Query     string
	Results   []PortfolioHit
	Truncated bool
	Searched  int // accounts searched
}

// PortfolioHit is a location found in an account of the portfolio.
type PortfolioHit struct {
	Account, Client string
	LocationID      string
	Name, Where     string
	Health          domain.Health
	Current         bool
}
