package views

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
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
	return pages
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
