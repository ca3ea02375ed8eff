package sim

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// DeviceType is the category of a dispenser as the interface names it.
type DeviceType string

// The device types the simulator knows.
const (
	Tissue    DeviceType = "tissue"
	Towel     DeviceType = "towel"
	Soap      DeviceType = "soap"
	Sanitizer DeviceType = "sanitizer"
	Collector DeviceType = "collector" // a gateway relaying the dispensers' radio traffic
)

// automated reports whether the device dispenses by motor and hand-wave
// sensor (and so cannot dispense without battery), as opposed to tissue,
// which is pulled by hand.
func (t DeviceType) automated() bool {
	return t == Towel || t == Soap || t == Sanitizer
}

// Generation is a device's state generation, "1.0" or "2.0".
type Generation string

// The two device generations.
const (
	Gen1 Generation = "1.0"
	Gen2 Generation = "2.0"
)

// Preference says when a consumable_out alert is raised: when a compartment
// runs low, or only when it is out.
type Preference string

// The two alert preferences.
const (
	PreferLow Preference = "low"
	PreferOut Preference = "out"
)

// Thresholds of the device state, in percent.
const (
	productLowAt      = 15.0 // product_low at or below this level (and also when out)
	batteryLowAt      = 20.0 // battery_state Low at or below
	batteryShutdownAt = 5.0  // battery_state Shutdown at or below: the set is depleted
)

// Account is one customer of the service with its own credentials, layout,
// devices and alerts. All of its fields are guarded by mu.
type Account struct {
	mu sync.Mutex

	ID            string
	Name          string
	APIKey        string
	Authorization string
	Preference    Preference

	Buildings []*Building
	Rooms     []*Room     // every room, in metadata order
	Locations []*Location // every device location, by ascending ID

	buildings map[string]*Building
	floors    map[string]*Floor
	rooms     map[string]*Room
	locations map[int64]*Location
	devices   map[string]*Device // by MAC

	alerts   []*Alert // by creation: ascending (Created, seq)
	resolved []*Alert // by resolution: ascending (Resolved, resolvedSeq)
	alertIDs map[string]*Alert
	alertSeq int64
	closeSeq int64

	// Webhooks: the account's definitions (replaced, never changed in
	// place, so that a copy of the slice can be read without mu), and the
	// changes to alerts noted for them while one is enabled. hooked
	// mirrors rec != nil for the pump to read without mu.
	hooks  []*hook
	rec    *recorder
	hooked atomic.Bool

	usage   *usage
	loc     *time.Location
	now     time.Time   // the time the account's state has been advanced to
	wakeups deviceQueue // devices by their next state change
	idSeed  uint64      // seeds alert identifiers
	rng     *rand.Rand  // account-level randomness (alert identifiers)
	// refillsTaken says product is refilled by Refill only, not by staff
	// called by consumable_out (TakeOverRefills).
	refillsTaken bool
}

// Building is a building of an account.
type Building struct {
	ID     string
	Name   string
	Floors []*Floor
}

// Floor is a floor of a building.
type Floor struct {
	ID       string
	Name     string
	Building *Building
	Rooms    []*Room
}

// Room is a room of a floor: a washroom, a kitchen or a cleaner's cupboard.
type Room struct {
	ID        string
	Name      string
	Floor     *Floor
	Locations []*Location
}

// Location is a device location within a room: "Sink Left", "Stall 2".
// It holds one physical device, or two side by side.
type Location struct {
	ID      int64
	Name    string
	Type    DeviceType
	Room    *Room
	Devices []*Device
}

// Device is one physical dispenser or gateway, identified by its MAC.
type Device struct {
	MAC        string
	Position   string
	Generation Generation
	Location   *Location
	index      int // position in the account's wake-up queue order; ties break on it

	// The state at time ref. Levels between events follow from the usage
	// profile; see advance.
	ref          time.Time
	compartments []compartment
	batteries    []battery
	demand       float64 // percent of one compartment per usage unit, for the whole device
	drain        float64 // battery percent per day
	faults       faultSet

	// Connectivity.
	silentSince time.Time // zero while the device transmits
	frozen      *reading  // what the device last transmitted, while silent
	offline     bool      // device_off: silent for 24 hours
	lastSent    time.Time // last transmission while communicating
	heartbeat   time.Duration
	phase       time.Duration

	open   map[AlertType]*Alert // open alerts of this device
	visits []visit              // staff visits scheduled
	timers deviceTimers

	next    time.Time // next wake-up
	heapIdx int
	rng     *rand.Rand
}

type compartment struct {
	level  float64 // percent
	weight float64 // share of use relative to the other compartments
}

type battery struct {
	level float64 // percent
}

// visit is a member of staff scheduled to attend to an alert.
type visit struct {
	at    time.Time
	alert *Alert
}

// deviceTimers are the pre-drawn times of random incidents.
type deviceTimers struct {
	fault   time.Time // next fault
	silence time.Time // next loss of communication
	restore time.Time // end of the current loss of communication, if it ends by itself
}

// reading is what a device transmits: the state the interface reports.
type reading struct {
	at        time.Time
	levels    []float64
	batteries []float64
	faults    faultSet
}
