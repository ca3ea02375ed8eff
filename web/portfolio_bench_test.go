package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The portfolio of BenchmarkPortfolioVersusStatic: an organisation of
// portfolioAccounts accounts of 5 floors of 20 rooms of 5 locations.
const (
	portfolioAccounts = 200
	portfolioFloors   = 5
	portfolioRooms    = 20
)

// BenchmarkPortfolioVersusStatic serves, in the same run and process, the
// portfolio of an organisation of 200 accounts of 500 locations (100,000
// locations, an open alert at every fifth, each account with a service
// level) through the dashboard, and the very same bytes as a static file
// through the same HTTP stack, as BenchmarkOverviewVersusStatic does the
// overview: 64 clients, turns of 0.5 s each way, the clock moving a
// second each second. It reports "portfolio/static", the portfolio's
// throughput against the static file's, plain and gzipped; it logs the
// time the organisation took to write and the first request's, with
// nothing kept. Before each account's state was kept, a
// render took seconds: WASHBOARD_VERSUS_TURNS=1 makes it one turn each
// way.
func BenchmarkPortfolioVersusStatic(b *testing.B) {
	e, cookies := benchPortfolio(b)
	for _, enc := range []string{"plain", "gzip"} {
		b.Run(enc, func(b *testing.B) { benchVersusStatic(b, e, cookies, "/portfolio", "portfolio", enc == "gzip") })
	}
}

// benchPortfolio is the dashboard over an organisation of
// portfolioAccounts accounts, and the cookies of a session of its owner
// (who signed in to the first account).
func benchPortfolio(b *testing.B) (*benchEnv, []*http.Cookie) {
	b.Helper()
	t0 := time.Now()
	ctx := context.Background()
	e := newBenchEnv(b, 1, 1)
	signedIn := benchSession(b, e.srv)
	u, _ := http.NewRequest(http.MethodGet, e.srv.URL, nil)
	cookies := signedIn.Jar.Cookies(u.URL)
	members, err := e.store.Members(ctx, e.account)
	if err != nil || len(members) != 1 {
		b.Fatalf("the benchmark account's members: %v, %v", members, err)
	}
	owner := members[0].PersonID
	audit := store.Audit{At: start, ActorID: owner, ActorName: "Owner", Action: domain.AuditOrganisationJoined, Subject: "Benchmark Services"}
	err = e.store.CreateOrganisation(ctx, domain.Organisation{ID: "bench-org", Name: "Benchmark Services", Created: start},
		domain.OrganisationMember{PersonID: owner, Role: domain.Owner, Created: start}, domain.OrganisationAccount{Account: e.account, Added: start}, audit)
	if err != nil {
		b.Fatal(err)
	}
	level := store.ServiceLevel{Week: "Mon-Fri 06:00-22:00", Zone: "UTC", Updated: start,
		Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute, Resolve: time.Hour}}}
	for i := range portfolioAccounts {
		account := e.account
		if i > 0 {
			account = fmt.Sprintf("client-%03d", i)
		}
		benchAccount(b, e.store, account, fmt.Sprintf("Client %03d", i), 1, portfolioFloors, portfolioRooms)
		if err := e.store.SaveServiceLevel(ctx, account, level); err != nil {
			b.Fatal(err)
		}
		if i > 0 {
			a := domain.OrganisationAccount{Organisation: "bench-org", Account: account, Region: []string{"North", "South", "East", "West"}[i%4], Added: start}
			if err := e.store.AddOrganisationAccount(ctx, a, 0, audit); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Logf("the organisation written in %.1f s", time.Since(t0).Seconds())
	// The first request, with nothing kept: what a render costs.
	t1 := time.Now()
	resp, err := signedIn.Get(e.srv.URL + "/portfolio")
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET /portfolio: %s", resp.Status)
	}
	b.Logf("the first request, nothing kept: %.1f ms", float64(time.Since(t1).Microseconds())/1000)
	return e, cookies
}
