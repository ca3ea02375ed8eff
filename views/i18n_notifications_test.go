package views_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	. "washboard/views"
)

// The notifications part's pages: /notifications (channels, rules, the
// delivery log, the forms), a channel's test result, /webhooks, and
// /service-levels (the account's and a building's), with an alert's
// service level as the alerts' pages show it.
func init() {
	convertedParts["notifications"] = notificationPages
	pageDataParts = append(pageDataParts, `Front desk|Ops chat|Pager desk|Out of product|North Tower|Level 3|`+
		`desk@example\.com|alerts@example\.com|acme-eu|whsec_[A-Za-z0-9]+|https://[^ ]+|UTC|Europe/Berlin|`+
		`North Tower › Level 3|08:00–20:00|Mon-Fri 06:00-22:00|Sat 08:00-14:00|always|24/7|\d+[mhd]\b|1h30m|`+
		`smtp_host|STARTTLS|JSON|Slack|Microsoft Teams|English|Deutsch|Español|Français|Jammed: claim 5 min|`+
		`the connection was refused|\d+ Nov 2026 \d\d:\d\d|[A-Z]{3}\b`)
}

// notificationPages are the part's pages, in every state they can show.
func notificationPages() map[string]templ.Component {
	page := Page{Title: "T", Nav: "notifications", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123",
		Version: "v1.2.3", Zone: time.UTC, PersonName: "Ana Lima", Role: domain.Owner, NotificationsLink: true}
	now := time.Date(2026, 11, 7, 14, 5, 0, 0, time.UTC)
	earlier := now.Add(-26 * time.Hour)
	kinds := []ChannelKind{
		{Name: "email", Label: "⟦E-mail⟧"},
		{Name: "webhook", Label: "⟦Webhook⟧"},
		{Name: "push", Label: "⟦Push to phones⟧", Fields: []KindField{{Name: "push_to", Label: "⟦Push to⟧", List: true}}},
		{Name: "pager", Label: "⟦Pager⟧", Fields: []KindField{{Name: "pager_pin", Label: "⟦PIN⟧", Secret: true}, {Name: "pager_number", Label: "⟦Number⟧"}}},
	}
	full := Notifications{
		Page:         page,
		Channels:     []ChannelRow{{ID: "channel-1", Name: "Front desk", What: "⟦e-mail to desk@example.com⟧", Language: "Deutsch", TestHref: "/t", RemoveHref: "/r"}},
		FileChannels: []ChannelRow{{ID: "file-channel-1", Name: "Ops chat", What: "⟦slack webhook⟧", Language: "English", TestHref: "/t"}},
		Rules: []RuleRow{{Name: "Out of product", When: "⟦Alert opened⟧", AlertTypes: "", Where: "North Tower › Level 3", After: "⟦30 min⟧",
			Quiet: "⟦22:00–06:00, held⟧", Digest: "⟦every 30 min⟧", Channels: "Front desk", RemoveHref: "/r"}},
		FileRules: []RuleRow{{Name: "Pager desk", When: "⟦Offline⟧", Where: "⟦Whole account⟧", Channels: "Ops chat"}},
		NewSecret: &NewChannelSecret{Channel: "Ops chat", Secret: "whsec_abc123"},
		Problem:   "⟦the rule uses it⟧", Unreadable: "⟦cannot be read⟧", DefaultMail: "alerts@example.com", AccountID: "acme-eu", Now: now,
		Logs: []ChannelLog{
			{ID: "log-1", Channel: "Front desk", Rows: []LogRow{
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "sent", Sent: now, Attempts: 1},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "sent", Attempts: 1},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "failed", Attempts: 3, Note: "the connection was refused"},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "pending", Due: now.Add(time.Minute), Attempts: 1},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "pending", Due: now},
				{Created: earlier, What: "⟦Digest of 3 items⟧", Digest: true, Rule: "Out of product", State: "pending", Due: now.Add(time.Hour)},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "pending", Due: now.Add(30 * time.Hour)},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "waiting", Due: now.Add(time.Hour)},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "dropped"},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "cancelled"},
				{Created: earlier, What: "⟦Alert opened⟧", Rule: "Out of product", State: "digested"},
			}},
			{ID: "log-2", Channel: "Ops chat", FromFile: true},
		},
		ChannelForm: ChannelForm{Name: "Front desk", Kind: "email", Kinds: kinds, Problem: "⟦Recipients: not an address⟧", Field: "to",
			Languages: []Option{{Value: "en", Label: "English"}, {Value: "de", Label: "Deutsch", Selected: true}, {Value: "es", Label: "Español"}, {Value: "fr", Label: "Français"}},
			Values:    map[string]string{"to": "desk@example.com", "smtp_host": "smtp_host"},
			Choices: map[string][]Option{"smtp_tls": {{Value: "starttls", Label: "⟦STARTTLS (port 587)⟧"}}, "format": {{Value: "json", Label: "JSON"}},
				"push_to": {{Value: "staff", Label: "⟦The staff of the building⟧"}}},
			Hints: map[string]string{"format": "⟦What the receiver reads⟧", "push_to": "⟦Pushes reach…⟧", "pager_number": "⟦Digits only⟧"}},
		RuleForm: RuleForm{Name: "Out of product", Kinds: []Option{{Value: "alert.opened", Label: "⟦Alert opened⟧"}},
			AlertTypes: []Option{{Value: "consumable_out", Label: "⟦Product out⟧", Selected: true}},
			Places:     []Option{{Value: "", Label: "⟦Whole account⟧"}, {Value: "building:b1", Label: "North Tower"}},
			QuietFrom:  "22:00", QuietTo: "06:00", QuietDrop: true,
			Channels: []Option{{Value: "Front desk", Label: "Front desk"}}, Problem: "⟦Where: choose one⟧", Field: "where"},
	}
	full.Flash = "⟦The channel was added.⟧"
	empty := Notifications{Page: page, AccountID: "acme-eu", Now: now,
		ChannelForm: ChannelForm{Kind: "webhook", Kinds: kinds, Problem: "⟦Address: not a URL⟧", Field: "url",
			Languages: []Option{{Value: "en", Label: "English", Selected: true}}},
		RuleForm: RuleForm{Problem: "⟦Name: needed⟧"}}
	empty.Page.AccountName = ""

	receivers := Webhooks{Page: page, Now: now, Error: "⟦The secret is not base64⟧",
		New: &NewReceiver{URL: "https://washboard.example.com/hooks/r1", Secret: "whsec_abc123", Rotated: true},
		Receivers: []ReceiverRow{
			{URL: "https://washboard.example.com/hooks/r1", Created: earlier, Rotated: now, LastEvent: now, Accepted: 1234, Rejected: 2, RotateHref: "/r", RemoveHref: "/x"},
			{URL: "https://washboard.example.com/hooks/r2", Created: earlier, Unreadable: true, RotateHref: "/r", RemoveHref: "/x"},
		}}
	receivers.Nav = "webhooks"
	noReceivers := Webhooks{Page: page, Now: now, New: &NewReceiver{URL: "https://washboard.example.com/hooks/r3", Secret: "whsec_abc123"}}

	targets := []TargetRow{{Type: "jam_fault", Label: "⟦Jammed⟧", Claim: "15", Resolve: "1h30m"}, {Type: "consumable_out", Label: "⟦Product out⟧"}}
	levels := ServiceLevels{Page: page, Week: "Mon-Fri 06:00-22:00", Holidays: "", Zone: "UTC", Zones: []Option{{Value: "UTC", Label: "UTC", Selected: true}},
		Targets: targets, Field: "claim_jam_fault", Problem: "⟦not a duration⟧", Saved: true, Updated: earlier, Action: "/service-levels",
		Buildings: []BuildingLevelRow{{Name: "North Tower", Href: "/b1", Own: true, Words: "Jammed: claim 5 min"}, {Name: "Level 3", Href: "/b2"}}}
	levels.Nav = "service-levels"
	locked := ServiceLevels{Page: page, Locked: true, Words: "always (UTC); Jammed: claim 5 min", Action: "/service-levels",
		Buildings: []BuildingLevelRow{{Name: "North Tower", Href: "/b1"}}}
	noLevel := locked
	noLevel.Words = ""
	own := ServiceLevels{Page: page, Building: "North Tower", Own: true, Followed: false, Saved: true, Action: "/service-levels/buildings/b1",
		Week: "always", Zone: "Europe/Berlin", Zones: []Option{{Value: "Europe/Berlin", Label: "Europe/Berlin", Selected: true}}, Targets: targets}
	follows := own
	follows.Own, follows.Followed, follows.Saved = false, true, false
	deadline := now.Add(10 * time.Minute)
	level := &Level{State: "at-risk",
		Claim:       LevelOutcome{State: "at-risk", Target: 15 * time.Minute, Used: 13 * time.Minute, Deadline: deadline},
		Resolve:     LevelOutcome{State: "pending", Target: 26 * time.Hour, Used: 30 * time.Second},
		Explanation: "⟦The clock stopped⟧"}
	done := &Level{State: "missed", Claim: LevelOutcome{State: "missed", Target: 15 * time.Minute, Used: 20 * time.Minute},
		Resolve: LevelOutcome{State: "met", Target: time.Hour, Used: 50 * time.Minute}}
	pending := &Level{State: "pending", Claim: LevelOutcome{State: "pending", Target: 3 * 24 * time.Hour, Used: 2 * time.Hour}}
	met := &Level{State: "met", Resolve: LevelOutcome{State: "met", Target: time.Hour, Used: time.Minute}}
	return map[string]templ.Component{
		"notifications":                  NotificationsPage(full),
		"notifications-empty":            NotificationsPage(empty),
		"channel-test-delivered":         ChannelTestResult(ChannelTest{Delivered: true, Message: "⟦accepted⟧"}),
		"channel-test-failed":            ChannelTestResult(ChannelTest{Message: "⟦refused⟧"}),
		"webhooks":                       WebhooksPage(receivers),
		"webhooks-empty":                 WebhooksPage(noReceivers),
		"service-levels":                 ServiceLevelsPage(levels),
		"service-levels-locked":          ServiceLevelsPage(locked),
		"service-levels-none-locked":     ServiceLevelsPage(noLevel),
		"service-levels-building-own":    ServiceLevelsPage(own),
		"service-levels-building-follow": ServiceLevelsPage(follows),
		"alert-level-at-risk":            alertWithLevel(page, level, now, time.UTC),
		"alert-level-missed":             alertWithLevel(page, done, now, time.UTC),
		"alert-level-pending":            alertWithLevel(page, pending, now, nil),
		"alert-level-met":                AlertsContent(Alerts{Page: page, Rows: []AlertRow{levelled(met, now)}, Total: 1, Self: "/alerts"}),
		"level-counts": OverviewContent(Overview{Page: page, Buildings: []PlaceCard{{ID: "b1", Name: "North Tower", Href: "/buildings/b1",
			Levels: &LevelCounts{AtRisk: 2, Missed: 1}}}}),
	}
}

// levelled is an open alert at now with its service level l.
func levelled(l *Level, now time.Time) AlertRow {
	a := sampleAlert()
	a.Created, a.Now, a.Level = now.Add(-5*time.Hour), now, l
	return a
}

// alertWithLevel is the page of an open alert with its service level l,
// its times in zone.
func alertWithLevel(page Page, l *Level, now time.Time, zone *time.Location) templ.Component {
	page.Zone = zone
	return ClaimPage(Claim{Page: page, Alert: levelled(l, now), Name: "Ana Lima", Action: "/alerts/a1/claim", Back: "/alerts"})
}

// The part's pages say their words in the reader's language.
func TestNotificationPagesSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := notificationPages()
	spaces := regexp.MustCompile(`[ \t\r\n]+`)
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"en", "notifications", "h1", "Notifications"},
		{"de", "notifications", "h1", "Benachrichtigungen"},
		{"es", "notifications", "#channel-form-heading", "Nuevo canal"},
		{"fr", "notifications", "label[for=channel-language]", "Langue"},
		{"de", "notifications", ".channels-table td.channel-language", "Deutsch"},
		{"de", "notifications", ".log-table tbody tr:first-child td[data-label='Stand']", "Gesendet um 14:05"},
		{"fr", "notifications", ".log-table tbody tr:nth-child(7) td[data-label='État']", "Retenue jusqu’à 08/11/2026 20:05 UTC"},
		{"es", "notifications", ".log-table tbody tr:first-child td[data-label='Creada'] time", "6/11/2026 12:05 UTC"},
		{"de", "notifications", "#rule-quiet-hint", "In der Zeitzone des Dashboards (UTC); sie dürfen über Mitternacht gehen, etwa 22:00 bis 06:00. Beide leer lassen für keine."},
		{"fr", "notifications-empty", "#mail-server-hint", "Washboard a été lancé sans serveur de messagerie par défaut (--smtp-url)\u00a0: un canal e-mail a besoin du sien."},
		{"de", "webhooks", "#receivers-heading", "Empfänger"},
		{"es", "webhooks", "table.receivers td[data-label='Aceptados']", "1.234"},
		{"fr", "webhooks-empty", ".empty", "Pas encore de récepteur\u00a0: les alertes arrivent à chaque interrogation. Créez-en un avec le formulaire ci-dessous."},
		{"de", "service-levels", "h1", "Service-Level"},
		{"es", "service-levels", "#table-building-levels td[data-label='Nivel de servicio']", "Propio: Jammed: claim 5 min"},
		{"fr", "service-levels-building-follow", ".flash", "North Tower suit de nouveau le niveau de service du compte."},
		{"de", "alert-level-at-risk", ".alert-level .level span", "Ziel gefährdet"},
		{"de", "alert-level-at-risk", ".alert-level li", "Zeit bis Übernahme: gefährdet, 13 Min. von 15 Min. verbraucht, fällig um 14:15 am Samstag 07.11.2026."},
		{"fr", "alert-level-missed", ".alert-level li", "Délai de prise en charge\u00a0: manqué, 20 min sur 15 min."},
		{"es", "alert-level-pending", ".alert-level li", "Tiempo hasta asignar: dentro del objetivo, 2 h de 3 días consumidos."},
		{"de", "level-counts", ".level-counts", "2 gefährdet 1 verfehlt"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		got := strings.TrimSpace(spaces.ReplaceAllString(doc.Find(tc.selector).First().Text(), " ")) // no-break spaces kept
		if got != tc.want {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// In every language but English, the part's pages show none of their
// English words.
func TestNotificationPagesDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range notificationPages() {
			doc := renderIn(t, i18n.For(l.Code), c)
			doc.Find(strings.Join(notYetConverted, ", ")).Remove()
			text := doc.Find("body").Text()
			for _, en := range []string{"Channels made here", "Delivery log", "New channel", "Add rule", "Quiet hours", "Sent at",
				"Make a receiver", "Last event", "Service hours", "Time to claim", "Target at risk", "at risk", "missed", "under 1 min",
				"Follow the account's", "from the file", "Signing secret", "Send a test"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
