package views

import (
	"net/url"
	"strings"
	"time"

	"washboard/internal/report"
	"washboard/internal/trends"
)

// Param is a parameter a form carries unchanged, as a hidden field.
type Param struct {
	Name, Value string
}

// PortfolioShiftReport is the shift report of several accounts of an
// organisation: their sum first, then each account's own, one period for
// all.
type PortfolioShiftReport struct {
	Page
	Organisation string
	Filter       PortfolioFilter
	Form         ReportForm
	// ShiftsOf names the account whose shifts and time zone the period is
	// in: the one the session is in.
	ShiftsOf  string
	Zone      *time.Location
	PrintedAt time.Time
	// Notes say which accounts are left out and why; TooMany that the
	// filter names more accounts than a report covers (then there is no
	// report).
	Notes   []string
	TooMany string
	// Sum is nil when there is no report (the form's values name no
	// period, or too many accounts).
	Sum        *report.Report
	Accounts   []PortfolioAccountReport
	InProgress bool
	CSV        []ReportCSV
	Running    string
}

// PortfolioAccountReport is one account's part of the portfolio's shift
// report.
type PortfolioAccountReport struct {
	ID, Client, Region string
	Scope              string // "Whole account", or the person's buildings
	Report             *report.Report
	AsOf               time.Time
	Sources, Gaps      []string
	// Own is the address of the account's own report of the period, which
	// a form switches to the account to open.
	Own string
}

// PortfolioTrends is the trends of several accounts: their alerts added
// up, and each account's figures with its share.
type PortfolioTrends struct {
	Page
	Organisation string
	Filter       PortfolioFilter
	Hidden       []Param // the filter, carried by the period's form
	Days         int
	Periods      []Option
	Zone         *time.Location
	ZoneOf       string // the account whose time zone days are counted in
	Notes        []string
	TooMany      string
	Period       trends.Period
	Sum          trends.Alerts
	Total        trends.Totals
	Accounts     []PortfolioAccountTrends
	Computed     time.Time
	Gaps         []string
	// CSV holds the download link of each table: accounts, perday.
	CSV     map[string]string
	Running string
}

// PortfolioAccountTrends is one account's row of the portfolio's trends.
type PortfolioAccountTrends struct {
	ID, Client, Region string
	Scope              string
	trends.Totals
	// Share and WeekShare are its part of all the accounts' alerts of the
	// period and of the last 7 days: "34 %".
	Share, WeekShare string
}

// portfolioAccountsText says which accounts a report covers: "3 accounts
// of the region North".
func portfolioAccountsText(m PortfolioShiftReport) string {
	return plural(len(m.Accounts), "account", "accounts") + filterText(m.Filter)
}

// filterText says the filter that chose the accounts: "", or " of the
// client Airport in the region North".
func filterText(f PortfolioFilter) string {
	s := ""
	if f.Client != "" {
		s += " of the client " + f.Client
	}
	if f.Region != "" {
		s += " in the region " + f.Region
	}
	return s
}

// mediansText is the median time to resolve of each type: "Product out
// 42 min (12 alerts), Jam 1 h 5 min (3 alerts)".
func mediansText(ms []report.TypeMedian) string {
	parts := make([]string, len(ms))
	for i, tm := range ms {
		parts[i] = tm.Type.Label() + " " + duration(tm.Median) + " (" + plural(tm.Count, "alert", "alerts") + ")"
	}
	return strings.Join(parts, ", ")
}

// sumTrendsPage is the trends page's model of the accounts' sum, for the
// trends page's charts of alerts per day and per week.
func sumTrendsPage(m PortfolioTrends) TrendsPage {
	return TrendsPage{Page: m.Page, Days: m.Days, Zone: m.Zone, Period: m.Period, Alerts: m.Sum, CSV: map[string]string{"perday": m.CSV["perday"]}}
}

// reportQueryOf is the portfolio's filter as the query of its reports:
// the client and region (its state does not choose their accounts).
func reportQueryOf(f PortfolioFilter) string {
	q := url.Values{}
	if f.Client != "" {
		q.Set("client", f.Client)
	}
	if f.Region != "" {
		q.Set("region", f.Region)
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}
