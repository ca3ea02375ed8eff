package reportmail

import (
	"errors"
	"net/mail"
	"slices"
	"strings"
	"time"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// The cadences of a schedule.
const (
	Weekly  = "weekly"
	Monthly = "monthly"
)

// Bounds of the schedules.
const (
	// MaxSchedules is how many schedules an account keeps.
	MaxSchedules = 20
	// MaxAddresses is how many addresses a schedule mails.
	MaxAddresses = 20
	// maxAddressChars bounds one address, as SMTP does.
	maxAddressChars = 254
	// SendHour is the hour of the account's day a report is sent, the
	// day after its period ends.
	SendHour = 6
)

// Problem is a schedule refused, in words, naming the field at fault.
type Problem struct {
	Field string // "cadence", "addresses" or "buildings"
	Msg   string
}

func (p *Problem) Error() string { return p.Msg }

// Input is a schedule as typed on the form.
type Input struct {
	Cadence   string
	Addresses string   // separated by commas, semicolons or lines
	Buildings []string // ids; none for all the buildings the person sees
	Language  string   // of the letters: a code of i18n.Languages
}

// ParseAddresses reads a list of addresses: each an e-mail address, "Name
// <a@example.com>" or a@example.com, separated by commas, semicolons or
// lines; at most MaxAddresses, each once. It returns the addresses alone;
// a problem is said in l's language.
func ParseAddresses(l *i18n.Localizer, text string) ([]string, error) {
	if len(text) > MaxAddresses*(maxAddressChars+2) {
		return nil, &Problem{"addresses", l.T("reportmail.problem_too_long", "max", l.Number(MaxAddresses))}
	}
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '\r' })
	var out []string
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		a, err := mail.ParseAddress(f)
		if err != nil || len(a.Address) > maxAddressChars || !strings.Contains(a.Address[strings.LastIndexByte(a.Address, '@')+1:], ".") {
			return nil, &Problem{"addresses", l.T("reportmail.problem_address", "address", clip(f))}
		}
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, a.Address) }) {
			out = append(out, a.Address)
		}
	}
	switch {
	case len(out) == 0:
		return nil, &Problem{"addresses", l.T("reportmail.problem_no_address")}
	case len(out) > MaxAddresses:
		return nil, &Problem{"addresses", l.T("reportmail.problem_too_many", "max", l.Number(MaxAddresses), "count", l.Number(len(out)))}
	}
	return out, nil
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// checkInput reads a schedule: its cadence, its addresses, its
// buildings, each one of the account's (known) that the scope sees (a
// person who sees only some buildings names some), and its language. A
// problem is said in l's language.
func checkInput(l *i18n.Localizer, in Input, sc domain.BuildingScope, known []domain.Building) (cadence string, addresses, buildings []string, err error) {
	if in.Cadence != Weekly && in.Cadence != Monthly {
		return "", nil, nil, &Problem{"cadence", l.T("reportmail.problem_cadence")}
	}
	if addresses, err = ParseAddresses(l, in.Addresses); err != nil {
		return "", nil, nil, err
	}
	if len(in.Buildings) > len(known) {
		return "", nil, nil, &Problem{"buildings", l.T("reportmail.problem_buildings_too_many")}
	}
	for _, id := range in.Buildings {
		if !slices.ContainsFunc(known, func(b domain.Building) bool { return b.ID == id }) || !sc.Sees(id) {
			return "", nil, nil, &Problem{"buildings", l.T("reportmail.problem_building_unknown")}
		}
		if !slices.Contains(buildings, id) {
			buildings = append(buildings, id)
		}
	}
	if len(buildings) == 0 && sc.Limited() {
		return "", nil, nil, &Problem{"buildings", l.T("reportmail.problem_buildings_limited")}
	}
	if !i18n.Known(in.Language) {
		return "", nil, nil, &Problem{"language", l.T("reportmail.problem_language", "codes", strings.Join(i18n.Codes(), ", "))}
	}
	return in.Cadence, addresses, buildings, nil
}

// Due is the latest period of the cadence whose report is due at now in
// zone: the week (Monday to Sunday) or month that ended before the last
// SendHour of a Monday or of a 1st.
func Due(cadence string, now time.Time, zone *time.Location) (clientreport.Period, error) {
	local := now.In(zone)
	y, m, d := local.Date()
	switch cadence {
	case Weekly:
		monday := time.Date(y, m, d-(int(local.Weekday())+6)%7, 0, 0, 0, 0, zone)
		if local.Before(time.Date(monday.Year(), monday.Month(), monday.Day(), SendHour, 0, 0, 0, zone)) {
			monday = monday.AddDate(0, 0, -7)
		}
		return clientreport.Period{From: monday.AddDate(0, 0, -7), To: monday}, nil
	case Monthly:
		first := time.Date(y, m, 1, 0, 0, 0, 0, zone)
		if local.Before(time.Date(y, m, 1, SendHour, 0, 0, 0, zone)) {
			first = first.AddDate(0, -1, 0)
		}
		return clientreport.MonthOf(first.AddDate(0, 0, -1), zone), nil
	}
	return clientreport.Period{}, errors.New("the cadence " + clip(cadence) + " is not weekly or monthly")
}

// periodKey names a period in the record of its sending: 2026-11 for a
// month, 2026-11-16 for the week from that Monday.
func periodKey(p clientreport.Period) string {
	if p.Month {
		return p.From.Format("2006-01")
	}
	return p.From.Format(time.DateOnly)
}
