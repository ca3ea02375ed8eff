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

// The reports' pages: the shift report (and its shift times), the
// trends, the client report and its schedules by e-mail.
func init() {
	convertedParts["reports"] = func() map[string]templ.Component { return reportPages(i18n.Marked()) }
	pageDataParts = append(pageDataParts, `North Tower|South Wing|Level 2|Gents|Stall 1|Early|Ben Okafor|Cleo Diaz|back in five|`+
		`00:1B:44:11:3A:B7|Europe/Berlin|UTC|CET|ops@client\.example|Terminal 1|Jo Smith|facilities@client\.example|jo@client\.example|`+
		`\d+ [A-Z][a-z]{2} \d{4}( \d\d:\d\d)?|2026-11-21|2026-11|Location 99|North <Tower>|Level 1|Stall 2|--smtp-url|--mail-from`)
}

// reportPages are the reports' pages in every state they may show: full,
// empty, and with a form's problem. The words a handler gives them
// (scope, notes, the figures of the client report in words) are the
// catalogs' as the handler says them in mk's language.
func reportPages(mk *i18n.Localizer) map[string]templ.Component {
	page := Page{Title: "T", Nav: "reports", SignedIn: true, AccountName: "North Tower", CSRFToken: "csrf-123", Version: "v1.2.3",
		Zone: time.UTC, PersonName: "Ben Okafor", Role: domain.Admin}
	start := time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC)
	end := start.Add(8 * time.Hour)
	place := report.Place{LocationID: "17", Location: "Stall 1", Room: "Gents", FloorID: "f2", Floor: "Level 2", BuildingID: "b1", Building: "North Tower", Type: domain.Tissue}
	open := domain.Alert{ID: "a1", LocationID: "17", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: start.Add(time.Hour), RefillCount: 2, Overdue: true}
	closed := domain.Alert{ID: "a2", LocationID: "17", Status: domain.AlertClosed, Type: domain.AlertJam, Created: start.Add(2 * time.Hour),
		Resolved: start.Add(3 * time.Hour), Resolution: domain.ResolvedByOffline}
	byUser := closed
	byUser.Resolution, byUser.Type = domain.ResolvedByUser, domain.AlertBatteryOut
	unknown := report.Place{LocationID: "99"}
	r := &report.Report{
		Period:         report.Period{Start: start, End: end, Shift: "Early"},
		DevicesCurrent: true,
		Summary: report.Summary{OpenAtStart: 1, OpenedDuring: 2, ResolvedDuring: 1, OpenAtEnd: 2, OverdueAtEnd: 1,
			Resolutions:   []report.ResolutionCount{{Resolution: domain.ResolvedByDevice, Count: 1}, {Resolution: domain.ResolvedByUser}, {Resolution: domain.ResolvedByOffline, Count: 1}},
			TimeToResolve: []report.TypeMedian{{Type: domain.AlertJam, Count: 1, Median: 61 * time.Minute}, {Type: domain.AlertDeviceOff, Count: 2, Median: 50 * time.Hour}}},
		Opened: []report.AlertRow{{Alert: open, Place: place, OpenAtEnd: true}, {Alert: closed, Place: unknown, TimeToResolve: time.Hour}, {Alert: byUser, Place: place}},
		Resolved: []report.AlertRow{{Alert: closed, Place: place, TimeToResolve: time.Hour, MayBeUnfixed: true},
			{Alert: byUser, Place: place, TimeToResolve: 30 * time.Second}},
		StillOpen: []report.AlertRow{{Alert: open, Place: place, OverdueAtEnd: true, AgeAtEnd: 26 * time.Hour},
			{Alert: domain.Alert{ID: "a3", Status: domain.AlertOpen, Type: domain.AlertSensor, Created: start}, Place: place, AgeAtEnd: 8 * time.Hour}},
		Offline:      []report.OfflineRow{{Place: place, MAC: "00:1B:44:11:3A:B7", Since: start}, {Place: place}},
		TopLocations: []report.LocationCount{{Place: place, Opened: 3, Types: []domain.AlertType{domain.AlertConsumableOut, domain.AlertJam}}},
		Hourly:       []report.Bucket{{Start: start, Label: "05:00", Opened: 2, Resolved: 1}, {Start: start.Add(time.Hour), Label: "05:00 (2nd)", Opened: 1}},
		PickList: report.PickList{Rows: []report.PickRow{
			{BuildingID: "b1", Building: "North Tower", FloorID: "f2", Floor: "Level 2", Refills: []report.Refill{{Type: domain.Tissue, Count: 3}, {Type: domain.Soap, Count: 1}}, BatterySets: 1},
			{BuildingID: "b2", Building: "South Wing", Floor: "Level 2", Refills: []report.Refill{{Type: domain.Towel, Count: 1}, {Type: domain.Sanitizer, Count: 2}, {Type: "paper", Count: 1}}},
			{Refills: nil, BatterySets: 2}},
			Refills: []report.Refill{{Type: domain.Tissue, Count: 3}, {Type: domain.Soap, Count: 1}}, BatterySets: 3},
		RunningOut: report.PickList{Rows: []report.PickRow{{BuildingID: "b1", Building: "North Tower", Floor: "Level 2", Refills: []report.Refill{{Type: domain.Tissue, Count: 1}}}},
			Refills: []report.Refill{{Type: domain.Tissue, Count: 1}}},
		NextShiftEnd: end.Add(8 * time.Hour),
		Handled: []report.HandledBy{{PersonID: "p1", Name: "Ben Okafor", Rows: []report.HandledRow{
			{Claim: domain.Claim{Name: "Ben Okafor", Note: "back in five", At: start.Add(time.Hour), Ended: start.Add(2 * time.Hour), EndedBy: domain.ClaimClosed}, Alert: report.AlertRow{Alert: open, Place: place, TimeToResolve: time.Hour}, TimeToClaim: 5 * time.Minute},
			{Claim: domain.Claim{Name: "Ben Okafor", At: start.Add(time.Hour), Ended: start.Add(2 * time.Hour), EndedBy: domain.ClaimHanded}, Alert: report.AlertRow{Alert: open, Place: place}},
			{Claim: domain.Claim{Name: "Ben Okafor", At: start.Add(time.Hour), Ended: start.Add(2 * time.Hour), EndedBy: domain.ClaimReleased}, Alert: report.AlertRow{Alert: open, Place: place}},
			{Claim: domain.Claim{Name: "Ben Okafor", At: start.Add(time.Hour)}, Alert: report.AlertRow{Alert: open, Place: place}}}},
			{Name: "Cleo Diaz", Rows: []report.HandledRow{{Claim: domain.Claim{Name: "Cleo Diaz", At: start}, Alert: report.AlertRow{Alert: closed, Place: place}}}}},
		Done: []report.DoneRow{
			{Done: domain.DoneReport{Name: "Ben Okafor", Outcome: domain.Refilled, At: start.Add(time.Hour)}, Alert: report.AlertRow{Alert: open, Place: place}, Contradiction: domain.StillOpen},
			{Done: domain.DoneReport{Name: "Ben Okafor", Outcome: domain.Refilled, At: start.Add(time.Hour)}, Alert: report.AlertRow{Alert: closed, Place: place}, Contradiction: domain.StillEmpty},
			{Done: domain.DoneReport{Name: "Cleo Diaz", Outcome: domain.BatteriesChanged, At: start.Add(time.Hour)}, Alert: report.AlertRow{Alert: closed, Place: place}},
			{Done: domain.DoneReport{Name: "Cleo Diaz", Outcome: domain.FaultCleared, At: start.Add(time.Hour)}, Alert: report.AlertRow{Alert: closed, Place: place}},
			{Done: domain.DoneReport{Name: "Cleo Diaz", Outcome: domain.CouldNotFix, Reason: "back in five", At: start.Add(time.Hour)}, Alert: report.AlertRow{Alert: open, Place: place}}},
	}
	full := ShiftReport{Page: page, Report: r, Scope: mk.T("report.whole_account"), Zone: cet, PrintedAt: now, AsOf: now,
		Sources: []string{mk.T("report.read_just_now")}, Gaps: []string{mk.T("report.gap_claims", "max", "500")}, InProgress: true,
		PrevHref: "/reports/shift?shift=Early", NextHref: "/reports/shift?shift=Early",
		CSV:  []ReportCSV{{Table: "opened", Label: mk.T("report.csv_opened"), Href: "/reports/shift.csv?table=opened"}},
		Form: ReportForm{Date: "2026-11-21", Shifts: []Option{{Value: "Early", Label: "Early", Selected: true}}, Buildings: []Option{{Value: "", Label: mk.T("report.whole_account")}}}}
	empty := ShiftReport{Page: page, Report: &report.Report{Period: report.Period{Start: start, End: end}}, Scope: "North Tower", Zone: time.UTC, PrintedAt: now}
	refused := ShiftReport{Page: page, Form: ReportForm{Date: "nonsense", Error: mk.T("report.problem_range_both"), ErrorFor: "date"}}

	body := &ClientReportBody{Period: mk.T("client.month_11", "year", "2026"), Prior: mk.T("client.month_10", "year", "2026"), Set: true, Measured: true,
		Summary: []string{mk.N("client.summary_measured", 3, "period", "2026-11")}, Unmeasured: 2,
		ByType:     []ClientRow{{Name: mk.T("client.type_jam"), Alerts: 3, ClaimShare: mk.T("client.share", "percent", "50", "met", "1", "of", "2"), ClaimMedian: "–", ClaimP90: "–", ResolveShare: mk.T("client.none_done"), ResolveMedian: "–", ResolveP90: "–"}},
		ByBuilding: []ClientRow{{Name: "North Tower", Alerts: 3}},
		Against:    []ClientAgainst{{Type: mk.T("client.type_jam"), ClaimNow: "–", ClaimBefore: "–", ResolveNow: "–", ResolveBefore: "–"}},
		Worst:      []ClientWorst{{Place: "Stall 1", Building: "North Tower", Alerts: 2, Missed: 1, Longest: mk.T("client.hours_short", "n", "2")}},
		OutSummary: []string{mk.T("client.out_unknown", "period", "2026-11")}, ServiceHours: true,
		OutBuildings: []ClientOut{{Name: "North Tower", Dispensers: 4, Out: mk.T("client.out_hours", "hours", "3.0"), InService: mk.T("client.not_known"), Before: mk.T("client.not_known")}},
		OutWorst:     []ClientOut{{Name: "Stall 1", Building: "North Tower", Out: mk.T("client.out_hours", "hours", "3.0"), InService: mk.T("client.out_hours", "hours", "2.0")}}}
	client := ClientReport{Page: page, Month: "2026-11", Report: body, Scope: mk.T("client.all_buildings"), Zone: time.UTC, PrintedAt: now,
		CSVHref: "/reports/client.csv?month=2026-11", PDFHref: "/reports/client.pdf?month=2026-11"}
	unset := client
	unset.Report = &ClientReportBody{Period: body.Period, Prior: body.Prior, OutSummary: body.OutSummary}
	clientRefused := ClientReport{Page: page, Month: "soon", Error: mk.T("client.bad_param", "param", "month", "problem", mk.T("client.not_a_month", "value", `"soon"`)), ErrorFor: "month"}

	mail := ReportMail{Page: page, Ready: true, Zone: time.UTC, MaxAddresses: 20, MaxSchedules: 20, Saved: true, Removed: true, Language: "de",
		Buildings: []Option{{Value: "b1", Label: "Terminal 1", Selected: true}}, Limited: true,
		Schedules: []ReportScheduleRow{{ID: "s1", Every: mk.T("reportmail.every_week"), Addresses: "ops@client.example", Buildings: mk.T("client.all_buildings"),
			Language: "de", Made: mk.T("reportmail.made_by", "name", "Ben Okafor", "date", "18 Nov 2026")}},
		Sendings: []ReportSendingRow{{Period: mk.T("client.month_10", "year", "2026"), Schedule: mk.T("reportmail.monthly_to", "address", "ops@client.example"),
			When: now, To: mk.N("reportmail.addresses_count", 2), State: "partly-sent", Label: mk.T("reportmail.state_partly"), Attempts: 3, Detail: mk.T("reportmail.problem_no_mail")}},
		Field: "addresses", Problem: mk.T("reportmail.problem_no_address")}
	mailEmpty := ReportMail{Page: page, Ready: true, Zone: time.UTC, MaxAddresses: 20, MaxSchedules: 20, Buildings: mail.Buildings}
	noMail := ReportMail{Page: page, Zone: time.UTC}

	tr := sampleTrends()
	tr.Page = page
	tr.Scope = mk.T("report.whole_account")
	tr.Gaps = []string{mk.T("trends.gap_too_many", "max", "500")}
	tr.Periods = []Option{{Value: "30", Label: mk.T("trends.last_days", "days", "30")}}
	tr.Buildings = []Option{{Value: "", Label: mk.T("report.whole_account")}}
	tr.HeatMaps = append(tr.HeatMaps, HeatMap{Title: "South Wing", Href: "/trends?building=b2"}, HeatMap{Title: "Gents", Heat: trends.Heat{}})
	tr.HeatMaps[0].Title = "North Tower"
	tr.MoreHeatMaps, tr.LocationsTied, tr.RoomsTied = 2, 1, 3
	tr.CSV = map[string]string{"perday": "/trends.csv?table=perday", "resolve": "/trends.csv?table=resolve", "locations": "/trends.csv?table=locations",
		"rooms": "/trends.csv?table=rooms", "heatmap": "/trends.csv?table=heatmap"}
	tr.Heat.Since = tr.Heat.From.Add(24 * time.Hour)
	trEmpty := tr
	trEmpty.Alerts = trends.Alerts{}
	trEmpty.Heat = trends.Heat{}
	trEmpty.HeatMaps, trEmpty.MoreHeatMaps, trEmpty.Gaps = nil, 0, nil

	settings := ReportSettings{Page: page, Shifts: "Early 06:00-14:00", Zone: "UTC", Zones: []Option{{Value: "Local", Label: mk.T("report.server_zone")}},
		Error: mk.T("report.problem_shifts", "problem", "x"), Saved: true}
	return map[string]templ.Component{
		"report-full":           ShiftReportPage(full),
		"report-empty":          ShiftReportPage(empty),
		"report-form-refused":   ShiftReportPage(refused),
		"report-settings":       ReportSettingsPage(settings),
		"trends-full":           TrendsPageView(tr),
		"trends-empty":          TrendsPageView(trEmpty),
		"client-report":         ClientReportPage(client),
		"client-report-unset":   ClientReportPage(unset),
		"client-report-refused": ClientReportPage(clientRefused),
		"report-mail":           ReportMailPage(mail),
		"report-mail-empty":     ReportMailPage(mailEmpty),
		"report-mail-no-mail":   ReportMailPage(noMail),
	}
}

// TestReportPagesSpeakTheirLanguage: the reports' pages in German,
// Spanish and French show those languages' words, numbers and dates.
func TestReportPagesSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"de", "report-full", "#report-title", "Schichtbericht Schicht Early"},
		{"es", "report-full", "#report-summary", "Resumen"},
		{"fr", "report-full", "#report-handled", "Qui a traité quoi (5)"},
		{"de", "report-full", ".report-facts div:nth-child(3) dd", "21.11.2026, 06:00 CET – 21.11.2026, 14:00 CET"},
		{"fr", "report-full", "#table-opened tbody tr:first-child td:nth-child(2)", "Produit épuisé × 2"},
		{"es", "report-full", "#table-resolved tbody tr:first-child td:nth-child(5)", "Cerrada: el dispositivo perdió la conexión no necesariamente reparada"},
		{"de", "report-full", "#table-open tbody tr:first-child td:nth-child(5)", "1 Tag 2 Std."},
		{"fr", "report-full", "#table-handled tbody tr:nth-child(2) td:nth-child(6)", "Alerte close le 21/11 08:00"},
		{"de", "report-full", "#table-pick-0 tbody td:nth-child(2)", "3 Papierrollen, 1 Seifen-Nachfüllung"},
		{"es", "report-full", ".report-picklist .pick-total", "En total: 3 rollos de papel, 1 recambio de jabón; 3 juegos de pilas."},
		{"fr", "report-full", "#report-runningout", "Sera vide avant samedi 21:00, la fin du prochain poste"},
		{"de", "report-full", "#chart-desc", "3 Alarme geöffnet und 1 behoben in 2 Stunden. Die meisten Alarme gab es um 05:00: 2 Alarme geöffnet."},
		{"fr", "report-full", ".chart-axis[text-anchor=middle]:last-of-type", "06:00 (2e)"},
		{"es", "report-empty", "#report-offline + p", "Ningún dispositivo estaba sin conexión al final del turno."},
		{"de", "report-settings", "h1", "Schichtzeiten"},
		{"fr", "trends-full", "#trend-heat", "Consommation par jour et par heure"},
		{"de", "trends-full", "#table-heat-0 tbody tr:first-child th", "Mo"},
		{"es", "trends-full", "#trend-resolve .count", "(2 alertas resueltas)"},
		{"fr", "trends-empty", "#trend-perday + p + p", "Aucune alerte n'a été créée ces 7 jours."},
		{"de", "client-report", "#client-types", "Nach Alarmtyp"},
		{"fr", "client-report", "#client-summary + p + p", "2 alertes de types sans objectif n'ont pas été mesurées."},
		{"es", "client-report-unset", ".report-body .empty", "La cuenta no tiene nivel de servicio, así que ninguna alerta se midió frente a un objetivo. Un administrador lo fija en Niveles de servicio."},
		{"de", "report-mail", ".report-sendings td:last-child", "3 Versuche"},
		{"fr", "report-mail", "label[for=rm-language]", "Langue"},
		{"es", "report-mail-no-mail", ".message-title", "Este servidor no envía correos."},
	} {
		doc := renderIn(t, i18n.For(tc.lang), reportPages(i18n.For(tc.lang))[tc.page])
		if got := doc.Find("html").AttrOr("lang", ""); got != tc.lang {
			t.Errorf("%s in %s: <html lang=%q>", tc.page, tc.lang, got)
		}
		if got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " "); !strings.Contains(got, tc.want) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// TestReportPagesShowNoEnglishInOtherLanguages: in German, Spanish and
// French the reports' pages show none of their English headings.
func TestReportPagesShowNoEnglishInOtherLanguages(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range reportPages(i18n.For(l.Code)) {
			doc := renderIn(t, i18n.For(l.Code), c)
			doc.Find(strings.Join(notYetConverted, ", ")).Remove()
			text := doc.Find("body").Text()
			for _, en := range []string{"Shift report", "Client report", "Print", "Alerts opened", "Who handled what", "What the next shift",
				"Median time to resolve", "Consumption by weekday", "Schedules", "Last sendings", "Show report", "Show trends",
				"Product out", "tissue roll", "Incomplete", "Summary", "Worst locations", "By building", "Shift times", "This server sends no e-mail"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
