package receiver

import (
	"log/slog"
	"sync"
	"time"
)

// seenSet remembers keys (a receiver's event ids) for a while, at most max
// of them: the oldest go first when it is full.
type seenSet struct {
	max   int
	keep  time.Duration
	at    map[string]time.Time
	order []seenEntry // oldest first; may hold keys already gone from at
}

type seenEntry struct {
	key string
	at  time.Time
}

func newSeenSet(max int, keep time.Duration) *seenSet {
	return &seenSet{max: max, keep: keep, at: map[string]time.Time{}}
}

func (s *seenSet) has(key string, now time.Time) bool {
	at, ok := s.at[key]
	return ok && now.Sub(at) < s.keep
}

func (s *seenSet) add(key string, now time.Time) {
	if _, ok := s.at[key]; !ok && len(s.at) >= s.max {
		s.dropOldest()
	}
	s.at[key] = now
	s.order = append(s.order, seenEntry{key, now})
}

// prune forgets what was seen longer ago than the set keeps it.
func (s *seenSet) prune(now time.Time) {
	i := 0
	for i < len(s.order) && now.Sub(s.order[i].at) >= s.keep {
		if at, ok := s.at[s.order[i].key]; ok && !at.After(s.order[i].at) {
			delete(s.at, s.order[i].key)
		}
		i++
	}
	s.order = append(s.order[:0], s.order[i:]...)
}

func (s *seenSet) dropOldest() {
	for len(s.order) > 0 {
		e := s.order[0]
		s.order = s.order[1:]
		if at, ok := s.at[e.key]; ok && !at.After(e.at) {
			delete(s.at, e.key)
			return
		}
	}
}

// refusalLog logs refused deliveries, at most perMinute lines a minute:
// a flood of them is summed up in one line when the minute is over.
type refusalLog struct {
	mu         sync.Mutex
	minute     time.Time
	logged     int
	suppressed int
}

const refusalsPerMinute = 20

func (l *refusalLog) log(log *slog.Logger, now time.Time, receiver, why string) {
	l.mu.Lock()
	m := now.Truncate(time.Minute)
	if !m.Equal(l.minute) {
		if l.suppressed > 0 {
			log.Warn("more deliveries were refused than logged", "refused", l.suppressed, "minute", l.minute.UTC().Format(time.RFC3339))
		}
		l.minute, l.logged, l.suppressed = m, 0, 0
	}
	if l.logged >= refusalsPerMinute {
		l.suppressed++
		l.mu.Unlock()
		return
	}
	l.logged++
	l.mu.Unlock()
	log.Info("event refused", "receiver", receiver, "reason", why)
}
