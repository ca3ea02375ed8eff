package views_test

import (
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	. "washboard/views"
)

func sampleReportMail() ReportMail {
	return ReportMail{Page: Page{Title: "Client report by e-mail", SignedIn: true, Role: domain.Admin, CSRFToken: "tok"}, Ready: true,
		Zone: time.UTC, MaxAddresses: 20, MaxSchedules: 20,
		Buildings: []Option{{Value: "b1", Label: "Terminal 1"}, {Value: "b2", Label: "Terminal <2>", Selected: true}},
		Schedules: []ReportScheduleRow{{ID: "s1", Every: "Every month, sent on the 1st at 06:00", Addresses: "ops@client.example", Buildings: "All buildings", Made: "by Ana, 18 Nov 2026"}},
		Sendings: []ReportSendingRow{{Period: "October 2026", Schedule: "Monthly to ops@client.example", When: time.Date(2026, 11, 1, 6, 0, 0, 0, time.UTC),
			To: "1 of 2 addresses", State: "partly-sent", Label: "Partly sent", Attempts: 3, Detail: "The mail server refused the recipient gone@client.example: 550 No such user."}},
	}
}

// The page lists the schedules with a way to remove each, the sendings
// with their result in words, and the form as typed, escaped, with the
// field at fault marked.
func TestReportMailPage(t *testing.T) {
	t.Parallel()
	m := sampleReportMail()
	m.Addresses, m.Cadence, m.Field, m.Problem = `<script>alert(1)</script>`, "weekly", "addresses", "“<script>” is not an e-mail address."
	doc, raw := render(t, ReportMailPage(m))
	if strings.Contains(raw, "<script>alert") {
		t.Errorf("what was typed is not escaped")
	}
	if got := doc.Find("#rm-addresses").Text(); got != m.Addresses {
		t.Errorf("the addresses typed come back as %q", got)
	}
	if v, _ := doc.Find(`input[name="cadence"][checked]`).Attr("value"); v != "weekly" {
		t.Errorf("the cadence checked is %q", v)
	}
	if doc.Find(`#rm-addresses[aria-invalid="true"]`).Length() != 1 || !strings.Contains(doc.Find("#rm-addresses-problem").Text(), "is not an e-mail address") {
		t.Errorf("the field at fault is not marked with the problem")
	}
	if action, _ := doc.Find(`.report-schedules form`).Attr("action"); action != "/reports/client/schedules/s1/remove" {
		t.Errorf("the schedule's remove form posts to %q", action)
	}
	result := doc.Find(".report-sendings td[data-label=Result]").Text()
	for _, want := range []string{"Partly sent", "3 attempts", "550 No such user"} {
		if !strings.Contains(result, want) {
			t.Errorf("the sending's result %q lacks %q", result, want)
		}
	}
	if doc.Find(`input[name="buildings"][value="b2"][checked]`).Length() != 1 {
		t.Errorf("the building chosen is not ticked")
	}
}

// Without mail the page says so and offers no form.
func TestReportMailPageWithoutMail(t *testing.T) {
	t.Parallel()
	m := sampleReportMail()
	m.Ready = false
	doc, _ := render(t, ReportMailPage(m))
	if doc.Find(`textarea[name="addresses"]`).Length() != 0 || !strings.Contains(doc.Find("[role=alert]").Text(), "This server sends no e-mail.") {
		t.Errorf("without mail the page offers a form or does not say so")
	}
}
