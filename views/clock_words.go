package views

import (
	"context"
	"strings"
	"time"
)

// levelExplanation says where a service level's clock stopped: in the
// page's language when the page has it as a value (an open alert), else
// as the kept measure says it.
func levelExplanation(ctx context.Context, l *Level) string {
	if l.Clock == nil {
		return l.Explanation
	}
	return clockWords(ctx, *l.Clock)
}

// clockWords says where the clock stopped in a sentence: "The clock
// stopped for 8 h: 22:00–06:00 outside service hours." or "The clock
// stopped for 1 d 8 h: 24 Dec 22:00–26 Dec 06:00 outside service hours
// and on 25 Dec, a holiday.", and when it runs again.
func clockWords(ctx context.Context, c ClockStops) string {
	resumes := ""
	if !c.Resumes.IsZero() {
		t := in(c.Resumes, c.Zone)
		resumes = " " + tr(ctx, "clock.resumes", "time", t.Format("15:04"), "weekday", weekdayShort(ctx, t.Weekday()),
			"day", t.Day(), "month", monthShort(ctx, t.Month()))
	}
	if len(c.Stops) == 0 {
		return tr(ctx, "clock.did_not_stop") + resumes
	}
	var labels []string
	counts := map[string]int{}
	var holidays []string
	for _, s := range c.Stops {
		for _, d := range s.Holidays {
			holidays = append(holidays, tr(ctx, "clock.day", "day", d.Day(), "month", monthShort(ctx, d.Month())))
		}
		if s.OnlyHolidays {
			continue
		}
		l := clockStopLabel(ctx, s, c.Zone)
		if counts[l] == 0 {
			labels = append(labels, l)
		}
		counts[l]++
	}
	for i, l := range labels {
		switch n := counts[l]; n {
		case 1:
		case 2:
			labels[i] = tr(ctx, "clock.twice", "times", l)
		default:
			labels[i] = trn(ctx, "clock.times", n, "times", l)
		}
	}
	if c.More > 0 {
		labels = append(labels, trn(ctx, "clock.more_stops", c.More))
	}
	var why []string
	if len(labels) > 0 {
		why = append(why, tr(ctx, "clock.outside_hours", "times", clockList(ctx, labels)))
	}
	if len(holidays) > 0 {
		why = append(why, trn(ctx, "clock.on_holidays", len(holidays), "dates", clockList(ctx, holidays)))
	}
	reason := clockList(ctx, why)
	return tr(ctx, "clock.stopped", "duration", clockDuration(ctx, c.Stopped), "why", reason) + resumes
}

// clockStopLabel writes a stop as its wall-clock times, "22:00–06:00",
// when it lasts less than a day; with days, "24 Dec 22:00–26 Dec 06:00",
// when longer or over a holiday.
func clockStopLabel(ctx context.Context, s ClockStop, zone *time.Location) string {
	from, to := in(s.From, zone), in(s.To, zone)
	if len(s.Holidays) == 0 && s.To.Sub(s.From) < 24*time.Hour {
		return from.Format("15:04") + "–" + to.Format("15:04")
	}
	at := func(t time.Time) string {
		return tr(ctx, "clock.day_time", "day", t.Day(), "month", monthShort(ctx, t.Month()), "time", t.Format("15:04"))
	}
	return at(from) + "–" + at(to)
}

// clockList joins "a", "b" and "c" as a sentence does.
func clockList(ctx context.Context, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return tr(ctx, "clock.list", "first", strings.Join(items[:len(items)-1], ", "), "last", items[len(items)-1])
}

// clockDuration is how long the clock stood still, to the minute: "45
// min", "1 h 30 min", "2 d 3 h"; under a minute, in seconds.
func clockDuration(ctx context.Context, d time.Duration) string {
	if d < time.Minute {
		return trn(ctx, "clock.seconds", int(d/time.Second))
	}
	m := int(d / time.Minute)
	days, hours, mins := m/(24*60), m/60%24, m%60
	var parts []string
	if days > 0 {
		parts = append(parts, trn(ctx, "clock.days", days))
	}
	if hours > 0 {
		parts = append(parts, trn(ctx, "format.hours", hours))
	}
	if mins > 0 && days == 0 {
		parts = append(parts, trn(ctx, "format.minutes", mins))
	}
	return strings.Join(parts, " ")
}
