package sim

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"
)

// Names for the simulated world.
var (
	accountNames = []string{
		"Northwind Property Services", "Bluebird Hospital Trust", "Contoso Campus",
		"Harbourside Offices", "Fabrikam Arena", "Lakeview Schools",
	}
	buildingFirst = []string{
		"North", "South", "East", "West", "Harbour", "Riverside", "Central", "Park",
		"Station", "Market", "Lakeside", "Summit", "Foundry", "Gateway", "Meadow",
		"Civic", "Kings", "Queens", "Mill", "Orchard",
	}
	buildingSecond = []string{
		"Tower", "House", "Hall", "Wing", "Centre", "Plaza", "Court", "Pavilion",
		"Building", "Annex",
	}
)

// roomKind describes a kind of room and the device locations it holds.
type roomKind struct {
	name      string
	locations func(r *rand.Rand) []locationPlan
}

type locationPlan struct {
	name string
	typ  DeviceType
}

func stalls(r *rand.Rand, lo, hi int) []locationPlan {
	n := lo + r.IntN(hi-lo+1)
	out := make([]locationPlan, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, locationPlan{"Stall " + strconv.Itoa(i), Tissue})
	}
	return out
}

func sinks(r *rand.Rand) []locationPlan {
	if r.IntN(3) == 0 {
		return []locationPlan{{"Sink", Soap}, {"Towel by Sink", Towel}}
	}
	return []locationPlan{{"Sink Left", Soap}, {"Sink Right", Soap}, {"Towel Left", Towel}, {"Towel Right", Towel}}
}

var (
	washroomMen = roomKind{"Men's Restroom", func(r *rand.Rand) []locationPlan {
		return append(append(stalls(r, 1, 3), sinks(r)...), entrance(r)...)
	}}
	washroomWomen = roomKind{"Women's Restroom", func(r *rand.Rand) []locationPlan {
		return append(append(stalls(r, 2, 4), sinks(r)...), entrance(r)...)
	}}
	washroomAccessible = roomKind{"Accessible Restroom", func(r *rand.Rand) []locationPlan {
		return []locationPlan{{"Toilet", Tissue}, {"Sink", Soap}, {"Towel", Towel}}
	}}
	washroomAllGender = roomKind{"All-Gender Restroom", func(r *rand.Rand) []locationPlan {
		return append(stalls(r, 1, 2), locationPlan{"Sink", Soap}, locationPlan{"Towel", Towel})
	}}
	kitchen = roomKind{"Staff Kitchen", func(r *rand.Rand) []locationPlan {
		return []locationPlan{{"Sink", Soap}, {"Towel Dispenser", Towel}, {"Door Sanitizer", Sanitizer}}
	}}
	cupboard = roomKind{"Cleaner's Cupboard", func(r *rand.Rand) []locationPlan {
		return []locationPlan{{"Gateway", Collector}}
	}}
)

func entrance(r *rand.Rand) []locationPlan {
	if r.IntN(2) == 0 {
		return []locationPlan{{"Entrance Sanitizer", Sanitizer}}
	}
	return nil
}

// generateAccount builds account number k (0-based) of a world: its layout of
// exactly locations device locations, its devices, and their state at start.
func generateAccount(seed uint64, k int, locations int, creds Credentials, start time.Time, zone *time.Location) *Account {
	r := rand.New(rand.NewPCG(seed, uint64(k)+1))
	_, offset := start.In(zone).Zone()
	a := &Account{
		ID:            newID(r),
		Name:          accountNames[k%len(accountNames)],
		APIKey:        creds.APIKey,
		Authorization: creds.Authorization,
		Preference:    PreferOut,
		buildings:     map[string]*Building{},
		floors:        map[string]*Floor{},
		rooms:         map[string]*Room{},
		locations:     map[int64]*Location{},
		devices:       map[string]*Device{},
		alertIDs:      map[string]*Alert{},
		usage:         newUsage(time.Duration(offset) * time.Second),
		loc:           zone,
		now:           start,
		idSeed:        r.Uint64(),
		rng:           r,
	}
	if k%2 == 1 {
		a.Preference = PreferLow // so that both alert preferences are exercised
	}
	if k >= len(accountNames) {
		a.Name += " " + strconv.Itoa(k/len(accountNames)+1)
	}

	names := buildingNames(r)
	nextLocation := int64(k+1)*10_000_000 + int64(r.IntN(1000))
	for len(a.Locations) < locations {
		b := &Building{ID: newID(r), Name: names[len(a.Buildings)%len(names)]}
		if n := len(a.Buildings) / len(names); n > 0 {
			b.Name += " " + strconv.Itoa(n+1)
		}
		a.Buildings = append(a.Buildings, b)
		a.buildings[b.ID] = b
		floors := 2 + r.IntN(8)
		for f := 0; f < floors && len(a.Locations) < locations; f++ {
			fl := &Floor{ID: newID(r), Building: b}
			code := strconv.Itoa(f)
			fl.Name = "Level " + code
			if f == 0 {
				fl.Name, code = "Ground Floor", "G"
			}
			b.Floors = append(b.Floors, fl)
			a.floors[fl.ID] = fl

			kinds := []roomKind{cupboard, washroomMen, washroomWomen, washroomAccessible}
			for extra := r.IntN(4); extra > 0; extra-- {
				kinds = append(kinds, []roomKind{washroomMen, washroomWomen, washroomAllGender}[r.IntN(3)])
			}
			if r.IntN(2) == 0 {
				kinds = append(kinds, kitchen)
			}
			number := 1
			for _, kind := range kinds {
				if len(a.Locations) >= locations {
					break
				}
				number += 1 + r.IntN(3)
				rm := &Room{ID: newID(r), Name: fmt.Sprintf("%s %s.%02d", kind.name, code, number), Floor: fl}
				fl.Rooms = append(fl.Rooms, rm)
				a.Rooms = append(a.Rooms, rm)
				a.rooms[rm.ID] = rm
				for _, plan := range kind.locations(r) {
					if len(a.Locations) >= locations {
						break
					}
					nextLocation += 1 + int64(r.IntN(3))
					loc := &Location{ID: nextLocation, Name: plan.name, Type: plan.typ, Room: rm}
					rm.Locations = append(rm.Locations, loc)
					a.Locations = append(a.Locations, loc)
					a.locations[loc.ID] = loc
					a.addDevices(loc, r, seed, start)
				}
			}
		}
	}

	for _, l := range a.Locations {
		for _, d := range l.Devices {
			a.reconcile(d, start)
			a.schedule(d)
			heap.Push(&a.wakeups, d)
		}
	}
	return a
}

// addDevices installs the physical devices of a location: usually one, and
// for a few tissue stalls two side by side.
func (a *Account) addDevices(l *Location, r *rand.Rand, seed uint64, start time.Time) {
	positions := []string{"main"}
	if l.Type == Tissue && r.IntN(25) == 0 {
		positions = []string{"left", "right"}
	}
	fourRoll := l.Type == Tissue && r.IntN(5) < 3 // the rest are vertical tissue dispensers
	gen := Gen2
	if r.IntN(5) < 2 {
		gen = Gen1
	}
	traffic := 0.5 + r.Float64()*1.5
	for _, pos := range positions {
		index := len(a.devices)
		d := &Device{
			MAC:        a.newMAC(r),
			Position:   pos,
			Generation: gen,
			Location:   l,
			index:      index,
			ref:        start,
			open:       map[AlertType]*Alert{},
			heartbeat:  15 * time.Minute,
			rng:        rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(l.ID)<<4|uint64(len(l.Devices)))),
		}
		if l.Type == Collector {
			d.heartbeat = 5 * time.Minute
		}
		d.phase = time.Duration(d.rng.Int64N(int64(d.heartbeat))).Truncate(time.Second)
		d.lastSent = start

		// Days a full device lasts at average traffic.
		var cycle float64
		compartments := 1
		switch {
		case l.Type == Tissue && fourRoll:
			compartments, cycle = 4, 8
		case l.Type == Tissue:
			cycle = 3
		case l.Type == Towel:
			cycle = 3
		case l.Type == Soap:
			cycle = 7
		case l.Type == Sanitizer:
			cycle = 10
		case l.Type == Collector:
			compartments = 0
		}
		for i := 0; i < compartments; i++ {
			level := 20 + d.rng.Float64()*80
			if d.rng.IntN(12) == 0 {
				level = d.rng.Float64() * 20
			}
			d.compartments = append(d.compartments, compartment{level: level, weight: 0.7 + d.rng.Float64()*0.6})
		}
		if compartments > 0 {
			d.demand = float64(compartments) * 100 / (cycle * a.usage.perDay()) * traffic
		}

		sets := 1
		if l.Type == Tissue && fourRoll {
			sets = 2
		}
		first := 8 + d.rng.Float64()*92
		for i := 0; i < sets; i++ {
			level := first
			if i > 0 {
				level = clampLevel(first - 10 + d.rng.Float64()*20)
			}
			d.batteries = append(d.batteries, battery{level: level})
		}
		if l.Type == Collector {
			d.batteries[0].level = 100 // mains powered
		} else {
			d.drain = 100 / (120 + d.rng.Float64()*240) // a set lasts four months to a year
		}

		d.timers.fault = d.drawFault(start)
		d.timers.silence = d.drawSilence(start)
		l.Devices = append(l.Devices, d)
		a.devices[d.MAC] = d
	}
}

// buildingNames returns the account's building names in a shuffled order.
func buildingNames(r *rand.Rand) []string {
	names := make([]string, 0, len(buildingFirst)*len(buildingSecond))
	for _, f := range buildingFirst {
		for _, s := range buildingSecond {
			names = append(names, f+" "+s)
		}
	}
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names
}

func (a *Account) newMAC(r *rand.Rand) string {
	for {
		mac := fmt.Sprintf("%012X", r.Uint64()&0xFFFFFFFFFFFF)
		if _, taken := a.devices[mac]; !taken {
			return mac
		}
	}
}

// newID returns an identifier in the form of a UUID, drawn from r.
func newID(r *rand.Rand) string {
	hi, lo := r.Uint64(), r.Uint64()
	return uuid(hi, lo)
}

// alertID derives an alert's identifier from the account's seed and the
// alert's sequence number, so that a seed always gives the same identifiers.
func alertID(seed uint64, seq int64) string {
	r := rand.New(rand.NewPCG(seed, uint64(seq)))
	return uuid(r.Uint64(), r.Uint64())
}

func uuid(hi, lo uint64) string {
	hi = hi&^0xF000 | 0x4000     // version 4
	lo = lo&^(0xC<<60) | 0x8<<60 // variant 10
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		hi>>32, (hi>>16)&0xFFFF, hi&0xFFFF, lo>>48, lo&0xFFFFFFFFFFFF)
}
