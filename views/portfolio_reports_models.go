package views

import (
	"context"
	"net/url"
	"strings"
	"time"

	"washboard/internal/domain"
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
	Scope              string // the person's buildings, in words, unless WholeAccount
	WholeAccount       bool
	trends.Totals
	// Share and WeekShare are its part of all the accounts' alerts of the
	// period and of the last 7 days: "34 %".
	Share, WeekShare string
}

// portfolioAccountsText says which accounts a report covers: "3
// accounts of the client Airport in the region North".
func portfolioAccountsText(ctx context.Context, n int, f PortfolioFilter) string {
	switch {
	case f.Client != "" && f.Region != "":
		return trn(ctx, "preport.accounts_client_region", n, "client", f.Client, "region", f.Region)
	case f.Client != "":
		return trn(ctx, "preport.accounts_client", n, "client", f.Client)
	case f.Region != "":
		return trn(ctx, "preport.accounts_region", n, "region", f.Region)
	}
	return trn(ctx, "preport.accounts", n)
}

// mediansText is the median time to resolve of each type: "Product out
// 42 min (12 alerts), Jammed 1 h 5 min (3 alerts)".
func mediansText(ctx context.Context, ms []report.TypeMedian) string {
	parts := make([]string, len(ms))
	for i, tm := range ms {
		parts[i] = trn(ctx, "preport.median_of", tm.Count, "type", screenAlertType(ctx, tm.Type), "duration", screenDuration(ctx, tm.Median))
	}
	return strings.Join(parts, ", ")
}

// preportRefills says what refills to carry: "3 soap refills, 1 tissue
// roll"; "no refills".
func preportRefills(ctx context.Context, rs []report.Refill) string {
	var parts []string
	for _, r := range rs {
		if r.Count <= 0 {
			continue
		}
		switch r.Type {
		case domain.Tissue:
			parts = append(parts, trn(ctx, "preport.refill_tissue", r.Count))
		case domain.Towel:
			parts = append(parts, trn(ctx, "preport.refill_towel", r.Count))
		case domain.Soap:
			parts = append(parts, trn(ctx, "preport.refill_soap", r.Count))
		case domain.Sanitizer:
			parts = append(parts, trn(ctx, "preport.refill_sanitizer", r.Count))
		default:
			parts = append(parts, trn(ctx, "preport.refill_other", r.Count))
		}
	}
	if len(parts) == 0 {
		return tr(ctx, "preport.no_refills")
	}
	return strings.Join(parts, ", ")
}

// preportBuilding is a pick list row's building, or that it is not known.
func preportBuilding(ctx context.Context, name string) string {
	if name == "" {
		return tr(ctx, "preport.building_unknown")
	}
	return name
}

// preportPlace is where a location is: "North Tower › Level 2 ›
// Restroom 2.04 › Stall 1", or its id when none of it is known.
func preportPlace(ctx context.Context, p report.Place) string {
	if s := pathText(p.Building, p.Floor, p.Room, p.Location); s != "" {
		return s
	}
	return tr(ctx, "preport.location_id", "id", p.LocationID)
}

// preportTable is the name of a downloadable table of the portfolio's
// shift report; one this part does not know as its label says.
func preportTable(ctx context.Context, name, label string) string {
	switch name {
	case "summary":
		return tr(ctx, "preport.table_summary")
	case "opened":
		return tr(ctx, "preport.table_opened")
	case "resolved":
		return tr(ctx, "preport.table_resolved")
	case "open":
		return tr(ctx, "preport.table_open")
	case "offline":
		return tr(ctx, "preport.table_offline")
	case "top":
		return tr(ctx, "preport.table_top")
	case "picklist":
		return tr(ctx, "preport.table_picklist")
	case "runningout":
		return tr(ctx, "preport.table_runningout")
	case "handled":
		return tr(ctx, "preport.table_handled")
	}
	return label
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
