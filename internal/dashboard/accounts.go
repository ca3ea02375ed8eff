package dashboard

import (
	"context"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/report"
	"washboard/internal/store"
	"washboard/internal/trends"
)

// MaxReportAccounts is how many accounts a report of several accounts (the
// shift report or the trends of a portfolio) covers at most: the work of
// one request grows with it.
const MaxReportAccounts = 50

// AccountScope is an account and what a person sees of it: every building,
// or those their role there is limited to.
type AccountScope struct {
	Account string
	Scope   domain.BuildingScope
}

// AccountsReport is the shift report of several accounts over one period:
// each account's own, and their sum.
type AccountsReport struct {
	// Sum adds up the accounts' reports (report.Sum): its summary, alerts
	// per hour and pick list totals; its tables are empty.
	Sum report.Report
	// Accounts are each account's report, in the order asked.
	Accounts []Report
}

// errTooManyAccounts refuses a report of more than MaxReportAccounts; the
// web layer says it in words before asking.
func errTooManyAccounts(n int) error {
	return fmt.Errorf("a report of %d accounts, more than %d", n, MaxReportAccounts)
}

// AccountsReport builds the shift report of period p for each account, as
// its scope sees it, from the cache (a period older than the cache covers
// counts what it still holds, and each account's report says so), and
// adds them up.
func (s *Service) AccountsReport(ctx context.Context, accounts []AccountScope, p report.Period, now time.Time) (AccountsReport, error) {
	var out AccountsReport
	if len(accounts) > MaxReportAccounts {
		return out, errTooManyAccounts(len(accounts))
	}
	out.Accounts = make([]Report, 0, len(accounts))
	plain := make([]report.Report, 0, len(accounts))
	for _, a := range accounts {
		r, err := s.Report(ctx, a.Account, a.Scope, domain.Credentials{}, "", p, now)
		if err != nil {
			return out, fmt.Errorf("the shift report of account %s: %w", a.Account, err)
		}
		out.Accounts = append(out.Accounts, r)
		plain = append(plain, r.Report)
	}
	out.Sum, _ = report.Sum(plain) // one period for all: none is left out
	if len(accounts) == 0 {
		out.Sum.Period = p
	}
	return out, nil
}

// AccountsTrends are the alerts of several accounts over the last days:
// their sum, and each account's in a few figures.
type AccountsTrends struct {
	Period trends.Period
	// Sum counts the alerts of every account together: per day and type,
	// and the median time to resolve per week. Its top lists are empty
	// (each account's places are its own).
	Sum trends.Alerts
	// Total are the figures of every account together.
	Total trends.Totals
	// Accounts are each account's figures, in the order asked.
	Accounts []AccountTrends
	// Computed is when the alerts were counted.
	Computed time.Time
	// Gaps say in words what the figures may miss.
	Gaps []string
}

// AccountTrends is one account's figures of the period.
type AccountTrends struct {
	Account string
	trends.Totals
}

// AccountsTrends counts the alerts of the last days days in zone of each
// account, as its scope sees them, and their sum. At most MaxTrendSpans
// alerts are counted in all, as for one account.
func (s *Service) AccountsTrends(ctx context.Context, accounts []AccountScope, days int, zone *time.Location) (AccountsTrends, error) {
	now := s.clock.Now()
	out := AccountsTrends{Period: trends.NewPeriod(days, now, zone), Computed: now}
	if len(accounts) > MaxReportAccounts {
		return out, errTooManyAccounts(len(accounts))
	}
	p := out.Period
	var all []store.AlertSpan
	full := false
	for _, a := range accounts {
		left := MaxTrendSpans - len(all)
		var spans []store.AlertSpan
		if left > 0 {
			var err error
			spans, err = s.store.AlertSpans(ctx, store.AlertFilter{Account: a.Account, Buildings: a.Scope.IDs(), OpenFrom: p.Start, OpenTo: now, Limit: left + 1})
			if err != nil {
				return out, fmt.Errorf("the trends of account %s: %w", a.Account, err)
			}
		}
		if len(spans) >= left+1 || left <= 0 {
			spans, full = spans[:max(left, 0)], true
		}
		out.Accounts = append(out.Accounts, AccountTrends{Account: a.Account, Totals: trends.TotalsOf(p, spans)})
		all = append(all, spans...)
	}
	out.Sum, out.Total = trends.CountAlerts(p, all, nil), trends.TotalsOf(p, all)
	out.Sum.Locations, out.Sum.Rooms = nil, nil
	l := i18n.From(ctx) // the words of the gaps: the language of whoever asks
	if full {
		out.Gaps = append(out.Gaps, l.T("pnotes.trends_full", "max", l.Number(MaxTrendSpans)))
	}
	if s.sync != nil {
		cfg := s.sync.Config()
		if kept := now.Add(-cfg.History); p.Start.Before(kept) {
			out.Gaps = append(out.Gaps, l.N("pnotes.trends_kept", int(cfg.History/(24*time.Hour)), "since", dateTimeIn(l, kept, zone)))
		}
	}
	return out, nil
}
