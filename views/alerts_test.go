package views_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	. "washboard/views"
)

func TestAlertsTableMarksOverdueAndPossiblyUnfixed(t *testing.T) {
	doc, _ := render(t, AlertsContent(sampleAlerts()))
	table := doc.Find("table.alerts-table")
	if table.Find("caption").Length() != 1 {
		t.Error("the table has no caption")
	}
	if n := table.Find(`thead th[scope="col"]`).Length(); n != 8 {
		t.Errorf("%d column headers with scope=col, want 8 (with who is on it)", n)
	}
	rows := table.Find("tbody tr")
	if rows.Length() != 3 {
		t.Fatalf("%d rows", rows.Length())
	}
	cell := func(row int, label string) *goquery.Selection {
		return rows.Eq(row).Find(`td[data-label="` + label + `"]`)
	}

	// Overdue, in words and with its icon.
	overdue := cell(0, "Status").Find(".overdue")
	if text(overdue) != "Overdue" || !strings.HasSuffix(overdue.Find("use").AttrOr("href", ""), "#overdue") {
		t.Errorf("overdue status reads %q", text(cell(0, "Status")))
	}
	if got := text(cell(0, "Location")); !strings.HasPrefix(got, "Stall 2") || !strings.Contains(got, "Level 3") {
		t.Errorf("location reads %q", got)
	}
	if href := cell(0, "Location").Find("a").AttrOr("href", ""); href != "/locations/17" {
		t.Errorf("location links to %q", href)
	}

	// Closed because the device went offline: the problem may still be there.
	if got := text(cell(1, "Status")); got != "Closed: device went offline — may not be fixed" {
		t.Errorf("resolved-by-offline status reads %q", got)
	}
	if got := text(cell(1, "Resolved")); !strings.Contains(got, "after 1 h 20 min") {
		t.Errorf("resolved cell reads %q", got)
	}
	if got := text(cell(2, "Status")); got != "Resolved" {
		t.Errorf("resolved status reads %q", got)
	}
	if strings.Contains(text(rows.Eq(2)), "may not be fixed") || strings.Contains(text(rows.Eq(2)), "Overdue") {
		t.Errorf("a plain resolved alert is marked: %q", text(rows.Eq(2)))
	}
	if got := text(cell(0, "Opened")); !strings.HasPrefix(got, "5 h ago (Sat 21 Nov 2026, 09:02 CET)") {
		t.Errorf("opened reads %q", got)
	}
	if got := text(cell(0, "Refills")); got != "2" {
		t.Errorf("refills read %q", got)
	}
	if got := text(cell(1, "Refills")); got != "— none" {
		t.Errorf("no refills read %q", got)
	}
	if got := text(cell(0, "What to do")); got == "" {
		t.Error("no recommended action")
	}
}

func TestAlertsPageTruncationAndRefillTotals(t *testing.T) {
	doc, _ := render(t, AlertsContent(sampleAlerts()))
	if got := text(doc.Find(".note")); !strings.HasPrefix(got, "Showing 3 of 1,200 alerts") {
		t.Errorf("truncation note reads %q", got)
	}
	if got := text(doc.Find(".refill-totals li")); got != "North Tower › Level 3: 12 tissue rolls, 2 soap refills, 1 battery set" {
		t.Errorf("refill line reads %q", got)
	}
	if href := doc.Find("a.download").AttrOr("href", ""); href != "/alerts.csv?building=b1&status=all" {
		t.Errorf("CSV link = %q", href)
	}

	m := sampleAlerts()
	m.Truncated = false
	doc, _ = render(t, AlertsContent(m))
	if doc.Find(".note").Length() != 0 {
		t.Error("truncation note shown when nothing is left out")
	}
}

func TestAlertsFilterForm(t *testing.T) {
	doc, _ := render(t, AlertsPage(sampleAlerts()))
	form := doc.Find("form#alert-filter")
	if form.AttrOr("method", "") != "get" || form.AttrOr("action", "") != "/alerts" {
		t.Errorf("filter form: method %q action %q", form.AttrOr("method", ""), form.AttrOr("action", ""))
	}
	for _, name := range []string{"building", "floor", "room", "type", "status", "resolution"} {
		sel := form.Find(`select[name="` + name + `"]`)
		if sel.Length() != 1 {
			t.Errorf("no select %q", name)
			continue
		}
		id := sel.AttrOr("id", "")
		if id == "" || form.Find(`label[for="`+id+`"]`).Length() != 1 {
			t.Errorf("select %q has no label", name)
		}
	}
	for name, want := range map[string]string{"from": "2026-11-14", "to": "2026-11-21"} {
		in := form.Find(`input[type="date"][name="` + name + `"]`)
		if in.AttrOr("value", "") != want {
			t.Errorf("date %q = %q, want %q", name, in.AttrOr("value", ""), want)
		}
	}
	if got := form.Find(`select[name="building"] option[selected]`).AttrOr("value", ""); got != "b1" {
		t.Errorf("selected building = %q", got)
	}
	if got := form.Find(`select[name="status"] option[selected]`).AttrOr("value", ""); got != "all" {
		t.Errorf("selected status = %q", got)
	}
	// An "all" choice is added in front of the model's options, unselected
	// since the model selects one.
	first := form.Find(`select[name="building"] option`).First()
	if first.AttrOr("value", "x") != "" || first.Is("[selected]") {
		t.Errorf("first building option: value %q selected %v", first.AttrOr("value", "x"), first.Is("[selected]"))
	}
	if form.Find(`a[href="/alerts"]`).Length() != 1 {
		t.Error("no clear-filters link while a filter is active")
	}
	if form.Find(`button[type="submit"]`).Length() != 1 {
		t.Error("no apply button")
	}
}

func TestAlertsLiveRegion(t *testing.T) {
	doc, _ := render(t, AlertsContent(sampleAlerts()))
	live := doc.Find("#live")
	for attr, want := range map[string]string{
		"hx-get":     "/alerts?building=b1&status=all",
		"hx-trigger": "sse:alerts, every 120s",
		"hx-swap":    "outerHTML",
	} {
		if got := live.AttrOr(attr, ""); got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
}
