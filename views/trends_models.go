package views

import (
	"time"

	"washboard/internal/trends"
)

// TrendsPage is the trends page of an account or a building.
type TrendsPage struct {
	Page
	// Ratings are what visitors rated the rooms of the scope in the
	// period (docs/visitors.md).
	Ratings   Ratings
	Days      int      // the period: the last Days days
	Periods   []Option // the periods offered
	Buildings []Option // "" for the whole account
	Scope     string   // "Whole account" or the building's name
	Zone      *time.Location
	Period    trends.Period
	Alerts    trends.Alerts
	// Top is how many rows the top lists show; LocationsTied and
	// RoomsTied how many more have as many alerts as their last row.
	Top                      int
	LocationsTied, RoomsTied int
	// Heat is the scope's consumption; HeatMaps the maps shown: the
	// scope's, and at the account's each building's, the first few by
	// name. MoreHeatMaps counts the buildings not shown.
	Heat         trends.Heat
	HeatMaps     []HeatMap
	MoreHeatMaps int
	// Computed and HeatComputed are when the alerts and the heat maps
	// were counted; KeptFor how long the alerts' figures answer again.
	Computed, HeatComputed time.Time
	KeptFor                time.Duration
	// Gaps say in words what the figures may miss.
	Gaps []string
	// CSV holds the download link of each table, by its name: perday,
	// resolve, locations, rooms, heatmap.
	CSV map[string]string
	// Running is the line printed at the top of every page.
	Running string
	// Every is how often fixed rounds would visit, in hours, and Checks
	// what rounds from need saved against them in the period.
	Every  int
	Checks ChecksSaved
}

// HeatMap is one heat map of consumption: a building's, or all the
// buildings'. Href is the trends page of its building alone; empty on
// that page, and for all the buildings.
type HeatMap struct {
	Title string
	Href  string
	Heat  trends.Heat
}
