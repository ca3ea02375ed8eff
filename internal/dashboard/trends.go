package dashboard

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"washboard/internal/domain"
	"washboard/internal/report"
	"washboard/internal/store"
	"washboard/internal/trends"
)

const (
	// TrendsKeptFor is how long counted alerts answer again: the page
	// viewed again, a CSV of it, within it cost no read of the cache. The
	// page says how old its figures are. The heat maps, whose window ends
	// at the start of the hour, are counted once an hour for a whole
	// account, and a building's is taken from its account's; those of the
	// hour before answer while they are.
	TrendsKeptFor = 5 * time.Minute
	// trendsKept is how many computed trends are kept at most, of each
	// kind (alerts of a scope and period, heat maps of a scope).
	trendsKept = 16
	// trendsTimeout bounds computing trends, however many ask for them.
	trendsTimeout = time.Minute
	// MaxTrendSpans is how many alerts trends count at most: an account
	// of 10,000 locations has about 100,000 in 90 days.
	MaxTrendSpans = 500_000
	// historyBatch is how many devices' history is read at once for the
	// heat maps, which bounds the readings held in memory.
	historyBatch = 500
	// heatRetryAfter is how long a failed count of the heat maps of an
	// hour is not tried again while earlier maps answer.
	heatRetryAfter = 5 * time.Minute
)

// Trends are an account's or a building's trends (internal/trends): its
// alerts of a period, and its consumption over the last four weeks. What
// Trends returns is shared with other callers: read it, do not change it.
type Trends struct {
	Period trends.Period
	trends.Alerts
	// Heat is the consumption of the whole scope; Buildings that of each
	// of its buildings with dispensers, by name.
	Heat      trends.Heat
	Buildings []BuildingHeat
	// Computed is when the alerts were counted, at most TrendsKeptFor
	// ago; HeatComputed when the heat maps were: within the hour, or
	// earlier while the maps of the hour are counted (Heat.To says which
	// hour the maps end at).
	Computed, HeatComputed time.Time
	// Gaps say what the figures may miss; the page says them in words
	// of its language (the figures are kept, and shared by readers).
	Gaps []TrendGap
}

// BuildingHeat is one building's consumption.
type BuildingHeat struct {
	Building domain.Building
	Heat     trends.Heat
}

// trendsKey names the alerts counted of a scope and period.
type trendsKey struct {
	account, building, zone string
	days                    int
	scope                   string // the buildings a person's scope sees: BuildingScope.Key
}

// heatScope names the heat maps of an account in a zone: its buildings'
// and in all. They are counted for the window ending at the start of an
// hour.
type heatScope struct {
	account, zone string
}

func (h heatScope) LogValue() slog.Value {
	return slog.GroupValue(slog.String("account", h.account), slog.String("zone", h.zone))
}

// Trends returns the trends of the whole account, or of one building when
// building is not empty (domain.ErrNotFound when the account has none of
// that id), over the last days days in zone. Alerts counted less than
// TrendsKeptFor ago answer again; a caller asking while they are counted
// waits for them. The heat maps of the hour answer again; once the hour
// has turned, those of an earlier hour answer at once while the hour's
// are counted in the background: only the first caller of an account and
// zone waits for them.
//
// A scope of some buildings counts theirs alone: the heat maps in all add
// up its buildings' maps.
func (s *Service) Trends(ctx context.Context, account string, sc domain.BuildingScope, building string, days int, zone *time.Location) (Trends, error) {
	if building != "" && !sc.Sees(building) {
		return Trends{}, notSeen("building", building)
	}
	now := s.clock.Now()
	al, err := s.trendAlerts.get(ctx, trendsKey{account: account, building: building, zone: zone.String(), days: days, scope: sc.Key()}, now, TrendsKeptFor,
		func(ctx context.Context) (alertTrends, error) {
			return s.countAlerts(ctx, account, sc, building, days, zone, now)
		})
	if err != nil {
		return Trends{}, err
	}
	_, to := trends.HeatWindow(now, zone)
	heat, err := s.trendHeat.get(ctx, heatScope{account: account, zone: zone.String()}, to.Unix(), now,
		func(ctx context.Context) (heatTrends, error) { return s.countHeat(ctx, account, zone, now) })
	if err != nil {
		return Trends{}, err
	}
	t := Trends{Period: al.period, Alerts: al.alerts, Heat: heat.total, Buildings: heat.buildings,
		Computed: al.period.End, HeatComputed: heat.computed, Gaps: al.gaps}
	if building == "" && sc.Limited() {
		t.Heat = trends.Heat{Zone: heat.total.Zone, From: heat.total.From, To: heat.total.To, Since: heat.total.To}
		t.Buildings = nil
		for _, b := range heat.buildings {
			if sc.Sees(b.Building.ID) {
				h := b.Heat
				t.Heat.Add(&h)
				t.Buildings = append(t.Buildings, b)
			}
		}
	}
	if building != "" {
		// Nothing counted, of the window of the maps answered.
		empty := trends.Heat{Zone: heat.total.Zone, From: heat.total.From, To: heat.total.To, Since: heat.total.To}
		t.Heat, t.Buildings = empty, nil
		for _, b := range heat.buildings {
			if b.Building.ID == building {
				t.Heat, t.Buildings = b.Heat, []BuildingHeat{b}
			}
		}
	}
	return t, nil
}

// alertTrends and heatTrends are what the two caches keep.
type alertTrends struct {
	period trends.Period
	alerts trends.Alerts
	gaps   []TrendGap
}

type heatTrends struct {
	total     trends.Heat
	buildings []BuildingHeat
	computed  time.Time
}

// countAlerts reads and counts the alerts of a period ending now.
func (s *Service) countAlerts(ctx context.Context, account string, sc domain.BuildingScope, building string, days int, zone *time.Location, now time.Time) (alertTrends, error) {
	p := trends.NewPeriod(days, now, zone)
	out := alertTrends{period: p}
	places, buildings, err := s.trendPlaces(ctx, account, sc, building)
	if err != nil {
		return out, err
	}
	if building != "" && len(buildings) == 0 {
		return out, fmt.Errorf("building %s: %w", building, domain.ErrNotFound)
	}
	// Every alert open at some moment of the period: those created in
	// it, and those resolved in it whenever they were created.
	spans, err := s.store.AlertSpans(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), BuildingID: building, OpenFrom: p.Start, OpenTo: now, Limit: MaxTrendSpans + 1})
	if err != nil {
		return out, err
	}
	if len(spans) > MaxTrendSpans {
		spans = spans[:MaxTrendSpans]
		out.gaps = append(out.gaps, TrendGap{Kind: GapTooManyAlerts, N: MaxTrendSpans})
	}
	out.alerts = trends.CountAlerts(p, spans, places)
	if s.sync != nil {
		cfg := s.sync.Config()
		if kept := now.Add(-cfg.History); p.Start.Before(kept) {
			out.gaps = append(out.gaps, TrendGap{Kind: GapHistory, N: int(cfg.History / (24 * time.Hour)), At: kept})
		}
		if read := now.Add(-cfg.Lookback); p.Start.Before(read) {
			out.gaps = append(out.gaps, TrendGap{Kind: GapLookback, N: int(cfg.Lookback / (24 * time.Hour)), At: read})
		}
	}
	return out, nil
}

// countHeat reads the devices' history of the heat maps' window and counts
// their use, each building's and in all.
func (s *Service) countHeat(ctx context.Context, account string, zone *time.Location, now time.Time) (heatTrends, error) {
	out := heatTrends{total: trends.NewHeat(now, zone), computed: now}
	places, buildings, err := s.trendPlaces(ctx, account, domain.EveryBuilding(), "")
	if err != nil {
		return out, err
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account})
	if err != nil {
		return out, err
	}
	counters := map[string]*trends.HeatCounter{} // by building id; "" for devices not in the layout
	buildingOf := make(map[string]string, len(devices))
	macs := make([]string, 0, len(devices))
	for _, d := range devices {
		if len(d.Compartments) == 0 {
			continue
		}
		b := places[d.LocationID].BuildingID
		if counters[b] == nil {
			counters[b] = trends.NewHeatCounter(now, zone)
		}
		buildingOf[d.MAC] = b
		macs = append(macs, d.MAC)
	}
	from := out.total.From
	for start := 0; start < len(macs); start += historyBatch {
		batch := macs[start:min(start+historyBatch, len(macs))]
		hist, err := s.store.DeviceHistory(ctx, account, batch, from)
		if err != nil {
			return out, err
		}
		for _, mac := range batch {
			counters[buildingOf[mac]].Add(hist[mac])
		}
	}
	for _, b := range buildings {
		if c := counters[b.ID]; c != nil {
			h := c.Heat()
			out.buildings = append(out.buildings, BuildingHeat{Building: b, Heat: h})
			out.total.Add(&h)
		}
	}
	if c := counters[""]; c != nil {
		h := c.Heat()
		out.total.Add(&h)
	}
	return out, nil
}

// trendPlaces reads where each location of the scope is, and the scope's
// buildings by name.
func (s *Service) trendPlaces(ctx context.Context, account string, sc domain.BuildingScope, building string) (map[string]trends.Place, []domain.Building, error) {
	all, err := s.allPlaces(ctx, account)
	if err != nil {
		return nil, nil, err
	}
	locs, err := s.store.LocationsIn(ctx, account, building, "", "")
	if err != nil {
		return nil, nil, err
	}
	places := make(map[string]trends.Place, len(locs))
	for _, l := range locs {
		b, f, r, ok := all.Path(l.RoomID)
		if !ok || !sc.Sees(b.ID) {
			continue
		}
		places[l.ID] = trends.Place{BuildingID: b.ID, Building: b.Name, Floor: f.Name, RoomID: r.ID, Room: r.Name,
			LocationID: l.ID, Location: l.Name}
	}
	var buildings []domain.Building
	for _, b := range all.Buildings {
		if (building == "" || b.ID == building) && sc.Sees(b.ID) {
			buildings = append(buildings, b)
		}
	}
	slices.SortFunc(buildings, func(a, b domain.Building) int {
		return cmp.Or(report.CompareNames(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	return places, buildings, nil
}

// keptValues keeps computed values for a while, at most trendsKept of
// them: a value asked for again within that time is answered from memory,
// and one asked for while it is computed is computed once.
type keptValues[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*keptValue[V]
}

type keptValue[V any] struct {
	done chan struct{} // closed once v and err are set
	at   time.Time     // when it began to be computed
	keep time.Duration // how long it answers
	v    V
	err  error
}

// get returns the value of key, computed by compute if it is not kept or
// is keep old at now. compute runs on a context that the caller's going
// away does not cancel, since others may be waiting for it; a failure is
// not kept.
func (c *keptValues[K, V]) get(ctx context.Context, key K, now time.Time, keep time.Duration, compute func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[K]*keptValue[V]{}
	}
	e := c.m[key]
	if e == nil || now.Sub(e.at) >= keep || now.Before(e.at) {
		e = &keptValue[V]{done: make(chan struct{}), at: now, keep: keep}
		c.evict(now)
		c.m[key] = e
		c.mu.Unlock()
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), trendsTimeout)
		e.v, e.err = compute(cctx)
		cancel()
		close(e.done)
		if e.err != nil {
			c.mu.Lock()
			if c.m[key] == e {
				delete(c.m, key)
			}
			c.mu.Unlock()
		}
		return e.v, e.err
	}
	c.mu.Unlock()
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// evict makes room for one more value: it drops the values too old to
// answer, then, while there are trendsKept, the oldest computed.
func (c *keptValues[K, V]) evict(now time.Time) {
	for k, e := range c.m {
		if now.Sub(e.at) >= e.keep {
			delete(c.m, k)
		}
	}
	for len(c.m) >= trendsKept {
		var oldest K
		var at time.Time
		found := false
		for k, e := range c.m {
			select {
			case <-e.done:
			default:
				continue // still being computed: someone waits for it
			}
			if !found || e.at.Before(at) {
				oldest, at, found = k, e.at, true
			}
		}
		if !found {
			return // all being computed: one more, for a while
		}
		delete(c.m, oldest)
	}
}

// renewedValues keeps the latest value of each scope, each computed for a
// version (the heat maps': the hour their window ends at, in Unix
// seconds). A scope asked for at a version it has no value of is computed
// again, once at a time per scope and version; meanwhile a value of an
// earlier version answers at once, and only a scope with no value makes
// its callers wait. A failure is logged; while an earlier value answers,
// the version that failed is tried again after heatRetryAfter. At most
// trendsKept scopes are kept, the least lately asked for go first.
type renewedValues[S comparable, V any] struct {
	log     *slog.Logger
	pending sync.WaitGroup // the computations under way
	mu      sync.Mutex
	m       map[S]*renewed[V]
}

// renewed is a scope's value, and its computation under way.
type renewed[V any] struct {
	has     bool
	v       V
	version int64
	asked   time.Time // when the scope was last asked for
	next    *computation[V]
	// failed is the version whose computation, begun at failedAt, failed
	// last; 0 when none.
	failed   int64
	failedAt time.Time
}

// computation is one computation of a scope's value of a version.
type computation[V any] struct {
	version int64
	// background is set when no caller waits for it: its failure is
	// logged, not returned.
	background bool
	done       chan struct{} // closed once v and err are set
	v          V
	err        error
}

// get returns the value of scope at version, computed by compute when the
// scope has none of that version: the value of an earlier version when it
// has one, while the computation goes on in the background; else the
// computed value, once computed. compute runs on a context that the
// caller's going away does not cancel, bounded by trendsTimeout.
func (c *renewedValues[S, V]) get(ctx context.Context, scope S, version int64, now time.Time, compute func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[S]*renewed[V]{}
	}
	e := c.m[scope]
	if e == nil {
		c.evict()
		e = &renewed[V]{}
		c.m[scope] = e
	}
	e.asked = now
	if e.has && e.version >= version {
		c.mu.Unlock()
		return e.v, nil
	}
	if e.has {
		// Earlier values answer. Their successor is computed unless it is
		// under way, or failed lately.
		retry := e.failed != version || now.Sub(e.failedAt) >= heatRetryAfter || now.Before(e.failedAt)
		if e.next == nil && retry {
			e.next = &computation[V]{version: version, done: make(chan struct{}), background: true}
			c.start(ctx, scope, e, e.next, now, compute)
		}
		v := e.v
		c.mu.Unlock()
		return v, nil
	}
	next := e.next
	if next == nil || next.version != version {
		next = &computation[V]{version: version, done: make(chan struct{})}
		e.next = next
		c.start(ctx, scope, e, next, now, compute)
	}
	c.mu.Unlock()
	select {
	case <-next.done:
		return next.v, next.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

func (c *renewedValues[S, V]) start(ctx context.Context, scope S, e *renewed[V], cp *computation[V], now time.Time, compute func(context.Context) (V, error)) {
	c.pending.Add(1)
	go func() {
		defer c.pending.Done()
		c.compute(ctx, scope, e, cp, now, compute)
	}()
}

// compute runs one computation of scope's value and keeps what it gives:
// the value unless a later version is kept, or the failure, and logs the
// failure of a computation no one waits for.
func (c *renewedValues[S, V]) compute(ctx context.Context, scope S, e *renewed[V], cp *computation[V], now time.Time, compute func(context.Context) (V, error)) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), trendsTimeout)
	cp.v, cp.err = compute(cctx)
	cancel()
	c.mu.Lock()
	if e.next == cp {
		e.next = nil
	}
	switch {
	case cp.err != nil:
		e.failed, e.failedAt = cp.version, now
	case !e.has || e.version <= cp.version:
		e.has, e.v, e.version = true, cp.v, cp.version
		if e.failed == cp.version {
			e.failed = 0
		}
	}
	c.mu.Unlock()
	close(cp.done)
	if cp.err != nil && cp.background && c.log != nil {
		c.log.LogAttrs(ctx, slog.LevelWarn, "counting trends failed; the earlier ones answer until they are counted again",
			slog.Any("scope", scope), slog.Int64("version", cp.version), slog.Duration("retry_after", heatRetryAfter), slog.Any("err", cp.err))
	}
}

// evict makes room for one more scope: while there are trendsKept, it
// drops the one least lately asked for with no computation under way.
func (c *renewedValues[S, V]) evict() {
	for len(c.m) >= trendsKept {
		var oldest S
		var at time.Time
		found := false
		for s, e := range c.m {
			if e.next != nil {
				continue // someone may wait for it
			}
			if !found || e.asked.Before(at) {
				oldest, at, found = s, e.asked, true
			}
		}
		if !found {
			return // all being computed: one more, for a while
		}
		delete(c.m, oldest)
	}
}

// TrendGap is something the trends' figures may miss.
type TrendGap struct {
	Kind GapKind
	N    int       // the alerts counted at most, or the days kept or read
	At   time.Time // the start of what is kept or read
}

// The kinds of TrendGap.
type GapKind int

const (
	// GapTooManyAlerts: the period holds more than N alerts; the first N
	// are counted.
	GapTooManyAlerts GapKind = iota
	// GapHistory: the cache keeps closed alerts N days, since At.
	GapHistory
	// GapLookback: the sync reads the open alerts of the last N days,
	// since At.
	GapLookback
)
