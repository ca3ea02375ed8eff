package visitors

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/netip"
	"sync"
	"time"
)

// Limits are how many reports the throttles let through: per room and
// per sending address, each within a window that starts with its first
// report, counted in memory (so per replica); and how many rooms and
// addresses they remember at most. A room's limit is also counted in the
// store, over the window before each report, so that it holds across
// replicas (Service.roomBusy); an address is never stored, and its
// limit is each replica's.
type Limits struct {
	PerRoom    int
	RoomWindow time.Duration
	PerAddress int
	AddrWindow time.Duration
	// FloodPeriod is how long a room's flood, once said with a marker,
	// is said no more.
	FloodPeriod time.Duration
	MaxRooms    int
	MaxAddrs    int
}

// DefaultLimits: a room takes 5 reports a minute (a queue of visitors
// saying the same thing), an address 20 in 10 minutes (a shared network:
// a station's, a mall's); a flood is said once an hour per room.
var DefaultLimits = Limits{PerRoom: 5, RoomWindow: time.Minute, PerAddress: 20, AddrWindow: 10 * time.Minute,
	FloodPeriod: time.Hour, MaxRooms: 100_000, MaxAddrs: 100_000}

// throttle counts reports per room and per address in fixed windows.
// Addresses are remembered as a keyed hash of the address (of its /64 for
// IPv6), with a key made at start, never as they came. Its maps hold at
// most MaxRooms and MaxAddrs entries: when the addresses' map is full of
// windows still open, a new address is counted by its room alone; when
// the rooms' map is, a new room's report is refused.
type throttle struct {
	limits Limits
	salt   []byte

	mu      sync.Mutex
	rooms   map[string]*window
	addrs   map[string]*window
	floods  map[string]time.Time // by room: when its flood was last said
	roomCut time.Time            // when the rooms' map was last swept
	addrCut time.Time
}

type window struct {
	start time.Time
	n     int
}

func newThrottle(l Limits) *throttle {
	salt := make([]byte, 32)
	if _, err := rand.Read(salt); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return &throttle{limits: l, salt: salt, rooms: map[string]*window{}, addrs: map[string]*window{}, floods: map[string]time.Time{}}
}

// refusal is why the throttle refused a report.
type refusal int

const (
	allowed      refusal = iota
	roomTooFast          // the room had its reports for the window
	addrTooFast          // the address had its reports for the window
	roomsTooMany         // the throttle remembers as many rooms as it may
)

// allow counts a report of a room from an address at now, and says
// whether it may go ahead; a report refused is not counted.
func (t *throttle) allow(room, addr string, now time.Time) refusal {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.addrKey(addr)
	aw := t.windowOf(t.addrs, a, now, t.limits.AddrWindow, t.limits.MaxAddrs, &t.addrCut)
	if aw != nil && aw.n >= t.limits.PerAddress {
		return addrTooFast
	}
	rw := t.windowOf(t.rooms, room, now, t.limits.RoomWindow, t.limits.MaxRooms, &t.roomCut)
	switch {
	case rw == nil:
		return roomsTooMany
	case rw.n >= t.limits.PerRoom:
		return roomTooFast
	}
	rw.n++
	if aw != nil {
		aw.n++
	}
	return allowed
}

// windowOf is key's window in m, begun afresh when its last one ended;
// nil when m is full of windows still open.
func (t *throttle) windowOf(m map[string]*window, key string, now time.Time, length time.Duration, most int, cut *time.Time) *window {
	w, ok := m[key]
	if ok && now.Sub(w.start) < length {
		return w
	}
	if !ok && len(m) >= most && now.Sub(*cut) >= time.Second {
		// Sweep the ended windows, at most once a second.
		*cut = now
		for k, w := range m {
			if now.Sub(w.start) >= length {
				delete(m, k)
			}
		}
	}
	if !ok && len(m) >= most {
		return nil
	}
	w = &window{start: now}
	m[key] = w
	return w
}

// floodToSay reports whether a room's flood is to be said now: not when it
// was said within FloodPeriod. The map of floods is bounded as the
// rooms' is.
func (t *throttle) floodToSay(room string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if last, ok := t.floods[room]; ok && now.Sub(last) < t.limits.FloodPeriod {
		return false
	}
	if len(t.floods) >= t.limits.MaxRooms {
		for k, last := range t.floods {
			if now.Sub(last) >= t.limits.FloodPeriod {
				delete(t.floods, k)
			}
		}
		if len(t.floods) >= t.limits.MaxRooms {
			return false // said already for many rooms: the store says it once per room anyway
		}
	}
	t.floods[room] = now
	return true
}

// addrKey is how an address is remembered: a keyed hash of it, of its /64
// for IPv6 (which one client usually holds whole).
func (t *throttle) addrKey(addr string) string {
	if ip, err := netip.ParseAddr(addr); err == nil {
		ip = ip.Unmap()
		if ip.Is6() {
			p, _ := ip.Prefix(64)
			addr = p.String()
		} else {
			addr = ip.String()
		}
	}
	m := hmac.New(sha256.New, t.salt)
	m.Write([]byte(addr))
	return hex.EncodeToString(m.Sum(nil)[:16])
}
