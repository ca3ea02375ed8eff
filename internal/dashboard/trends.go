package dashboard

import (
	"cmp"
	"context"
	"fmt"
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
	// account, and a building's is taken from its account's.
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
	// ago; HeatComputed when the heat maps were, within the hour.
	Computed, HeatComputed time.Time
	// Gaps say in words what the figures may miss.
	Gaps []string
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
}

// heatKey names the heat maps of an account: its buildings' and in all,
// of the window ending at the start of an hour (Unix seconds).
type heatKey struct {
	account, zone string
	to            int64
}

// Trends returns the trends of the whole account, or of one building when
// building is not empty (domain.ErrNotFound when the account has none of
// that id), over the last days days in zone. Alerts counted less than
// TrendsKeptFor ago, and heat maps of the same hour, answer again; a
// caller asking while they are counted waits for them.
func (s *Service) Trends(ctx context.Context, account, building string, days int, zone *time.Location) (Trends, error) {
	if building != "" {
		if _, err := s.store.Building(ctx, account, building); err != nil {
			return Trends{}, err
		}
	}
	now := s.clock.Now()
	al, err := s.trendAlerts.get(ctx, trendsKey{account: account, building: building, zone: zone.String(), days: days}, now, TrendsKeptFor,
		func(ctx context.Context) (alertTrends, error) {
			return s.countAlerts(ctx, account, building, days, zone, now)
		})
	if err != nil {
		return Trends{}, err
	}
	_, to := trends.HeatWindow(now, zone)
	heat, err := s.trendHeat.get(ctx, heatKey{account: account, zone: zone.String(), to: to.Unix()}, now, time.Hour,
		func(ctx context.Context) (heatTrends, error) { return s.countHeat(ctx, account, zone, now) })
	if err != nil {
		return Trends{}, err
	}
	t := Trends{Period: al.period, Alerts: al.alerts, Heat: heat.total, Buildings: heat.buildings,
		Computed: al.period.End, HeatComputed: heat.computed, Gaps: al.gaps}
	if building != "" {
		t.Heat, t.Buildings = trends.NewHeat(now, zone), nil
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
	gaps   []string
}

type heatTrends struct {
	total     trends.Heat
	buildings []BuildingHeat
	computed  time.Time
}

// countAlerts reads and counts the alerts of a period ending now.
func (s *Service) countAlerts(ctx context.Context, account, building string, days int, zone *time.Location, now time.Time) (alertTrends, error) {
	p := trends.NewPeriod(days, now, zone)
	out := alertTrends{period: p}
	// Every alert open at some moment of the period: those created in
	// it, and those resolved in it whenever they were created.
	spans, err := s.store.AlertSpans(ctx, store.AlertFilter{Account: account, BuildingID: building, OpenFrom: p.Start, OpenTo: now, Limit: MaxTrendSpans + 1})
	if err != nil {
		return out, err
	}
	if len(spans) > MaxTrendSpans {
		spans = spans[:MaxTrendSpans]
		out.gaps = append(out.gaps, fmt.Sprintf("The period holds more than %s alerts: the first %s, the oldest, are counted; the last days are incomplete.",
			thousands(MaxTrendSpans), thousands(MaxTrendSpans)))
	}
	places, _, err := s.trendPlaces(ctx, account, building)
	if err != nil {
		return out, err
	}
	out.alerts = trends.CountAlerts(p, spans, places)
	if s.sync != nil {
		cfg := s.sync.Config()
		if kept := now.Add(-cfg.History); p.Start.Before(kept) {
			out.gaps = append(out.gaps, fmt.Sprintf("The cache keeps closed alerts for %d days: those before %s are not counted.",
				int(cfg.History/(24*time.Hour)), kept.In(zone).Format("Mon 2 Jan 2006, 15:04")))
		}
		if read := now.Add(-cfg.Lookback); p.Start.Before(read) {
			out.gaps = append(out.gaps, fmt.Sprintf("The sync reads the open alerts created in the last %d days: an alert created before %s and still open is not counted.",
				int(cfg.Lookback/(24*time.Hour)), read.In(zone).Format("Mon 2 Jan 2006, 15:04")))
		}
	}
	return out, nil
}

// countHeat reads the devices' history of the heat maps' window and counts
// their use, each building's and in all.
func (s *Service) countHeat(ctx context.Context, account string, zone *time.Location, now time.Time) (heatTrends, error) {
	out := heatTrends{total: trends.NewHeat(now, zone), computed: now}
	places, buildings, err := s.trendPlaces(ctx, account, "")
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
func (s *Service) trendPlaces(ctx context.Context, account, building string) (map[string]trends.Place, []domain.Building, error) {
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
		if !ok {
			continue
		}
		places[l.ID] = trends.Place{BuildingID: b.ID, Building: b.Name, FloorID: f.ID, Floor: f.Name, RoomID: r.ID, Room: r.Name,
			LocationID: l.ID, Location: l.Name}
	}
	var buildings []domain.Building
	for _, b := range all.Buildings {
		if building == "" || b.ID == building {
			buildings = append(buildings, b)
		}
	}
	slices.SortFunc(buildings, func(a, b domain.Building) int {
		return cmp.Or(report.CompareNames(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	return places, buildings, nil
}

// thousands writes n with thousands separators: 500,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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
