package rounds_test

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"washboard/internal/clientreport"
	"washboard/internal/forecast"
	"washboard/internal/rounds"
	"washboard/internal/servicelevel"
	"washboard/internal/sim"
	"washboard/internal/store"
)

// The backtest of rounds from need (docs/rounds.md#checks-saved): the
// simulator's world learned for 28 days, as the forecasts' backtest
// (internal/forecast) learns it, then 7 days played twice from the same
// state, the staff's refills taken over by rounds: once by rounds from
// need, once by fixed rounds visiting every room every two hours.
const (
	backtestLocations = 500
	backtestPoll      = 5 * time.Minute // the spec's interval for polling that drives notifications
	backtestLearn     = 28 * 24 * time.Hour
	backtestDays      = 7
	// Rounds start every two hours from 06:00 to 20:00, the simulated
	// staff's hours (06:00-22:00), under both.
	roundsEvery = 2 * time.Hour
	firstRound  = 6
	lastRound   = 20
	// defaultReplaceAt is what a visit refills unasked: a compartment at
	// or below it, as a cleaner replaces a roll or a cartridge that is
	// nearly done. A round from need also refills in full the dispensers
	// it was sent for. WASHBOARD_ROUNDS_REPLACE_AT changes it.
	defaultReplaceAt = 25
	// The planner's tuning: a dispenser is due when the earliest of its
	// forecast's range is before the next round, or up to defaultAhead
	// after it. WASHBOARD_ROUNDS_AHEAD changes how far ahead (a Go
	// duration); WASHBOARD_ROUNDS_RUNS_OUT=likely takes the most likely
	// time of the forecast rather than the earliest.
	defaultAhead = 2 * time.Hour
	// silentAfter is how old a device's last_seen must be for the
	// recorder to open a gap, as the forecasts' backtest records them.
	silentAfter = time.Hour
)

var (
	backtestZone  = time.FixedZone("CET", 3600)
	backtestStart = time.Date(2026, 2, 2, 0, 0, 0, 0, backtestZone) // a Monday
	playFrom      = backtestStart.Add(backtestLearn)
	playTo        = playFrom.AddDate(0, 0, backtestDays)
	walkTimes     = rounds.DefaultLimits
)

// dispenser is a device with compartments as Washboard records it from
// its polls: the forecast's history, and the readings the cache keeps
// (a reading whenever a level changes), from the played days on.
type dispenser struct {
	mac, room, location string
	h                   forecast.History
	last                []int
	silent              bool
	model               *forecast.Model
	readings            []store.Reading
}

// tuning is the backtest's settings.
type tuning struct {
	locations int
	replaceAt int
	ahead     time.Duration
	likely    bool // plan from the forecast's most likely time, not its earliest
}

func tuningFromEnv(tb testing.TB) tuning {
	tb.Helper()
	t := tuning{locations: backtestLocations, replaceAt: defaultReplaceAt, ahead: defaultAhead}
	if s := os.Getenv("WASHBOARD_BACKTEST_LOCATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 10 || n > 20_000 {
			tb.Fatalf("WASHBOARD_BACKTEST_LOCATIONS=%q: want a number of locations, 10 to 20,000", s)
		}
		t.locations = n
	}
	if s := os.Getenv("WASHBOARD_ROUNDS_REPLACE_AT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 100 {
			tb.Fatalf("WASHBOARD_ROUNDS_REPLACE_AT=%q: want a level in percent, 0 to 100", s)
		}
		t.replaceAt = n
	}
	if s := os.Getenv("WASHBOARD_ROUNDS_AHEAD"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 || d > 48*time.Hour {
			tb.Fatalf("WASHBOARD_ROUNDS_AHEAD=%q: want a duration such as 90m, 0 to 48h", s)
		}
		t.ahead = d
	}
	switch s := os.Getenv("WASHBOARD_ROUNDS_RUNS_OUT"); s {
	case "", "earliest":
	case "likely":
		t.likely = true
	default:
		tb.Fatalf("WASHBOARD_ROUNDS_RUNS_OUT=%q: want earliest or likely", s)
	}
	return t
}

// backtestWorld is one play of the backtest: the simulator, its layout
// as rounds see it, and what the polls recorded.
type backtestWorld struct {
	w        *sim.World
	clock    *sim.ManualClock
	rooms    []rounds.Room
	inRoom   map[string][]*dispenser // by room ID
	byMAC    map[string]*dispenser
	order    []*dispenser
	polled   []sim.ProductReading
	roomOf   map[int64]string // location → room
	staff    int              // cleaners on duty, as many as fixed rounds need
	tune     tuning
	keep     bool // readings are kept
	forecast bool // the forecasts' histories are kept
}

// newBacktestWorld builds the world and polls it every five minutes for
// the 28 days learned.
func newBacktestWorld(tb testing.TB, tune tuning, forecasts bool) *backtestWorld {
	tb.Helper()
	clock := sim.NewManualClock(backtestStart)
	bw := &backtestWorld{
		w:     sim.New(sim.Config{Seed: 17, Locations: tune.locations, Accounts: 1, Clock: clock, Zone: backtestZone}),
		clock: clock, inRoom: map[string][]*dispenser{}, byMAC: map[string]*dispenser{}, roomOf: map[int64]string{}, forecast: forecasts, tune: tune,
	}
	a := bw.w.Accounts()[0]
	for _, r := range a.Rooms {
		for _, l := range r.Locations {
			bw.roomOf[l.ID] = r.ID
			if l.Type == sim.Collector {
				continue
			}
			for _, d := range l.Devices {
				bw.inRoom[r.ID] = append(bw.inRoom[r.ID], &dispenser{mac: d.MAC, room: r.ID, location: strconv.FormatInt(l.ID, 10)})
			}
		}
		if len(bw.inRoom[r.ID]) > 0 { // a cleaner's cupboard has only a gateway: no round visits it
			bw.rooms = append(bw.rooms, rounds.Room{ID: r.ID, FloorID: r.Floor.ID, BuildingID: r.Floor.Building.ID, Order: len(bw.rooms)})
		}
	}
	for _, ds := range bw.inRoom {
		for _, d := range ds {
			bw.byMAC[d.mac] = d
		}
	}
	every := rounds.Make(rounds.Input{Rooms: bw.rooms, Needs: everyRoom(bw.rooms), Limits: walkTimes})
	bw.staff = int((every.Duration + roundsEvery - 1) / roundsEvery)
	for now := backtestStart; now.Before(playFrom); now = now.Add(backtestPoll) {
		clock.Set(now)
		bw.poll(now)
	}
	return bw
}

// everyRoom is a need in each room: a fixed round's.
func everyRoom(rooms []rounds.Room) []rounds.Need {
	needs := make([]rounds.Need, len(rooms))
	for i, r := range rooms {
		needs[i] = rounds.Need{Kind: rounds.NeedOut, RoomID: r.ID}
	}
	return needs
}

// poll reads the account at now and records what changed.
func (bw *backtestWorld) poll(now time.Time) {
	bw.polled = bw.w.ProductReadings(0, bw.polled)
	for i, rd := range bw.polled {
		var d *dispenser
		if i < len(bw.order) && bw.order[i].mac == rd.MAC {
			d = bw.order[i] // the fleet does not change: the same order every poll
		} else {
			d = bw.byMAC[rd.MAC]
			if d.last == nil {
				d.h.Levels = make([][]forecast.Sample, len(rd.Levels))
				d.last = make([]int, len(rd.Levels))
				for c := range d.last {
					d.last[c] = -1
				}
			}
			bw.order = append(bw.order, d)
		}
		changed := false
		for c, level := range rd.Levels {
			if d.last[c] != level {
				if bw.forecast {
					d.h.Levels[c] = append(d.h.Levels[c], forecast.Sample{At: now, Level: level})
				}
				d.last[c] = level
				changed = true
			}
		}
		if bw.keep && (changed || len(d.readings) == 0) {
			d.readings = append(d.readings, store.Reading{At: now, Levels: slices.Clone(rd.Levels)})
		}
		switch quiet := now.Sub(rd.LastSeen) > silentAfter; {
		case quiet && !d.silent:
			d.h.Gaps = append(d.h.Gaps, forecast.Span{From: rd.LastSeen})
			d.silent = true
		case !quiet && d.silent:
			d.h.Gaps[len(d.h.Gaps)-1].To = now
			d.silent = false
		}
	}
}

// visit is a room visited by a round; refill, the dispensers it was sent
// for, refilled in full.
type visit struct {
	at     time.Time
	room   string
	refill []string
}

// played is what a play of the seven days did.
type played struct {
	rooms   []string // the rooms with dispensers
	staff   int
	visits  []rounds.Visit
	outs    []rounds.Out
	refills int // compartments refilled
	level   int // the sum of their levels when refilled, as last polled
}

// plan is a schedule of rounds: the rooms a round starting at now visits,
// with the next round at next.
type plan func(bw *backtestWorld, now, next time.Time) []rounds.Stop

// play takes refills over and plays the seven days with the rounds the
// plan makes, from 06:00 to 20:00 every two hours.
func (bw *backtestWorld) play(p plan) played {
	bw.w.TakeOverRefills()
	bw.keep = true
	out := played{staff: bw.staff}
	for _, r := range bw.rooms {
		out.rooms = append(out.rooms, r.ID)
	}
	var pending []visit
	for now := playFrom; now.Before(playTo); now = now.Add(backtestPoll) {
		for len(pending) > 0 && !pending[0].at.After(now) {
			v := pending[0]
			pending = pending[1:]
			bw.clock.Set(v.at)
			bw.visit(v, &out)
		}
		bw.clock.Set(now)
		bw.poll(now)
		local := now.In(backtestZone)
		if h := local.Hour(); local.Minute() != 0 || h < firstRound || h > lastRound || (h-firstRound)%int(roundsEvery.Hours()) != 0 {
			continue
		}
		next := now.Add(roundsEvery)
		if local.Hour() == lastRound {
			next = time.Date(local.Year(), local.Month(), local.Day()+1, firstRound, 0, 0, 0, backtestZone)
		}
		pending = append(pending, bw.walk(now, p(bw, now, next))...)
	}
	for _, ds := range bw.inRoom {
		for _, d := range ds {
			for _, s := range clientreport.OutSpans(d.readings, playFrom, playTo) {
				out.outs = append(out.outs, rounds.Out{RoomID: d.room, Dispenser: d.mac, From: s.From, To: s.To})
			}
		}
	}
	return out
}

// walk times a round's stops: the staff walk them in order together, a
// room taking its time and a change of floor its own, shared among them.
func (bw *backtestWorld) walk(start time.Time, stops []rounds.Stop) []visit {
	var vs []visit
	var spent time.Duration
	for i, st := range stops {
		if i > 0 && st.Room.FloorID != stops[i-1].Room.FloorID {
			spent += walkTimes.PerFloorChange
		}
		v := visit{at: start.Add(spent / time.Duration(bw.staff)), room: st.Room.ID}
		for _, n := range st.Needs {
			if n.Kind == rounds.NeedRunsOut || n.Kind == rounds.NeedOut {
				v.refill = append(v.refill, n.LocationID)
			}
		}
		vs = append(vs, v)
		spent += walkTimes.PerRoom
	}
	return vs
}

// visit refills what the room needs: each compartment at or below the
// tuning's replaceAt, and in full the dispensers at the locations it was sent for.
func (bw *backtestWorld) visit(v visit, out *played) {
	out.visits = append(out.visits, rounds.Visit{RoomID: v.room, At: v.at})
	for _, d := range bw.inRoom[v.room] {
		at := bw.tune.replaceAt
		if slices.Contains(v.refill, d.location) {
			at = 100
		}
		n, _ := bw.w.Refill(d.mac, at)
		out.refills += n
		for _, l := range d.last {
			if l <= at && l < 100 {
				out.level += l
			}
		}
	}
}

// fixedRounds visit every room.
func fixedRounds(bw *backtestWorld, _, _ time.Time) []rounds.Stop {
	return rounds.Make(rounds.Input{Rooms: bw.rooms, Needs: everyRoom(bw.rooms), Limits: walkTimes}).Stops
}

// needRounds plan from what the account shows at now: its open
// consumable_out alerts, and each dispenser's forecast, fitted each day
// at the first round; within the staff's time until the next round.
func needRounds(bw *backtestWorld, now, next time.Time) []rounds.Stop {
	in := rounds.Input{Rooms: bw.rooms, NextRound: next, Ahead: bw.tune.ahead,
		Limits: rounds.Limits{Minutes: bw.staff * int(roundsEvery.Minutes()), PerRoom: walkTimes.PerRoom, PerFloorChange: walkTimes.PerFloorChange}}
	out := map[string]bool{}
	alerts := bw.w.Accounts()[0].AlertRecords()
	if now.In(backtestZone).Hour() == firstRound {
		for _, d := range bw.order {
			d.h.Outs = d.h.Outs[:0]
		}
		for _, al := range alerts {
			if d := bw.byMAC[al.MAC]; d != nil && al.Type == sim.AlertConsumableOut && !al.Created.Before(now.Add(-forecast.AlertWindow)) {
				d.h.Outs = append(d.h.Outs, al.Created)
			}
		}
		for _, d := range bw.order {
			d.model = forecast.Fit(&d.h, now, backtestZone)
		}
	}
	for _, al := range alerts {
		if al.Type == sim.AlertConsumableOut && al.Resolved.IsZero() {
			loc := strconv.FormatInt(al.LocationID, 10)
			in.Needs = append(in.Needs, rounds.Need{Kind: rounds.NeedOut, AlertID: al.ID, LocationID: loc, RoomID: bw.roomOf[al.LocationID], Refills: al.RefillCount})
			out[al.MAC] = true
		}
	}
	for _, d := range bw.order {
		if out[d.mac] || d.model == nil {
			continue
		}
		if e, ok := d.model.Forecast(&d.h, now); ok && e.Basis != forecast.ReportedOut {
			at := e.Earliest
			if bw.tune.likely {
				at = e.At
			}
			in.Needs = append(in.Needs, rounds.Need{Kind: rounds.NeedRunsOut, LocationID: d.location, RoomID: d.room, RunsOut: at, Refills: 1})
		}
	}
	return rounds.Make(in).Stops
}

// BenchmarkBacktest plays the same seven days of a simulated account of
// 500 locations twice after 28 days learned: with rounds from need, and
// with fixed rounds visiting every room every two hours, both from 06:00
// to 20:00 with the same staff. It reports the room visits under each
// (need-visits, fixed-visits) and how many fewer rounds from need made
// (fewer-%), the dispensers' out-hours under each as the polls recorded
// them (need-out-h, fixed-out-h), and the out-hours Checks saved
// estimates fixed rounds would have had from the need play's history
// alone (est-fixed-out-h). It also reports the mean level at which a
// compartment was refilled under each (need-refill-%, fixed-refill-%):
// the product a visit throws away.
//
//	go test ./internal/rounds -run '^$' -bench Backtest -benchtime 1x
func BenchmarkBacktest(b *testing.B) {
	hours := dailyHours(b)
	tune := tuningFromEnv(b)
	var need, fixed played
	for b.Loop() {
		need = newBacktestWorld(b, tune, true).play(needRounds)
		fixed = newBacktestWorld(b, tune, false).play(fixedRounds)
	}
	rooms := need.rooms
	n, err := rounds.ChecksSaved(rounds.ChecksInput{From: playFrom, To: playTo, Rooms: rooms, Visits: need.visits, Outs: need.outs, Hours: &hours})
	if err != nil {
		b.Fatal(err)
	}
	f, err := rounds.ChecksSaved(rounds.ChecksInput{From: playFrom, To: playTo, Rooms: rooms, Visits: fixed.visits, Outs: fixed.outs, Hours: &hours})
	if err != nil {
		b.Fatal(err)
	}
	if f.NeedVisits != n.FixedVisits {
		b.Fatalf("the fixed rounds visited %d rooms; Checks saved counts %d", f.NeedVisits, n.FixedVisits)
	}
	fewer := 100 * (1 - float64(n.NeedVisits)/float64(f.NeedVisits))
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(n.NeedVisits), "need-visits")
	b.ReportMetric(float64(f.NeedVisits), "fixed-visits")
	b.ReportMetric(fewer, "fewer-%")
	b.ReportMetric(n.NeedOut.Out.Hours(), "need-out-h")
	b.ReportMetric(f.NeedOut.Out.Hours(), "fixed-out-h")
	b.ReportMetric(n.FixedOut.Out.Hours(), "est-fixed-out-h")
	b.ReportMetric(float64(need.level)/float64(max(need.refills, 1)), "need-refill-%")
	b.ReportMetric(float64(fixed.level)/float64(max(fixed.refills, 1)), "fixed-refill-%")
	// What the week began with weighs on both: dispensers out at its start
	// (Monday 00:00, the staff off duty since 22:00) wait for the first
	// round. What each let run out after it is apart.
	later := playFrom.Add((firstRound + 2) * time.Hour)
	nl, err := rounds.ChecksSaved(rounds.ChecksInput{From: later, To: playTo, Rooms: rooms, Outs: need.outs})
	if err != nil {
		b.Fatal(err)
	}
	fl, err := rounds.ChecksSaved(rounds.ChecksInput{From: later, To: playTo, Rooms: rooms, Outs: fixed.outs})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("out-hours from the first round's end (%s) on: need %.1f h, fixed %.1f h", later.Format("Mon 15:04"), nl.NeedOut.Out.Hours(), fl.NeedOut.Out.Hours())
	goal := "met"
	if fewer < 60 || n.NeedOut.Out > f.NeedOut.Out {
		goal = "not met"
	}
	b.Logf("goal (at least 60 %% fewer room visits, no more out-hours): %s", goal)
	b.Logf("%d rooms with dispensers, %d staff; need: %d visits, %d compartments refilled, out %.1f h; fixed: %d visits, %d refilled, out %.1f h",
		len(rooms), need.staff, n.NeedVisits, need.refills, n.NeedOut.Out.Hours(), f.NeedVisits, fixed.refills, f.NeedOut.Out.Hours())
}

// dailyHours are the staff's hours, when fixed rounds run.
func dailyHours(tb testing.TB) servicelevel.Hours {
	w, err := servicelevel.ParseWeek("daily 06:00-22:00")
	if err != nil {
		tb.Fatal(err)
	}
	h, err := servicelevel.NewHours(w, nil, backtestZone)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}
