package notifier

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/rules"
	"washboard/internal/store"
)

// deliver handles the due notifications, up to dueBatch, and returns how
// many it took, and whether it made waiting ones pending, due at once.
func (n *Notifier) deliver(ctx context.Context) (taken int, again bool, err error) {
	due, err := n.st.DueNotifications(ctx, n.clk.Now(), dueBatch)
	if err != nil || len(due) == 0 {
		return 0, false, err
	}
	accounts, err := n.accounts(ctx)
	if err != nil {
		return 0, false, err
	}
	for _, no := range due {
		if ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		a := accounts[no.Account]
		a.AccountID = no.Account
		if no.State == store.NotificationWaiting {
			again = true
			err = n.recheck(ctx, a, no)
		} else {
			err = n.send(ctx, a, no)
		}
		if err != nil {
			return 0, false, err
		}
	}
	return len(due), again, nil
}

// recheck decides a waiting notification whose minutes have passed: it is
// cancelled when its condition no longer holds, and placed like any other
// when it does.
func (n *Notifier) recheck(ctx context.Context, a rules.Account, no store.Notification) error {
	b := n.newBatch()
	i := slices.IndexFunc(a.Rules, func(r rules.Rule) bool { return r.Name == no.Rule })
	var err error
	switch {
	case i < 0:
		err = b.finish(no, true, store.NotificationCancelled, "cancelled: the rule "+fmt.Sprintf("%q", no.Rule)+" no longer exists")
	case !slices.Contains(a.Rules[i].Channels, no.Channel):
		err = b.finish(no, true, store.NotificationCancelled, "cancelled: the rule no longer sends to this channel")
	default:
		holds, why, herr := n.holds(ctx, no)
		switch {
		case herr != nil:
			return herr
		case !holds:
			err = b.finish(no, true, store.NotificationCancelled, "cancelled: "+why)
		default:
			err = b.place(ctx, a.Rules[i], no, true)
		}
	}
	if err != nil {
		return err
	}
	return n.st.Decide(ctx, b.d)
}

// holds reports whether the condition a waiting notification waits for
// still holds: the alert open and unclaimed, the device offline; and
// when not, why not.
func (n *Notifier) holds(ctx context.Context, no store.Notification) (bool, string, error) {
	if notify.Kind(no.Kind) == notify.AlertAtRisk {
		return n.stillAtRisk(ctx, no)
	}
	if notify.Kind(no.Kind) == notify.AlertUnclaimed {
		alerts, err := n.st.FindAlerts(ctx, store.AlertFilter{Account: no.Account, AlertID: no.Subject, Limit: 1})
		if err != nil {
			return false, "", err
		}
		if len(alerts) == 0 || !alerts[0].Open() {
			return false, "the alert closed", nil
		}
		claims, err := n.st.ActiveClaims(ctx, no.Account)
		if err != nil {
			return false, "", err
		}
		if c, ok := claims[no.Subject]; ok {
			return false, c.Name + " is on it since " + n.clock(c.At), nil
		}
		return true, "", nil
	}
	var it notify.Item
	if len(no.Items) > 0 {
		it, _ = decodeItem(no.Items[0])
	}
	devices, err := n.st.FindDevices(ctx, store.DeviceFilter{Account: no.Account, LocationID: it.Where.Location.ID})
	if err != nil {
		return false, "", err
	}
	for _, d := range devices {
		if d.MAC == no.Subject {
			if d.Offline {
				return true, "", nil
			}
			return false, "the device is back online", nil
		}
	}
	return false, "the device is no longer in the account", nil
}

// stillAtRisk reports whether an alert about to miss its target has not
// met it yet: still open, and for the time to claim, never claimed.
func (n *Notifier) stillAtRisk(ctx context.Context, no store.Notification) (bool, string, error) {
	alerts, err := n.st.FindAlerts(ctx, store.AlertFilter{Account: no.Account, AlertID: no.Subject, Limit: 1})
	if err != nil {
		return false, "", err
	}
	if len(alerts) == 0 || !alerts[0].Open() {
		return false, "the alert closed", nil
	}
	var it notify.Item
	if len(no.Items) > 0 {
		it, _ = decodeItem(no.Items[0])
	}
	if it.Target != "claim" {
		return true, "", nil
	}
	first, err := n.st.FirstClaims(ctx, no.Account, []string{no.Subject})
	if err != nil {
		return false, "", err
	}
	if at, ok := first[no.Subject]; ok {
		return false, "the alert was claimed at " + n.clock(at), nil
	}
	return true, "", nil
}

// send makes one attempt to send a pending notification, unless its
// channel is paused or at its limit, and records what happened.
func (n *Notifier) send(ctx context.Context, a rules.Account, no store.Notification) error {
	now := n.clk.Now()
	key := channelKey(no.Account, no.Channel)
	upd := store.NotificationUpdate{
		ID: no.ID, State: store.NotificationPending, Due: no.Due,
		Attempts: no.Attempts, LastAttempt: no.LastAttempt, Note: no.Note,
	}
	if p, ok := n.pausedUntil(key, now); ok {
		if p.until.Sub(no.Created) > n.cfg.RetryFor {
			upd.State, upd.Note = store.NotificationFailed, "failed: given up after a day; "+p.why
			return n.update(ctx, upd)
		}
		upd.Due, upd.Note = p.until, p.why
		return n.update(ctx, upd)
	}
	if wait := n.rateWait(key, now); wait > 0 {
		upd.Due = now.Add(wait)
		upd.Note = fmt.Sprintf("held by the channel's limit of %d a minute", n.cfg.RatePerMinute)
		return n.update(ctx, upd)
	}
	ch, err := n.channel(a, no.Channel)
	if err != nil {
		upd.State, upd.Note = store.NotificationFailed, "failed: "+err.Error()
		return n.update(ctx, upd)
	}
	msg, err := n.message(no)
	if err != nil {
		upd.State, upd.Note = store.NotificationFailed, "failed: "+err.Error()
		return n.update(ctx, upd)
	}
	if c, ok := a.Channel(no.Channel); ok {
		msg.Lang = c.Language // its words in the channel's language
	}
	n.sent(key, now)
	attempt, cancel := context.WithTimeout(ctx, n.cfg.Timeout+5*time.Second)
	err = ch.Send(attempt, msg)
	cancel()
	if ctx.Err() != nil {
		// Stopping, or the lease is lost: whoever works next sends it
		// again, with the same key.
		return ctx.Err()
	}
	upd.Attempts++
	upd.LastAttempt = now
	switch {
	case err == nil:
		upd.State, upd.Sent, upd.Note = store.NotificationSent, n.clk.Now(), ""
		n.resume(key)
	case notify.IsPermanent(err):
		upd.State, upd.Note = store.NotificationFailed, "failed: "+err.Error()
	default:
		delay := backoff(upd.Attempts)
		if ra := notify.RetryAfter(err); ra > delay {
			delay = min(ra, maxRetry)
		}
		next := now.Add(delay)
		if next.Sub(no.Created) > n.cfg.RetryFor {
			upd.State = store.NotificationFailed
			upd.Note = fmt.Sprintf("failed: given up after %d attempts over a day; the last: %v", upd.Attempts, err)
			break
		}
		upd.Due = next
		upd.Note = fmt.Sprintf("attempt %d failed: %v", upd.Attempts, err)
		n.pauseChannel(key, pause{until: next, why: fmt.Sprintf("waiting: the channel's last attempt failed (%v)", err)})
	}
	return n.update(ctx, upd)
}

func (n *Notifier) update(ctx context.Context, u store.NotificationUpdate) error {
	return n.st.Decide(ctx, store.Decision{Updates: []store.NotificationUpdate{u}})
}

// message is the notification to send, from what the store keeps.
func (n *Notifier) message(no store.Notification) (notify.Notification, error) {
	items := make([]notify.Item, 0, len(no.Items))
	for _, raw := range no.Items {
		it, err := decodeItem(raw)
		if err != nil {
			return notify.Notification{}, fmt.Errorf("the notification kept does not read: %w", err)
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return notify.Notification{}, fmt.Errorf("the notification kept has nothing to say")
	}
	var msg notify.Notification
	if no.Kind == string(notify.KindDigest) {
		link := ""
		if n.cfg.Link != "" {
			link = n.cfg.Link + "/alerts"
		}
		msg = notify.NewDigest(no.ID, no.Created, no.Rule, link, items)
	} else {
		msg = notify.Notification{ID: no.ID, At: no.Created, Item: items[0]}
	}
	msg.Zone = n.cfg.Zone
	return msg, nil
}

// backoff is how long to wait after the attempts-th failure: 30 s, 1 min,
// 2 min, … at most an hour.
func backoff(attempts int) time.Duration {
	d := firstRetry
	for i := 1; i < attempts && d < maxRetry; i++ {
		d *= 2
	}
	return min(d, maxRetry)
}

func (n *Notifier) pausedUntil(key string, now time.Time) (pause, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	p, ok := n.paused[key]
	if ok && !now.Before(p.until) {
		delete(n.paused, key)
		return pause{}, false
	}
	return p, ok
}

func (n *Notifier) pauseChannel(key string, p pause) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.paused[key] = p
}

func (n *Notifier) resume(key string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.paused, key)
}

// rateWait is how long the channel must wait before it may send again:
// zero while it has sent fewer than RatePerMinute in the last minute.
func (n *Notifier) rateWait(key string, now time.Time) time.Duration {
	n.mu.Lock()
	defer n.mu.Unlock()
	recent := n.sends[key]
	i := 0
	for i < len(recent) && now.Sub(recent[i]) >= time.Minute {
		i++
	}
	recent = recent[i:]
	n.sends[key] = recent
	if len(recent) < n.cfg.RatePerMinute {
		return 0
	}
	return recent[0].Add(time.Minute).Sub(now)
}

// sent counts a send against the channel's limit.
func (n *Notifier) sent(key string, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sends[key] = append(n.sends[key], now)
}

// storedItem is an item as the store keeps it: the alert by its typed
// fields, which are all Washboard has of it.
type storedItem struct {
	notify.Item
	Alert *domain.Alert `json:"Alert"`
}

func encodeItem(it notify.Item) ([]byte, error) {
	s := storedItem{Item: it}
	if it.Alert != nil {
		s.Alert = &it.Alert.Alert
	}
	return json.Marshal(s)
}

func decodeItem(raw []byte) (notify.Item, error) {
	var s storedItem
	if err := json.Unmarshal(raw, &s); err != nil {
		return notify.Item{}, err
	}
	it := s.Item
	if s.Alert != nil {
		it.Alert = &notify.Alert{Alert: *s.Alert}
	}
	return it, nil
}
