package web

import (
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// screenLevelLines are the service level words of a screen's items, each
// with its item's location and problem, and its counts line.
func screenLevelLines(t *testing.T, r response) (items []string, counts string) {
	t.Helper()
	doc := r.doc(t)
	doc.Find(".screen-item").Each(func(_ int, it *goquery.Selection) {
		if l := it.Find(".screen-item-level"); l.Length() > 0 {
			line := strings.Join(strings.Fields(it.Find(".screen-item-problem").Text()+" | "+l.Text()), " ")
			if l.Find(".icon").Length() > 0 {
				line += " [icon]"
			}
			items = append(items, line)
		}
	})
	return items, strings.Join(strings.Fields(doc.Find(".screen-level-counts").Text()), " ")
}

// TestAccountScreenSaysServiceLevels: an account's wall screen, once the
// account has targets, says of an alert past its target to claim and of
// one at risk, in words with an icon, and how many open alerts are at
// risk and past target, on the page and in its live content; the one past
// its target comes first, as an overdue one would. Before the account has
// targets it says none of it.
func TestAccountScreenSaysServiceLevels(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	slAlert(t, a, "sl-late", 20*time.Minute)  // unclaimed: 5 min past its 15 min to claim
	slAlert(t, a, "sl-risky", 13*time.Minute) // 13 of its 15 min to claim used: due at 09:32
	tv := a.browser()
	tv.get("/s/" + boss.createScreen(screenForm("Staff room", "account")))

	for _, path := range []string{"/screen", "/screen/content"} {
		r := tv.get(path)
		body := html.UnescapeString(r.body)
		for _, never := range []string{"At risk", "at risk", "past target", "Past its target", "Service level"} {
			if strings.Contains(body, never) {
				t.Errorf("%s of an account without targets says %q", path, never)
			}
		}
	}

	if r := boss.post("/service-levels", serviceLevelForm(boss.pageCSRF("/service-levels"), "always", "", "UTC", "15", "1h")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving targets: %d\n%s", r.StatusCode, r.body)
	}
	for _, path := range []string{"/screen", "/screen/content"} {
		r := tv.get(path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s = %d", path, r.StatusCode)
		}
		items, counts := screenLevelLines(t, r)
		want := []string{"Jammed | Past its target to claim [icon]", "Jammed | At risk: claim due 09:32 [icon]"}
		if strings.Join(items, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s says of its items' service levels:\n%s\nwant, the one past target first:\n%s", path, strings.Join(items, "\n"), strings.Join(want, "\n"))
		}
		// Past its target, it ranks with the overdue ones: its room first,
		// though others come before it by name, and first in its room.
		if first := r.doc(t).Find(".screen-item").First().Find(".screen-item-level").Text(); !strings.Contains(first, "Past its target to claim") {
			t.Errorf("%s does not list the alert past its target first", path)
		}
		if counts != "Service level: 1 at risk · 1 past target" {
			t.Errorf("%s counts %q, want the open alerts at risk and past target", path, counts)
		}
	}
}
