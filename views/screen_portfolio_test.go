package views_test

import (
	"strings"
	"testing"

	"washboard/internal/domain"
	. "washboard/views"
)

// portfolioScreen is a portfolio screen of four clients, worst first: one
// needing action, one whose state could not be read, two all clear.
func portfolioScreen() ScreenView {
	m := sampleScreen()
	m.Groups, m.Attention, m.ScopeName = nil, nil, "Shine Services"
	m.Portfolio = true
	m.Clients = []ScreenClient{
		{PortfolioRow: PortfolioRow{Client: "Airport", Region: "South", Health: domain.HealthAction, Open: 5, Overdue: 2, Unclaimed: 3, Out: 4, Offline: 1},
			Level: "This week: 13 met, 2 missed · 1 open alert at risk", LevelWarning: true},
		{PortfolioRow: PortfolioRow{Client: "Museum", Problem: "Its state could not be read just now."}},
		{PortfolioRow: PortfolioRow{Client: "Head office", Region: "North", Health: domain.HealthOK}, Level: "This week: 4 met, 0 missed"},
		{PortfolioRow: PortfolioRow{Client: "Library", Health: domain.HealthOK}, Level: "No service level targets"},
	}
	return m
}

// A portfolio screen lists the clients that need something item by item,
// each with its state, counts and service level in words (never colour
// alone); those all clear follow under their heading, with the line that
// sums them up when space is short.
func TestPortfolioScreenSaysEachClientInWords(t *testing.T) {
	doc, _ := render(t, ScreenContent(portfolioScreen()))
	busy := doc.Find(".screen-part-action .screen-client")
	if busy.Length() != 2 {
		t.Fatalf("%d clients that need something; want Airport and Museum", busy.Length())
	}
	airport := strings.Join(strings.Fields(busy.First().Text()), " ")
	for _, want := range []string{"Needs action", "Airport · South", "2 overdue · 5 open alerts · 3 unclaimed · 4 dispensers out · 1 device offline",
		"This week: 13 met, 2 missed · 1 open alert at risk"} {
		if !strings.Contains(airport, want) {
			t.Errorf("Airport's line %q does not say %q", airport, want)
		}
	}
	if busy.First().Find(".screen-client-level-warning svg, .screen-client-level-warning .icon").Length() == 0 {
		t.Error("a service level at risk has no icon of its own beside its words")
	}
	if museum := busy.Eq(1).Text(); !strings.Contains(museum, "Its state could not be read just now.") {
		t.Errorf("Museum's line %q does not say its state could not be read", museum)
	}
	clear := doc.Find(".screen-part-clear")
	if n := clear.Find(".screen-client").Length(); n != 2 || !strings.Contains(clear.Find(".screen-part-title").Text(), "All clear") {
		t.Errorf("%d clients under All clear; want Head office and Library", n)
	}
	if sum := strings.Join(strings.Fields(clear.Find(".screen-attention-summary").Text()), " "); sum != "2 clients all clear: Head office, Library" {
		t.Errorf("the line summing up the clients all clear = %q", sum)
	}
	if doc.Find(".screen-all-clear, .screen-waiting").Length() != 0 {
		t.Error("a portfolio screen with clients says all clear or waiting as an account screen does")
	}
}
