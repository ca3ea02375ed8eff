package notifier

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"washboard/internal/domain"
	"washboard/internal/levels"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/internal/servicelevel"
	"washboard/internal/store"
)

// decide decides the next facts, up to factBatch, in one transaction, and
// returns how many it read.
func (n *Notifier) decide(ctx context.Context) (int, error) {
	through, err := n.st.DecidedThrough(ctx)
	if err != nil {
		return 0, err
	}
	facts, err := n.st.FactsAfter(ctx, through, factBatch)
	if err != nil || len(facts) == 0 {
		return 0, err
	}
	accounts, err := n.accounts(ctx)
	if err != nil {
		return 0, err
	}
	b := n.newBatch()
	for _, f := range facts {
		a, ok := accounts[f.Account]
		if !ok || len(a.Rules) == 0 {
			continue
		}
		if err := b.fact(ctx, a, f); err != nil {
			return 0, err
		}
	}
	b.d.Through = facts[len(facts)-1].Seq
	if err := n.st.Decide(ctx, b.d); err != nil {
		return 0, err
	}
	return len(facts), nil
}

// batch is the decisions of one transaction.
type batch struct {
	n        *Notifier
	now      time.Time
	d        store.Decision
	digests  map[string]*digest // by account, rule and channel
	paths    map[string]map[string]store.Path
	policies map[string]map[string]servicelevel.Policy // by account: its service levels, read once per batch
}

// digest is a digest open in the batch: found in the store, or new.
type digest struct {
	id    string
	items int
}

func (n *Notifier) newBatch() *batch {
	return &batch{n: n, now: n.clk.Now(), digests: map[string]*digest{}, paths: map[string]map[string]store.Path{},
		policies: map[string]map[string]servicelevel.Policy{}}
}

// fact decides one fact for the account's rules.
func (b *batch) fact(ctx context.Context, a rules.Account, f store.Fact) error {
	var path store.Path
	var err error
	var visitor *domain.VisitorReport
	if f.Kind == store.FactVisitorReport {
		if visitor, path, err = b.n.visitorReport(ctx, f); err != nil || visitor == nil {
			return err
		}
	} else if path, err = b.path(ctx, f.Account, f.LocationID); err != nil {
		return err
	}
	kinds := []notify.Kind{notify.Kind(f.Kind)}
	if f.Kind == store.FactAlertOpened {
		kinds = append(kinds, notify.AlertUnclaimed, notify.AlertAtRisk)
	}
	var item *notify.Item
	for _, kind := range kinds {
		rf := rules.Fact{Kind: kind, AlertType: f.AlertType, BuildingID: path.Building.ID, FloorID: path.Floor.ID, At: f.At}
		for _, r := range a.Matching(rf) {
			if item == nil && visitor != nil {
				it := b.n.visitorItem(f, path, *visitor)
				item = &it
			}
			if item == nil {
				it, err := b.n.item(ctx, f, path)
				if err != nil {
					return err
				}
				item = &it
			}
			it := *item
			it.Kind = kind
			if kind == notify.AlertAtRisk {
				if err := b.atRisk(ctx, r, f, path, it); err != nil {
					return err
				}
				continue
			}
			encoded, err := encodeItem(it)
			if err != nil {
				return err
			}
			subject := subjectOf(f, kind)
			for _, channel := range r.Channels {
				no := store.Notification{
					ID: rules.NotificationID(r.Name, channel, subject), Account: f.Account, Rule: r.Name, Channel: channel,
					Kind: string(kind), Subject: f.AlertID, Created: b.now, Items: [][]byte{encoded},
				}
				if no.Subject == "" {
					no.Subject = f.MAC
				}
				if r.AfterMinutes > 0 {
					wait := r.WaitsUntil(rf)
					no.State, no.Due = store.NotificationWaiting, wait
					no.Note = "waiting until " + b.n.clock(wait) + " to see whether " + waitingFor(kind)
					b.d.New = append(b.d.New, no)
					continue
				}
				if err := b.place(ctx, r, no, false); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// place decides, now, what becomes of a notification of the rule that is
// not waiting (any more): it is pending, dropped, or an item of the rule's
// digest. waited says the notification is in the store already, waiting.
func (b *batch) place(ctx context.Context, r rules.Rule, no store.Notification, waited bool) error {
	kind := notify.Kind(no.Kind)
	if r.DigestMinutes > 0 {
		if _, drop := r.Schedule(kind, b.now, b.n.cfg.Zone); drop {
			return b.finish(no, waited, store.NotificationDropped, "dropped: decided during the rule's quiet hours, which drop "+string(kind))
		}
		id, err := b.digest(ctx, r, no)
		if err != nil {
			return err
		}
		b.d.DigestItems = append(b.d.DigestItems, store.DigestItem{ID: id, Item: no.Items[0]})
		if !waited {
			return nil
		}
		return b.finish(no, true, store.NotificationDigested, "sent in a digest of the rule "+strconv.Quote(r.Name))
	}
	sendAt, drop := r.Schedule(kind, b.now, b.n.cfg.Zone)
	if drop {
		return b.finish(no, waited, store.NotificationDropped, "dropped: decided during the rule's quiet hours, which drop "+string(kind))
	}
	no.State, no.Due, no.Note = store.NotificationPending, sendAt, ""
	if sendAt.After(b.now) {
		no.Note = "held by the rule's quiet hours until " + b.n.clock(sendAt)
	}
	if waited {
		b.d.Updates = append(b.d.Updates, store.NotificationUpdate{ID: no.ID, State: no.State, Due: no.Due, Note: no.Note})
		return nil
	}
	b.d.New = append(b.d.New, no)
	return nil
}

// finish records a notification as finished, in state with a note.
func (b *batch) finish(no store.Notification, waited bool, state store.NotificationState, note string) error {
	if waited {
		b.d.Updates = append(b.d.Updates, store.NotificationUpdate{ID: no.ID, State: state, Due: no.Due, Note: note})
		return nil
	}
	no.State, no.Due, no.Note = state, b.now, note
	b.d.New = append(b.d.New, no)
	return nil
}

// digest returns the id of the rule's open digest to the notification's
// channel, opening one when there is none or it is full.
func (b *batch) digest(ctx context.Context, r rules.Rule, no store.Notification) (string, error) {
	key := channelKey(no.Account, r.Name) + "\x00" + no.Channel
	if d, ok := b.digests[key]; ok && d.items < maxDigestSize {
		d.items++
		return d.id, nil
	}
	if _, ok := b.digests[key]; !ok {
		id, items, ok, err := b.n.st.OpenDigest(ctx, no.Account, r.Name, no.Channel)
		if err != nil {
			return "", err
		}
		if ok && items < maxDigestSize {
			b.digests[key] = &digest{id: id, items: items + 1}
			return id, nil
		}
	}
	due, _ := r.Schedule(notify.KindDigest, r.DigestDue(b.now), b.n.cfg.Zone)
	d := store.Notification{
		ID:      rules.NotificationID(r.Name, no.Channel, "digest:"+no.ID),
		Account: no.Account, Rule: r.Name, Channel: no.Channel, Kind: string(notify.KindDigest),
		State: store.NotificationPending, Created: b.now, Due: due,
		Note: "collecting until " + b.n.clock(due),
	}
	b.d.New = append(b.d.New, d)
	b.digests[key] = &digest{id: d.ID, items: 1}
	return d.ID, nil
}

// atRisk decides the notifications of a rule of alert.at_risk about an
// alert just opened: one for each of its targets, once, waiting until the
// alert becomes at risk of missing it (servicelevel: four fifths of the
// target used, in service time), to go out then if the alert is still
// unclaimed, or still open. An alert with no target of its type, under
// the service level in force as it opens, has none.
func (b *batch) atRisk(ctx context.Context, r rules.Rule, f store.Fact, p store.Path, it notify.Item) error {
	policies, ok := b.policies[f.Account]
	if !ok {
		kept, err := b.n.st.ServiceLevels(ctx, f.Account)
		if err != nil {
			return err
		}
		policies = levels.Policies(kept)
		b.policies[f.Account] = policies
	}
	policy, ok := levels.For(policies, p.Building.ID)
	if !ok {
		return nil
	}
	m := policy.Evaluate(servicelevel.Alert{Type: f.AlertType, Opened: f.At}, f.At)
	for _, t := range []struct {
		name, verb, until string
		o                 servicelevel.Outcome
	}{
		{"claim", "Claim", "someone is on the alert", m.Claim},
		{"resolve", "Resolve", "the alert is resolved", m.Resolve},
	} {
		if t.o.State == servicelevel.NotApplicable || t.o.AtRisk.IsZero() {
			continue
		}
		it := it
		it.Target = t.name
		it.Action = fmt.Sprintf("%s it by %s to keep to the client's target of %s to %s. %s",
			t.verb, b.n.clock(t.o.Deadline), targetWords(t.o.Target), t.name, f.AlertType.Action())
		encoded, err := encodeItem(it)
		if err != nil {
			return err
		}
		for _, channel := range r.Channels {
			b.d.New = append(b.d.New, store.Notification{
				ID: rules.NotificationID(r.Name, channel, string(notify.AlertAtRisk)+":"+t.name+":"+f.AlertID), Account: f.Account,
				Rule: r.Name, Channel: channel, Kind: string(notify.AlertAtRisk), Subject: f.AlertID, Created: b.now,
				Items: [][]byte{encoded}, State: store.NotificationWaiting, Due: t.o.AtRisk,
				Note: "waiting until " + b.n.clock(t.o.AtRisk) + " to see whether " + t.until,
			})
		}
	}
	return nil
}

// targetWords is a target in words: "15 min", "1 h", "1 h 30 min".
func targetWords(d time.Duration) string {
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// path returns the location's place in the account's layout, read once
// per batch and account.
func (b *batch) path(ctx context.Context, account, location string) (store.Path, error) {
	paths, ok := b.paths[account]
	if !ok {
		paths = map[string]store.Path{}
		b.paths[account] = paths
	}
	if p, ok := paths[location]; ok {
		return p, nil
	}
	got, err := b.n.st.Paths(ctx, account, []string{location})
	if err != nil {
		return store.Path{}, err
	}
	p := got[location]
	if p.Location.ID == "" {
		p.Location = domain.Location{ID: location, Name: location}
	}
	paths[location] = p
	return p, nil
}

// subjectOf names what a notification of the kind about f is about, for
// its idempotency key: an alert opens, becomes overdue and goes unclaimed
// once; a device may run out, run low or go offline again another time.
func subjectOf(f store.Fact, kind notify.Kind) string {
	if f.AlertID != "" {
		return string(kind) + ":" + f.AlertID
	}
	return string(kind) + ":" + f.MAC + ":" + strconv.FormatInt(f.At.UnixMilli(), 10)
}

func waitingFor(kind notify.Kind) string {
	if kind == notify.AlertUnclaimed {
		return "someone is on the alert"
	}
	return "the device is back online"
}

// clock writes a time for the delivery log, in the dashboard's zone.
func (n *Notifier) clock(t time.Time) string {
	t = t.In(n.cfg.Zone)
	y, m, d := t.Date()
	if y == n.clk.Now().In(n.cfg.Zone).Year() {
		return fmt.Sprintf("%d %s %02d:%02d", d, m.String()[:3], t.Hour(), t.Minute())
	}
	return fmt.Sprintf("%d %s %d %02d:%02d", d, m.String()[:3], y, t.Hour(), t.Minute())
}

// item is what a notification about f says: what, where, since when,
// what to bring and what to do, and the link to the location's page.
func (n *Notifier) item(ctx context.Context, f store.Fact, p store.Path) (notify.Item, error) {
	it := notify.Item{
		Kind:  notify.Kind(f.Kind),
		Where: notify.Where{Building: p.Building, Floor: p.Floor, Room: p.Room, Location: p.Location},
		Since: f.At,
	}
	if n.cfg.Link != "" {
		it.URL = n.cfg.Link + "/locations/" + url.PathEscape(f.LocationID)
	}
	devices, err := n.st.FindDevices(ctx, store.DeviceFilter{Account: f.Account, LocationID: f.LocationID})
	if err != nil {
		return it, err
	}
	var dev domain.Device
	if i := slices.IndexFunc(devices, func(d domain.Device) bool { return d.MAC == f.MAC }); i >= 0 {
		dev = devices[i]
	}
	switch f.Kind {
	case store.FactAlertOpened, store.FactAlertOverdue:
		alert := domain.Alert{ID: f.AlertID, Type: f.AlertType, LocationID: f.LocationID, Created: f.At}
		found, err := n.st.FindAlerts(ctx, store.AlertFilter{Account: f.Account, AlertID: f.AlertID, Limit: 1})
		if err != nil {
			return it, err
		}
		if len(found) > 0 {
			alert = found[0]
		}
		it.Alert = &notify.Alert{Alert: alert}
		it.Bring = notify.BringFor(alert, p.Location.Type)
	case store.FactProductOut:
		out := 0
		for _, c := range dev.Compartments {
			if c.Out {
				out++
			}
		}
		it.Bring = notify.Bring{Refills: max(out, 1), Refill: p.Location.Type}
	case store.FactBatteryLow:
		it.Bring = notify.Bring{BatterySets: 1}
	}
	return it, nil
}

// visitorReport reads the report of a fact of visitor.report, and the
// places of its room: nil when it is gone (too many reports kept), or
// closed already, and there is nothing to notify of.
func (n *Notifier) visitorReport(ctx context.Context, f store.Fact) (*domain.VisitorReport, store.Path, error) {
	var p store.Path
	id, ok := domain.VisitorReportID(f.AlertID)
	if !ok {
		return nil, p, nil
	}
	rs, err := n.st.VisitorReports(ctx, f.Account, store.VisitorReportFilter{ID: id, OpenOnly: true, Limit: 1})
	if err != nil || len(rs) == 0 {
		return nil, p, err
	}
	r := rs[0]
	p.Room = domain.Room{ID: r.RoomID, Name: r.RoomID}
	if room, err := n.st.Room(ctx, f.Account, r.RoomID); err == nil {
		p.Room = room
		if p.Floor, err = n.st.Floor(ctx, f.Account, room.FloorID); err == nil {
			p.Building, _ = n.st.Building(ctx, f.Account, p.Floor.BuildingID)
		}
	}
	return &r, p, nil
}

// visitorItem is what a notification of a visitor's report says: what
// they reported, in which room, since when, what to do, and the link to
// the room's page.
func (n *Notifier) visitorItem(f store.Fact, p store.Path, r domain.VisitorReport) notify.Item {
	it := notify.Item{Kind: notify.VisitorReport, Where: notify.Where{Building: p.Building, Floor: p.Floor, Room: p.Room}, Since: r.Created,
		Visitor: &notify.Visitor{AlertID: f.AlertID, Kind: r.Kind, Text: r.Text}}
	if n.cfg.Link != "" {
		it.URL = n.cfg.Link + "/rooms/" + url.PathEscape(r.RoomID)
	}
	return it
}
