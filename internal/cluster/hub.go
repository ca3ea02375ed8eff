package cluster

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// DefaultBuffer is how many values a subscriber's channel holds by default.
const DefaultBuffer = 64

// hub hands announcements to the local subscribers of their channel
// without ever waiting for one. It knows which channels are being listened
// to: a subscriber to one of those is told Gap at once, the others when
// their channel's listening begins.
type hub struct {
	buffer int
	local  bool // every channel counts as listened to: Local's hub

	mu       sync.Mutex
	subs     map[string]map[*subscriber]struct{} // by channel
	listened map[string]bool
	closed   bool
	changed  chan struct{} // receives when the subscribed channels change
}

type subscriber struct {
	ch chan string
}

func newHub(buffer int) *hub {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	return &hub{
		buffer:   max(buffer, 2), // a payload and the gap after it
		subs:     map[string]map[*subscriber]struct{}{},
		listened: map[string]bool{},
		changed:  make(chan struct{}, 1),
	}
}

// send hands a payload to a subscriber if it leaves room for Gap after it;
// otherwise the payload is dropped and Gap takes its place. A full buffer
// therefore always ends with Gap, which covers whatever is dropped while
// it is full. The caller holds h.mu, so no other send runs at once; the
// subscriber reading only makes room.
func (s *subscriber) send(payload string) {
	switch free := cap(s.ch) - len(s.ch); {
	case free > 1:
		s.ch <- payload
	case free == 1:
		s.ch <- Gap
	}
}

// subscribe adds a subscriber to channel and returns its channel and the
// function that ends the subscription. After close it returns a closed
// channel.
func (h *hub) subscribe(channel string) (<-chan string, func()) {
	s := &subscriber{ch: make(chan string, h.buffer)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(s.ch)
		return s.ch, func() {}
	}
	if h.subs[channel] == nil {
		h.subs[channel] = map[*subscriber]struct{}{}
		h.wakeLocked()
	}
	h.subs[channel][s] = struct{}{}
	if h.local || h.listened[channel] {
		s.send(Gap)
	}
	return s.ch, func() { h.unsubscribe(channel, s) }
}

func (h *hub) unsubscribe(channel string, s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[channel][s]; !ok {
		return // already ended, or closed
	}
	delete(h.subs[channel], s)
	close(s.ch)
	if len(h.subs[channel]) == 0 {
		delete(h.subs, channel)
		h.wakeLocked()
	}
}

func (h *hub) wakeLocked() {
	select {
	case h.changed <- struct{}{}:
	default:
	}
}

// deliver hands a payload to every subscriber of channel.
func (h *hub) deliver(channel, payload string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[channel] {
		s.send(payload)
	}
}

// plan says which channels should start being listened to and which
// should stop, and counts the latter as no longer listened to at once, so
// that a subscriber that comes before they are listened to again waits
// for its Gap.
func (h *hub) plan() (listen, unlisten []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		if !h.listened[ch] {
			listen = append(listen, ch)
		}
	}
	for ch := range h.listened {
		if h.subs[ch] == nil {
			unlisten = append(unlisten, ch)
			delete(h.listened, ch)
		}
	}
	slices.Sort(listen)
	slices.Sort(unlisten)
	return listen, unlisten
}

// listening records that channels are now listened to, and tells their
// subscribers that they may have missed announcements until now.
func (h *hub) listening(channels []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ch := range channels {
		h.listened[ch] = true
		for s := range h.subs[ch] {
			s.send(Gap)
		}
	}
}

// disconnected records that no channel is listened to any more.
func (h *hub) disconnected() {
	h.mu.Lock()
	defer h.mu.Unlock()
	clear(h.listened)
}

// close ends every subscription, closing the subscribers' channels.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, subs := range h.subs {
		for s := range subs {
			close(s.ch)
		}
	}
	clear(h.subs)
	clear(h.listened)
}

// checkAnnouncement says why PostgreSQL would refuse an announcement, or
// why Gap cannot be sent as a payload. Local applies the same rules, so
// that what one process publishes would work across replicas too.
func checkAnnouncement(channel, payload string) error {
	if err := checkChannel(channel); err != nil {
		return err
	}
	switch {
	case payload == Gap:
		return fmt.Errorf("%w: an empty payload is the gap marker", ErrInvalid)
	case len(payload) > MaxPayload:
		return fmt.Errorf("%w: %d bytes on channel %q", ErrPayloadTooLarge, len(payload), channel)
	case !utf8.ValidString(payload) || strings.IndexByte(payload, 0) >= 0:
		return fmt.Errorf("%w: a payload must be UTF-8 text without NUL bytes", ErrInvalid)
	}
	return nil
}

func checkChannel(channel string) error {
	switch {
	case channel == "":
		return fmt.Errorf("%w: no channel", ErrInvalid)
	case len(channel) > MaxChannel:
		return fmt.Errorf("%w: channel %.20q… is longer than %d bytes", ErrInvalid, channel, MaxChannel)
	case !utf8.ValidString(channel) || strings.IndexByte(channel, 0) >= 0:
		return fmt.Errorf("%w: a channel must be UTF-8 text without NUL bytes", ErrInvalid)
	}
	return nil
}
