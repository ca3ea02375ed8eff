package report

import (
	"slices"
	"time"

	"washboard/internal/domain"
)

// Bucket is one hour of the period on the wall clock of the period's zone,
// [Start, End). The first and last buckets of a period that does not start
// or end on the hour are shorter; an hour that clocks skip has no bucket,
// and an hour they repeat has two.
type Bucket struct {
	Start, End time.Time
	// Label is the wall-clock time of Start, "15:04", preceded by the date,
	// "2 Jan 15:04", when the period is longer than 25 hours. The second
	// bucket with the same label (the hour repeated when clocks go back)
	// is labelled "02:00 (2nd)".
	Label string
	// Opened is the number of alerts opened in the bucket.
	Opened int
	// Resolved is the number of alerts resolved in the bucket.
	Resolved int
}

// hourly counts the alerts opened and resolved in each hour of p.
func hourly(alerts []domain.Alert, p Period) []Bucket {
	buckets := hours(p)
	for _, a := range alerts {
		if i, ok := bucketOf(buckets, a.Created); ok {
			buckets[i].Opened++
		}
		if r, ok := resolvedAt(a); ok {
			if i, ok := bucketOf(buckets, r); ok {
				buckets[i].Resolved++
			}
		}
	}
	return buckets
}

// hours divides p at each wall-clock hour of its zone.
func hours(p Period) []Bucket {
	layout := "15:04"
	if p.Duration() > 25*time.Hour {
		layout = "2 Jan 15:04"
	}
	loc := p.Start.Location()
	var buckets []Bucket
	seen := map[string]bool{}
	for start := p.Start.In(loc); start.Before(p.End); {
		end := nextHour(start)
		if end.After(p.End) {
			end = p.End
		}
		label := start.Format(layout)
		if seen[label] {
			label += " (2nd)"
		}
		seen[label] = true
		buckets = append(buckets, Bucket{Start: start, End: end, Label: label})
		start = end.In(loc)
	}
	return buckets
}

// nextHour returns the first instant after t at which the wall clock of
// t's location shows a full hour. Where the zone's offset changes within
// the hour, the count starts again from the wall time after the change.
func nextHour(t time.Time) time.Time {
	next := t.Add(time.Hour - pastHour(t))
	if _, change := t.ZoneBounds(); !change.IsZero() && change.Before(next) {
		after := change.In(t.Location())
		if past := pastHour(after); past != 0 {
			return after.Add(time.Hour - past)
		}
		return after
	}
	return next
}

// pastHour is how long ago t's wall clock showed the last full hour.
func pastHour(t time.Time) time.Duration {
	return time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second + time.Duration(t.Nanosecond())
}

// bucketOf returns the bucket t falls in.
func bucketOf(buckets []Bucket, t time.Time) (int, bool) {
	i, _ := slices.BinarySearchFunc(buckets, t, func(b Bucket, t time.Time) int {
		if !b.End.After(t) {
			return -1
		}
		return 1
	})
	return i, i < len(buckets) && buckets[i].Contains(t)
}

// Contains reports whether t falls in the bucket.
func (b Bucket) Contains(t time.Time) bool { return !t.Before(b.Start) && t.Before(b.End) }
