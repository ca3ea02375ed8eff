package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	. "washboard/views"
)

func init() {
	convertedParts["checks"] = func() map[string]templ.Component { return checksPages(i18n.Marked()) }
	pageDataParts = append(pageDataParts, `North Tower|Ben Okafor|87[.,]8|4[.,]5|2[.,]0|1[.,]5|0[.,]5|100[.,]000`)
}

// sampleChecks is checks saved with everything it can show: visits and
// out-hours of both, within service hours, and a count cut short.
func sampleChecks(mk *i18n.Localizer) ChecksSaved {
	hours := func(h string) string { return mk.T("client.out_hours", "hours", h) }
	return ChecksSaved{Every: 3, Saved: mk.T("checks.fewer", "percent", mk.T("client.percent", "n", "87.8"), "every", "3"),
		NeedVisits: 65, FixedVisits: 532, NeedOut: hours("4.5"), FixedOut: hours("2.0"), NeedOutService: hours("1.5"), FixedOutService: hours("0.5"),
		Cut: mk.T("checks.cut", "count", "100,000")}
}

// checksPages are the pages that show checks saved, in every state:
// with rounds from need, without, and a refused every.
func checksPages(mk *i18n.Localizer) map[string]templ.Component {
	page := Page{Title: "T", SignedIn: true, AccountName: "North Tower", CSRFToken: "csrf-123", Version: "v1.2.3",
		Zone: time.UTC, PersonName: "Ben Okafor", Role: domain.Supervisor}
	full := sampleChecks(mk)
	none := ChecksSaved{Every: 2, None: true, Saved: mk.T("checks.none")}
	more := full
	more.Saved, more.NeedOutService, more.FixedOutService, more.Cut = mk.T("checks.more", "need", "600", "fixed", "532", "every", "3"), "", "", ""

	tr := sampleTrends()
	tr.Page = page
	tr.Scope = mk.T("report.whole_account")
	tr.Periods = []Option{{Value: "30", Label: mk.T("trends.last_days", "days", "30")}}
	tr.Buildings = []Option{{Value: "", Label: mk.T("report.whole_account")}}
	tr.HeatMaps[0].Title = "North Tower"
	tr.Every, tr.Checks = 3, full
	trNone := tr
	trNone.Every, trNone.Checks = 2, none

	body := &ClientReportBody{Period: mk.T("client.month_11", "year", "2026"), Prior: mk.T("client.month_10", "year", "2026"), Checks: &more}
	client := ClientReport{Page: page, Month: "2026-11", Every: 3, Report: body, Scope: mk.T("client.all_buildings"), Zone: time.UTC,
		PrintedAt: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC), CSVHref: "/reports/client.csv?month=2026-11&every=3", PDFHref: "/reports/client.pdf?month=2026-11&every=3"}
	refused := ClientReport{Page: page, Month: "2026-11", Every: 2, ErrorFor: "every",
		Error: mk.T("client.bad_param", "param", "every", "problem", mk.T("checks.problem_every", "value", `"25"`, "min", "1", "max", "24"))}
	return map[string]templ.Component{
		"checks-trends":         TrendsPageView(tr),
		"checks-trends-none":    TrendsPageView(trNone),
		"checks-client-report":  ClientReportPage(client),
		"checks-client-refused": ClientReportPage(refused),
	}
}

// Checks saved speak the page's language.
func TestChecksSavedSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"en", "checks-trends", "#checks-saved", "Checks saved"},
		{"de", "checks-trends", "#checks-saved", "Eingesparte Kontrollen"},
		{"fr", "checks-trends", ".checks-figure", "87.8 % de visites de salles en moins"},
		{"es", "checks-trends-none", ".checks-figure", "No hubo rondas según necesidad en este periodo."},
		{"de", "checks-client-report", "#table-checks thead", "Feste Runden alle 3 Std."},
		{"fr", "checks-client-refused", "label[for=client-every]", "Tournées fixes toutes les (heures)"},
		{"es", "checks-client-refused", ".form-error", "de 1 a 24"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), checksPages(i18n.For(tc.lang))[tc.page])
		got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " ")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// In every language but English, checks saved show none of their
// English words.
func TestChecksSavedTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range checksPages(i18n.For(l.Code)) {
			text := renderIn(t, i18n.For(l.Code), c).Find("body").Text()
			for _, en := range []string{"Checks saved", "Rounds from need", "Fixed rounds", "Room visits", "Out-hours", "fewer room visits",
				"No rounds from need", "Within service hours", "whole number of hours"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
