package forecast

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Words says the estimate as a supervisor reads it, counted from now:
// "about 3 h, between 2 and 5 h"; "roughly 3 days, between 2 and 5 days"
// when it rests only on past alerts; "any time now, within 40 min"; "out
// for 2 h". The range is rounded outwards, so that the words never claim
// more certainty than the estimate. It is empty when there is no estimate.
func (e Estimate) Words(now time.Time) string {
	switch e.Basis {
	case TooLittleData:
		return ""
	case ReportedOut:
		if d := now.Sub(e.At); d >= time.Minute {
			return "out for " + amount(d, math.Round)
		}
		return "out"
	}
	at, lo, hi := e.At.Sub(now), e.Earliest.Sub(now), e.Latest.Sub(now)
	point := "about " + amount(at, math.Round)
	if e.Basis == FromAlerts {
		point = "roughly " + amount(at, math.Round)
	}
	if at < 5*time.Minute {
		point = "any time now"
	}
	upper := amount(hi, math.Ceil)
	if lo < 5*time.Minute {
		return point + ", within " + upper
	}
	lower := amount(lo, math.Floor)
	if lower == upper {
		return point
	}
	n, unit, _ := strings.Cut(lower, " ")
	if _, upperUnit, _ := strings.Cut(upper, " "); unit == upperUnit {
		lower = n
	}
	return point + ", between " + lower + " and " + upper
}

// amount says d in minutes (in fives) below an hour, in hours below two
// days, and in days beyond, rounded by round.
func amount(d time.Duration, round func(float64) float64) string {
	switch unitOf(d) {
	case "min":
		return strconv.Itoa(max(5, int(round(d.Minutes()/5))*5)) + " min"
	case "h":
		return strconv.Itoa(int(round(d.Hours()))) + " h"
	}
	n := int(round(d.Hours() / 24))
	if n == 1 {
		return "1 day"
	}
	return strconv.Itoa(n) + " days"
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
