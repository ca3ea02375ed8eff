package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/people"
	"washboard/internal/rules"
	"washboard/internal/store"
)

// TestPersonsOwnPageListsTheirClaimsAndNotifications: /me lists the open
// alerts in the person's name (not those of someone of the same name),
// and the rules that send to their e-mail address, of their buildings,
// counting those about the whole account or other buildings; without an
// address, it says none reaches them.
func TestPersonsOwnPageListsTheirClaimsAndNotifications(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	acc := a.world.Accounts()[0]
	north, south := acc.Buildings[0], acc.Buildings[1]
	file, err := rules.ParseFile(fmt.Appendf(nil, `{"accounts": [{"account_id": %q,
		"channels": [{"name": "desk", "email": {"to": ["Front desk <desk@example.com>", "Maria <MARIA@example.com>"]}},
			{"name": "night", "email": {"to": ["night@example.com"]}},
			{"name": "ops", "webhook": {"url": "https://hooks.example.com/services/x", "format": "json"}}],
		"rules": [{"name": "Out of product", "when": "alert.opened", "alert_types": ["consumable_out"], "channels": ["ops", "desk"], "building_id": %q},
			{"name": "Jams in the south", "when": "alert.opened", "channels": ["desk"], "building_id": %q},
			{"name": "Batteries", "when": "battery.low", "channels": ["desk"]},
			{"name": "Overnight", "when": "alert.overdue", "channels": ["night"], "building_id": %q}]}]}`,
		acc.ID, north.ID, south.ID, north.ID))
	if err != nil {
		t.Fatal(err)
	}
	a.useNotifications(notifier.Config{File: file, SMTP: &notify.SMTPSettings{Host: "mail.example.com", From: "Washboard <alerts@example.com>"}})
	owner := a.browser()
	owner.signIn(credA)
	_, token, err := a.people.Invite(context.Background(), a.owner(acc.ID), people.Invite{Role: domain.Staff, Buildings: []string{north.ID}})
	if err != nil {
		t.Fatal(err)
	}
	maria := a.browser()
	if r := maria.accept(token, "Maria"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("accepting = %d", r.StatusCode)
	}
	if r := maria.post("/me", url.Values{"csrf_token": {maria.pageCSRF("/me")}, "name": {"Maria"}, "email": {"maria@example.com"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving her address = %d", r.StatusCode)
	}
	mariaID := a.members(acc.ID)["Maria"].PersonID // before a namesake joins
	namesake := a.browserAs(domain.Staff, "Maria")

	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: acc.ID, BuildingID: north.ID, Status: domain.AlertOpen, Limit: 2})
	if err != nil || len(alerts) < 2 {
		t.Fatalf("the first building has %d open alerts, %v; the test needs 2", len(alerts), err)
	}
	hers, theirs := "/alerts/"+alerts[0].ID+"/claim", "/alerts/"+alerts[1].ID+"/claim"
	if r := owner.post(hers, url.Values{"csrf_token": {owner.pageCSRF(hers)}, "person": {mariaID}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner putting Maria on an alert = %d\n%s", r.StatusCode, r.body)
	}
	if r := namesake.post(theirs, url.Values{"csrf_token": {namesake.pageCSRF(theirs)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the other Maria claiming = %d", r.StatusCode)
	}

	d := maria.get("/me").doc(t)
	if d.Find(`a[href^="`+hers+`"]`).Length() == 0 || d.Find(`a[href^="`+theirs+`"]`).Length() != 0 {
		t.Errorf("Maria's page lists the alert she is on %v, the other Maria's %v; want hers alone",
			d.Find(`a[href^="`+hers+`"]`).Length() > 0, d.Find(`a[href^="`+theirs+`"]`).Length() > 0)
	}
	section := strings.Join(strings.Fields(d.Find(".me-notifications").Text()), " ")
	var listed []string
	d.Find(".me-rules li").Each(func(_ int, li *goquery.Selection) {
		listed = append(listed, strings.Join(strings.Fields(li.Text()), " "))
	})
	if want := "Out of product: Alert opened (Product out), " + north.Name + ", by desk"; len(listed) != 1 || listed[0] != want {
		t.Errorf("Maria's page lists the rules %q; want %q alone", listed, want)
	}
	for _, says := range []string{"send to channels, not to people", "send to maria@example.com", "2 more rules send to it about the whole account or buildings beyond yours",
		"An admin changes the channels and rules"} {
		if !strings.Contains(section, says) {
			t.Errorf("Maria's notifications do not say %q:\n%s", says, section)
		}
	}
	if got := strings.Join(strings.Fields(namesake.get("/me").doc(t).Find(".me-notifications").Text()), " "); !strings.Contains(got, "You have given no e-mail address, so no notification reaches you") {
		t.Errorf("the page of a person without an address says:\n%s", got)
	}
}
