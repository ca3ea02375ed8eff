package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/report"
	. "washboard/views"
)

func init() {
	convertedParts["planshow"] = planShowPages
	pageDataParts = append(pageDataParts, `North Tower|Level 2|Restroom 2\.04|Restroom 2\.05|Sink Left|Ana Lima`)
}

// samplePrintPlan is a floor's plan on paper with a drawn room and two
// numbered marks; the words the web layer makes come marked, as they
// would from the catalogs.
func samplePrintPlan(listMarks bool) PrintPlan {
	return PrintPlan{FloorID: "f2", Width: 2000, Height: 1000, ImageHref: "/floors/f2/plan/image?v=1", Heading: "⟦Plan of North Tower › Level 2⟧",
		Rooms: []PlanRoom{{Shape: []domain.PlanPoint{{X: 0, Y: 0}, {X: 400, Y: 0}, {X: 400, Y: 300}}}},
		Marks: []PrintMark{{Number: 1, At: domain.PlanPoint{X: 200, Y: 150}, Words: "⟦Restroom 2.04 › Sink Left: 2 open alerts⟧"},
			{Number: 2, At: domain.PlanPoint{X: 900, Y: 150}, Words: "⟦Restroom 2.05 › Sink Left: 1 open alert⟧"}},
		Key: "⟦The numbers on the plan are …⟧", ListMarks: listMarks}
}

// planShowPages are a round whose floor has a plan, and a shift report
// with the plan of a floor with open alerts.
func planShowPages() map[string]templ.Component {
	page := Page{Title: "T", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123", Version: "v1.2.3", Zone: time.UTC,
		PersonName: "Ana Lima", Role: domain.Supervisor}
	at := time.Date(2026, 11, 27, 9, 5, 0, 0, time.UTC)
	plan := samplePrintPlan(false)
	round := RoundPage{Page: page, ID: "rnd_1", Who: "Ana Lima", Part: "North Tower", MadeAt: at, Minutes: 8, All: 2,
		Floors: []RoundFloor{{Building: "North Tower", Floor: "Level 2", Plan: &plan, Stops: []RoundStopLine{
			{ID: "stop-0", Room: "Restroom 2.04", Status: "todo", StatusWords: "⟦To do⟧"},
			{ID: "stop-1", Room: "Restroom 2.05", Status: "todo", StatusWords: "⟦To do⟧"}}}}}
	rep := ShiftReport{Page: page, Report: &report.Report{Period: report.Period{Start: at.Add(-8 * time.Hour), End: at}}, Scope: "North Tower",
		Zone: time.UTC, PrintedAt: at, Plans: []PrintPlan{samplePrintPlan(true)}}
	screen := kindedScreen()
	screen.Plans = []ScreenPlan{{FloorID: "f2", Width: 2000, Height: 1000, ImageHref: "/screen/plans/f2?v=1", Where: "North Tower › Level 2",
		Marks: []ScreenMark{{Name: "Sink Left", At: domain.PlanPoint{X: 100, Y: 100}, Health: domain.HealthOK},
			{Name: "Sink Left", At: domain.PlanPoint{X: 300, Y: 100}, Health: domain.HealthAction, Open: 2, Overdue: 1},
			{Name: "Sink Left", At: domain.PlanPoint{X: 500, Y: 100}, Health: domain.HealthOffline}}},
		{FloorID: "f3", Width: 800, Height: 600, ImageHref: "/screen/plans/f3?v=1", Where: "North Tower › Level 2"}}
	return map[string]templ.Component{
		"screen-with-plans": ScreenPage(screen),
		"round-with-plan":   RoundPagePage(round),
		"report-with-plan":  ShiftReportPage(rep),
	}
}

// The printed plan: the image, the rooms' shapes, a numbered mark per
// place to go and, for the report, the key of its numbers in words; for
// the round, whose list of rooms is numbered alike, the key alone.
func TestPrintPlanMarksThePlacesToGo(t *testing.T) {
	t.Parallel()
	pages := planShowPages()
	doc := renderIn(t, i18n.For("en"), pages["report-with-plan"])
	fig := doc.Find("figure.print-plan")
	if fig.Length() != 1 || fig.Find("image").AttrOr("href", "") != "/floors/f2/plan/image?v=1" || fig.Find("polygon.print-plan-room").Length() != 1 {
		t.Fatalf("the report's plan: %d figures, image %q", fig.Length(), fig.Find("image").AttrOr("href", ""))
	}
	if got := fig.Find(".print-plan-mark text").Text(); got != "12" {
		t.Errorf("the marks' numbers = %q, want 1 and 2", got)
	}
	if got := fig.Find(".print-plan-mark").First().AttrOr("transform", ""); got != "translate(200 150)" {
		t.Errorf("mark 1 at %q, want at 200,150", got)
	}
	if got := fig.Find(".print-plan-marks li").Length(); got != 2 {
		t.Errorf("the report's key lists %d marks, want 2", got)
	}
	doc = renderIn(t, i18n.For("en"), pages["round-with-plan"])
	if doc.Find(".round-floor figure.print-plan .print-plan-mark").Length() != 2 || doc.Find(".print-plan-marks").Length() != 0 {
		t.Errorf("the round's plan: %d marks, key list %d; want 2 marks and no list", doc.Find(".print-plan-mark").Length(), doc.Find(".print-plan-marks").Length())
	}
}

// A wall screen's plans in German: the floor named, a mark's label says
// its state and alerts in the screen's words.
func TestScreenPlansSpeakTheScreensLanguage(t *testing.T) {
	t.Parallel()
	doc := renderIn(t, i18n.For("de"), planShowPages()["screen-with-plans"])
	if got := doc.Find(".screen-plan figcaption").First().Text(); got != "Plan von North Tower › Level 2" {
		t.Errorf("the plan's caption in German: %q", got)
	}
	if got := doc.Find(".screen-plan-mark.health-action text").Text(); !strings.Contains(got, "2 offene Meldungen") {
		t.Errorf("a mark's label in German: %q", got)
	}
	if n := doc.Find(".screen-plan-mark.health-ok text").Length(); n != 0 {
		t.Errorf("a fine location's mark has %d labels; want none", n)
	}
}
