// Package domain is Washboard's model of what the dashboard shows: an
// account's layout, its devices and their health, and its alerts. It has no
// dependencies beyond the standard library; the upstream client, the store,
// the sync and the web layer all speak it.
package domain

import "time"

// Account is a customer account of the Device Monitoring Service.
type Account struct {
	ID   string
	Name string
}

// Building is a building of an account.
type Building struct {
	ID   string
	Name string
}

// Floor is a floor of a building.
type Floor struct {
	ID         string
	BuildingID string
	Name       string
}

// Room is a room of a floor.
type Room struct {
	ID      string
	FloorID string
	Name    string
}

// Location is a device location within a room: "Sink Left", "Stall 2".
type Location struct {
	ID     string
	RoomID string
	Name   string
	Type   DeviceType
}

// Layout is an account's hierarchy: building > floor > room > location.
type Layout struct {
	Account   Account
	Buildings []Building
	Floors    []Floor
	Rooms     []Room
	Locations []Location
}

// DeviceType is the category of a dispenser. Types the service adds later
// are kept as they come.
type DeviceType string

// The device types the interface names.
const (
	Tissue    DeviceType = "tissue"
	Towel     DeviceType = "towel"
	Soap      DeviceType = "soap"
	Sanitizer DeviceType = "sanitizer"
	Collector DeviceType = "collector"
)

// Known reports whether the type is one the interface names.
func (t DeviceType) Known() bool {
	switch t {
	case Tissue, Towel, Soap, Sanitizer, Collector:
		return true
	}
	return false
}

// Label is the type in words, for people.
func (t DeviceType) Label() string {
	switch t {
	case Tissue:
		return "Tissue"
	case Towel:
		return "Towel"
	case Soap:
		return "Soap"
	case Sanitizer:
		return "Sanitizer"
	case Collector:
		return "Gateway"
	case "":
		return "Unknown"
	}
	return string(t)
}

// RefillNoun is what staff carry to refill one compartment of the type,
// singular and plural.
func (t DeviceType) RefillNoun(n int) string {
	one, many := "refill", "refills"
	switch t {
	case Tissue:
		one, many = "tissue roll", "tissue rolls"
	case Towel:
		one, many = "towel refill", "towel refills"
	case Soap:
		one, many = "soap refill", "soap refills"
	case Sanitizer:
		one, many = "sanitizer refill", "sanitizer refills"
	}
	if n == 1 {
		return one
	}
	return many
}

// Device is the state of one physical device at a location, as the
// service last reported it.
type Device struct {
	MAC          string
	LocationID   string
	Position     string
	Generation   string // "1.0" or "2.0"
	Compartments []Compartment
	Battery      *int // percent; nil when not reported
	BatteryState BatteryState
	Faults       []Fault
	Offline      bool
	LastSeen     time.Time
}

// Compartment is one product compartment: a roll, a cartridge.
type Compartment struct {
	Level int // percent
	Low   bool
	Out   bool
}

// BatteryState is the battery status the service reports.
type BatteryState string

// The battery states of the interface. Other values are kept as they come.
const (
	BatteryUnknown  BatteryState = ""
	BatteryNormal   BatteryState = "Normal"
	BatteryLow      BatteryState = "Low"
	BatteryShutdown BatteryState = "Shutdown"
)
