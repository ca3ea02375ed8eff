package clientreport

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/servicelevel"
)

// MaxPDFRows is how many rows a table of the PDF has at most; the rest
// are counted in a line below it (the CSV has them all).
const MaxPDFRows = 100

// PDF is what the PDF of a report says besides the report: whose it is
// and when it was made.
type PDF struct {
	Account   string // the account's name
	Scope     string // "All buildings", or the buildings a person sees
	Zone      *time.Location
	Generated time.Time
	// Words is the language of the PDF; English when nil.
	Words *i18n.Localizer
}

// WritePDF writes the report as an A4 PDF, in the language of
// meta.Words. The PDF's built-in fonts write Windows-1252, which holds
// the letters of the four languages (é, ü, ñ, ß, « », the no-break
// space); text outside it is written as question marks.
func (r Report) WritePDF(w io.Writer, meta PDF) error {
	l := meta.Words
	if l == nil {
		l = i18n.For("en")
	}
	period, prior := r.Period.In(l), r.Prior.In(l)
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(meta.Generated)
	pdf.SetModificationDate(meta.Generated)
	pdf.SetLang(l.Lang())
	pdf.SetTitle(l.T("pdf.title", "account", meta.Account, "period", period), true)
	pdf.SetMargins(15, 15, 15)
	pdf.SetAutoPageBreak(true, 15)
	translate := pdf.UnicodeTranslatorFromDescriptor("")
	tr := func(s string) string { return translate(s) }
	// fit cuts a cell's text to its width, ending it with "...".
	fit := func(s string, w float64) string {
		s = tr(s)
		if pdf.GetStringWidth(s) <= w-1 {
			return s
		}
		for len(s) > 0 && pdf.GetStringWidth(s+"...") > w-1 { // one byte a letter in the fonts' encoding
			s = s[:len(s)-1]
		}
		return s + "..."
	}
	pdf.SetFooterFunc(func() {
		pdf.SetY(-12)
		pdf.SetFont("Helvetica", "", 8)
		pdf.CellFormat(0, 5, tr(l.T("pdf.footer", "account", meta.Account, "period", period, "page", l.Number(pdf.PageNo()))), "", 0, "C", false, 0, "")
	})
	pdf.AddPage()

	text := func(size float64, style, s string) {
		pdf.SetFont("Helvetica", style, size)
		pdf.MultiCell(0, size*0.5, tr(s), "", "L", false)
	}
	heading := func(s string) {
		pdf.Ln(3)
		text(12, "B", s)
		pdf.Ln(1)
	}
	text(16, "B", l.T("pdf.heading", "account", meta.Account))
	text(10, "", l.T("pdf.period", "period", period, "zone", meta.Zone.String(), "scope", meta.Scope))
	text(9, "", l.T("pdf.generated", "at", l.DateTime(meta.Generated, meta.Zone)+" "+meta.Generated.In(meta.Zone).Format("MST")))
	pdf.Ln(2)
	if !r.Set {
		text(11, "", l.T("client.no_level"))
		r.writeOuts(l, pdf, text, heading, fit)
		r.writeService(l, pdf, text, heading, fit)
		r.writeChecks(l, text, heading)
		r.writeRatings(l, pdf, text, heading, fit)
		return pdf.Output(w)
	}
	for _, line := range r.Summary(l) {
		text(10, "", line)
	}

	widths := []float64{40, 14, 28, 18, 18, 28, 17, 17}
	header := []string{"", l.T("pdf.alerts"), l.T("pdf.claimed_in_time"), l.T("pdf.median"), l.T("pdf.p90"), l.T("pdf.resolved_in_time"), l.T("pdf.median"), l.T("pdf.p90")}
	table := func(first string, rows [][]string) {
		pdf.SetFont("Helvetica", "B", 8)
		header[0] = first
		for i, h := range header {
			pdf.CellFormat(widths[i], 6, fit(h, widths[i]), "B", 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
		pdf.SetFont("Helvetica", "", 8)
		for i, row := range rows {
			if i == MaxPDFRows {
				text(8, "I", l.N("pdf.more_rows", len(rows)-MaxPDFRows))
				break
			}
			for j, c := range row {
				pdf.CellFormat(widths[j], 5, fit(c, widths[j]), "", 0, "L", false, 0, "")
			}
			pdf.Ln(-1)
		}
	}
	figures := func(name string, g servicelevel.Group) []string {
		return []string{name, l.Number(g.Alerts), Share(l, g.Claim), Time(l, g.Claim, g.Claim.Median), Time(l, g.Claim, g.Claim.P90),
			Share(l, g.Resolve), Time(l, g.Resolve, g.Resolve.Median), Time(l, g.Resolve, g.Resolve.P90)}
	}
	heading(l.T("client.by_type"))
	var rows [][]string
	for _, g := range r.Now.ByType {
		rows = append(rows, figures(AlertType(l, g.Type), g.Group))
	}
	table(l.T("pdf.alert_type"), rows)
	heading(l.T("client.by_building"))
	rows = nil
	for _, g := range r.Now.ByBuilding {
		rows = append(rows, figures(r.BuildingNameIn(l, g.Building), g.Group))
	}
	table(l.T("pdf.building"), rows)

	heading(l.T("client.against", "prior", prior))
	pdf.SetFont("Helvetica", "B", 8)
	cw := []float64{44, 34, 34, 34, 34}
	for i, h := range []string{l.T("pdf.alert_type"), l.T("pdf.claimed_now"), l.T("pdf.before"),
		l.T("pdf.resolved_now"), l.T("pdf.before")} {
		pdf.CellFormat(cw[i], 6, fit(h, cw[i]), "B", 0, "L", false, 0, "")
	}
	pdf.Ln(-1)
	pdf.SetFont("Helvetica", "", 8)
	for _, c := range r.Against() {
		for i, v := range []string{AlertType(l, c.Type), Share(l, c.Now.Claim), Share(l, c.Then.Claim), Share(l, c.Now.Resolve), Share(l, c.Then.Resolve)} {
			pdf.CellFormat(cw[i], 5, fit(v, cw[i]), "", 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
	}

	heading(l.T("client.worst"))
	if len(r.Worst) == 0 {
		text(10, "", l.T("pdf.no_worst"))
	} else {
		pdf.SetFont("Helvetica", "B", 8)
		ws := []float64{80, 50, 16, 16, 18}
		for i, h := range []string{l.T("pdf.location"), l.T("pdf.building"), l.T("pdf.alerts"), l.T("pdf.missed"), l.T("pdf.longest")} {
			pdf.CellFormat(ws[i], 6, fit(h, ws[i]), "B", 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
		pdf.SetFont("Helvetica", "", 8)
		for _, w := range r.Worst {
			for i, c := range []string{w.Place(l), r.BuildingNameIn(l, w.Location.Building), l.Number(w.Alerts), l.Number(w.Missed), w.LongestWords(l)} {
				pdf.CellFormat(ws[i], 5, fit(c, ws[i]), "", 0, "L", false, 0, "")
			}
			pdf.Ln(-1)
		}
	}
	if r.Now.Unmeasured > 0 {
		pdf.Ln(2)
		text(9, "", l.N("client.unmeasured", r.Now.Unmeasured))
	}
	r.writeOuts(l, pdf, text, heading, fit)
	r.writeService(l, pdf, text, heading, fit)
	r.writeChecks(l, text, heading)
	r.writeRatings(l, pdf, text, heading, fit)
	return pdf.Output(w)
}

// writeRatings writes what visitors rated: in all, by building, and the
// rooms rated lowest; nothing when nobody rated.
func (r Report) writeRatings(l *i18n.Localizer, pdf *fpdf.Fpdf, text func(size float64, style, s string), heading func(string), fit func(string, float64) string) {
	g := r.Ratings
	if g.Count == 0 {
		return
	}
	heading(l.T("vreport.ratings_heading"))
	text(10, "", l.N("vreport.ratings_summary", g.Count, "average", l.Decimal(g.Average, 1)))
	row := func(widths []float64, style string, cells ...string) {
		pdf.SetFont("Helvetica", style, 8)
		border := ""
		if style == "B" {
			border = "B"
		}
		for i, c := range cells {
			pdf.CellFormat(widths[i], 5, fit(c, widths[i]), border, 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
	}
	pdf.Ln(1)
	bw := []float64{80, 50}
	row(bw, "B", l.T("pdf.building"), l.T("vreport.pdf_rating"))
	for i, b := range g.ByBuilding {
		if i == MaxPDFRows {
			text(8, "I", l.N("pdf.more_buildings", len(g.ByBuilding)-MaxPDFRows))
			break
		}
		row(bw, "", r.BuildingNameIn(l, b.Building), l.N("vreport.room_rating", b.Count, "average", l.Decimal(b.Average, 1)))
	}
	if len(g.Lowest) > 0 {
		pdf.Ln(2)
		lw := []float64{80, 50, 50}
		row(lw, "B", l.T("vreport.lowest_heading"), l.T("pdf.building"), l.T("vreport.pdf_rating"))
		for _, room := range g.Lowest {
			row(lw, "", joinWords(room.Room, room.Floor), room.Building, l.N("vreport.room_rating", room.Count, "average", l.Decimal(room.Average, 1)))
		}
	}
}

// joinWords joins the words that are not empty with ", ".
func joinWords(words ...string) string {
	var out []string
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, ", ")
}

// writeOuts writes how long the dispensers were out of product: in all
// against the period before, by building, and the locations out longest.
func (r Report) writeOuts(l *i18n.Localizer, pdf *fpdf.Fpdf, text func(size float64, style, s string), heading func(string), fit func(string, float64) string) {
	lines := r.OutSummary(l)
	if len(lines) == 0 {
		return
	}
	heading(l.T("client.out"))
	for _, line := range lines {
		text(10, "", line)
	}
	o := r.Outs
	if o.Now.Dispensers == 0 {
		return
	}
	row := func(widths []float64, style string, cells ...string) {
		pdf.SetFont("Helvetica", style, 8)
		border := ""
		if style == "B" {
			border = "B"
		}
		for i, c := range cells {
			pdf.CellFormat(widths[i], 5, fit(c, widths[i]), border, 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
	}
	within := func(cells []string, in string) []string {
		if o.ServiceHours {
			return append(cells, in)
		}
		return cells
	}
	pdf.Ln(1)
	bw := []float64{60, 20, 34, 34, 34}
	row(bw, "B", within([]string{l.T("pdf.building"), l.T("pdf.dispensers"), l.T("pdf.out_in", "period", r.Period.In(l))}, l.T("pdf.within_service_hours"))...)
	for i, b := range o.ByBuilding {
		if i == MaxPDFRows {
			text(8, "I", l.N("pdf.more_buildings", len(o.ByBuilding)-MaxPDFRows))
			break
		}
		if b.Now.Dispensers == 0 {
			continue
		}
		row(bw, "", within([]string{r.BuildingNameIn(l, b.Building), l.Number(b.Now.Dispensers), OutWords(l, b.Now.Out)}, OutWords(l, b.Now.InService))...)
	}
	if len(o.Worst) > 0 {
		pdf.Ln(2)
		lw := []float64{80, 50, 25, 25}
		row(lw, "B", within([]string{l.T("pdf.out_longest"), l.T("pdf.building"), l.T("pdf.out")}, l.T("pdf.within_hours"))...)
		for _, w := range o.Worst {
			row(lw, "", within([]string{w.Place(l), r.BuildingNameIn(l, w.Building), OutWords(l, w.Out)}, OutWords(l, w.InService))...)
		}
	}
}

// AlertType is an alert type's name in the localizer's language; a type
// Washboard does not know keeps the service's words.
func AlertType(l *i18n.Localizer, t domain.AlertType) string {
	switch t {
	case domain.AlertConsumableOut:
		return l.T("client.type_consumable_out")
	case domain.AlertBatteryOut:
		return l.T("client.type_battery_out")
	case domain.AlertJam:
		return l.T("client.type_jam")
	case domain.AlertSensor:
		return l.T("client.type_sensor")
	case domain.AlertSystem:
		return l.T("client.type_system")
	case domain.AlertIncorrectlyLoaded:
		return l.T("client.type_incorrectly_loaded")
	case domain.AlertDeviceOff:
		return l.T("client.type_device_off")
	}
	return t.Label()
}

// LongestWords is the location's longest time to resolve in words; "–"
// when none of its alerts was resolved against a target.
func (w WorstLocation) LongestWords(l *i18n.Localizer) string {
	if w.Longest == 0 {
		return "–"
	}
	return Time(l, servicelevel.Stat{Done: 1}, w.Longest)
}

// Place is a location's name with its floor and room: "Men's 1 (Floor
// 2, Room 204)"; words for a location since removed.
func (w WorstLocation) Place(l *i18n.Localizer) string {
	switch {
	case w.Name == "":
		return l.T("client.location_removed")
	case w.Floor == "" && w.Room == "":
		return w.Name
	}
	return fmt.Sprintf("%s (%s, %s)", w.Name, w.Floor, w.Room)
}

// Summary is the report's figures in a few sentences: how many alerts
// were measured, the share of each target met, and the change from the
// period before.
func (r Report) Summary(l *i18n.Localizer) []string {
	period, prior := r.Period.In(l), r.Prior.In(l)
	if r.Now.All.Alerts == 0 {
		return []string{l.T("client.summary_none", "period", period)}
	}
	out := []string{l.N("client.summary_measured", r.Now.All.Alerts, "period", period)}
	line := func(what string, now, then servicelevel.Stat) string {
		s := l.T("client.summary_share", "what", what, "share", Share(l, now))
		if c := Change(l, now, then); c != "" {
			s += l.T("client.summary_change", "change", c, "prior", prior, "then", Share(l, then))
		}
		if now.Done > 0 {
			s += l.T("client.summary_times", "median", Time(l, now, now.Median), "p90", Time(l, now, now.P90))
		}
		return s + "."
	}
	if r.Now.All.Claim.Met+r.Now.All.Claim.Missed+r.Now.All.Claim.Open > 0 {
		out = append(out, line(l.T("client.claimed_within"), r.Now.All.Claim, r.Then.All.Claim))
	}
	if r.Now.All.Resolve.Met+r.Now.All.Resolve.Missed+r.Now.All.Resolve.Open > 0 {
		out = append(out, line(l.T("client.resolved_within"), r.Now.All.Resolve, r.Then.All.Resolve))
	}
	return out
}
