package visitors

import (
	"cmp"
	"slices"
	"time"

	"washboard/internal/domain"
)

// WeekRating is what visitors rated in one week, from Monday 00:00 in the
// zone asked for: how many ratings, and their average.
type WeekRating struct {
	Week    time.Time
	Count   int
	Average float64
}

// RoomRating is what visitors rated a room: how many ratings, and their
// average.
type RoomRating struct {
	RoomID  string
	Count   int
	Average float64
}

// weekOf is the Monday 00:00, in zone, of the week t is in.
func weekOf(t time.Time, zone *time.Location) time.Time {
	l := t.In(zone)
	day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, zone)
	return day.AddDate(0, 0, -(int(day.Weekday())+6)%7)
}

// ByWeek adds up ratings, or days of ratings, by week in zone: the weeks
// that have one, oldest first.
func ByWeek(days []domain.DailyRating, zone *time.Location) []WeekRating {
	var out []WeekRating
	sums := map[time.Time]float64{}
	for _, d := range days {
		w := weekOf(d.Day, zone)
		if n := len(out); n == 0 || !out[n-1].Week.Equal(w) {
			out = append(out, WeekRating{Week: w})
		}
		out[len(out)-1].Count += d.Count
		sums[w] += d.Average * float64(d.Count)
	}
	for i, w := range out {
		out[i].Average = sums[w.Week] / float64(w.Count)
	}
	return out
}

// Daily adds up ratings by day in zone, oldest first: what ByWeek adds
// up by week.
func Daily(rs []domain.Rating, zone *time.Location) []domain.DailyRating {
	var out []domain.DailyRating
	sums := map[time.Time]int{}
	for _, r := range rs {
		l := r.At.In(zone)
		day := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, zone)
		if n := len(out); n == 0 || !out[n-1].Day.Equal(day) {
			out = append(out, domain.DailyRating{Day: day})
		}
		out[len(out)-1].Count++
		sums[day] += r.Rating
	}
	for i, d := range out {
		out[i].Average = float64(sums[d.Day]) / float64(d.Count)
	}
	return out
}

// ByRoom adds up ratings by room, the lowest average first (of equal
// averages, the most rated first, then by room id).
func ByRoom(rs []domain.Rating) []RoomRating {
	sums := map[string]*RoomRating{}
	var out []RoomRating
	for _, r := range rs {
		s := sums[r.RoomID]
		if s == nil {
			s = &RoomRating{RoomID: r.RoomID}
			sums[r.RoomID] = s
		}
		s.Count++
		s.Average += float64(r.Rating)
	}
	for _, s := range sums {
		s.Average /= float64(s.Count)
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b RoomRating) int {
		return cmp.Or(cmp.Compare(a.Average, b.Average), cmp.Compare(b.Count, a.Count), cmp.Compare(a.RoomID, b.RoomID))
	})
	return out
}
