package web

import (
	"encoding/csv"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
)

func TestAuditLogShowsWhoDidWhatWithFiltersAndCSV(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	owner := a.browser()
	owner.signIn(credA)
	if r := owner.post("/webhooks", url.Values{"csrf_token": {owner.formToken("/webhooks")}}); r.StatusCode != http.StatusOK {
		t.Fatalf("adding a webhook receiver = %d", r.StatusCode)
	}
	admin := a.browserAs(domain.Admin, "Ada Admin")
	if r := admin.post("/people/invitations", url.Values{"csrf_token": {admin.formToken("/people")}, "role": {"viewer"}}); r.StatusCode != http.StatusOK {
		t.Fatalf("inviting = %d", r.StatusCode)
	}

	rows := func(r response) []string {
		var out []string
		r.doc(t).Find(".audit-table tbody tr").Each(func(_ int, s *goquery.Selection) {
			var cells []string
			s.Find("td").Each(func(_ int, td *goquery.Selection) { cells = append(cells, strings.TrimSpace(td.Text())) })
			out = append(out, strings.Join(cells, " "))
		})
		return out
	}
	all := owner.get("/audit")
	got := rows(all)
	if all.StatusCode != http.StatusOK || len(got) < 4 || !strings.Contains(got[0], "Ada Admin Person invited") ||
		!strings.Contains(strings.Join(got, "\n"), defaultPersonName+" Webhook added") {
		t.Fatalf("GET /audit = %d; want the invitation first, newest first, and the webhook added:\n%s", all.StatusCode, strings.Join(got, "\n"))
	}
	if got := rows(owner.get("/audit?action=webhook.added")); len(got) != 1 {
		t.Errorf("filtered by action: %q; want the one webhook added", got)
	}
	ada := a.members(a.accountOf(false))["Ada Admin"].PersonID
	for _, row := range rows(owner.get("/audit?person=" + ada)) {
		if !strings.Contains(row, "Ada Admin") {
			t.Errorf("filtered by Ada, a row of someone else: %q", row)
		}
	}
	if got := rows(owner.get("/audit?to=2026-11-17")); len(got) != 0 {
		t.Errorf("filtered to the day before: %q; want none", got)
	}
	if got := rows(owner.get("/audit?from=2026-11-18&to=2026-11-18")); len(got) != len(rows(all)) {
		t.Errorf("filtered to the day of the entries: %d rows; want %d", len(got), len(rows(all)))
	}
	for q, says := range map[string]string{"action=dance": "is not an action", "from=18.11.2026": "is not a date", "after=x": "damaged"} {
		if r := owner.get("/audit?" + q); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, says) {
			t.Errorf("/audit?%s = %d; want 400 saying %q", q, r.StatusCode, says)
		}
	}
	r := owner.get("/audit.csv?action=webhook.added")
	records, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil || len(records) != 2 || records[0][2] != "action" || records[1][2] != "webhook.added" || records[1][1] != defaultPersonName {
		t.Errorf("/audit.csv = %q, %v; want a header and the webhook added", records, err)
	}
}
