package i18n

import (
	"fmt"
	"time"
)

// dateLayouts are how each language writes a day, and a day and a time
// of day, as Go layouts after CLDR's medium forms: English
// "7 Nov 2026 14:05" (as Washboard always wrote it), German
// "07.11.2026, 14:05", Spanish "7/11/2026 14:05", French
// "07/11/2026 14:05". x/text formats numbers but not dates, and these few
// short forms need no more than a layout per language: a new language
// adds its own here (a test fails until it does).
var dateLayouts = map[string]struct{ date, dateTime string }{
	"en": {"2 Jan 2006", "2 Jan 2006 15:04"},
	"de": {"02.01.2006", "02.01.2006, 15:04"},
	"es": {"2/1/2006", "2/1/2006 15:04"},
	"fr": {"02/01/2006", "02/01/2006 15:04"},
}

// weekdays are the days' names in each language, Sunday first as Go's
// time.Weekday counts (CLDR's wide, stand-alone forms).
var weekdays = map[string][7]string{
	"en": {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"},
	"de": {"Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"},
	"es": {"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"},
	"fr": {"dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"},
}

func (l *Localizer) layouts() struct{ date, dateTime string } {
	if d, ok := dateLayouts[l.code]; ok {
		return d
	}
	return dateLayouts[Default]
}

// DateTime is t in zone (UTC when nil) as the language writes a day and a
// time of day.
func (l *Localizer) DateTime(t time.Time, zone *time.Location) string {
	return inZone(t, zone).Format(l.layouts().dateTime)
}

// Date is t's day in zone (UTC when nil) as the language writes it.
func (l *Localizer) Date(t time.Time, zone *time.Location) string {
	return inZone(t, zone).Format(l.layouts().date)
}

// Time is t's time of day in zone (UTC when nil), on a 24-hour clock as
// all four languages write it in Washboard: "14:05".
func (l *Localizer) Time(t time.Time, zone *time.Location) string {
	return inZone(t, zone).Format("15:04")
}

// Weekday is the day's name in the language: "Montag".
func (l *Localizer) Weekday(d time.Weekday) string {
	names, ok := weekdays[l.code]
	if !ok {
		names = weekdays[Default]
	}
	return names[d%7]
}

// Decimal is x with the given digits after the point, as the language
// writes it: 99.5 in English, 99,5 in German.
func (l *Localizer) Decimal(x float64, digits int) string {
	return l.printer.Sprintf(fmt.Sprintf("%%.%df", digits), x)
}

func inZone(t time.Time, zone *time.Location) time.Time {
	if zone == nil {
		zone = time.UTC
	}
	return t.In(zone)
}
