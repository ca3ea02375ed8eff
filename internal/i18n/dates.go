package i18n

import "time"

// dateTimeLayouts are how each language writes a day and a time of day,
// as Go layouts after CLDR's medium forms: English "7 Nov 2026 14:05" (as
// Washboard always wrote it), German "07.11.2026, 14:05", Spanish
// "7/11/2026 14:05", French "07/11/2026 14:05".
// x/text formats numbers but not dates, and these few short forms need no
// more than a layout per language: a new language adds its own here (a
// test fails until it does).
var dateTimeLayouts = map[string]string{
	"en": "2 Jan 2006 15:04",
	"de": "02.01.2006, 15:04",
	"es": "2/1/2006 15:04",
	"fr": "02/01/2006 15:04",
}

// DateTime is t in zone (UTC when nil) as the language writes a day and a
// time of day.
func (l *Localizer) DateTime(t time.Time, zone *time.Location) string {
	if zone == nil {
		zone = time.UTC
	}
	layout, ok := dateTimeLayouts[l.code]
	if !ok {
		layout = dateTimeLayouts[Default]
	}
	return t.In(zone).Format(layout)
}
