package syncer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/upstream"
)

// loop keeps one account fresh.
type loop struct {
	e       *Engine
	account string
	cancel  context.CancelFunc
	done    chan struct{}
	wakeup  chan struct{}

	// retakeAt is when the loop may try for its account's lease again,
	// after it gave it back (see giveBack). Only the loop's goroutine uses it.
	retakeAt time.Time

	mu       sync.Mutex
	progress Progress
	credID   string    // the credential in use
	closedAt time.Time // start of the last successful alerts refresh
}

// stopping reports whether the loop has ended or is about to, for want of
// a valid credential. The caller holds l.e.mu.
func (l *loop) stoppingLocked() bool {
	select {
	case <-l.done:
		return true
	default:
	}
	return !l.e.holdsAnyLocked(l.account)
}

func (l *loop) wake() {
	select {
	case l.wakeup <- struct{}{}:
	default:
	}
}

func (l *loop) snapshot() Progress {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.progress
}

func (l *loop) update(fn func(*Progress)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fn(&l.progress)
}

// retire takes the loop out of the engine when nobody holds a valid
// credential for its account, in the same step as it finds so: a hold that
// comes after then starts a loop of its own rather than counting on this
// one, which is on its way out. It reports whether it did.
func (e *Engine) retire(l *loop) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.holdsAnyLocked(l.account) {
		return false
	}
	if e.loops[l.account] == l {
		delete(e.loops, l.account)
	}
	return true
}

func (e *Engine) holdsAnyLocked(account string) bool {
	now := e.clock.Now()
	for _, h := range e.holders {
		if h.account == account && h.until.After(now) {
			if _, bad := e.rejected[h.credID]; !bad {
				return true
			}
		}
	}
	return false
}

// run keeps the account fresh until nobody holds a valid credential for
// it or ctx ends. With a cluster, it syncs only while it holds the
// account's lease, and waits for the lease while another replica holds it.
func (l *loop) run(ctx context.Context) {
	e := l.e
	l.update(func(p *Progress) { p.Running = true })
	defer l.update(func(p *Progress) { p.Running = false })
	if e.cfg.Cluster == nil {
		l.poll(ctx, false)
		return
	}
	for {
		lease, ok := l.lease(ctx)
		if !ok {
			return
		}
		held, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-lease.Lost():
				if held.Err() == nil {
					e.log.Warn("lost the lease of an account's sync", "account", l.account)
				}
			case <-held.Done():
			}
			cancel()
		}()
		retired := l.poll(held, true)
		cancel()
		lease.Release()
		e.leaseEnded(l.account)
		if retired || ctx.Err() != nil {
			return
		}
	}
}

// lease waits for the account's lease, tried for while the replica holds
// less than its share (see share.go): false when ctx ends or nobody holds
// a valid credential for the account any more.
func (l *loop) lease(ctx context.Context) (interface {
	Lost() <-chan struct{}
	Release()
}, bool) {
	e := l.e
	retry := e.cfg.Interval / leaseRetryShare
	for {
		lease, ok, err := e.takeLease(ctx, l)
		if err == nil && ok {
			return lease, true
		}
		if err != nil && ctx.Err() == nil {
			e.log.Warn("taking the lease of an account's sync", "account", l.account, "error", err.Error())
		}
		l.update(func(p *Progress) { p.Phase = "" })
		if e.retire(l) {
			e.publish(Event{Account: l.account, Kind: EventStopped, Message: ErrNoCredential.Error(), At: e.clock.Now()})
			return nil, false
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-e.clock.After(retry):
		case <-l.wakeup: // a holder left: checked above on the next turn
		}
	}
}

// poll refreshes metadata at start and hourly, devices and alerts every
// interval, until nobody holds a valid credential (it reports true) or ctx
// ends. When shared (under a lease), it carries on the schedule the cache
// records (another replica polled until now) rather than starting with a
// refresh of everything, and returns after a round when the replica holds
// more than its share of the leases, for run to give this one back.
func (l *loop) poll(ctx context.Context, shared bool) (retired bool) {
	e := l.e
	// Zero times: due now. Alerts are polled less often while the
	// service's events arrive (see Engine.alertsInterval); the wait is
	// measured from the last poll at every wake, so that polling picks up
	// again as soon as the events stop.
	var s schedule
	if statuses, err := e.store.SyncStatuses(ctx, l.account); err == nil {
		if st, ok := statuses[domain.ResourceAlerts]; ok && !st.LastSuccess.IsZero() {
			l.closedAt = st.LastSuccess.Add(-st.Duration) // carry on where the last run left off
		}
		l.update(func(p *Progress) {
			p.FirstSyncDone = !statuses[domain.ResourceDevices].LastSuccess.IsZero() && !statuses[domain.ResourceAlerts].LastSuccess.IsZero()
		})
		if shared {
			if st := statuses[domain.ResourceMetadata]; !st.LastSuccess.IsZero() {
				s.nextMeta = st.LastSuccess.Add(e.cfg.MetadataInterval)
			}
			if st := statuses[domain.ResourceDevices]; !st.LastAttempt.IsZero() {
				s.nextPoll = st.LastAttempt.Add(e.cfg.Interval)
				s.due = s.nextPoll
				s.phase, s.phased = e.keepPhase(l, s.nextPoll), true
			}
			if st := statuses[domain.ResourceAlerts]; !st.LastAttempt.IsZero() {
				s.lastAlerts = st.LastAttempt
			}
		}
	}
	defer e.dropPhase(l)
	for {
		if now := e.clock.Now(); !now.Before(s.nextMeta) || !now.Before(s.nextPoll) {
			release, ok := e.worker(ctx)
			if !ok {
				return false
			}
			l.refreshDue(ctx, &s)
			release()
			if shared && ctx.Err() == nil && e.giveBack(ctx, l) {
				return false
			}
		}
		if ctx.Err() != nil {
			return false
		}
		if e.retire(l) {
			e.publish(Event{Account: l.account, Kind: EventStopped, Message: ErrNoCredential.Error(), At: e.clock.Now()})
			return true
		}
		next := s.nextPoll
		if s.nextMeta.Before(next) {
			next = s.nextMeta
		}
		select {
		case <-ctx.Done():
			return false
		case <-e.clock.After(next.Sub(e.clock.Now())):
		case <-l.wakeup: // a holder left: check whether anyone is still holding
			if e.retire(l) {
				e.publish(Event{Account: l.account, Kind: EventStopped, Message: ErrNoCredential.Error(), At: e.clock.Now()})
				return true
			}
		}
	}
}

// schedule is where a loop's polling stands.
type schedule struct {
	phase              time.Duration // see claimPhase
	phased             bool          // the phase is claimed
	nextMeta, nextPoll time.Time     // zero: due now
	due                time.Time     // of the next poll, when it is on the schedule; zero for the first
	lastAlerts         time.Time
	alertsDelay        time.Duration
	devicesOK          bool // a devices refresh succeeded since the loop started
	alertsOK           bool
}

// refreshDue refreshes what is due, on one of the engine's workers:
// metadata when its time has come, devices (and alerts, when their own
// wait is over) when the poll's has, and schedules the next.
func (l *loop) refreshDue(ctx context.Context, s *schedule) {
	e := l.e
	now := e.clock.Now()
	pollDelay := e.cfg.Interval
	if !now.Before(s.nextMeta) {
		err := l.refresh(ctx, domain.ResourceMetadata, l.refreshLayout)
		if err != nil {
			s.nextMeta = now.Add(slowDown(e.cfg.Interval, err)) // try again with the next poll
		} else {
			s.nextMeta = now.Add(e.cfg.MetadataInterval)
		}
		pollDelay = max(pollDelay, slowDown(e.cfg.Interval, err))
	}
	if now.Before(s.nextPoll) {
		return
	}
	if !s.phased {
		// Claimed as the first poll starts, not before: the wait for a
		// worker would otherwise put the second a whole interval later.
		s.phase, s.phased = e.claimPhase(l, now), true
	}
	devErr := l.refresh(ctx, domain.ResourceDevices, l.refreshDevices)
	s.devicesOK = s.devicesOK || devErr == nil
	pollDelay = max(pollDelay, slowDown(e.cfg.Interval, devErr))
	if s.lastAlerts.IsZero() || !now.Before(s.lastAlerts.Add(max(s.alertsDelay, e.alertsInterval(l.account)))) {
		alertErr := l.refresh(ctx, domain.ResourceAlerts, l.refreshAlerts)
		s.alertsOK = s.alertsOK || alertErr == nil
		s.lastAlerts, s.alertsDelay = now, slowDown(e.cfg.Interval, alertErr)
		pollDelay = max(pollDelay, s.alertsDelay)
	}
	if s.devicesOK && s.alertsOK {
		l.update(func(p *Progress) { p.FirstSyncDone = true })
	}
	if !s.due.IsZero() && e.cfg.ObserveLag != nil && ctx.Err() == nil {
		e.cfg.ObserveLag(l.account, e.clock.Now().Sub(s.due))
	}
	s.nextPoll = e.nextDue(s.phase, s.due, now, pollDelay)
	s.due = s.nextPoll
}

// slowDown is how long to wait before the next poll after err: after a
// 429, twice the interval or what the service asked for, whichever is
// longer. Other failures keep the cadence: the client has already backed
// off within the refresh.
func slowDown(interval time.Duration, err error) time.Duration {
	var ue *upstream.Error
	if errors.As(err, &ue) && errors.Is(err, upstream.ErrRateLimited) {
		return max(2*interval, ue.RetryAfter)
	}
	return interval
}

// refreshFunc fetches one resource with a credential and writes it.
type refreshFunc func(ctx context.Context, cred upstream.Credentials) (domain.Change, Fetched, error)

// refresh runs one refresh of a resource, switching to another credential
// when the service rejects the one in use, and records the outcome.
func (l *loop) refresh(ctx context.Context, res domain.Resource, fn refreshFunc) (err error) {
	e := l.e
	start := e.clock.Now()
	l.update(func(p *Progress) { p.Phase = string(res) })
	var change domain.Change
	var fetched Fetched
	defer func() {
		if ctx.Err() != nil {
			return // shutting down: nothing was half-written, and nothing to record
		}
		st := store.SyncStatus{Resource: res, LastAttempt: start, Duration: e.clock.Now().Sub(start), Change: change, Skipped: fetched.Skipped}
		if e.cfg.Observe != nil {
			e.cfg.Observe(res, st.Duration, change, err)
		}
		if err != nil {
			st.LastError = Describe(err)
			e.log.Warn("refresh failed", "account", l.account, "resource", string(res), "error", st.LastError)
		} else {
			st.LastSuccess = start
		}
		l.update(func(p *Progress) {
			if err != nil {
				p.Failure, p.failed = st.LastError, res
			} else if p.failed == res {
				p.Failure, p.failed = "", ""
			}
		})
		// The record first, then the event: a page that reacts to the
		// event reads the new state.
		if rerr := e.store.RecordSync(context.WithoutCancel(ctx), l.account, st); rerr != nil {
			e.log.Error("recording a refresh", "account", l.account, "resource", string(res), "error", rerr)
		}
		e.recorded(l.account)
		switch {
		case err != nil:
			e.announce(Event{Account: l.account, Kind: EventFailed, Resource: res, Message: st.LastError, At: e.clock.Now()}, "", false)
		case !change.Empty():
			e.announce(Event{Account: l.account, Kind: EventChanged, Resource: res, Change: change, At: e.clock.Now()}, "", false)
		}
	}()
	for {
		id, cred, ok := e.credential(l.account, l.credID)
		if !ok {
			return ErrNoCredential
		}
		l.credID = id
		change, fetched, err = fn(ctx, cred)
		if !change.Empty() {
			e.changed(l.account)
		}
		if errors.Is(err, upstream.ErrRejected) {
			e.reject(l.account, id, err)
			continue // try the account's next credential, if any
		}
		return err
	}
}

// progressFunc returns what each page a refresh of res receives goes
// through: it is counted for the progress bar, and a refresh that receives
// more pages than an account of its size could need is stopped (see
// pageBudget).
func (l *loop) progressFunc(ctx context.Context, res domain.Resource) func(Page) error {
	budget := pageBudget(l.layoutSize(ctx))
	pages := 0
	return func(p Page) error {
		pages++
		l.update(func(pr *Progress) {
			pr.Pages++
			switch res {
			case domain.ResourceDevices:
				pr.Devices += p.Items
			case domain.ResourceAlerts:
				pr.Alerts += p.Items
			}
		})
		if pages > budget {
			return fmt.Errorf("%w: more than %d pages in one refresh of %s, more than an account of this size needs",
				upstream.ErrEndlessPaging, budget, res)
		}
		return nil
	}
}

// pageBudget is how many pages one refresh may receive for an account of
// the given number of locations: a hard stop for a service whose paging
// does not end in a way the client cannot see. The layout takes a page per
// thousand rooms and the devices one per thousand locations; alerts, the
// most, about one per 15 locations for the 90 days of a first sync (500 a
// page). The budget leaves three times that, and 2,000 pages for a small
// account or one whose size is not known yet.
func pageBudget(locations int) int {
	return 2000 + locations/5
}

// layoutSize is the number of device locations of the account's layout as
// the cache holds it; 0 before the first layout refresh.
func (l *loop) layoutSize(ctx context.Context) int {
	r, err := l.e.store.Rollup(ctx, l.account, domain.ScopeAccount, l.account)
	if err != nil {
		return 0
	}
	n := r.Counts.Total()
	l.update(func(p *Progress) { p.Locations = n })
	return n
}

// tooManyDevices is the error of a devices refresh that received more
// devices than the layout's locations can hold: a service whose paging
// does not end. Locations hold one or two devices; the layout may have
// grown since it was last read, by up to a page's worth.
func tooManyDevices(received, locations int) error {
	if locations == 0 || received <= 2*locations+offsetLimit {
		return nil
	}
	return fmt.Errorf("%w: the service sent %d devices, more than the %d locations of the layout can hold",
		upstream.ErrEndlessPaging, received, locations)
}

// refreshLayout writes each page of the layout as the next is fetched, and
// commits it all as one transaction.
func (l *loop) refreshLayout(ctx context.Context, cred upstream.Credentials) (domain.Change, Fetched, error) {
	// The transaction begins with the first page (see refreshDevices).
	var r store.LayoutRefresh
	defer func() {
		if r != nil {
			r.Rollback()
		}
	}()
	progress := l.progressFunc(ctx, domain.ResourceMetadata)
	var fetched Fetched
	err := pipeline(ctx, func(ctx context.Context, send func(domain.Layout) error) error {
		var err error
		fetched, err = l.e.src.Layout(ctx, cred, send)
		return err
	}, func(part domain.Layout) int { return len(part.Rooms) + len(part.Locations) }, func(part domain.Layout) (err error) {
		if err := progress(Page{Items: len(part.Rooms)}); err != nil {
			return err
		}
		if part.Account.ID != l.account {
			return fmt.Errorf("the service answered for account %q, not %q", part.Account.ID, l.account)
		}
		if r == nil {
			if r, err = l.e.store.BeginLayout(ctx, l.account); err != nil {
				return err
			}
		}
		return r.Write(ctx, part)
	})
	if err == nil && r == nil {
		err = fmt.Errorf("the service answered for account %q, not %q", "", l.account) // no page: no account
	}
	if err != nil {
		return domain.Change{}, fetched, err
	}
	c, err := r.Commit(ctx)
	return c, fetched, err
}

func (l *loop) refreshDevices(ctx context.Context, cred upstream.Credentials) (domain.Change, Fetched, error) {
	l.update(func(p *Progress) { p.Devices = 0 })
	// The transaction begins with the first page, so that a service that
	// does not answer holds no write lock while the client retries.
	now := l.e.clock.Now()
	var r store.DeviceRefresh
	begin := func() (err error) {
		if r == nil {
			if r, err = l.e.store.BeginDevices(ctx, l.account); err == nil {
				r.SeenAt(now)
			}
		}
		return err
	}
	defer func() {
		if r != nil {
			r.Rollback()
		}
	}()
	progress := l.progressFunc(ctx, domain.ResourceDevices)
	locations, received := l.snapshot().Locations, 0
	var fetched Fetched
	err := pipeline(ctx, func(ctx context.Context, send func([]domain.Device) error) error {
		var err error
		fetched, err = l.e.src.Devices(ctx, cred, send)
		return err
	}, func(page []domain.Device) int { return len(page) }, func(page []domain.Device) error {
		if err := progress(Page{Items: len(page)}); err != nil {
			return err
		}
		received += len(page)
		if err := tooManyDevices(received, locations); err != nil {
			return err
		}
		if err := begin(); err != nil {
			return err
		}
		return r.Write(ctx, page)
	})
	if err == nil {
		err = begin()
	}
	if err != nil {
		return domain.Change{}, fetched, err
	}
	c, err := r.Commit(ctx)
	return c, fetched, err
}

// pipeline runs fetch, which sends pages, and hands each page to write
// while the next one is being fetched. The first error of either side
// stops both.
//
// Pages are held back until the fetch ends, or until more than
// holdBackItems records or holdBackPages pages came: a refresh's
// transaction begins with the first page written, and on SQLite it holds
// the cache's one writer, so that a service answering its next page slowly
// would hold up every other account's refresh. A refresh that fits is
// written once it is all in; a larger one (the first sync of a large
// account) is written as it comes, holding memory to a few pages.
func pipeline[T any](ctx context.Context, fetch func(context.Context, func(T) error) error, size func(T) int, write func(T) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make(chan T, 4)
	fetchErr := make(chan error, 1)
	go func() {
		defer close(pages)
		fetchErr <- fetch(ctx, func(p T) error {
			if err := ctx.Err(); err != nil {
				return err // a select would send it half the time
			}
			select {
			case pages <- p:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var held []T
	heldItems, streaming := 0, false
	writeAll := func(ps []T) error {
		for _, p := range ps {
			if err := write(p); err != nil {
				return err
			}
		}
		return nil
	}
	var writeErr error
	for p := range pages {
		if !streaming {
			held, heldItems = append(held, p), heldItems+size(p)
			if heldItems <= holdBackItems && len(held) <= holdBackPages {
				continue
			}
			streaming = true
			writeErr, held = writeAll(held), nil
		} else {
			writeErr = write(p)
		}
		if writeErr != nil {
			// The fetch stops at its next page, or at the one it is
			// queueing: nobody takes pages any more, so it waits for
			// room in the queue or for the cancellation, and only the
			// cancellation comes.
			cancel()
			break
		}
	}
	fetched := <-fetchErr
	for range pages {
		// what the fetch queued before it stopped
	}
	if writeErr == nil && fetched != nil {
		return fetched
	}
	if writeErr == nil {
		writeErr = writeAll(held)
	}
	return writeErr
}

// How much a refresh holds back before it begins writing: see pipeline.
const (
	holdBackItems = 10_000
	holdBackPages = 40
)

// refreshAlerts reads the open alerts created within the lookback and the
// alerts closed since the last refresh (minus an overlap; the whole history
// the first time), writing each page as the next is fetched; then it looks
// up cached open alerts that appeared in neither, and commits it all as one
// transaction.
func (l *loop) refreshAlerts(ctx context.Context, cred upstream.Credentials) (domain.Change, Fetched, error) {
	e := l.e
	l.update(func(p *Progress) { p.Alerts = 0 })
	now := e.clock.Now()
	to := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, 2) // past the service's own default end, tomorrow 00:00
	openFrom := now.Add(-e.cfg.Lookback)
	closedFrom := now.Add(-e.cfg.History)
	if !l.closedAt.IsZero() {
		closedFrom = l.closedAt.Add(-e.cfg.Overlap)
	}

	// What the cache holds as open before the refresh, to find the alerts
	// the service stopped listing.
	cachedOpen, err := e.store.FindAlerts(ctx, store.AlertFilter{Account: l.account, Status: domain.AlertOpen, From: openFrom})
	if err != nil {
		return domain.Change{}, Fetched{}, err
	}
	// The transaction begins with the first page (see refreshDevices).
	var r store.AlertRefresh
	begin := func() (err error) {
		if r == nil {
			if r, err = e.store.BeginAlerts(ctx, l.account); err == nil {
				r.SeenAt(now)
			}
		}
		return err
	}
	defer func() {
		if r != nil {
			r.Rollback()
		}
	}()

	progress := l.progressFunc(ctx, domain.ResourceAlerts)
	unseen := make(map[string]bool, len(cachedOpen)) // cached open alerts the service has not listed yet
	for _, c := range cachedOpen {
		unseen[c.ID] = true
	}
	var fetched Fetched
	err = pipeline(ctx, func(ctx context.Context, send func([]domain.Alert) error) error {
		for _, status := range []domain.AlertStatus{domain.AlertOpen, domain.AlertClosed} {
			from := openFrom
			if status == domain.AlertClosed {
				from = closedFrom
			}
			f, err := e.src.Alerts(ctx, cred, status, from, to, send)
			fetched = addFetched(fetched, f)
			if err != nil {
				return err
			}
		}
		return nil
	}, func(page []domain.Alert) int { return len(page) }, func(page []domain.Alert) error {
		if err := progress(Page{Items: len(page)}); err != nil {
			return err
		}
		for _, a := range page {
			delete(unseen, a.ID)
		}
		if err := begin(); err != nil {
			return err
		}
		return r.Write(ctx, page)
	})
	if err != nil {
		return domain.Change{}, fetched, err
	}

	// Cached open alerts the service listed neither as open nor as closed:
	// look them up one by one; those it no longer has are removed.
	var found []domain.Alert
	var remove []string
	lookups := 0
	for _, c := range cachedOpen {
		if !unseen[c.ID] {
			continue
		}
		if lookups == e.cfg.VanishedLookups {
			break // the rest wait for the next refresh
		}
		lookups++
		a, ok, err := e.src.Alert(ctx, cred, c.ID, c.Created)
		if err != nil {
			return domain.Change{}, fetched, err
		}
		if ok {
			found = append(found, a)
		} else {
			remove = append(remove, c.ID)
		}
	}
	if err := begin(); err != nil {
		return domain.Change{}, fetched, err
	}
	if err := r.Write(ctx, found); err != nil {
		return domain.Change{}, fetched, err
	}
	c, err := r.Commit(ctx, remove, now.Add(-e.cfg.History))
	if err != nil {
		return c, fetched, err
	}
	l.mu.Lock()
	l.closedAt = now
	l.mu.Unlock()
	return c, fetched, nil
}

func addFetched(a, b Fetched) Fetched {
	return Fetched{Pages: a.Pages + b.Pages, Skipped: a.Skipped + b.Skipped}
}

// Describe says in English why a refresh failed, for the log and the
// stored sync state, which pages read back with domain.ReadSyncFailure and
// say in their reader's language. It never includes a credential:
// upstream errors do not carry them.
func Describe(err error) string { return Explain(err).String() }

// Explain says why a refresh failed, as a value a page words in its
// reader's language.
func Explain(err error) domain.SyncFailure {
	kind := func(k domain.SyncFailureKind) domain.SyncFailure { return domain.SyncFailure{Kind: k} }
	switch {
	case errors.Is(err, ErrNoCredential):
		return kind(domain.SyncNoCredential)
	case errors.Is(err, upstream.ErrClientRevoked):
		return kind(domain.SyncClientRevoked)
	case errors.Is(err, upstream.ErrUnauthorized):
		return kind(domain.SyncUnauthorized)
	case errors.Is(err, upstream.ErrForbidden):
		return kind(domain.SyncForbidden)
	case errors.Is(err, upstream.ErrRateLimited):
		return kind(domain.SyncRateLimited)
	case errors.Is(err, upstream.ErrServer):
		return kind(domain.SyncServerError)
	case errors.Is(err, upstream.ErrNetwork):
		return kind(domain.SyncUnreachable)
	case errors.Is(err, upstream.ErrBadResponse):
		return kind(domain.SyncBadResponse)
	case errors.Is(err, upstream.ErrTooLarge):
		return domain.SyncFailure{Kind: domain.SyncTooLarge, Detail: detail(err)}
	case errors.Is(err, upstream.ErrUnreadable):
		return domain.SyncFailure{Kind: domain.SyncUnreadable, Detail: detail(err)}
	case errors.Is(err, upstream.ErrEndlessPaging):
		return domain.SyncFailure{Kind: domain.SyncEndlessPaging, Detail: detail(err)}
	case errors.Is(err, context.DeadlineExceeded):
		return kind(domain.SyncTimedOut)
	}
	return domain.SyncFailure{Detail: err.Error()}
}

// detail says which endpoint failed and how, for failures whose message
// says more than their kind.
func detail(err error) string {
	var ue *upstream.Error
	if errors.As(err, &ue) {
		return strings.TrimPrefix(ue.Op, "GET ") + ": " + ue.Message
	}
	_, detail, _ := strings.Cut(err.Error(), ": ")
	return detail
}
