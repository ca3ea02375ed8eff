package clientreport

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/go-pdf/fpdf"

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
}

// WritePDF writes the report as an A4 PDF. Text outside Windows-1252
// (the PDF's built-in fonts) is written as question marks.
func (r Report) WritePDF(w io.Writer, meta PDF) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(meta.Generated)
	pdf.SetModificationDate(meta.Generated)
	pdf.SetTitle("Client report "+meta.Account+" "+r.Period.String(), true)
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
		pdf.CellFormat(0, 5, tr(fmt.Sprintf("Client report · %s · %s · page %d", meta.Account, r.Period, pdf.PageNo())), "", 0, "C", false, 0, "")
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
	text(16, "B", "Client report: "+meta.Account)
	text(10, "", fmt.Sprintf("%s (%s). %s.", r.Period, meta.Zone, meta.Scope))
	text(9, "", "Generated "+meta.Generated.In(meta.Zone).Format("2 Jan 2006 15:04 MST")+".")
	pdf.Ln(2)
	if !r.Set {
		text(11, "", "The account has no service level, so no alert was measured against a target.")
		r.writeOuts(pdf, text, heading, fit)
		return pdf.Output(w)
	}
	for _, line := range r.Summary() {
		text(10, "", line)
	}

	widths := []float64{40, 14, 28, 18, 18, 28, 17, 17}
	header := []string{"", "Alerts", "Claimed in time", "Median", "90th", "Resolved in time", "Median", "90th"}
	table := func(first string, rows [][]string) {
		pdf.SetFont("Helvetica", "B", 8)
		header[0] = first
		for i, h := range header {
			pdf.CellFormat(widths[i], 6, tr(h), "B", 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
		pdf.SetFont("Helvetica", "", 8)
		for i, row := range rows {
			if i == MaxPDFRows {
				text(8, "I", fmt.Sprintf("%d more rows in the CSV.", len(rows)-MaxPDFRows))
				break
			}
			for j, c := range row {
				pdf.CellFormat(widths[j], 5, fit(c, widths[j]), "", 0, "L", false, 0, "")
			}
			pdf.Ln(-1)
		}
	}
	figures := func(name string, g servicelevel.Group) []string {
		return []string{name, strconv.Itoa(g.Alerts), Share(g.Claim), Time(g.Claim, g.Claim.Median), Time(g.Claim, g.Claim.P90),
			Share(g.Resolve), Time(g.Resolve, g.Resolve.Median), Time(g.Resolve, g.Resolve.P90)}
	}
	heading("By alert type")
	var rows [][]string
	for _, g := range r.Now.ByType {
		rows = append(rows, figures(g.Type.Label(), g.Group))
	}
	table("Alert type", rows)
	heading("By building")
	rows = nil
	for _, g := range r.Now.ByBuilding {
		rows = append(rows, figures(r.BuildingName(g.Building), g.Group))
	}
	table("Building", rows)

	heading("Against " + r.Prior.String())
	pdf.SetFont("Helvetica", "B", 8)
	cw := []float64{44, 34, 34, 34, 34}
	for i, h := range []string{"Alert type", "Claimed in time, now", "before",
		"Resolved in time, now", "before"} {
		pdf.CellFormat(cw[i], 6, tr(h), "B", 0, "L", false, 0, "")
	}
	pdf.Ln(-1)
	pdf.SetFont("Helvetica", "", 8)
	for _, c := range r.Against() {
		for i, v := range []string{c.Type.Label(), Share(c.Now.Claim), Share(c.Then.Claim), Share(c.Now.Resolve), Share(c.Then.Resolve)} {
			pdf.CellFormat(cw[i], 5, tr(v), "", 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
	}

	heading("Worst locations")
	if len(r.Worst) == 0 {
		text(10, "", "No location had a measured alert.")
	} else {
		pdf.SetFont("Helvetica", "B", 8)
		ws := []float64{80, 50, 16, 16, 18}
		for i, h := range []string{"Location", "Building", "Alerts", "Missed", "Longest"} {
			pdf.CellFormat(ws[i], 6, h, "B", 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
		pdf.SetFont("Helvetica", "", 8)
		for _, l := range r.Worst {
			longest := l.LongestWords()
			for i, c := range []string{l.Place(), l.Building, strconv.Itoa(l.Alerts), strconv.Itoa(l.Missed), longest} {
				pdf.CellFormat(ws[i], 5, fit(c, ws[i]), "", 0, "L", false, 0, "")
			}
			pdf.Ln(-1)
		}
	}
	if r.Now.Unmeasured > 0 {
		pdf.Ln(2)
		text(9, "", fmt.Sprintf("%d alerts of types without targets were not measured.", r.Now.Unmeasured))
	}
	r.writeOuts(pdf, text, heading, fit)
	return pdf.Output(w)
}

// writeOuts writes how long the dispensers were out of product: in all
// against the period before, by building, and the locations out longest.
func (r Report) writeOuts(pdf *fpdf.Fpdf, text func(size float64, style, s string), heading func(string), fit func(string, float64) string) {
	lines := r.OutSummary()
	if len(lines) == 0 {
		return
	}
	heading("Dispensers out of product")
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
	row(bw, "B", within([]string{"Building", "Dispensers", "Out, " + r.Period.String()}, "Within service hours")...)
	for i, b := range o.ByBuilding {
		if i == MaxPDFRows {
			text(8, "I", fmt.Sprintf("%d more buildings in the CSV.", len(o.ByBuilding)-MaxPDFRows))
			break
		}
		if b.Now.Dispensers == 0 {
			continue
		}
		row(bw, "", within([]string{r.BuildingName(b.Building), strconv.Itoa(b.Now.Dispensers), OutWords(b.Now.Out)}, OutWords(b.Now.InService))...)
	}
	if len(o.Worst) > 0 {
		pdf.Ln(2)
		lw := []float64{80, 50, 25, 25}
		row(lw, "B", within([]string{"Location out longest", "Building", "Out"}, "Within hours")...)
		for _, l := range o.Worst {
			row(lw, "", within([]string{l.Place(), l.BuildingName, OutWords(l.Out)}, OutWords(l.InService))...)
		}
	}
}

// LongestWords is the location's longest time to resolve in words; "–"
// when none of its alerts was resolved against a target.
func (w WorstLocation) LongestWords() string {
	if w.Longest == 0 {
		return "–"
	}
	return Time(servicelevel.Stat{Done: 1}, w.Longest)
}

// Place is a location's name with its floor and room: "Men's 1 (Floor
// 2, Room 204)".
func (w WorstLocation) Place() string {
	if w.Floor == "" && w.Room == "" {
		return w.Name
	}
	return fmt.Sprintf("%s (%s, %s)", w.Name, w.Floor, w.Room)
}

// Summary is the report's figures in a few sentences: how many alerts
// were measured, the share of each target met, and the change from the
// period before.
func (r Report) Summary() []string {
	if r.Now.All.Alerts == 0 {
		return []string{fmt.Sprintf("No alert measured against a target closed in %s.", r.Period)}
	}
	out := []string{fmt.Sprintf("%d alerts measured against their targets closed in %s.", r.Now.All.Alerts, r.Period)}
	line := func(what string, now, then servicelevel.Stat) string {
		s := fmt.Sprintf("%s: %s", what, Share(now))
		if c := Change(now, then); c != "" {
			s += fmt.Sprintf(", %s on %s, when it was %s", c, r.Prior.String(), Share(then))
		}
		if now.Done > 0 {
			s += fmt.Sprintf("; median %s, 90th percentile %s", Time(now, now.Median), Time(now, now.P90))
		}
		return s + "."
	}
	if r.Now.All.Claim.Met+r.Now.All.Claim.Missed+r.Now.All.Claim.Open > 0 {
		out = append(out, line("Claimed within target", r.Now.All.Claim, r.Then.All.Claim))
	}
	if r.Now.All.Resolve.Met+r.Now.All.Resolve.Missed+r.Now.All.Resolve.Open > 0 {
		out = append(out, line("Resolved within target", r.Now.All.Resolve, r.Then.All.Resolve))
	}
	return out
}
