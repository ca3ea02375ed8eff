package upstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The readers in this file take one JSON value as the service sent it and
// accept every shape the spec, its samples or a drifting service use for
// it. Each returns an error only when no accepted shape fits; null, and
// for scalars an empty string, read as "no value".
//
// A scalar may also come as a one-element array holding it: ["87"] reads
// as "87".

// object is a JSON object being decoded: known members are taken out of it
// one by one, and what remains is kept as the record's Extra.
type object map[string]json.RawMessage

// readObject reads a JSON object of at most maxMembers members.
func readObject(raw json.RawMessage) (object, error) {
	if lead(raw) != '{' {
		return nil, fmt.Errorf("want an object, got %s", describe(raw))
	}
	if n, _ := count(raw); n > maxMembers {
		return nil, fmt.Errorf("want at most %s members, got an object of %s", thousands(maxMembers), thousands(n))
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	return o, nil
}

// take removes a member and returns it, or nil and false when absent.
func (o object) take(name string) (json.RawMessage, bool) {
	v, ok := o[name]
	if ok {
		delete(o, name)
	}
	return v, ok
}

// extra returns the members not taken, or nil when there are none.
func (o object) extra() map[string]json.RawMessage {
	if len(o) == 0 {
		return nil
	}
	return o
}

// fieldError names the member whose value could not be read.
func fieldError(name string, err error) error { return fmt.Errorf("%s: %w", name, err) }

// lead returns the first byte of a JSON value, or 0 for an empty one.
func lead(raw json.RawMessage) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func isNumberLead(c byte) bool { return c == '-' || (c >= '0' && c <= '9') }

// describe shows a value briefly in an error message.
func describe(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	switch c := lead(raw); {
	case c == 0:
		return "nothing"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	}
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// unwrapOne returns the element of a one-element array, null for an empty
// array, and any other value as it is.
func unwrapOne(raw json.RawMessage) (json.RawMessage, error) {
	if lead(raw) != '[' {
		return raw, nil
	}
	if n, _ := count(raw); n > 1 {
		return nil, fmt.Errorf("want one value, got an array of %s", thousands(n))
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, err
	}
	if len(elems) == 0 {
		return json.RawMessage("null"), nil
	}
	if lead(elems[0]) == '[' {
		return nil, errors.New("want one value, got nested arrays")
	}
	return elems[0], nil
}

// readString reads a string. A number reads as its text, so that
// identifiers sent as numbers keep every digit.
func readString(raw json.RawMessage) (string, error) {
	raw, err := unwrapOne(raw)
	if err != nil {
		return "", err
	}
	switch c := lead(raw); {
	case c == 'n':
		return "", json.Unmarshal(raw, new(struct{}))
	case c == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return strings.TrimSpace(s), nil
	case isNumberLead(c):
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return "", err
		}
		return n.String(), nil
	}
	return "", fmt.Errorf("want a string, got %s", describe(raw))
}

// readStrings reads a list of strings: an array of strings (or numbers), or
// a single string. Empty strings are left out.
func readStrings(raw json.RawMessage) ([]string, error) {
	if lead(raw) != '[' {
		s, err := readString(raw)
		if err != nil || s == "" {
			return nil, err
		}
		return []string{s}, nil
	}
	elems, err := readArray(raw, maxList)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, e := range elems {
		if lead(e) == '[' {
			return nil, fmt.Errorf("element %d: want a string, got an array", i)
		}
		s, err := readString(e)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// maxExactInt bounds the integers read, so that every one survives a trip
// through float64 and fits an int everywhere.
const maxExactInt = 1 << 53

// parseNumber reads the text of a finite number.
func parseNumber(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" || !(isNumberLead(s[0]) || s[0] == '+' || s[0] == '.') {
		return 0, fmt.Errorf("want a number, got %q", s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("want a number, got %q", s)
	}
	return f, nil
}

// readInt reads an integer: a JSON number or a string holding one. A
// fraction is rounded to the nearest integer. ok is false for null and "".
func readInt(raw json.RawMessage) (n int, ok bool, err error) {
	raw, err = unwrapOne(raw)
	if err != nil {
		return 0, false, err
	}
	var text string
	switch c := lead(raw); {
	case c == 'n':
		return 0, false, json.Unmarshal(raw, new(struct{}))
	case c == '"':
		if err := json.Unmarshal(raw, &text); err != nil {
			return 0, false, err
		}
		if strings.TrimSpace(text) == "" {
			return 0, false, nil
		}
	case isNumberLead(c):
		text = string(bytes.TrimSpace(raw))
	default:
		return 0, false, fmt.Errorf("want a number, got %s", describe(raw))
	}
	f, err := parseNumber(text)
	if err != nil {
		return 0, false, err
	}
	f = math.Round(f)
	if math.Abs(f) > maxExactInt {
		return 0, false, fmt.Errorf("number %s out of range", text)
	}
	return int(f), true, nil
}

// readInts reads a list of integers: an array whose elements are numbers or
// strings holding numbers, or a single such value.
func readInts(raw json.RawMessage) ([]int, error) {
	switch lead(raw) {
	case 'n':
		return nil, json.Unmarshal(raw, new(struct{}))
	case '[':
	default:
		n, ok, err := readInt(raw)
		if err != nil || !ok {
			return nil, err
		}
		return []int{n}, nil
	}
	elems, err := readArray(raw, maxList)
	if err != nil {
		return nil, err
	}
	out := make([]int, 0, len(elems))
	for i, e := range elems {
		if lead(e) == '[' {
			return nil, fmt.Errorf("element %d: want a number, got an array", i)
		}
		n, ok, err := readInt(e)
		if err == nil && !ok {
			err = errors.New("want a number, got nothing")
		}
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// readBool reads one boolean: true or false, the strings "true", "false",
// "1" and "0" in any case, the numbers 1 and 0. null reads as false.
func readBool(raw json.RawMessage) (bool, error) {
	switch c := lead(raw); {
	case c == 'n':
		return false, json.Unmarshal(raw, new(struct{}))
	case c == 't' || c == 'f':
		var b bool
		err := json.Unmarshal(raw, &b)
		return b, err
	case c == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return false, err
		}
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true", "1":
			return true, nil
		case "false", "0", "":
			return false, nil
		}
		return false, fmt.Errorf("want a boolean, got %q", s)
	case isNumberLead(c):
		switch f, err := parseNumber(string(raw)); {
		case err != nil:
			return false, err
		case f == 1:
			return true, nil
		case f == 0:
			return false, nil
		}
	}
	return false, fmt.Errorf("want a boolean, got %s", describe(raw))
}

// readBools reads a list of booleans: an array of booleans (each read as
// readBool does) or a single boolean. null reads as no values.
func readBools(raw json.RawMessage) ([]bool, error) {
	switch lead(raw) {
	case 'n':
		return nil, json.Unmarshal(raw, new(struct{}))
	case '[':
	default:
		b, err := readBool(raw)
		if err != nil {
			return nil, err
		}
		return []bool{b}, nil
	}
	elems, err := readArray(raw, maxList)
	if err != nil {
		return nil, err
	}
	out := make([]bool, 0, len(elems))
	for i, e := range elems {
		b, err := readBool(e)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out = append(out, b)
	}
	return out, nil
}

// anyTrue reports whether any of bs is true.
func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// timeLayouts are the ISO 8601 forms a timestamp string may take. Parsing
// accepts fractional seconds after the seconds whether or not a layout
// shows them. A time without a zone is taken as UTC.
var timeLayouts = []string{
	time.RFC3339,                // 2026-11-22T09:15:00.000Z, 2026-11-22T10:15:00+01:00
	"2006-01-02T15:04:05Z0700",  // +0100
	"2006-01-02T15:04:05Z07",    // +01
	"2006-01-02T15:04:05",       // no zone
	"2006-01-02 15:04:05Z07:00", // a space for the T
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04Z07:00", // no seconds
	"2006-01-02T15:04",
	"2006-01-02", // a date: its midnight UTC
}

// Timestamps outside the years 1 to 9999 are refused, so that every time
// read can be formatted and stored.
var (
	minTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC)
)

// secondsBelow is the magnitude under which a numeric timestamp is taken as
// Unix seconds rather than milliseconds: 1e11 ms is March 1973, 1e11 s
// the year 5138.
const secondsBelow = 1e11

// readTime reads a timestamp in UTC: an ISO 8601 string (see timeLayouts),
// or Unix milliseconds as a number or a string holding one. null, "" and 0
// read as the zero time.
func readTime(raw json.RawMessage) (time.Time, error) {
	raw, err := unwrapOne(raw)
	if err != nil {
		return time.Time{}, err
	}
	switch c := lead(raw); {
	case c == 'n':
		return time.Time{}, json.Unmarshal(raw, new(struct{}))
	case isNumberLead(c):
		return fromMillis(string(bytes.TrimSpace(raw)))
	case c != '"':
		return time.Time{}, fmt.Errorf("want a timestamp, got %s", describe(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return time.Time{}, err
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if isNumberLead(s[0]) && !strings.Contains(s[1:], "-") && !strings.Contains(s, ":") {
		return fromMillis(s)
	}
	for _, layout := range timeLayouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if t.Before(minTime) || t.After(maxTime) {
			return time.Time{}, fmt.Errorf("timestamp %q out of range", s)
		}
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("want a timestamp, got %q", s)
}

// fromMillis reads Unix milliseconds (seconds below secondsBelow).
func fromMillis(s string) (time.Time, error) {
	f, err := parseNumber(s)
	if err != nil {
		return time.Time{}, err
	}
	if f == 0 {
		return time.Time{}, nil
	}
	if math.Abs(f) < secondsBelow {
		f *= 1000
	}
	f = math.Round(f)
	if f < float64(minTime.UnixMilli()) || f > float64(maxTime.UnixMilli()) {
		return time.Time{}, fmt.Errorf("timestamp %s out of range", s)
	}
	return time.UnixMilli(int64(f)).UTC(), nil
}

// upper returns s in upper case, for values the service spells in either
// case.
func upper(s string) string { return strings.ToUpper(s) }

// skipLog counts the elements of a page that could not be read and keeps
// the reasons of the first few.
type skipLog struct {
	count   int
	reasons []string
}

// maxSkipReasons is how many reasons a page keeps.
const maxSkipReasons = 5

func (l *skipLog) add(where string, i int, err error) {
	l.count++
	if len(l.reasons) < maxSkipReasons {
		l.reasons = append(l.reasons, fmt.Sprintf("%s[%d]: %v", where, i, err))
	}
}

// noneRead is the error of a page of received records none of which
// could be read: the service no longer sends what the client reads, and a
// page taken as empty would pass for an account that has nothing (and,
// its records having no identifiers, for a page unlike the one before).
// A page of a single record is left as it is: one record that cannot be
// read says nothing of the others.
func (l *skipLog) noneRead(received int) error {
	if received < 2 || l.count < received {
		return nil
	}
	why := strings.Join(l.reasons, "; ")
	if more := l.count - len(l.reasons); more > 0 {
		why += fmt.Sprintf("; and %s more", thousands(more))
	}
	return &Error{Kind: KindUnreadable,
		Message: fmt.Sprintf("none of the %s records could be read (%s)", thousands(received), why)}
}

// Bounds of what one answer may hold, so that what the client keeps in
// memory grows with what a page can sensibly hold, not with what the
// service sends: a page of ten million empty records fits the body limit
// in 30 MB and took gigabytes to decode.
const (
	// maxList bounds an array inside a record: compartments, MACs, fault
	// flags, the device states of a location, the locations of a room.
	maxList = 256
	// maxMembers bounds the members of an object.
	maxMembers = 256
	// valuesPerRecord bounds the JSON values of a page (every number,
	// string, array and so on, at any depth), for each record it may
	// hold: a page of 1,000 of the simulator's devices holds about 38,000.
	valuesPerRecord = 50
)

// readArray reads an array of at most limit elements; null reads as
// empty. The elements are counted before any is decoded.
func readArray(raw json.RawMessage, limit int) ([]json.RawMessage, error) {
	switch lead(raw) {
	case 'n':
		return nil, json.Unmarshal(raw, new(struct{}))
	case '[':
		if n, _ := count(raw); n > limit {
			return nil, fmt.Errorf("want at most %s values, got an array of %s", thousands(limit), thousands(n))
		}
		var elems []json.RawMessage
		err := json.Unmarshal(raw, &elems)
		return elems, err
	}
	return nil, fmt.Errorf("want an array, got %s", describe(raw))
}

// readRecords reads the array of a page's records: raw, the member name
// of body, or body itself when name is empty. A member that is absent or
// null reads as no records. A page of more than limit records, or of more
// than valuesPerRecord JSON values for each of them, is refused whole
// with a KindTooLarge error, before anything is decoded.
func readRecords(body, raw json.RawMessage, name string, limit int) ([]json.RawMessage, error) {
	if lead(raw) == '[' {
		if n, _ := count(raw); n > limit {
			return nil, &Error{Kind: KindTooLarge,
				Message: fmt.Sprintf("%s records, more than the %s a page may hold", thousands(n), thousands(limit))}
		}
	}
	if _, n := count(body); n > limit*valuesPerRecord {
		return nil, &Error{Kind: KindTooLarge,
			Message: fmt.Sprintf("%s JSON values, more than the %s a page may hold", thousands(n), thousands(limit*valuesPerRecord))}
	}
	if raw == nil {
		return nil, nil
	}
	elems, err := readArray(raw, limit)
	if err != nil && name != "" {
		return nil, fieldError(name, err)
	}
	return elems, err
}

// count reads the JSON value raw begins with, without allocating, and
// returns how many elements it holds if it is an array, or members if it
// is an object, and how many values it holds at any depth, itself
// included. It counts a value for each comma and each array or object
// that is not empty, outside strings: it takes raw to be valid JSON, which
// json.Unmarshal checks afterwards, and for anything else returns counts
// that mean nothing but are still bounded by raw's length.
func count(raw []byte) (elems, values int) {
	depth := 0
	inString, escaped := false, false
	opened := false // the last byte, spaces aside, opened an array or object
	for _, c := range raw {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if opened && c != ']' && c != '}' {
			values++ // the first element or member of the one just opened
			if depth == 1 {
				elems++
			}
		}
		opened = false
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			opened = true
		case ']', '}':
			if depth--; depth <= 0 {
				return elems, values + 1
			}
		case ',':
			values++
			if depth == 1 {
				elems++
			}
		}
	}
	return elems, values + 1
}

// thousands writes n with thousands separators: 10,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
