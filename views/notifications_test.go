package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	. "washboard/views"
)

// sampleNotifications is a notifications page with a channel and a rule of
// each source, a log holding a notification in each state, and the
// channel form refused.
func sampleNotifications() Notifications {
	at := func(minutes int) time.Time { return now.Add(time.Duration(minutes) * time.Minute) }
	m := Notifications{Page: samplePage("Notifications"), Now: now, DefaultMail: "Washboard <alerts@example.com>", AccountID: "acme-eu"}
	m.Zone = cet
	m.Channels = []ChannelRow{{ID: "channel-1", Name: "Ops <chat>", What: "slack webhook to https://hooks.slack.com/…, signed",
		TestHref: "/notifications/channels/Ops%20%3Cchat%3E/test", RemoveHref: "/notifications/channels/Ops%20%3Cchat%3E/remove"}}
	m.FileChannels = []ChannelRow{{ID: "file-channel-1", Name: "Desk", What: "e-mail to desk@example.com", TestHref: "/notifications/channels/Desk/test"}}
	m.Rules = []RuleRow{{Name: "Jams", When: "Alert opened", AlertTypes: "Jammed", Where: "North Tower › Level 3", Channels: "Ops <chat>",
		RemoveHref: "/notifications/rules/Jams/remove"}}
	m.FileRules = []RuleRow{{Name: "Overdue", When: "Alert overdue", AlertTypes: "All types", Where: "Whole account", Quiet: "22:00–06:00, held until they end", Channels: "Desk"}}
	m.Logs = []ChannelLog{{ID: "log-1", Channel: "Ops <chat>", Rows: []LogRow{
		{Created: at(-60), What: "Alert opened", Rule: "Jams", State: "sent", Sent: at(-59), Attempts: 1},
		{Created: at(-50), What: "Alert opened", Rule: "Jams", State: "failed", Attempts: 3, Note: "failed: hooks.slack.com answered 404 Not Found"},
		{Created: at(-40), What: "Alert opened", Rule: "Jams", State: "pending", Due: at(2), Attempts: 2, Note: "attempt 2 failed: hooks.slack.com answered 503"},
		{Created: at(-30), What: "Alert opened", Rule: "Jams", State: "pending", Due: at(600)},
		{Created: at(-20), What: "Digest of 3 items", Digest: true, Rule: "Jams", State: "pending", Due: at(25)},
		{Created: at(-10), What: "Alert unclaimed", Rule: "Jams", State: "waiting", Due: at(20)},
		{Created: at(-9), What: "Battery low", Rule: "Jams", State: "dropped", Note: "dropped: decided during the rule's quiet hours"},
		{Created: at(-8), What: "Alert unclaimed", Rule: "Jams", State: "cancelled", Note: "cancelled: the alert was claimed"},
		{Created: at(-7), What: "Alert opened", Rule: "Jams", State: "digested", Note: `sent in a digest of the rule "Jams"`},
		{Created: at(-1), What: "Alert opened", Rule: "Jams", State: "pending", Due: at(-1)},
	}}, {ID: "log-2", Channel: "Desk", FromFile: true}}
	m.ChannelForm = ChannelForm{Name: "Cleaners", Kind: "email", Values: map[string]string{"to": "cleaners at example.com"},
		Problem: `Recipients: "cleaners at example.com" is not an e-mail address.`, Field: "to",
		Kinds:   []ChannelKind{{Name: "email", Label: "E-mail"}, {Name: "webhook", Label: "Webhook"}},
		Choices: map[string][]Option{"smtp_tls": {{Value: "starttls", Label: "STARTTLS"}}, "format": {{Value: "json", Label: "JSON"}}}}
	m.RuleForm = RuleForm{Kinds: []Option{{Value: "alert.opened", Label: "Alert opened"}}, Places: []Option{{Value: "", Label: "Whole account"}},
		Channels: []Option{{Value: "Ops <chat>", Label: "Ops <chat>"}, {Value: "Desk", Label: "Desk (from the file)"}}}
	return m
}

// TestNotificationsLogSaysEachStateInWords: the delivery log says where
// each notification is in words, beside an icon, with times in the page's
// zone; colour only adds to that.
func TestNotificationsLogSaysEachStateInWords(t *testing.T) {
	doc, _ := render(t, NotificationsPage(sampleNotifications()))
	var states []string
	doc.Find(`#log-1 ~ table td[data-label="State"]`).Each(func(_ int, s *goquery.Selection) {
		if s.Find("svg.icon").Length() != 1 {
			t.Errorf("the state %q has no icon", text(s))
		}
		states = append(states, text(s))
	})
	want := []string{"Sent at 13:03", "Failed", "Pending, next attempt at 14:04", "Held until 22 Nov 2026 00:02 CET",
		"Collecting items until 14:27", "Waiting until 14:22", "Dropped", "Cancelled", "Sent in a digest", "Pending, due now"}
	if strings.Join(states, " | ") != strings.Join(want, " | ") {
		t.Errorf("the states read\n%s\nwant\n%s", strings.Join(states, " | "), strings.Join(want, " | "))
	}
	if got := text(doc.Find(`[aria-labelledby="log-2"] .empty`)); got != "Nothing sent to this channel yet." {
		t.Errorf("an empty log reads %q", got)
	}
}

// TestNotificationsPageKeepsTheFilesReadOnlyAndLinksItsProblem: the file's
// channels and rules have no Remove button; a refused form says what to
// change at the top, linking to the field, and under the field, which
// names it in its aria-describedby and is marked invalid.
func TestNotificationsPageKeepsTheFilesReadOnlyAndLinksItsProblem(t *testing.T) {
	doc, raw := render(t, NotificationsPage(sampleNotifications()))
	file := doc.Find(`section[aria-labelledby="file-heading"]`)
	if file.Find(`form[action$="/remove"]`).Length() != 0 || file.Find(`form[action$="/test"]`).Length() != 1 {
		t.Error("the file's section offers a removal, or no test")
	}
	if n := doc.Find(`section[aria-labelledby="channels-heading"] form[action$="/remove"], section[aria-labelledby="rules-heading"] form[action$="/remove"]`).Length(); n != 2 {
		t.Errorf("%d removal forms for the page's channel and rule, want 2", n)
	}
	test := doc.Find(`form[action="/notifications/channels/Ops%20%3Cchat%3E/test"]`)
	if test.AttrOr("hx-post", "") != "/notifications/channels/Ops%20%3Cchat%3E/test" || test.AttrOr("hx-target", "") != "#channel-1-test" || doc.Find("#channel-1-test[role=status]").Length() != 1 {
		t.Errorf("the test form does not post with htmx into the channel's status region: %v", test.Nodes)
	}
	if strings.Contains(raw, "Ops <chat>") {
		t.Error("a channel's name is not escaped")
	}
	summary := doc.Find(`section[aria-labelledby="channel-form-heading"] [role=alert]`)
	if summary.Find(`a[href="#channel-to"]`).Length() != 1 {
		t.Errorf("the problem does not link to the field: %q", text(summary))
	}
	to := doc.Find("#channel-to")
	if to.AttrOr("aria-invalid", "") != "true" || to.AttrOr("aria-describedby", "") != "channel-to-hint channel-to-problem" || text(to) != "cleaners at example.com" {
		t.Errorf("the field at fault: aria-invalid %q, aria-describedby %q, holds %q", to.AttrOr("aria-invalid", ""), to.AttrOr("aria-describedby", ""), text(to))
	}
	if got := text(doc.Find("#channel-to-problem")); !strings.Contains(got, "not an e-mail address") {
		t.Errorf("under the field: %q", got)
	}
	if doc.Find("#channel-url").AttrOr("value", "") != "" || doc.Find("#channel-smtp-password").AttrOr("value", "") != "" {
		t.Error("the form shows a webhook's address or a password")
	}
	if got := text(doc.Find("#mail-server-hint")); !strings.Contains(got, "from Washboard <alerts@example.com>") {
		t.Errorf("the mail server's hint reads %q", got)
	}
}

// The page calls the account by its name; its id shows once, labelled as
// what a notifications file names it by.
func TestNotificationsPageNamesTheAccount(t *testing.T) {
	doc, raw := render(t, NotificationsPage(sampleNotifications()))
	want := "A notifications file (--notifications) names Acme Facilities by its account id: acme-eu."
	if got := text(doc.Find("p.account-id")); got != want {
		t.Errorf("the account's line reads %q; want %q", got, want)
	}
	if n := strings.Count(raw, "acme-eu"); n != 1 {
		t.Errorf("the account id shows %d times; want once, labelled", n)
	}
}
