package views

import "time"

// ReportMail is the page of the client report's schedules by e-mail: the
// schedules, a form to add one, and the last sendings.
type ReportMail struct {
	Page
	// Ready says the server sends mail; otherwise the page says how to
	// set it up and offers no form.
	Ready     bool
	Schedules []ReportScheduleRow
	Sendings  []ReportSendingRow
	// Buildings are the buildings the person may choose; Limited says
	// they see only these, and must choose.
	Buildings []Option
	Limited   bool
	// The form as typed, and what is wrong with it.
	Cadence, Addresses string
	Language           string // the language of the letters, a code of i18n.Languages
	Chosen             []string
	Field, Problem     string
	// Editing is the id of the schedule the form changes; "" when it
	// adds one.
	Editing                 string
	Saved, Changed, Removed bool
	MaxAddresses            int
	MaxSchedules            int
	Zone                    *time.Location // the account's: when reports are sent
}

// ReportScheduleRow is a schedule, in words.
type ReportScheduleRow struct {
	ID        string
	Every     string // "Every week (Monday to Sunday), sent Monday 06:00"
	Addresses string // "ops@client.example, boss@client.example"
	Buildings string // "All buildings", or their names
	Language  string // the language of its letters: "de"
	Made      string // "by Ana, 18 Nov 2026"
}

// ReportSendingRow is a sending, in words.
type ReportSendingRow struct {
	Period   string // "16 Nov 2026 – 22 Nov 2026"
	Schedule string // whose: the schedule's cadence and first address
	When     time.Time
	To       string // "2 addresses", "1 of 2 addresses"
	State    string // "sent", "retrying", "partly sent", "failed"
	Label    string // the state in words
	Attempts int
	Detail   string
}
