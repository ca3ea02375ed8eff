// Package readings holds how every store engine keeps the history of a
// device's readings (store.Reading): which writes record one, and the
// compact encoding of one device's readings of one UTC day that the
// engines keep in a row of their own.
//
// A day's readings are encoded as a format byte (1) followed by each
// reading in turn, written against the one before it:
//
//	flags  one byte: 0x01 offline; 0x02 levels follow; 0x80 their count
//	       differs from the reading before's; 0x04 the battery follows;
//	       0x08 no last-seen time; 0x70 the battery state (0 unknown,
//	       1 Normal, 2 Low, 3 Shutdown, 7 another, whose text follows)
//	time   signed varint: Unix seconds for the first reading, seconds
//	       since the one before for the others
//	levels when 0x02: the count as an unsigned varint when 0x80, then
//	       each level as an unsigned varint (0 to 127 take one byte)
//	battery when 0x04: unsigned varint of the percent plus one (0: not
//	       reported)
//	state  when 7: unsigned varint length, then the text
//	seen   unless 0x08: signed varint seconds from the last-seen time to
//	       the reading's time
//
// Levels and the battery follow only when they differ from the reading
// before, which starts as no levels and no battery. A reading of a level
// that fell takes six bytes or so, one that keeps them four or five. Times
// are kept to the second.
package readings

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/rowhash"
)

// readingOf returns the reading a write that saw the service at at
// records of d.
func readingOf(d domain.Device, at time.Time) store.Reading {
	r := store.Reading{At: at, Battery: -1, BatteryState: d.BatteryState, Offline: d.Offline, LastSeen: d.LastSeen}
	if len(d.Compartments) > 0 {
		r.Levels = make([]int, len(d.Compartments))
		for i, c := range d.Compartments {
			r.Levels[i] = c.Level
		}
	}
	if d.Battery != nil {
		r.Battery = *d.Battery
	}
	return r
}

// Sum hashes what a reading holds of a device, its last-seen time aside:
// its levels, battery percent and state, and whether it is offline. A
// write records a reading of a device whose sum differs from the one the
// cache held, or that the cache did not hold.
func Sum(d domain.Device) int64 {
	var buf [8]any
	vals := append(buf[:0], len(d.Compartments))
	for _, c := range d.Compartments {
		vals = append(vals, c.Level)
	}
	battery := -1
	if d.Battery != nil {
		battery = *d.Battery
	}
	return rowhash.Sum(append(vals, battery, string(d.BatteryState), d.Offline))
}

// SameState reports whether two readings hold the same state, what Sum
// hashes: levels, battery percent and state, and whether the device is
// offline.
func SameState(a, b store.Reading) bool {
	return a.Offline == b.Offline && a.Battery == b.Battery && a.BatteryState == b.BatteryState && slices.Equal(a.Levels, b.Levels)
}

// Day is the UTC day of t, counted from 1970-01-01: the day whose row
// holds a reading taken at t.
func Day(t time.Time) int64 {
	return floorDiv(t.Unix(), 86400)
}

// DayStart is the time at which a day (Day) begins.
func DayStart(day int64) time.Time {
	return time.Unix(day*86400, 0).UTC()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// format is the first byte of an encoded day.
const format = 1

const (
	flagOffline    = 0x01
	flagLevels     = 0x02
	flagBattery    = 0x04
	flagNoLastSeen = 0x08
	stateShift     = 4
	stateMask      = 0x70
	stateOther     = 7
	flagCount      = 0x80
)

// stateCodes are the battery states kept in the flags; others are kept
// as text.
var stateCodes = []domain.BatteryState{domain.BatteryUnknown, domain.BatteryNormal, domain.BatteryLow, domain.BatteryShutdown}

// start is what the first reading of a day is written against.
var start = store.Reading{Battery: -1}

// Append returns day, the encoded readings of a device's day, with r
// added after them; day may be empty. It may reuse day's array. The
// readings of a day that does not decode whole (Decode) are kept as far
// as they decode: a day spoilt once does not stop a device's history.
func Append(day []byte, r store.Reading) []byte {
	all, err := Decode(day)
	if err != nil || len(all) == 0 {
		return Encode(append(all, r))
	}
	return appendReading(day, &all[len(all)-1], r)
}

// Encode encodes readings as one day's.
func Encode(readings []store.Reading) []byte {
	out := []byte{format}
	for i, r := range readings {
		prev := (*store.Reading)(nil)
		if i > 0 {
			prev = &readings[i-1]
		}
		out = appendReading(out, prev, r)
	}
	return out
}

// appendReading encodes r against prev, the reading before it, or as the
// first of a day when prev is nil.
func appendReading(b []byte, prev *store.Reading, r store.Reading) []byte {
	at := r.At.Unix()
	first := prev == nil
	if first {
		prev = &start
	}
	var flags byte
	if r.Offline {
		flags |= flagOffline
	}
	levels := !slices.Equal(prev.Levels, r.Levels)
	if levels {
		flags |= flagLevels
		if len(r.Levels) != len(prev.Levels) {
			flags |= flagCount
		}
	}
	if r.Battery != prev.Battery {
		flags |= flagBattery
	}
	if r.LastSeen.IsZero() {
		flags |= flagNoLastSeen
	}
	code := slices.Index(stateCodes, r.BatteryState)
	if code < 0 {
		code = stateOther
	}
	flags |= byte(code) << stateShift
	b = append(b, flags)
	if first {
		b = binary.AppendVarint(b, at)
	} else {
		b = binary.AppendVarint(b, at-prev.At.Unix())
	}
	if flags&flagCount != 0 {
		b = binary.AppendUvarint(b, uint64(len(r.Levels)))
	}
	if levels {
		for _, l := range r.Levels {
			b = binary.AppendUvarint(b, uint64(int64(l)))
		}
	}
	if flags&flagBattery != 0 {
		b = binary.AppendUvarint(b, uint64(int64(r.Battery)+1))
	}
	if code == stateOther {
		b = binary.AppendUvarint(b, uint64(len(r.BatteryState)))
		b = append(b, r.BatteryState...)
	}
	if !r.LastSeen.IsZero() {
		b = binary.AppendVarint(b, at-r.LastSeen.Unix())
	}
	return b
}

// ErrFormat says that bytes are not a day's readings as Append encodes
// them.
var ErrFormat = errors.New("readings: not a day's readings")

// Decode returns the readings of a day, in the order they were appended,
// their times in UTC to the second. Readings may share their Levels. Of
// bytes that do not decode whole it returns those before the fault, and
// an error wrapping ErrFormat; it never panics.
func Decode(day []byte) ([]store.Reading, error) {
	if len(day) == 0 {
		return nil, nil
	}
	return decodeAppend(make([]store.Reading, 0, len(day)/4), day, &levelSlab{}) // a reading takes four to six bytes
}

// decodeAppend appends the readings of a day to out, as Decode returns
// them, their levels taken from levels.
func decodeAppend(out []store.Reading, day []byte, levels *levelSlab) ([]store.Reading, error) {
	if len(day) == 0 {
		return out, nil
	}
	if day[0] != format {
		return out, fmt.Errorf("%w: format %d", ErrFormat, day[0])
	}
	d := decoder{b: day[1:], levels: levels}
	prev, n := start, 0
	for len(d.b) > 0 {
		r, ok := d.reading(prev, n == 0)
		if !ok {
			return out, fmt.Errorf("%w: reading %d: %s", ErrFormat, n+1, d.fault)
		}
		out = append(out, r)
		prev = r
		n++
	}
	return out, nil
}

// levelSlab hands out the Levels of decoded readings from arrays shared
// by many, which saves an allocation per reading.
type levelSlab struct{ free []int }

// slabSize is how many levels an array of a levelSlab holds, at least.
const slabSize = 1024

// take returns n levels, which no other take shares and an append to
// does not reach others.
func (s *levelSlab) take(n int) []int {
	if cap(s.free)-len(s.free) < n {
		s.free = make([]int, 0, max(n, slabSize))
	}
	i := len(s.free)
	s.free = s.free[:i+n]
	return s.free[i : i+n : i+n]
}

// decoder reads readings from b, which it consumes.
type decoder struct {
	b      []byte
	levels *levelSlab
	fault  string
}

func (d *decoder) fail(what string) bool {
	d.fault = what
	return false
}

func (d *decoder) varint() (int64, bool) {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		return 0, d.fail("a bad varint")
	}
	d.b = d.b[n:]
	return v, true
}

func (d *decoder) uvarint() (uint64, bool) {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		return 0, d.fail("a bad varint")
	}
	d.b = d.b[n:]
	return v, true
}

// reading decodes the next reading, written against prev.
func (d *decoder) reading(prev store.Reading, first bool) (store.Reading, bool) {
	flags := d.b[0]
	d.b = d.b[1:]
	if flags&flagCount != 0 && flags&flagLevels == 0 {
		return prev, d.fail("a count of levels without levels")
	}
	r := prev
	r.Offline = flags&flagOffline != 0
	t, ok := d.varint()
	if !ok {
		return r, false
	}
	if !first {
		t += prev.At.Unix()
	}
	r.At = time.Unix(t, 0).UTC()
	if flags&flagLevels != 0 {
		n := uint64(len(prev.Levels))
		if flags&flagCount != 0 {
			if n, ok = d.uvarint(); !ok {
				return r, false
			}
		}
		if n > uint64(len(d.b)) { // each level takes a byte at least
			return r, d.fail("more levels than bytes")
		}
		r.Levels = nil
		if n > 0 {
			r.Levels = d.levels.take(int(n))
		}
		for i := range r.Levels {
			v, ok := d.uvarint()
			if !ok {
				return r, false
			}
			r.Levels[i] = int(int64(v))
		}
	}
	if flags&flagBattery != 0 {
		v, ok := d.uvarint()
		if !ok {
			return r, false
		}
		r.Battery = int(int64(v - 1))
	}
	switch code := int(flags&stateMask) >> stateShift; {
	case code < len(stateCodes):
		r.BatteryState = stateCodes[code]
	case code == stateOther:
		n, ok := d.uvarint()
		if !ok {
			return r, false
		}
		if n > uint64(len(d.b)) {
			return r, d.fail("a battery state longer than the bytes left")
		}
		r.BatteryState = domain.BatteryState(d.b[:n])
		d.b = d.b[n:]
	default:
		return r, d.fail(fmt.Sprintf("battery state %d", code))
	}
	r.LastSeen = time.Time{}
	if flags&flagNoLastSeen == 0 {
		ago, ok := d.varint()
		if !ok {
			return r, false
		}
		r.LastSeen = time.Unix(t-ago, 0).UTC()
	}
	return r, true
}

// From returns, of a device's readings, those taken at or after from and
// the last one taken before it, in time order (readings taken at the
// same second keep their order). It may reorder readings.
func From(readings []store.Reading, from time.Time) []store.Reading {
	byTime := func(a, b store.Reading) int { return a.At.Compare(b.At) }
	if !slices.IsSortedFunc(readings, byTime) {
		slices.SortStableFunc(readings, byTime)
	}
	i, _ := slices.BinarySearchFunc(readings, from, func(r store.Reading, t time.Time) int { return r.At.Compare(t) })
	return readings[max(i-1, 0):]
}

// Join gathers the days of readings of devices read in order of device,
// as the engines keep them (encoded, a row a day), and gives each device's
// readings From a time (see DeviceHistory). Each device's days are decoded
// into one allocation, and their levels into arrays shared by many
// readings.
type Join struct {
	from    time.Time
	out     map[string][]store.Reading
	mac     string
	raw     []byte      // the encoded days of mac, one after another
	days    []joinedDay // where each ends in raw
	scratch []store.Reading
	levels  levelSlab
}

type joinedDay struct {
	day int64
	end int
}

// NewJoin returns a Join of readings from from.
func NewJoin(from time.Time) *Join {
	return &Join{from: from, out: map[string][]store.Reading{}}
}

// Add adds a device's readings of a day (Day), encoded; it keeps no
// reference to data. The days of one device follow each other, though
// one device's days may be added again later. A day that does not decode
// whole fails Add or Done, naming the device and the day.
func (j *Join) Add(mac string, day int64, data []byte) error {
	if mac != j.mac {
		if err := j.flush(); err != nil {
			return err
		}
		j.mac = mac
	}
	j.raw = append(j.raw, data...)
	j.days = append(j.days, joinedDay{day: day, end: len(j.raw)})
	return nil
}

// flush decodes the days of the device added last, after those it had.
func (j *Join) flush() error {
	if len(j.days) == 0 {
		return nil
	}
	all := append(j.scratch[:0], j.out[j.mac]...)
	begin := 0
	for _, d := range j.days {
		var err error
		if all, err = decodeAppend(all, j.raw[begin:d.end], &j.levels); err != nil {
			return fmt.Errorf("history of device %s on %s: %w", j.mac, DayStart(d.day).Format(time.DateOnly), err)
		}
		begin = d.end
	}
	j.scratch = all
	j.out[j.mac] = slices.Clone(all)
	clear(j.scratch) // keeps no levels alive
	j.raw, j.days = j.raw[:0], j.days[:0]
	return nil
}

// Done returns the readings added, by device, each device's From the
// join's time.
func (j *Join) Done() (map[string][]store.Reading, error) {
	if err := j.flush(); err != nil {
		return nil, err
	}
	for mac, rs := range j.out {
		j.out[mac] = From(rs, j.from)
	}
	return j.out, nil
}

// Device gathers the days of one device's readings, encoded, as an
// engine reads them in order of day, and decodes them together. It is
// used device after device (Reset), and keeps its arrays: what it holds
// is the largest device's readings, not all of them.
type Device struct {
	raw    []byte      // the encoded days, one after another
	days   []joinedDay // where each ends in raw
	out    []store.Reading
	levels levelSlab
}

// Reset forgets the days added, for the next device.
func (d *Device) Reset() { d.raw, d.days = d.raw[:0], d.days[:0] }

// Add adds a day (Day) of the device's readings, encoded, after those
// added; it keeps no reference to data.
func (d *Device) Add(day int64, data []byte) {
	d.raw = append(d.raw, data...)
	d.days = append(d.days, joinedDay{day: day, end: len(d.raw)})
}

// Readings decodes the days added and returns the readings taken before
// to (every one when to is zero) that are at or after from, with the
// last one before from (see From), in time order. They are valid until
// the next call of Readings. A day that does not decode whole fails it,
// naming the device (mac) and the day.
func (d *Device) Readings(mac string, from, to time.Time) ([]store.Reading, error) {
	clear(d.out) // keeps no levels alive
	d.out, d.levels.free = d.out[:0], d.levels.free[:0]
	begin := 0
	for _, day := range d.days {
		var err error
		if d.out, err = decodeAppend(d.out, d.raw[begin:day.end], &d.levels); err != nil {
			return nil, fmt.Errorf("history of device %s on %s: %w", mac, DayStart(day.day).Format(time.DateOnly), err)
		}
		begin = day.end
	}
	rs := From(d.out, from)
	if !to.IsZero() {
		end, _ := slices.BinarySearchFunc(rs, to, func(r store.Reading, t time.Time) int { return r.At.Compare(t) })
		rs = rs[:end]
	}
	return rs, nil
}

// Days splits a device's readings into its days (Day), each encoded as
// Encode does, in order of time: the rows of its history. The readings
// may come in any order.
func Days(rs []store.Reading) (days []int64, data [][]byte) {
	rs = slices.Clone(rs)
	slices.SortStableFunc(rs, func(a, b store.Reading) int { return a.At.Compare(b.At) })
	for len(rs) > 0 {
		day := Day(rs[0].At)
		n := 1
		for n < len(rs) && Day(rs[n].At) == day {
			n++
		}
		days = append(days, day)
		data = append(data, Encode(rs[:n]))
		rs = rs[n:]
	}
	return days, data
}
