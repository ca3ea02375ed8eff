package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"washboard/internal/domain"
)

// actionCounter counts the actions of "My work" a server took (answered
// 2xx), by path; while down, the server answers nothing.
type actionCounter struct {
	mu    sync.Mutex
	taken map[string]int
	down  atomic.Bool
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (n *actionCounter) serve(a *app) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.down.Load() {
			panic(http.ErrAbortHandler) // no answer: the connection drops
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		a.handler.Load().ServeHTTP(rec, r)
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/my/alerts/") && rec.status < 300 {
			n.mu.Lock()
			n.taken[r.URL.Path]++
			n.mu.Unlock()
		}
	})
}

func (n *actionCounter) counts() map[string]int {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := map[string]int{}
	for k, v := range n.taken {
		out[k] = v
	}
	return out
}

// offline turns the network off or on, as a phone losing signal: the
// browser's emulation tells the page (navigator.onLine, the online
// event) and fails its requests; DevTools' emulation does not reach the
// service worker's own requests, so the server stops answering too.
func offline(t *testing.T, ctx context.Context, server *actionCounter, off bool) {
	t.Helper()
	server.down.Store(off)
	conditions := []*network.Conditions{}
	if off {
		conditions = append(conditions, &network.Conditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
	}
	_, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: conditions})
	must(t, err, "emulating the network")
	_, err = chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
	must(t, err, "telling the page it is offline")
}

// textContent is the text of the first element sel selects, spaces
// joined.
func textContent(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent || ""`))
	must(t, err, "reading "+sel)
	return strings.Join(strings.Fields(s), " ")
}

func poll(ctx context.Context, expr string) error {
	return chromedp.Do(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second)))
}

// TestBrowserMyWorkWithoutSignal: a cleaner opens "My work", loses
// signal and reloads: the kept list shows, saying plainly when it is
// from. They say "I'm on it" for two alerts and "Done" for a third; the
// page lists the three as waiting. One of the alerts closes meanwhile.
// When the signal returns, the server takes each of the other two once,
// and the page says why the third was not sent.
func TestBrowserMyWorkWithoutSignal(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{Zone: time.UTC})
	a.browser().signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	account := a.accountOf(false)
	open := myItems(t, maria.get("/my"), "my-open")
	if len(open) < 3 {
		t.Fatalf("the test needs 3 open alerts, /my lists %v", open)
	}
	counter := &actionCounter{taken: map[string]int{}}
	srv := httptest.NewServer(counter.serve(a))
	t.Cleanup(srv.Close)

	ctx := newChrome(t, 412, 915)
	base, _ := url.Parse(a.srv.URL)
	for _, ck := range maria.client.Jar.Cookies(base) {
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: ck.Name, Value: ck.Value, URL: srv.URL + "/"})
		must(t, err, "handing Maria's session to the browser")
	}
	// The first visit installs the worker; the second, through it, keeps
	// the list.
	must(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/my")), "opening /my")
	must(t, poll(ctx, `navigator.serviceWorker.controller !== null`), "waiting for the service worker")
	drawn := a.clock.Now().In(time.UTC).Format("15:04")
	must(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/my")), "opening /my again")
	must(t, poll(ctx, `caches.open("washboard-pages").then((c) => c.match("/my")).then((r) => !!r)`), "waiting for the list to be kept")

	offline(t, ctx, counter, true)
	must(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/my")), "reloading /my without signal")
	must(t, poll(ctx, `document.getElementById("my-offline").textContent !== ""`), "waiting for the offline notice")
	if got := text(t, ctx, "#my-offline"); got != "Offline: this list is from "+drawn+"." {
		t.Errorf("the offline notice says %q", got)
	}
	if role, _ := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("my-offline"), "role")); role.Value != "status" {
		t.Errorf("the offline notice's role is %q; want status, read out", role.Value)
	}

	claim := func(item string) string { return "#" + item + " form:not(.work-done-form) button" }
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(claim(open[0]))),
		chromedp.Click(chromedp.CSS("#"+open[1]+` .work-done-form button[value="refilled"]`)),
		chromedp.Click(chromedp.CSS(claim(open[2])))), "acting without signal")
	must(t, poll(ctx, `document.querySelectorAll("#my-pending li").length === 3`), "waiting for the actions to be kept")
	if got := textContent(t, ctx, "#my-pending h2"); got != "Waiting to send (3)" {
		t.Errorf("the waiting actions are headed %q", got)
	}
	if live, _ := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("my-pending"), "aria-live")); live.Value != "polite" {
		t.Errorf("the waiting actions are not read out: aria-live %q", live.Value)
	}
	if c := counter.counts(); len(c) > 0 {
		t.Fatalf("the server took actions without signal: %v", c)
	}

	third := strings.TrimPrefix(open[2], "alert-")
	closedAt := a.closeAlert(account, third)
	offline(t, ctx, counter, false)
	// The page (and the worker, on Background Sync) sends what waits,
	// and reloads when something went: the poll may see the page
	// navigate away.
	err := poll(ctx, `!!document.querySelector(".my-refused li")`)
	for i := 0; i < 5 && err != nil && (strings.Contains(err.Error(), "navigated") || strings.Contains(err.Error(), "context")); i++ {
		err = poll(ctx, `!!document.querySelector(".my-refused li")`)
	}
	must(t, err, "waiting for the refusal to show")
	refusal := textContent(t, ctx, ".my-refused li")
	if want := "Not sent: the alert was closed at " + closedAt.In(time.UTC).Format("15:04") + " before you were on it."; !strings.Contains(refusal, want) {
		t.Errorf("the refused action says %q; want %q", refusal, want)
	}

	path := func(item, action string) string {
		return "/my/alerts/" + strings.TrimPrefix(item, "alert-") + "/" + action
	}
	if got, want := counter.counts(), map[string]int{path(open[0], "claim"): 1, path(open[1], "done"): 1}; !mapsEqual(got, want) {
		t.Errorf("the server took %v; want each action once: %v", got, want)
	}
	if got, want := a.claimNames(account), []string{"Maria " + strings.TrimPrefix(open[0], "alert-")}; !slices.Equal(got, want) {
		t.Errorf("claims: %q; want %q", got, want)
	}
	reports, err := a.store.LastDoneReports(context.Background(), account, []string{strings.TrimPrefix(open[1], "alert-")})
	if err != nil || len(reports) != 1 {
		t.Errorf("the done report: %v, %v", reports, err)
	}
}
