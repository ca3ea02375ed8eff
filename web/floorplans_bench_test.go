package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
	"washboard/web/httpkit"
)

// BenchmarkFloorPlan serves the page of a floor of 500 locations in 100
// rooms, rendered afresh each time (the clock past
// httpkit.PageClockSlack), without a plan and then with one on which
// every location and room is placed, and reports the time of each, and
// the plan's part of the page (its markers and rooms, the image apart)
// as sent gzipped. The plan's own cost is the difference of the two.
func BenchmarkFloorPlan(b *testing.B) {
	e := newBenchEnv(b, 1, 1)
	benchAccount(b, e.store, e.account, "Benchmark Estates", 1, 1, 100) // the floor, now of 500 locations
	floor := "b0-f0"
	client := benchSession(b, e.srv)
	get := func() string {
		e.clk.Advance((httpkit.PageClockSlack + 1) * time.Second)
		resp, err := client.Get(e.srv.URL + "/floors/" + floor)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET the floor: %s", resp.Status)
		}
		return string(body)
	}
	b.Run("without-plan", func(b *testing.B) {
		for b.Loop() {
			get()
		}
	})

	ctx := context.Background()
	plan := domain.FloorPlan{FloorID: floor, ContentType: "image/png", Width: 4000, Height: 3000, UpdatedBy: "bench"}
	if _, err := e.store.PutFloorPlan(ctx, e.account, plan, []byte("a plan")); err != nil {
		b.Fatal(err)
	}
	locs, err := e.store.LocationsIn(ctx, e.account, "", floor, "")
	if err != nil || len(locs) != 500 {
		b.Fatalf("the floor's locations: %d, %v", len(locs), err)
	}
	rooms, _ := e.store.Rooms(ctx, e.account, floor)
	p := domain.Placements{Locations: map[string]domain.PlanPoint{}, Rooms: map[string][]domain.PlanPoint{}}
	for i, r := range rooms {
		x, y := (i%10)*400, (i/10)*300
		p.Rooms[r.ID] = []domain.PlanPoint{{X: x, Y: y}, {X: x + 380, Y: y}, {X: x + 380, Y: y + 280}, {X: x, Y: y + 280}}
	}
	for i, l := range locs {
		p.Locations[l.ID] = domain.PlanPoint{X: 20 + (i%50)*79, Y: 20 + (i/50)*290}
	}
	if err := e.store.SavePlacements(ctx, e.account, floor, p, "bench", start); err != nil {
		b.Fatal(err)
	}
	b.Run("with-plan", func(b *testing.B) {
		body := get()
		from, to := strings.Index(body, `<section class="place-plan"`), strings.Index(body, `<script src="/static/js/plan-view`)
		if from < 0 || to < from || strings.Count(body[from:to], `class="plan-spot `) != 500 {
			b.Fatalf("the page does not show the plan's 500 markers")
		}
		var gz bytes.Buffer
		w, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
		w.Write([]byte(body[from:to]))
		w.Close()
		for b.Loop() {
			get()
		}
		b.ReportMetric(float64(to-from)/1024, "plan-KB")
		b.ReportMetric(float64(gz.Len())/1024, "plan-gzip-KB")
	})
	// The plan and its markers alone, rendered as the page renders them,
	// every marker with an alert, half of them overdue and claimed.
	b.Run("plan-alone", func(b *testing.B) {
		m := &views.PlacePlan{FloorID: floor, Width: plan.Width, Height: plan.Height, ImageHref: "/floors/" + floor + "/plan/image?v=1",
			EditHref: "/floors/" + floor + "/plan"}
		for _, r := range rooms {
			m.Rooms = append(m.Rooms, views.PlanRoom{Name: r.Name, Shape: p.Rooms[r.ID]})
		}
		for i, l := range locs {
			m.Markers = append(m.Markers, views.PlanMarker{LocationID: l.ID, Name: l.Name, Href: "/locations/" + l.ID, At: p.Locations[l.ID],
				Health: domain.Healths[i%len(domain.Healths)], Open: 1 + i%3, Overdue: i % 2, Claimed: i % 2, RunsOut: "Runs out in about 3 h"})
		}
		ctx := i18n.WithLocalizer(context.Background(), i18n.For("en"))
		for b.Loop() {
			if _, err := renderLive(ctx, views.PlaceContent(views.Place{Kind: "floor", ID: floor, Name: "Level 0", Plan: m})); err != nil {
				b.Fatal(err)
			}
		}
	})
}
