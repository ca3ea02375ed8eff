package sim

import (
	"container/heap"
	"time"

	"washboard/internal/webhook"
)

// maxPendingChanges bounds the changes an account keeps for the pump. The
// pump takes them every tick, so only a clock that jumps days ahead at once
// comes near it; changes past it are counted and not sent.
const maxPendingChanges = 100_000

// recorder notes the changes to alerts that webhooks report, while the
// account has an enabled webhook; a.rec is nil otherwise, and the engine's
// only cost is that nil check. It is guarded by the account's mu: the
// engine appends, the pump takes.
type recorder struct {
	seq     int64        // sequence number of the next change
	changes []change     // not yet taken by the pump
	lost    int          // changes not kept since the last take, the buffer being full
	overdue overdueQueue // open alerts not yet overdue, by their deadline
}

// change is one change to an alert: an event to send.
type change struct {
	seq   int64
	typ   webhook.EventType
	at    time.Time // in the simulated time
	alert alertJSON // the alert as GET /alerts renders it at that time
}

// startRecording turns recording on at the account's time. Open alerts
// not yet overdue are watched for their deadline; what happened before is
// not reported. The caller holds a.mu.
func (a *Account) startRecording() {
	if a.rec != nil {
		return
	}
	a.rec = &recorder{}
	for _, d := range a.devices {
		for _, al := range d.open {
			if _, ok := Deadlines[al.Type]; ok && !al.Overdue(a.now) {
				heap.Push(&a.rec.overdue, al)
			}
		}
	}
	a.hooked.Store(true)
}

// stopRecording turns recording off and forgets what was not yet taken.
// The caller holds a.mu.
func (a *Account) stopRecording() {
	a.rec = nil
	a.hooked.Store(false)
}

// note records a change of an alert at t.
func (r *recorder) note(typ webhook.EventType, al *Alert, t time.Time) {
	if len(r.changes) >= maxPendingChanges {
		r.lost++
		return
	}
	r.changes = append(r.changes, change{seq: r.seq, typ: typ, at: t, alert: toAlertJSON(al, t)})
	r.seq++
}

// raised records a new alert and watches for its deadline.
func (r *recorder) raised(al *Alert) {
	r.note(webhook.AlertCreated, al, al.Created)
	if _, ok := Deadlines[al.Type]; ok {
		heap.Push(&r.overdue, al)
	}
}

// overdueBefore records the alerts that became overdue before t: those
// open for longer than their deadline at t. The engine calls it before
// handling what happens at t, so that an alert that turns overdue and is
// then resolved gives both events, in that order.
func (r *recorder) overdueBefore(t time.Time) {
	for len(r.overdue) > 0 {
		al := r.overdue[0]
		deadline := al.Created.Add(Deadlines[al.Type])
		if !t.After(deadline) {
			return
		}
		heap.Pop(&r.overdue)
		if !al.Open() {
			continue
		}
		// The first millisecond at which the alert reads overdue, as
		// dates are written to the millisecond.
		at := deadline.Truncate(time.Millisecond).Add(time.Millisecond)
		if at.After(t) {
			at = t
		}
		r.note(webhook.AlertUpdated, al, at)
	}
}

// take hands the recorded changes to the pump.
func (r *recorder) take() (changes []change, lost int) {
	changes, lost = r.changes, r.lost
	r.changes, r.lost = nil, 0
	return changes, lost
}

// overdueQueue orders open alerts by the time they become overdue.
type overdueQueue []*Alert

func (q overdueQueue) Len() int { return len(q) }
func (q overdueQueue) Less(i, j int) bool {
	di := q[i].Created.Add(Deadlines[q[i].Type])
	dj := q[j].Created.Add(Deadlines[q[j].Type])
	if di.Equal(dj) {
		return q[i].seq < q[j].seq
	}
	return di.Before(dj)
}
func (q overdueQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *overdueQueue) Push(x any)   { *q = append(*q, x.(*Alert)) }
func (q *overdueQueue) Pop() any {
	old := *q
	al := old[len(old)-1]
	*q = old[:len(old)-1]
	return al
}
