package sim

import (
	"container/heap"
	"math"
	"time"

	"washboard/internal/webhook"
)

// How the simulated world behaves over time. Every device is asleep until
// its next state change: a compartment or battery crossing a threshold, a
// random fault, a loss of communication, or a member of staff arriving.
// Between changes its levels follow from the usage profile, so the cost of
// simulating a month is the number of changes, not the number of minutes.

const eps = 1e-6

// Incident rates, per device and day.
var faultRate = map[DeviceType]float64{
	Towel:     1.0 / 40,
	Soap:      1.0 / 80,
	Sanitizer: 1.0 / 80,
	Tissue:    1.0 / 300,
}

const (
	silenceRate          = 1.0 / 120 // losses of communication per dispenser and day
	collectorSilenceRate = 1.0 / 200
	offlineAfter         = 24 * time.Hour // device_off after this long without communication
	selfRestoreShare     = 0.5            // losses of communication that end by themselves within a day
	userResolveShare     = 0.08           // alerts that staff close in the app rather than by the device's event
	forgottenShare       = 0.06           // alerts left much longer than usual
)

// staffMean is the mean time, once staff are on duty, until someone attends
// to an alert of the type.
var staffMean = map[AlertType]time.Duration{
	AlertConsumableOut:     90 * time.Minute,
	AlertBatteryOut:        5 * time.Hour,
	AlertJam:               90 * time.Minute,
	AlertSensor:            3 * time.Hour,
	AlertIncorrectlyLoaded: time.Hour,
	AlertSystem:            36 * time.Hour,
	AlertDeviceOff:         10 * time.Hour,
}

// Staff are on duty from 06:00 to 22:00 local time.
const (
	dutyStart = 6
	dutyEnd   = 22
)

// advance runs the account's world forward to t. The caller holds a.mu.
func (a *Account) advance(t time.Time) {
	for len(a.wakeups) > 0 && !a.wakeups[0].next.After(t) {
		d := a.wakeups[0]
		if a.rec != nil {
			a.rec.overdueBefore(d.next)
		}
		a.process(d, d.next)
		a.schedule(d)
		heap.Fix(&a.wakeups, 0)
	}
	if a.rec != nil {
		a.rec.overdueBefore(t)
	}
	if t.After(a.now) {
		a.now = t
	}
}

// process brings one device to time t and handles everything due then.
func (a *Account) process(d *Device, t time.Time) {
	d.advanceTo(t, a.usage)

	if !d.timers.restore.IsZero() && !d.timers.restore.After(t) {
		d.timers.restore = time.Time{}
		a.restore(d, t)
	}
	for len(d.visits) > 0 {
		i := d.earliestVisit()
		if d.visits[i].at.After(t) {
			break
		}
		v := d.visits[i]
		d.visits = append(d.visits[:i], d.visits[i+1:]...)
		a.attend(d, v.alert, t)
	}
	if !d.timers.fault.IsZero() && !d.timers.fault.After(t) {
		if fs := possibleFaults(d.Location.Type, d.Generation); len(fs) > 0 {
			d.faults.set(fs[d.rng.IntN(len(fs))])
		}
		d.timers.fault = d.drawFault(t)
	}
	if !d.timers.silence.IsZero() && !d.timers.silence.After(t) {
		d.timers.silence = time.Time{}
		if d.silentSince.IsZero() {
			d.goSilent(t)
			if d.rng.Float64() < selfRestoreShare {
				d.timers.restore = t.Add(time.Hour + time.Duration(d.rng.Float64()*float64(20*time.Hour)))
			}
		}
	}
	if !d.silentSince.IsZero() && !d.offline && !t.Before(d.silentSince.Add(offlineAfter)) {
		d.offline = true
	}
	if d.silentSince.IsZero() {
		d.lastSent = t
	}
	a.reconcile(d, t)
	// A tissue dispenser whose batteries are depleted sends its battery
	// alert, then stops transmitting and eventually goes offline. Automated
	// dispensers stay on the air but cannot dispense.
	if d.Location.Type == Tissue && d.shutdown() && d.silentSince.IsZero() {
		d.goSilent(t)
	}
}

// alertOrder fixes the order in which a device's alerts are handled, so that
// a seed always gives the same history.
var alertOrder = []AlertType{
	AlertConsumableOut, AlertBatteryOut, AlertJam, AlertSensor, AlertSystem,
	AlertIncorrectlyLoaded, AlertDeviceOff,
}

// reconcile opens and closes the device's alerts to match its state at t.
func (a *Account) reconcile(d *Device, t time.Time) {
	if d.offline {
		for _, typ := range alertOrder {
			if al := d.open[typ]; al != nil && typ != AlertDeviceOff {
				a.resolve(al, ResolvedByOffline, t)
			}
		}
		if d.open[AlertDeviceOff] == nil {
			a.raise(d, AlertDeviceOff, t, 0)
		}
		return
	}
	if !d.silentSince.IsZero() {
		return // nothing reaches the service while the device is silent
	}
	if al := d.open[AlertDeviceOff]; al != nil {
		a.resolve(al, ResolvedByDevice, t)
	}
	a.match(d, AlertConsumableOut, d.compartmentsDue(a.Preference), t)
	a.match(d, AlertBatteryOut, d.depletedSets(), t)
	for _, typ := range []AlertType{AlertJam, AlertSensor, AlertSystem, AlertIncorrectlyLoaded} {
		n := 0
		if d.hasFaultFor(typ) {
			n = 1
		}
		a.match(d, typ, n, t)
	}
}

// match keeps one open alert of the type while count > 0. For
// consumable_out and battery_out, count is the refill_count: it is set when
// the alert is raised and raised further while the alert stays open, so that
// it always says what staff must bring. Other types pass 1 or 0 and carry a
// refill_count of 0.
func (a *Account) match(d *Device, typ AlertType, count int, t time.Time) {
	al := d.open[typ]
	switch {
	case count > 0 && al == nil:
		refill := 0
		if typ == AlertConsumableOut || typ == AlertBatteryOut {
			refill = count
		}
		a.raise(d, typ, t, refill)
	case count > 0 && (typ == AlertConsumableOut || typ == AlertBatteryOut) && count > al.RefillCount:
		al.RefillCount = count
		if a.rec != nil {
			a.rec.note(webhook.AlertUpdated, al, t)
		}
	case count == 0 && al != nil:
		a.resolve(al, ResolvedByDevice, t)
	}
}

// raise opens a new alert and sends staff to it.
func (a *Account) raise(d *Device, typ AlertType, t time.Time, refill int) *Alert {
	a.alertSeq++
	al := &Alert{
		ID:          alertID(a.idSeed, a.alertSeq),
		Type:        typ,
		Device:      d,
		Created:     t,
		RefillCount: refill,
		seq:         a.alertSeq,
	}
	a.alerts = append(a.alerts, al)
	a.alertIDs[al.ID] = al
	d.open[typ] = al
	if !(typ == AlertConsumableOut && a.refillsTaken) {
		d.visits = append(d.visits, visit{at: a.staffArrival(d, typ, t), alert: al})
	}
	if a.rec != nil {
		a.rec.raised(al)
	}
	return al
}

// resolve closes an alert.
func (a *Account) resolve(al *Alert, how Resolution, t time.Time) {
	if !al.Open() {
		return
	}
	a.closeSeq++
	al.Resolved = t
	al.Resolution = how
	al.resolvedSeq = a.closeSeq
	a.resolved = append(a.resolved, al)
	if al.Device.open[al.Type] == al {
		delete(al.Device.open, al.Type)
	}
	if a.rec != nil {
		a.rec.note(webhook.AlertResolved, al, t)
	}
}

// attend is a member of staff arriving for an alert: they fix what it is
// about, and sometimes close it in the app themselves.
func (a *Account) attend(d *Device, al *Alert, t time.Time) {
	if !al.Open() {
		return // closed meanwhile, for instance when the device went offline
	}
	if al.Type == AlertConsumableOut && a.refillsTaken {
		return // refills are the rounds' (TakeOverRefills)
	}
	if d.rng.Float64() < userResolveShare {
		a.resolve(al, ResolvedByUser, t)
	}
	switch al.Type {
	case AlertConsumableOut:
		d.refill()
	case AlertBatteryOut:
		powerless := d.shutdown()
		d.replaceBatteries()
		if powerless {
			a.restore(d, t) // a tissue dispenser comes back on the air with power
		}
	case AlertDeviceOff:
		if d.shutdown() {
			d.replaceBatteries()
		}
		d.timers.restore = time.Time{}
		a.restore(d, t)
	default:
		d.clearFaults(al.Type)
	}
}

// restore brings a silent device back on the air.
func (a *Account) restore(d *Device, t time.Time) {
	if d.silentSince.IsZero() {
		return
	}
	d.silentSince = time.Time{}
	d.frozen = nil
	d.offline = false
	d.lastSent = t
	d.timers.silence = d.drawSilence(t)
}

// staffArrival is when staff attend to an alert raised at t: after the
// start of their next duty period, plus a random delay by type.
func (a *Account) staffArrival(d *Device, typ AlertType, t time.Time) time.Time {
	start := t.In(a.loc)
	if h := start.Hour(); h < dutyStart || h >= dutyEnd {
		day := start
		if h >= dutyEnd {
			day = day.AddDate(0, 0, 1)
		}
		start = time.Date(day.Year(), day.Month(), day.Day(), dutyStart, 0, 0, 0, a.loc)
	}
	mean := staffMean[typ]
	if mean == 0 {
		mean = 4 * time.Hour
	}
	if d.rng.Float64() < forgottenShare {
		mean *= 5
	}
	delay := 10*time.Minute + time.Duration(d.rng.ExpFloat64()*float64(mean))
	return ceilMilli(start.Add(delay).UTC())
}

// schedule computes the device's next wake-up.
func (a *Account) schedule(d *Device) {
	next := d.nextChange(a.usage)
	if !next.After(d.ref) {
		next = d.ref.Add(time.Millisecond)
	}
	d.next = next
}

// advanceTo applies consumption and battery drain from d.ref to t.
func (d *Device) advanceTo(t time.Time, u *usage) {
	if !t.After(d.ref) {
		return
	}
	levels, batteries := d.project(t, u)
	for i := range d.compartments {
		d.compartments[i].level = levels[i]
	}
	for i := range d.batteries {
		d.batteries[i].level = batteries[i]
	}
	d.ref = t
}

// project returns the compartment and battery levels at t >= d.ref without
// changing the device.
func (d *Device) project(t time.Time, u *usage) (levels, batteries []float64) {
	levels = make([]float64, len(d.compartments))
	batteries = make([]float64, len(d.batteries))
	for i, c := range d.compartments {
		levels[i] = c.level
	}
	for i, b := range d.batteries {
		batteries[i] = b.level
	}
	if !t.After(d.ref) {
		return levels, batteries
	}
	if d.consuming() {
		units := u.at(t) - u.at(d.ref)
		total := d.activeWeight()
		for i, c := range d.compartments {
			if c.level <= eps {
				continue
			}
			levels[i] = clampLevel(c.level - d.demand*c.weight/total*units)
		}
	}
	if !d.shutdown() {
		days := t.Sub(d.ref).Hours() / 24
		for i := range batteries {
			batteries[i] = clampLevel(batteries[i] - d.drain*days)
		}
	}
	return levels, batteries
}

// nextChange is the earliest time after d.ref at which something about the
// device changes.
func (d *Device) nextChange(u *usage) time.Time {
	var next time.Time
	consider := func(t time.Time) {
		if t.IsZero() {
			return
		}
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if d.consuming() {
		total := d.activeWeight()
		start := u.at(d.ref)
		for _, c := range d.compartments {
			if c.level <= eps {
				continue
			}
			target := 0.0
			if c.level > productLowAt+eps {
				target = productLowAt
			}
			units := (c.level - target) / (d.demand * c.weight / total)
			consider(u.timeAt(start + units))
		}
	}
	if !d.shutdown() && d.drain > 0 {
		for _, b := range d.batteries {
			if b.level <= batteryShutdownAt+eps {
				continue
			}
			target := batteryShutdownAt
			if b.level > batteryLowAt+eps {
				target = batteryLowAt
			}
			days := (b.level - target) / d.drain
			consider(d.ref.Add(time.Duration(days * 24 * float64(time.Hour))))
		}
	}
	consider(d.timers.fault)
	consider(d.timers.silence)
	consider(d.timers.restore)
	if !d.silentSince.IsZero() && !d.offline {
		consider(d.silentSince.Add(offlineAfter))
	}
	if len(d.visits) > 0 {
		consider(d.visits[d.earliestVisit()].at)
	}
	if next.IsZero() {
		return time.Time{}.Add(math.MaxInt64) // nothing will ever happen
	}
	return ceilMilli(next)
}

func (d *Device) earliestVisit() int {
	best := 0
	for i, v := range d.visits {
		if v.at.Before(d.visits[best].at) {
			best = i
		}
	}
	return best
}

// consuming reports whether the device's product is being used up.
func (d *Device) consuming() bool {
	if len(d.compartments) == 0 || d.demand <= 0 {
		return false
	}
	if d.Location.Type.automated() && d.shutdown() {
		return false
	}
	return d.activeWeight() > 0
}

// activeWeight is the total weight of the compartments that still hold
// product: users take from whichever compartment has some.
func (d *Device) activeWeight() float64 {
	total := 0.0
	for _, c := range d.compartments {
		if c.level > eps {
			total += c.weight
		}
	}
	return total
}

// shutdown reports whether every battery set is depleted.
func (d *Device) shutdown() bool {
	if len(d.batteries) == 0 {
		return false
	}
	for _, b := range d.batteries {
		if b.level > batteryShutdownAt+eps {
			return false
		}
	}
	return true
}

// compartmentsDue counts the compartments that call for a refill under the
// account's alert preference.
func (d *Device) compartmentsDue(p Preference) int {
	n := 0
	for _, c := range d.compartments {
		if c.level <= eps || (p == PreferLow && c.level <= productLowAt+eps) {
			n++
		}
	}
	return n
}

// depletedSets counts the battery sets at Shutdown.
func (d *Device) depletedSets() int {
	n := 0
	for _, b := range d.batteries {
		if b.level <= batteryShutdownAt+eps {
			n++
		}
	}
	return n
}

func (d *Device) hasFaultFor(typ AlertType) bool {
	for f, t := range faultAlert {
		if t == typ && d.faults.has(f) {
			return true
		}
	}
	return false
}

func (d *Device) clearFaults(typ AlertType) {
	for f, t := range faultAlert {
		if t == typ {
			d.faults.clear(f)
		}
	}
}

func (d *Device) refill() {
	for i := range d.compartments {
		d.compartments[i].level = 100
	}
}

func (d *Device) replaceBatteries() {
	for i := range d.batteries {
		d.batteries[i].level = 100
	}
}

// goSilent stops the device transmitting at t; the service keeps reporting
// what it last sent.
func (d *Device) goSilent(t time.Time) {
	d.frozen = d.readingAt(t, nil)
	d.silentSince = t
}

// lastSeenAt is the last time at or before now that the device transmitted:
// its periodic heartbeat, or its last state change.
func (d *Device) lastSeenAt(now time.Time) time.Time {
	if !d.silentSince.IsZero() {
		return d.silentSince
	}
	beat := now.Add(-d.phase).Truncate(d.heartbeat).Add(d.phase)
	if beat.After(now) {
		beat = beat.Add(-d.heartbeat)
	}
	if d.lastSent.After(beat) {
		return d.lastSent
	}
	return beat
}

// readingAt is the state the device transmitted at t (t >= d.ref, or the
// frozen reading while silent). A nil usage means t == d.ref.
func (d *Device) readingAt(t time.Time, u *usage) *reading {
	if d.frozen != nil {
		return d.frozen
	}
	var levels, batteries []float64
	if u == nil || !t.After(d.ref) {
		levels, batteries = d.project(d.ref, nil)
		t = maxTime(t, d.ref)
	} else {
		levels, batteries = d.project(t, u)
	}
	return &reading{at: t, levels: levels, batteries: batteries, faults: d.faults}
}

// drawFault draws the time of the device's next fault after t.
func (d *Device) drawFault(t time.Time) time.Time {
	rate := faultRate[d.Location.Type]
	if rate == 0 || len(possibleFaults(d.Location.Type, d.Generation)) == 0 {
		return time.Time{}
	}
	return ceilMilli(t.Add(expDays(d, rate)))
}

// drawSilence draws the time of the device's next loss of communication.
func (d *Device) drawSilence(t time.Time) time.Time {
	rate := silenceRate
	if d.Location.Type == Collector {
		rate = collectorSilenceRate
	}
	return ceilMilli(t.Add(expDays(d, rate)))
}

func expDays(d *Device, perDay float64) time.Duration {
	return time.Duration(d.rng.ExpFloat64() / perDay * 24 * float64(time.Hour))
}

func clampLevel(v float64) float64 {
	if v <= eps {
		return 0
	}
	if v > 100 {
		return 100
	}
	return v
}

func ceilMilli(t time.Time) time.Time {
	r := t.Truncate(time.Millisecond)
	if r.Before(t) {
		r = r.Add(time.Millisecond)
	}
	return r
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// deviceQueue orders devices by their next wake-up.
type deviceQueue []*Device

func (q deviceQueue) Len() int { return len(q) }
func (q deviceQueue) Less(i, j int) bool {
	if q[i].next.Equal(q[j].next) {
		return q[i].index < q[j].index
	}
	return q[i].next.Before(q[j].next)
}
func (q deviceQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].heapIdx = i
	q[j].heapIdx = j
}
func (q *deviceQueue) Push(x any) {
	d := x.(*Device)
	d.heapIdx = len(*q)
	*q = append(*q, d)
}
func (q *deviceQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	*q = old[:len(old)-1]
	return d
}

// fix restores the queue order after d.next changed.
func (q *deviceQueue) fix(d *Device) { heap.Fix(q, d.heapIdx) }
