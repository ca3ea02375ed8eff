package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/report"
	"washboard/internal/trends"
	. "washboard/views"
)

// The wall screens, the Screens page, the portfolio's screens and the
// portfolio's pages take every word from the catalogs (part "screens").
func init() {
	convertedParts["screens"] = screensPages
	pageDataParts = append(pageDataParts, `Level 3 service room|North Tower|Level 3|Men's Restroom 3\.12|Staff Kitchen 3\.20|`+
		`Stall \d|Sink Left|Towel|Facilities desk, ext\. 4410|Facilities desk|Shine Services|Airport|Museum|Head office|Library|South|North|`+
		`Lobby|Staff room|Annex|the service answered 503|Service Unavailable|\d+ Nov 2026 \d\d:\d\d|\(CSV\)|CET|Day|Acme Facilities|`+
		`Ground Floor|Men's|Ben Okafor|ben@example\.com|Shine|Zürich|Ana Lima's own error|Summit Court|Kiosk|Restroom|Level 2`)
	// The shift report's form and chart, and the trends' charts, are the
	// reports' and trends' parts.
	notYetConverted = append(notYetConverted, ".report-form", ".report-chart", "section[aria-labelledby='trend-perday']",
		"section[aria-labelledby='trend-resolve']")
}

// kindedScreen is the sample screen with its problems as values, as the
// web layer gives them.
func kindedScreen() ScreenView {
	m := sampleScreen()
	m.Groups[0].Items[0].What = domain.ScreenProblem{Kind: domain.ProblemOverdue, Alert: domain.AlertConsumableOut}
	m.Groups[0].Items[1].What = domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Kind: domain.FaultJam}}
	m.Groups[1].Items[0].What = domain.ScreenProblem{Kind: domain.ProblemOffline}
	m.Attention[0].Items[0].What = domain.ScreenProblem{Kind: domain.ProblemBatteryLow}
	m.Attention[0].Items[1].What = domain.ScreenProblem{Kind: domain.ProblemLow}
	m.Attention[0].Items[2].What = domain.ScreenProblem{Kind: domain.ProblemLow}
	return m
}

// wallScreens are a wall screen in each of its states.
func wallScreens() map[string]ScreenView {
	full := kindedScreen()
	full.Groups[0].Items[0].What = domain.ScreenProblem{Kind: domain.ProblemOverdue, Alert: domain.AlertConsumableOut}
	full.Groups[0].Items[0].ClaimedBy, full.Groups[0].Items[0].ClaimedAt = "Ana Lima", now.Add(-80*time.Minute)
	full.Groups[0].Items[1].What = domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Kind: domain.FaultJam}}
	full.Groups[0].Items[1].ClaimedBy, full.Groups[0].Items[1].ClaimedAt = "Ben Okafor", now.Add(-20*time.Second)
	full.Groups[1].Items[0].What = domain.ScreenProblem{Kind: domain.ProblemOffline}
	more := []ScreenItem{
		{Location: "Stall 5", What: domain.ScreenProblem{Kind: domain.ProblemOut}, Severity: domain.HealthAction, Since: now.Add(-3 * 24 * time.Hour)},
		{Location: "Stall 6", What: domain.ScreenProblem{Kind: domain.ProblemBatteryOut}, Severity: domain.HealthAction, Overdue: true, Since: now.Add(-2 * time.Minute)},
		{Location: "Stall 7", What: domain.ScreenProblem{Kind: domain.ProblemNoDevice}, Severity: domain.HealthOffline, Since: now.Add(-30 * time.Second)},
		{Location: "Stall 8", What: domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: domain.AlertIncorrectlyLoaded}, Severity: domain.HealthAction,
			Level: &Level{State: "at-risk", Claim: LevelOutcome{State: "at-risk", Deadline: now.Add(24 * time.Hour)}, Resolve: LevelOutcome{State: "at-risk", Deadline: now.Add(time.Hour)}}},
		{Location: "Stall 9", What: domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Key: "leak"}}, Severity: domain.HealthAction,
			Level: &Level{State: "missed", Claim: LevelOutcome{State: "missed"}, Resolve: LevelOutcome{State: "missed"}}},
		{Location: "Stall 1", What: domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: domain.AlertSensor}, Severity: domain.HealthAction,
			Level: &Level{State: "at-risk", Claim: LevelOutcome{State: "at-risk"}, Resolve: LevelOutcome{State: "at-risk"}}},
		{Location: "Stall 2", What: domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: domain.AlertSystem}, Severity: domain.HealthAction,
			Level: &Level{State: "missed", Resolve: LevelOutcome{State: "missed"}}},
		{Location: "Stall 3", What: domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Key: "maintenance_required"}}, Severity: domain.HealthAction,
			Level: &Level{State: "at-risk", Resolve: LevelOutcome{State: "at-risk"}}},
		{Location: "Stall 4", What: domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Key: "safety_check"}}, Severity: domain.HealthAction,
			Level: &Level{State: "at-risk", Claim: LevelOutcome{State: "at-risk"}}},
		{Location: "Towel", What: domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Key: "no_i2c_communication"}}, Severity: domain.HealthAction,
			Level: &Level{State: "missed", Claim: LevelOutcome{State: "missed"}}},
		{Location: "Sink Left", What: domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Kind: domain.FaultSensor}}, Severity: domain.HealthAction},
		{Location: "Sink Left", What: domain.ScreenProblem{Kind: domain.ProblemFault, Fault: domain.Fault{Kind: domain.FaultSystem}}, Severity: domain.HealthAction},
		{Location: "Sink Left", What: domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: domain.AlertBatteryOut}, Severity: domain.HealthAction},
		{Location: "Sink Left", What: domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: domain.AlertJam}, Severity: domain.HealthAction},
		{Location: "Sink Left", What: domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: domain.AlertDeviceOff}, Severity: domain.HealthOffline},
	}
	full.Groups[1].Items = append(full.Groups[1].Items, more...)
	full.Attention[0].Items = []ScreenItem{
		{Location: "Stall 4", What: domain.ScreenProblem{Kind: domain.ProblemBatteryLow}, Severity: domain.HealthAttention},
		{Location: "Stall 1", What: domain.ScreenProblem{Kind: domain.ProblemLow}, Severity: domain.HealthAttention},
		{Location: "Stall 3", What: domain.ScreenProblem{Kind: domain.ProblemLow}, Severity: domain.HealthAttention},
		{Location: "Stall 5", What: domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: domain.AlertJam}, Severity: domain.HealthAttention},
	}
	full.RunningOut = []ScreenRunningOut{{Where: "Level 3 › Men's Restroom 3.12", Dispensers: 3, Before: now.Add(3 * time.Hour)},
		{Where: "Level 3 › Staff Kitchen 3.20", Dispensers: 1, Before: now.Add(3 * time.Hour)}}
	full.Levels = &LevelCounts{AtRisk: 2, Missed: 1}

	still := full // a screen without a present: absolute times
	still.Now = time.Time{}

	out := map[string]ScreenView{"full": full, "still": still}
	for name, f := range map[string]Freshness{
		"stale":            {AsOf: now.Add(-4 * time.Minute), Stale: true, Reason: "the service answered 503 Service Unavailable"},
		"stale-no-reason":  {AsOf: now.Add(-4 * time.Minute), Failed: true},
		"no-data":          {Stale: true},
		"no-data-reason":   {Failed: true, Reason: "the service answered 503 Service Unavailable"},
		"rejected":         {AsOf: now.Add(-4 * time.Minute), Rejected: true},
		"rejected-revoked": {AsOf: now.Add(-4 * time.Minute), Rejected: true, Rejection: "revoked"},
		"rejected-expired": {Rejected: true, Rejection: "expired"},
	} {
		m := kindedScreen()
		m.Freshness = f
		out[name] = m
	}
	nobody := kindedScreen()
	nobody.Contact, nobody.Freshness = "", Freshness{Rejected: true}
	out["rejected-nobody"] = nobody
	clear := allClearScreen()
	out["all-clear"] = clear
	some := allClearScreen()
	some.Counts, some.OpenAlerts = domain.Counts{OK: 998, Attention: 2}, 2
	out["all-clear-some"] = some
	none := allClearScreen()
	none.Counts = domain.Counts{}
	out["all-clear-none"] = none
	waiting := allClearScreen()
	waiting.Freshness = Freshness{}
	out["waiting"] = waiting
	for name, stop := range map[string]ScreenStop{"unlinked": StopUnlinked, "needs-link": StopNeedsLink, "maker-left": StopMakerLeft} {
		m := kindedScreen()
		m.Stopped = stop
		out[name] = m
	}
	p := portfolioScreen()
	p.Clients[0].Level = "⟦level words⟧"
	p.Clients[1].Problem = "⟦the handler's words⟧"
	p.Clients[2].Level, p.Clients[3].Level = "⟦level words⟧", "⟦level words⟧"
	p.Clients = append(p.Clients, ScreenClient{PortfolioRow: PortfolioRow{Client: "Annex", Health: domain.HealthAttention, Overdue: 1, Open: 1, Unclaimed: 1, Out: 1, Offline: 2}})
	out["portfolio"] = p
	empty := portfolioScreen()
	empty.Clients = nil
	out["portfolio-empty"] = empty
	return out
}

// screensPage is the Screens page with a screen in each state, the link
// of one just made, a removal refused and the form being edited with a
// problem.
func screensPage() Screens {
	page := Page{Title: "T", Nav: "screens", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123", Version: "v1.2.3",
		Zone: cet, PersonName: "Ana Lima", Role: domain.Admin}
	row := func(id, name string) ScreenRow {
		return ScreenRow{ID: id, Name: name, Scope: "North Tower › Level 3", Language: "de", Created: now.Add(-72 * time.Hour),
			Settings: ScreenSettings{Healths: []domain.Health{domain.HealthAction, domain.HealthOffline, domain.HealthAttention, domain.HealthOK}, PageSeconds: 15, DimFrom: "22:00", DimTo: "06:00"},
			EditHref: "/screens/" + id + "/edit", RevokeHref: "/screens/" + id + "/revoke", RelinkHref: "/screens/" + id + "/relink"}
	}
	active := row("s1", "Level 3 service room")
	active.LastSeen, active.Contact = now.Add(-5*time.Minute), "Facilities desk"
	revoked := row("s2", "Lobby")
	revoked.Revoked, revoked.RemoveHref, revoked.Language = true, "/screens/s2/remove", ""
	needs := row("s3", "Staff room")
	needs.NeedsLink, needs.LastSeen = true, now.Add(-3*time.Hour)
	var rejected []ScreenRow
	for i, why := range []string{"revoked", "expired", "rejected"} {
		r := row("r"+string(rune('a'+i)), "Annex")
		r.Rejection, r.LastSeen = why, now.Add(-30*time.Hour)
		rejected = append(rejected, r)
	}
	old := row("s4", "Lobby")
	old.LastSeen, old.Settings.DimFrom = now.Add(-5*24*time.Hour), ""
	return Screens{Page: page, Now: now, NewLink: "https://washboard.example/s/tok", NewLinkName: "Lobby", Removal: "⟦the handler's words⟧",
		Error:   "⟦the handler's words⟧",
		Screens: append([]ScreenRow{active, revoked, needs, old}, rejected...),
		Form: ScreenForm{Action: "/screens/s1", Editing: true, Name: "Level 3 service room", PageSeconds: 20, DimFrom: "22:00", DimTo: "06:00", Language: "fr",
			Contact: "Facilities desk",
			Scopes:  []Option{{Value: "account", Label: "⟦whole account⟧"}, {Value: "building:b1", Label: "North Tower"}, {Value: "floor:f3", Label: "North Tower › Level 3", Selected: true}},
			Healths: []Option{{Value: "ok"}, {Value: "attention", Selected: true}, {Value: "action", Selected: true}, {Value: "offline"}}},
	}
}

// portfolioScreensPage is the portfolio's screens, with a screen of each
// state and the form of a new one.
func portfolioScreensPage() PortfolioScreens {
	s := screensPage()
	rows := []ScreenRow{s.Screens[0], s.Screens[1]}
	for i := range rows {
		rows[i].Scope, rows[i].Settings.Healths = "⟦every client⟧", nil
	}
	return PortfolioScreens{Page: s.Page, Organisation: "Shine Services", MayKeep: true, Screens: rows, NewLink: s.NewLink, NewLinkName: "Lobby",
		Error: "⟦the handler's words⟧", Removal: "⟦the handler's words⟧", Now: now,
		Form: PortfolioScreenForm{Action: "/portfolio/screens", Name: "Staff room", PageSeconds: 15, Language: "es", EveryClient: true,
			Clients: []Option{{Value: "a1", Label: "Airport", Selected: true}, {Value: "a2", Label: "Museum"}}}}
}

// portfolioPages are the portfolio, its search,
// its shift report and its trends, each with all it may show.
func portfolioPages() map[string]templ.Component {
	page := Page{Title: "T", Nav: "portfolio", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123", Version: "v1.2.3",
		Zone: cet, PersonName: "Ana Lima", Role: domain.Owner, Portfolio: true}
	rows := []PortfolioRow{
		{Account: "a1", Client: "Airport", Region: "South", Health: domain.HealthAction, Open: 5, Overdue: 2, Unclaimed: 3, Out: 4, Offline: 1, RunOuts: 6,
			Shift: "Day", ShiftEnd: now.Add(4 * time.Hour), ServiceLevel: "⟦level words⟧", Current: true},
		{Account: "a2", Client: "Museum", Problem: "⟦the handler's words⟧"},
		{Account: "a3", Client: "Library", Region: "North", Health: domain.HealthOffline, RunOuts: 1, ShiftEnd: now.Add(time.Hour)},
		{Account: "a4", Client: "Head office", Health: domain.HealthAttention},
		{Account: "a5", Client: "Annex", Health: domain.HealthOK},
	}
	port := Portfolio{Page: page, Organisation: "Shine Services", Filter: PortfolioFilter{Client: "Airport", Region: "South", State: "action"},
		Clients: []string{"Airport", "Museum"}, Regions: []string{"North", "South"}, Rows: rows, Total: 9, Hidden: 1, Now: now, Query: "?client=Airport"}
	empty := port
	empty.Rows, empty.Total, empty.Hidden, empty.Filter = nil, 0, 0, PortfolioFilter{}
	nomatch := empty
	nomatch.Total = 3

	search := PortfolioSearch{Page: page, Query: "Stall", Truncated: true, Searched: 3, Results: []PortfolioHit{
		{Account: "a1", Client: "Airport", LocationID: "l1", Name: "Stall 1", Where: "North Tower › Level 3", Health: domain.HealthAction, Current: true},
		{Account: "a2", Client: "Museum", LocationID: "l2", Name: "Stall 2", Where: "North Tower › Level 3", Health: domain.HealthOK}}}
	nothing := PortfolioSearch{Page: page, Query: "Stall", Searched: 1}

	start := now.Add(-8 * time.Hour)
	rep := func() *report.Report {
		return &report.Report{Period: report.Period{Start: start, End: now, Shift: "Day"},
			Summary: report.Summary{OpenAtStart: 2, OpenedDuring: 5, ResolvedDuring: 4, OpenAtEnd: 3, OverdueAtEnd: 1,
				TimeToResolve: []report.TypeMedian{{Type: domain.AlertConsumableOut, Count: 3, Median: 42 * time.Minute}, {Type: domain.AlertJam, Count: 1, Median: 65 * time.Minute}}},
			StillOpen: []report.AlertRow{
				{Alert: domain.Alert{ID: "x1", Type: domain.AlertBatteryOut, Created: start}, Place: report.Place{Building: "North Tower", Floor: "Level 3", Room: "Men's Restroom 3.12", Location: "Stall 1"}, OverdueAtEnd: true, AgeAtEnd: 30 * time.Hour},
				{Alert: domain.Alert{ID: "x2", Type: domain.AlertSensor, Created: start}, Place: report.Place{LocationID: "l9"}, AgeAtEnd: 3 * time.Hour}},
			PickList: report.PickList{BatterySets: 2, Refills: []report.Refill{{Type: domain.Tissue, Count: 1}, {Type: domain.Towel, Count: 2}, {Type: domain.Soap, Count: 3}, {Type: domain.Sanitizer, Count: 1}, {Type: "foam", Count: 2}},
				Rows: []report.PickRow{{Building: "North Tower", Floor: "Level 3", Refills: []report.Refill{{Type: domain.Soap, Count: 3}}, BatterySets: 1}, {Floor: "Level 2", BatterySets: 1}}},
		}
	}
	quiet := rep()
	quiet.StillOpen, quiet.PickList, quiet.Summary.TimeToResolve = nil, report.PickList{}, nil
	shift := PortfolioShiftReport{Page: page, Organisation: "Shine Services", Filter: PortfolioFilter{Client: "Airport", Region: "South"},
		ShiftsOf: "Acme Facilities", Zone: cet, PrintedAt: now, Notes: []string{"⟦the handler's words⟧"}, Sum: rep(), InProgress: true,
		Accounts: []PortfolioAccountReport{
			{ID: "a1", Client: "Airport", Region: "South", Scope: "⟦whole account⟧", Report: rep(), AsOf: now, Sources: []string{"⟦the handler's words⟧"}, Gaps: []string{"⟦the handler's words⟧"}, Own: "/reports/shift"},
			{ID: "a2", Client: "Museum", Scope: "⟦your buildings⟧", Report: quiet, Own: "/reports/shift"}},
		CSV: []ReportCSV{{Table: "summary", Href: "/x"}, {Table: "opened", Href: "/x"}, {Table: "resolved", Href: "/x"}, {Table: "open", Href: "/x"},
			{Table: "offline", Href: "/x"}, {Table: "top", Href: "/x"}, {Table: "picklist", Href: "/x"}, {Table: "runningout", Href: "/x"}, {Table: "handled", Href: "/x"}}}
	clientOnly := shift
	clientOnly.Filter, clientOnly.InProgress = PortfolioFilter{Client: "Airport"}, false
	regionOnly := shift
	regionOnly.Filter, regionOnly.Accounts = PortfolioFilter{Region: "South"}, nil
	tooMany := PortfolioShiftReport{Page: page, Organisation: "Shine Services", TooMany: "⟦the handler's words⟧", Zone: cet}

	tp := trends.Period{Days: 30, Zone: cet, Start: now.Add(-29 * 24 * time.Hour), End: now}
	trd := PortfolioTrends{Page: page, Organisation: "Shine Services", Days: 30, Zone: cet, ZoneOf: "Acme Facilities", Period: tp, Computed: now,
		Periods: []Option{{Value: "30", Label: "⟦last 30 days⟧", Selected: true}}, Gaps: []string{"⟦the handler's words⟧"}, Notes: []string{"⟦the handler's words⟧"},
		Total: trends.Totals{Created: 12, LastWeek: 4, Resolved: 10, Median: 50 * time.Minute},
		Accounts: []PortfolioAccountTrends{{ID: "a1", Client: "Airport", Region: "South", WholeAccount: true, Totals: trends.Totals{Created: 12, LastWeek: 4, Resolved: 10, Median: 50 * time.Minute}, Share: "100 %", WeekShare: "100 %"},
			{ID: "a2", Client: "Museum", Scope: "⟦your buildings⟧"}},
		CSV: map[string]string{"accounts": "/x", "perday": "/y"}}
	noTrends := trd
	noTrends.Accounts, noTrends.Total = nil, trends.Totals{}
	return map[string]templ.Component{
		"portfolio":                PortfolioPage(port),
		"portfolio-empty":          PortfolioPage(empty),
		"portfolio-no-match":       PortfolioPage(nomatch),
		"portfolio-search":         PortfolioSearchPage(search),
		"portfolio-search-nothing": PortfolioSearchPage(nothing),
		"portfolio-search-form":    PortfolioSearchPage(PortfolioSearch{Page: page}),
		"portfolio-shift":          PortfolioShiftReportPage(shift),
		"portfolio-shift-client":   PortfolioShiftReportPage(clientOnly),
		"portfolio-shift-region":   PortfolioShiftReportPage(regionOnly),
		"portfolio-shift-too-many": PortfolioShiftReportPage(tooMany),
		"portfolio-trends":         PortfolioTrendsPage(trd),
		"portfolio-trends-none":    PortfolioTrendsPage(noTrends),
	}
}

func screensPages() map[string]templ.Component {
	out := portfolioPages()
	for name, m := range wallScreens() {
		out["screen-"+name] = ScreenPage(m)
		out["screen-content-"+name] = ScreenContent(m)
	}
	full := screensPage()
	out["screens"] = ScreensPage(full)
	viewer := screensPage()
	viewer.Page.Role, viewer.NewLink, viewer.Removal = domain.Viewer, "", ""
	out["screens-viewer"] = ScreensPage(viewer)
	fresh := screensPage()
	fresh.Screens, fresh.Error, fresh.Removal, fresh.NewLink = nil, "", "", ""
	fresh.Form = ScreenForm{Action: "/screens", PageSeconds: 15, Language: "en", Healths: fresh.Form.Healths}
	out["screens-empty"] = ScreensPage(fresh)
	ps := portfolioScreensPage()
	out["portfolio-screens"] = PortfolioScreensPage(ps)
	onlook := portfolioScreensPage()
	onlook.MayKeep, onlook.NewLink, onlook.Removal, onlook.Form.EveryClient = false, "", "", false
	out["portfolio-screens-onlooker"] = PortfolioScreensPage(onlook)
	some := portfolioScreensPage()
	some.Screens, some.Form.EveryClient, some.Form.Editing = nil, false, true
	out["portfolio-screens-empty"] = PortfolioScreensPage(some)
	return out
}

// TestScreensSpeakTheirLanguage: the screens' pages, in each language, say
// that language's words: a wall screen, the Screens page and the
// portfolio's screens.
func TestScreensSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := screensPages()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"de", "screen-full", ".screen-asof", "Datenstand 13:58"},
		{"fr", "screen-full", ".screen-asof", "Données de 13:58"},
		{"es", "screen-full", ".screen-count.health-action .screen-count-label", "Actuar"},
		{"de", "screen-full", ".screen-count.health-action .screen-count-label", "Handlungsbedarf"},
		{"de", "screen-full", ".screen-item-since time", "seit 5 Std."},
		{"fr", "screen-full", ".screen-item-since time", "depuis 5 h"},
		{"es", "screen-full", ".screen-item-claim", "Ana Lima — 1 h 20 min"},
		{"de", "screen-full", ".screen-item-problem", "Verzug: Produkt leer"},
		{"fr", "screen-full", ".screen-attention-counts", "1 pile faible, 2 produits bas, 1 × Bloqué"},
		{"de", "screen-full", ".screen-running-out li", "Level 3 › Men's Restroom 3.12: 3 Spender vor 17:02 leer"},
		{"es", "screen-full", ".screen-level-counts", "Nivel de servicio: 2 en riesgo · 1 fuera de plazo"},
		{"fr", "screen-full", ".screen-item-level.screen-level-at-risk", "Menacée : prise en charge avant dimanche 14:02, résolution avant 15:02"},
		{"de", "screen-all-clear", ".screen-all-clear-counts", "Alle 1.000 Standorte in Ordnung · keine offenen Alarme"},
		{"fr", "screen-all-clear-some", ".screen-all-clear-counts", "998 sur 1 000 emplacements OK · 2 alertes ouvertes"},
		{"de", "screen-stale", ".screen-warning", "Datenstand 13:58, möglicherweise veraltet: the service answered 503 Service Unavailable"},
		{"es", "screen-rejected", ".screen-warning", "El servicio rechazó el acceso de esta pantalla. Pida a Facilities desk, ext. 4410 que la vuelva a vincular. Se muestran datos de las 13:58."},
		{"de", "screen-unlinked", ".screen-unlinked-title", "Dieser Bildschirm wurde getrennt"},
		{"fr", "screen-maker-left", ".screen-unlinked-title", "Cet écran a besoin d'un nouveau lien"},
		{"de", "screen-portfolio", ".screen-attention-summary", "2 Kunden in Ordnung: Head office, Library"},
		{"es", "screen-portfolio", ".screen-part-action .screen-item-problem", "2 vencidas · 5 alertas abiertas · 3 sin asumir · 4 dispensadores vacíos · 1 dispositivo sin conexión"},
		{"de", "screens", "h1", "Bildschirme"},
		{"fr", "screens", ".screens-table td[data-label='Réglages']", "À traiter, Hors ligne, À surveiller, OK · page toutes les 15 s · atténué 22:00–06:00"},
		{"de", "screens", ".screens-table td[data-label='Sprache']", "Deutsch"},
		{"es", "screens", ".screens-table td[data-label='Último contacto']", "hace 5 min (21/11/2026 13:57)"},
		{"de", "screens", "#screen-language option[selected]", "Français"},
		{"es", "screens", "#screen-form-heading", "Editar pantalla"},
		{"fr", "screens", ".screen-status-needs-link", "Nouveau lien requis"},
		{"de", "screens", ".message[role=status]", "1 Bildschirm braucht einen neuen Link"},
		{"de", "portfolio-screens", "h1", "Wandbildschirme von Shine Services"},
		{"fr", "portfolio-screens", "#screen-clients-hint", "Ne cochez rien pour tous les clients de l'organisation, y compris ceux qui la rejoindront plus tard."},
		{"es", "portfolio-screens-onlooker", ".note", "Los supervisores, administradores y propietarios de la organización crean y cambian sus pantallas."},
		{"de", "portfolio", "h1", "Portfolio von Shine Services"},
		{"fr", "portfolio", ".portfolio-table caption", "5 comptes, les pires d'abord (9 avant le filtre)"},
		{"es", "portfolio", ".portfolio-table td[data-label='Se vacían antes del fin del turno']", "6 antes de las 18:02, fin del turno Day"},
		{"de", "portfolio", ".portfolio-table .badge-text", "Handlungsbedarf"},
		{"fr", "portfolio", ".note", "1 autre compte de l'organisation est hors de votre rôle."},
		{"de", "portfolio-search", "#portfolio-results-heading", "2 Standorte gefunden in 3 Konten"},
		{"es", "portfolio-search-nothing", "#portfolio-results-heading", "Sin resultados en 1 cuenta"},
		{"de", "portfolio-shift", ".report-facts dd", "2 Konten des Kunden Airport in der Region South"},
		{"fr", "portfolio-shift", ".report-medians", "Temps médian de résolution : Produit épuisé 42 min (3 alertes), Bloqué 1 h 5 min (1 alerte)"},
		{"es", "portfolio-shift", "#table-sum-picklist tfoot td", "1 rollo de papel, 2 recargas de toallas, 3 recargas de jabón, 1 recarga de desinfectante, 2 recargas"},
		{"de", "portfolio-shift", "#table-account-0-open tbody td", "21.11.2026, 06:02"},
		{"de", "portfolio-trends", "#trend-accounts", "Jedes Konto"},
		{"es", "portfolio-trends", "#table-accounts td[data-label='Tiempo mediano de resolución']", "50 min"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		if got, _ := doc.Find("html").Attr("lang"); got != tc.lang && !strings.HasPrefix(tc.page, "screen-content") {
			t.Errorf("%s in %s: <html lang=%q>", tc.page, tc.lang, got)
		}
		got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " ")
		if !strings.Contains(got, strings.Join(strings.Fields(tc.want), " ")) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// TestScreensDifferFromEnglish: in every language but English, the
// screens' pages show none of their English words.
func TestScreensDifferFromEnglish(t *testing.T) {
	t.Parallel()
	english := []string{"Needs action", "Needs attention", "Open alerts", "Overdue alerts", "Data as of", "since ", "min ago", "All clear",
		"Running out soon", "Service level", "at risk", "past target", "This screen", "No data yet", "Waiting for", "Your screens", "New link",
		"Unlink", "Last checked in", "Page interval", "Night dimming", "Create screen", "Save changes", "Wall screens", "Clients to show",
		"pages every", "Never", "Revoked", "Active", "product low", "Product out", "Jammed", "open alert", "dispensers out",
		"Portfolio of", "Every client", "Shift report of", "Trends of", "Search every account", "Open the full report", "What the next shift",
		"Accounts of the organisation", "Give the role", "the worst first", "Median time", "Still open", "Battery sets", "soap refill", "no targets"}
	for _, l := range i18n.Languages[1:] {
		for name, c := range screensPages() {
			doc := renderIn(t, i18n.For(l.Code), c)
			doc.Find(strings.Join(notYetConverted, ", ")).Remove()
			text := doc.Find("body").Text()
			for _, en := range english {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
