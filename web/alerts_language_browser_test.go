package web

import (
	"testing"

	"github.com/chromedp/chromedp"

	"washboard/internal/i18n"
)

// TestBrowserRelativeTimesSpeakThePagesLanguage: the relative times that
// app.js keeps current ("5 min ago") say what the server says, in the
// page's language with its plural forms: the words come from the same
// catalog messages.
func TestBrowserRelativeTimesSpeakThePagesLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	for _, lang := range []string{"en", "de", "es", "fr"} {
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/alerts?lang="+lang), chromedp.WaitVisible(chromedp.CSS("h1"))), "opening the alerts in "+lang)
		// Times the server would have said 30 s, 1 min, 2 h, 1 day and 3
		// days before its now, which the script says again.
		said, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const now = Date.parse('2026-11-21T12:00:00Z');
			const ago = [30e3, 60e3, 2 * 3600e3 + 60e3, 25 * 3600e3, 3 * 86400e3];
			const els = ago.map((ms) => {
				const el = document.createElement('time');
				el.setAttribute('data-relative', '');
				el.setAttribute('datetime', new Date(now - ms).toISOString());
				el.setAttribute('data-now', new Date(now).toISOString());
				document.body.append(el);
				return el;
			});
			document.dispatchEvent(new Event('htmx:afterSettle'));
			return els.map((el) => el.textContent);
		})()`))
		must(t, err, "reading the relative times in "+lang)
		l := i18n.For(lang)
		want := []string{l.T("format.just_now"), l.N("format.minutes_ago", 1), l.N("format.hours_ago", 2), l.N("format.days_ago", 1), l.N("format.days_ago", 3)}
		for i := range want {
			if i >= len(said) || said[i] != want[i] {
				t.Errorf("in %s the script says %q; the server says %q", lang, said, want)
				break
			}
		}
	}
}
