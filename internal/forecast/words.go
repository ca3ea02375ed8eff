package forecast

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Words says the estimate as a supervisor reads it, in English, counted
// from now: "about 3 h, between 2 and 5 h"; "roughly 3 days, between 2
// and 5 days" when it rests only on past alerts; "any time now, within
// 40 min"; "out for 2 h". It is empty when there is no estimate. The
// pages say the same Phrase in their reader's language.
func (e Estimate) Words(now time.Time) string {
	p := e.Phrase(now)
	var point string
	switch p.Point {
	case PointNone:
		return ""
	case PointOut:
		return "out"
	case PointOutFor:
		return "out for " + p.At.English()
	case PointAnyTime:
		point = "any time now"
	case PointRoughly:
		point = "roughly " + p.At.English()
	default:
		point = "about " + p.At.English()
	}
	switch {
	case p.Upper.N == 0:
		return point
	case p.Lower.N < 0:
		return point + ", within " + p.Upper.English()
	}
	return point + ", between " + Between(p.Lower.English(), p.Upper.English()) + " and " + p.Upper.English()
}

// Phrase is what an estimate says, counted from now, in numbers that
// each language words: its likely time (Point, At) and the range around
// it, rounded outwards, so that the words never claim more certainty than
// the estimate.
type Phrase struct {
	Point PointKind
	At    Amount // the likely time, or how long the dispenser has been out
	// Upper is the latest, zero when the range says no more than the
	// point; Lower is the earliest, N -1 when it is within minutes from
	// now (the range is "within Upper").
	Lower, Upper Amount
}

// PointKind is how sure the likely time is.
type PointKind int

// The kinds of likely time.
const (
	PointNone    PointKind = iota // no estimate
	PointOut                      // reported out, just now
	PointOutFor                   // reported out, for At
	PointAnyTime                  // within five minutes
	PointAbout                    // in about At, from the levels
	PointRoughly                  // in roughly At, from past alerts only
)

// Amount is a length of time in the unit it is said in: minutes (in
// fives) below an hour, hours below two days, days beyond.
type Amount struct {
	N    int
	Unit string // "min", "h" or "days"
}

// English is the amount in English: "40 min", "3 h", "1 day".
func (a Amount) English() string {
	switch {
	case a.Unit != "days":
		return strconv.Itoa(a.N) + " " + a.Unit
	case a.N == 1:
		return "1 day"
	}
	return strconv.Itoa(a.N) + " days"
}

// Between is the lower end of a range as said before its upper end: its
// number alone when both say the same unit ("2" of "2 h" before "5 h"),
// all of it otherwise ("20 h" before "3 days").
func Between(lower, upper string) string {
	n, unit, _ := strings.Cut(lower, " ")
	if _, upperUnit, _ := strings.Cut(upper, " "); unit == upperUnit {
		return n
	}
	return lower
}

// Phrase is the estimate counted from now.
func (e Estimate) Phrase(now time.Time) Phrase {
	switch e.Basis {
	case TooLittleData:
		return Phrase{}
	case ReportedOut:
		if d := now.Sub(e.At); d >= time.Minute {
			return Phrase{Point: PointOutFor, At: amount(d, math.Round)}
		}
		return Phrase{Point: PointOut}
	}
	at, lo, hi := e.At.Sub(now), e.Earliest.Sub(now), e.Latest.Sub(now)
	p := Phrase{Point: PointAbout, At: amount(at, math.Round)}
	if e.Basis == FromAlerts {
		p.Point = PointRoughly
	}
	if at < 5*time.Minute {
		p.Point = PointAnyTime
	}
	p.Upper = amount(hi, math.Ceil)
	if lo < 5*time.Minute {
		p.Lower = Amount{N: -1}
		return p
	}
	p.Lower = amount(lo, math.Floor)
	if p.Lower == p.Upper {
		p.Lower, p.Upper = Amount{}, Amount{}
	}
	return p
}

// amount says d in minutes (in fives) below an hour, in hours below two
// days, and in days beyond, rounded by round.
func amount(d time.Duration, round func(float64) float64) Amount {
	switch unitOf(d) {
	case "min":
		return Amount{max(5, int(round(d.Minutes()/5))*5), "min"}
	case "h":
		return Amount{int(round(d.Hours())), "h"}
	}
	return Amount{int(round(d.Hours() / 24)), "days"}
}

func unitOf(d time.Duration) string {
	switch {
	case d < time.Hour:
		return "min"
	case d < 48*time.Hour:
		return "h"
	}
	return "days"
}
