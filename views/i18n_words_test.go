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

// The words part's pages: why a refresh failed, where a page says it (the
// freshness banner, the first sync's progress, a wall screen).
func init() {
	convertedParts["words"] = wordsPages
	pageDataParts = append(pageDataParts, `/v1/devices: a page of 12 MB|Level 3 service room|North Tower › Level 3|Facilities desk, ext\. 4410`)
}

// syncFailures are a stored failure of each kind, as the sync state keeps
// them.
func syncFailures() map[string]string {
	out := map[string]string{}
	for k := domain.SyncNoCredential; k <= domain.SyncTimedOut; k++ {
		f := domain.SyncFailure{Kind: k}
		if k == domain.SyncTooLarge || k == domain.SyncUnreadable || k == domain.SyncEndlessPaging {
			f.Detail = "/v1/devices: a page of 12 MB"
		}
		out[f.String()] = f.String()
	}
	return out
}

func wordsPages() map[string]templ.Component {
	pages := map[string]templ.Component{}
	i := 0
	for stored := range syncFailures() {
		i++
		n := string(rune('a' + i))
		pages["sync-failed-banner-"+n] = FreshnessBanner(Freshness{AsOf: now.Add(-time.Hour), Failed: true, Reason: stored}, cet)
		pages["sync-failed-progress-"+n] = ProgressPage(SyncProgress{Page: alertsPage(), Phase: "devices", Failure: stored, RetryEvery: 5 * time.Minute})
	}
	screen := kindedScreen()
	screen.Freshness = Freshness{AsOf: now.Add(-time.Hour), Failed: true, Reason: domain.SyncFailure{Kind: domain.SyncRateLimited}.String()}
	pages["sync-failed-screen"] = ScreenContent(screen)
	screen.Freshness = Freshness{Failed: true, Reason: domain.SyncFailure{Kind: domain.SyncUnreachable}.String()}
	pages["sync-failed-screen-no-data"] = ScreenContent(screen)
	for name, c := range clockStops() {
		claim := Claim{Page: alertsPage(), Alert: alertRows()[1], Name: "Ana Lima", Action: "/alerts/a4/claim", Back: "/alerts"}
		claim.Alert.Level = &Level{State: "at-risk", Claim: LevelOutcome{State: "at-risk", Target: 15 * time.Minute, Used: 10 * time.Minute}, Clock: c}
		pages["clock-"+name] = ClaimPage(claim)
	}
	return pages
}

// clockStops are where a service level's clock stopped, in each way a
// page can say it.
func clockStops() map[string]*ClockStops {
	day := func(d, h int) time.Time { return time.Date(2026, 12, d, h, 0, 0, 0, cet) }
	night := func(d int) ClockStop { return ClockStop{From: day(d, 22), To: day(d+1, 6)} }
	return map[string]*ClockStops{
		"never":         {Zone: cet},
		"never-resumes": {Resumes: day(2, 6), Zone: cet},
		"night":         {Stops: []ClockStop{night(1)}, Stopped: 8 * time.Hour, Zone: cet},
		"nights":        {Stops: []ClockStop{night(1), night(2), night(3), {From: day(4, 18), To: day(4, 20)}}, More: 1, Stopped: 26 * time.Hour, Resumes: day(5, 6), Zone: cet},
		"twice":         {Stops: []ClockStop{night(1), night(2)}, Stopped: 16*time.Hour + 30*time.Second, Zone: cet},
		"holiday": {Stops: []ClockStop{{From: day(24, 22), To: day(26, 6), Holidays: []time.Time{time.Date(2026, 12, 25, 0, 0, 0, 0, time.UTC)}},
			{From: day(31, 0), To: day(31, 0).Add(24 * time.Hour), Holidays: []time.Time{time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)}, OnlyHolidays: true}},
			Stopped: 56 * time.Hour, Zone: cet},
		"seconds": {Stops: []ClockStop{{From: day(1, 9), To: day(1, 9).Add(30 * time.Second)}}, Stopped: 30 * time.Second, Zone: cet},
	}
}

// TestClockStopsInThePagesLanguage: where a service level's clock
// stopped, in English as the measure has always said it, and in German
// and Spanish.
func TestClockStopsInThePagesLanguage(t *testing.T) {
	t.Parallel()
	stops := clockStops()
	for _, tc := range []struct{ lang, stops, want string }{
		{"en", "night", "The clock stopped for 8 h: 22:00–06:00 outside service hours."},
		{"en", "nights", "The clock stopped for 1 d 2 h: 22:00–06:00 (3 times), 18:00–20:00 and 1 more stop outside service hours. It runs again at 06:00 on Sat 5 Dec."},
		{"en", "holiday", "The clock stopped for 2 d 8 h: 24 Dec 22:00–26 Dec 06:00 outside service hours and on 25 Dec and 31 Dec, holidays."},
		{"en", "never", "The clock did not stop: all of the time was within service hours."},
		{"de", "twice", "Die Uhr stand 16 Std. still: 22:00–06:00 (zweimal) außerhalb der Servicezeiten."},
		{"de", "holiday", "Die Uhr stand 2 T. 8 Std. still: 24. Dez. 22:00–26. Dez. 06:00 außerhalb der Servicezeiten und am 25. Dez. und 31. Dez., Feiertagen."},
		{"es", "nights", "El reloj se detuvo 1 d 2 h: 22:00–06:00 (3 veces), 18:00–20:00 y 1 parada más fuera del horario de servicio."},
	} {
		claim := Claim{Page: alertsPage(), Alert: alertRows()[1], Name: "Ana Lima", Action: "/alerts/a4/claim", Back: "/alerts"}
		claim.Alert.Level = &Level{State: "at-risk", Clock: stops[tc.stops]}
		doc := renderIn(t, i18n.For(tc.lang), ClaimPage(claim))
		if got := doc.Find(".level-explanation").Text(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s %s: %q; want %q", tc.lang, tc.stops, got, tc.want)
		}
	}
}

// TestWhyARefreshFailedIsSaidInTheReadersLanguage: the banner, the first
// sync's progress and a wall screen say why a refresh failed in their
// language, from the English the sync state keeps; English reads as it
// always did, and words the dashboard did not write show as they are.
func TestWhyARefreshFailedIsSaidInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	unreachable := domain.SyncFailure{Kind: domain.SyncUnreachable}.String()
	tooLarge := domain.SyncFailure{Kind: domain.SyncTooLarge, Detail: "/v1/devices: a page of 12 MB"}.String()
	limited := domain.SyncFailure{Kind: domain.SyncRateLimited}.String()
	banner := func(reason string) templ.Component {
		return FreshnessBanner(Freshness{AsOf: now.Add(-time.Hour), Failed: true, Reason: reason}, cet)
	}
	screen := func(f Freshness) templ.Component {
		m := kindedScreen()
		m.Freshness = f
		return ScreenContent(m)
	}
	for _, tc := range []struct {
		name, lang string
		c          templ.Component
		want       string
	}{
		{"banner en", "en", banner(unreachable), "may be out of date: the service could not be reached"},
		{"banner de", "de", banner(unreachable), "der Dienst war nicht erreichbar"},
		{"banner fr", "fr", banner(tooLarge), "le service a envoyé une page trop grande pour être lue (/v1/devices: a page of 12 MB)"},
		{"banner of other words", "de", banner("the service answered 418"), "the service answered 418"},
		{"progress en", "en", ProgressPage(SyncProgress{Page: alertsPage(), Failure: unreachable, RetryEvery: time.Minute}), "The service could not be reached."},
		{"progress es", "es", ProgressPage(SyncProgress{Page: alertsPage(), Failure: unreachable, RetryEvery: time.Minute}), "No se pudo contactar con el servicio."},
		{"screen en", "en", screen(Freshness{AsOf: now.Add(-time.Hour), Failed: true, Reason: limited}), "(rate limited); slowing down"},
		{"screen de", "de", screen(Freshness{AsOf: now.Add(-time.Hour), Failed: true, Reason: limited}), "der Dienst begrenzt unsere Anfragen"},
		{"screen stale de", "de", screen(Freshness{AsOf: now.Add(-time.Hour), Stale: true, Reason: domain.ReasonStale}), "zwei"},
		{"screen no data fr", "fr", screen(Freshness{Failed: true, Reason: unreachable}), "le service n'a pas pu être joint"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), tc.c)
		if got := doc.Find("body").Text(); !strings.Contains(got, tc.want) {
			t.Errorf("%s: the page reads %q; want it to say %q", tc.name, got, tc.want)
		}
	}
}

// TestWordsPagesDifferFromEnglish: no failure's English is left in German,
// Spanish or French.
func TestWordsPagesDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range wordsPages() {
			text := renderIn(t, i18n.For(l.Code), c).Find("body").Text()
			for _, en := range []string{"the service", "The service", "nothing of this refresh", "signed-in user"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
