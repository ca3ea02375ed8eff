package store

import (
	"time"

	"washboard/internal/domain"
)

// ServiceFilter selects what people did about the alerts of an account's
// rooms (the service record, internal/servicerecord): the "done" reports
// and the claims made in [From, To) about alerts of locations in one room,
// or in the buildings of a scope.
type ServiceFilter struct {
	Account string
	// Buildings, when not nil, keeps the alerts of locations in these
	// buildings only (none when it is empty): a person's scope
	// (domain.BuildingScope.IDs).
	Buildings []string
	RoomID    string // one room alone, when set
	From, To  time.Time
	// Limit is the most rows read, newest first; it must be above 0.
	Limit int
}

// PlacedDoneReport is a "done" report with where its alert is and what
// kind of alert it is.
type PlacedDoneReport struct {
	domain.DoneReport
	LocationID, RoomID string
	Type               domain.AlertType
}

// PlacedClaim is a claim with where its alert is and what kind of alert
// it is, and the name of whoever's claim it took over, if it did.
type PlacedClaim struct {
	domain.Claim
	LocationID, RoomID string
	Type               domain.AlertType
	// TookOver is the name of the holder of the claim this one ended as
	// handed over; "" when it ended none.
	TookOver string
}
