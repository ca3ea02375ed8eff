package reportmail

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"washboard/internal/clock"
	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/levels"
	"washboard/internal/notify"
	"washboard/internal/notify/mailtest"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
)

var sydney = mustZone("Australia/Sydney")

func mustZone(name string) *time.Location {
	z, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return z
}

// at is a time in Sydney, where the account is.
func at(day, hour, minute int) time.Time { return time.Date(2026, 11, day, hour, minute, 0, 0, sydney) }

// fixture is an account in Sydney with a service level and an alert
// measured in the week of 16 November, a mail server, and the service on
// a fake clock, its log kept.
type fixture struct {
	st  store.Store
	ms  *mailtest.Server
	set notify.SMTPSettings
	clk *clock.Fake
	svc *Service
	log *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// wrapped lets a test do something while a report is made.
type wrapped struct {
	store.Store
	measuring func()
}

func (w *wrapped) EachAlertMeasure(ctx context.Context, account string, from, to time.Time, buildings []string, f func(store.AlertMeasure) error) error {
	if w.measuring != nil {
		w.measuring()
	}
	return w.Store.EachAlertMeasure(ctx, account, from, to, buildings, f)
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	st.MeasureWith(levels.Measure)
	if _, err := st.ReplaceLayout(ctx, domain.Layout{
		Account:   domain.Account{ID: "acme", Name: "Sydney Airport"},
		Buildings: []domain.Building{{ID: "b1", Name: "Terminal 1"}, {ID: "b2", Name: "Terminal 2"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Arrivals"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Restroom"}},
		Locations: []domain.Location{{ID: "l1", RoomID: "r1", Name: "Sinks", Type: domain.Towel}},
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.ConnectAccount(ctx, store.Connection{Account: "acme", Sealed: []byte("s"), Connected: at(1, 0, 0)}, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveServiceLevel(ctx, "acme", store.ServiceLevel{Week: "always", Zone: "Australia/Sydney", Updated: at(1, 0, 0),
		Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute, Resolve: time.Hour}}}); err != nil {
		t.Fatal(err)
	}
	// An alert of the week of 16 November, resolved in 20 minutes.
	open := domain.Alert{ID: "a1", LocationID: "l1", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: at(17, 10, 0)}
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: []domain.Alert{open}, SeenAt: at(17, 10, 1)}); err != nil {
		t.Fatal(err)
	}
	closed := open
	closed.Status, closed.Resolved, closed.Resolution = domain.AlertClosed, at(17, 10, 20), domain.ResolvedByDevice
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: []domain.Alert{closed}, SeenAt: at(17, 10, 21)}); err != nil {
		t.Fatal(err)
	}
	ms := mailtest.Start(t, mailtest.Options{})
	set := notify.SMTPSettings{Host: ms.Host, Port: ms.Port, TLS: notify.StartTLS, User: ms.User, Password: ms.Pass,
		From: "Washboard <reports@washboard.example.com>", Timeout: 5 * time.Second, TLSConfig: &tls.Config{RootCAs: ms.Roots}}
	f := &fixture{st: &wrapped{Store: st}, ms: ms, set: set, clk: clock.NewFake(at(18, 10, 0)), log: &syncBuffer{}}
	f.svc = f.service()
	return f
}

// service is another replica's service on the same store.
func (f *fixture) service() *Service {
	return New(f.st.(Store), Config{Reports: dashboard.New(dashboard.Deps{Store: f.st, Clock: f.clk}), SMTP: &f.set, Zone: time.UTC,
		Link: "https://washboard.example.com"}, f.clk,
		slog.New(slog.NewTextHandler(f.log, nil)))
}

func (f *fixture) schedule(t *testing.T, cadence, addresses string) store.ReportSchedule {
	t.Helper()
	rs, err := f.svc.AddSchedule(context.Background(), "acme", Input{Cadence: cadence, Addresses: addresses}, domain.EveryBuilding(), "Ana")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// passAt runs a pass of svc at t.
func (f *fixture) passAt(svc *Service, t time.Time) {
	f.clk.Set(t)
	svc.Pass(context.Background())
}

func (f *fixture) sendings(t *testing.T) []store.ReportSending {
	t.Helper()
	o, err := f.svc.Overview(context.Background(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	return o.Sendings
}

// letterParts reads a received report: its headers, its text and the
// PDF attached.
func letterParts(t *testing.T, raw []byte) (mail.Header, string, []byte) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	var text string
	var pdf []byte
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		part, err := r.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var body io.Reader = part
		if part.Header.Get("Content-Transfer-Encoding") == "base64" {
			body = base64.NewDecoder(base64.StdEncoding, part)
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		switch ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type")); ct {
		case "text/plain":
			text = string(b)
		case "application/pdf":
			pdf = b
		}
	}
	return msg.Header, text, pdf
}

// pdfText is the text of a PDF, as pdftotext reads it.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("the attachment is not a PDF: %q", pdf[:min(len(pdf), 20)])
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
	if err != nil {
		t.Skipf("pdftotext: %v", err)
	}
	return string(out)
}

// A weekly schedule sends the week just ended once, at 06:00 on Monday in
// the account's zone (Sydney, 19:00 on Sunday in UTC), with the figures
// in the text and the PDF attached; not again, on this replica or another.
func TestWeeklyReportIsSentOnceOnMondayMorningInTheAccountsZone(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.schedule(t, Weekly, "ops@client.example, Boss <boss@client.example>")
	f.passAt(f.svc, at(23, 5, 59))
	if n := len(f.ms.Received()); n != 0 {
		t.Fatalf("%d reports sent before 06:00 on Monday in Sydney", n)
	}
	f.passAt(f.svc, at(23, 6, 0))
	mails := f.ms.Received()
	if len(mails) != 1 || strings.Join(mails[0].To, ",") != "ops@client.example,boss@client.example" {
		t.Fatalf("at 06:00 on Monday the server received %+v", mails)
	}
	header, text, pdf := letterParts(t, mails[0].Data)
	subject, _ := new(mime.WordDecoder).DecodeHeader(header.Get("Subject"))
	if got, want := subject, "Client report: Sydney Airport, 16 Nov 2026 – 22 Nov 2026"; got != want {
		t.Errorf("subject %q, want %q", got, want)
	}
	for _, want := range []string{"Australia/Sydney", "1 alert measured against its targets closed in 16 Nov 2026 – 22 Nov 2026",
		"Claimed within target: 0% (0 of 1)", "Resolved within target: 100% (1 of 1)", "median 20 min",
		"https://washboard.example.com/reports/client?from=2026-11-16&to=2026-11-22"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	// The PDF is the page's, every section of it: here, how long the
	// towels were out of product, which the alerts' figures alone lack.
	if words := pdfText(t, pdf); !strings.Contains(words, "Client report: Sydney Airport") || !strings.Contains(words, "16 Nov 2026 – 22 Nov 2026") ||
		!strings.Contains(words, "Dispensers out of product") {
		t.Errorf("the PDF says:\n%s", words)
	}

	other := f.service()
	for _, later := range []time.Time{at(23, 6, 1), at(23, 7, 0), at(25, 12, 0)} {
		f.passAt(f.svc, later)
		f.passAt(other, later)
	}
	if n := len(f.ms.Received()); n != 1 {
		t.Errorf("%d reports of the one week sent", n)
	}
	if list := f.sendings(t); len(list) != 1 || list[0].State != store.SendingSent || list[0].Attempts != 1 || list[0].Delivered != 2 ||
		list[0].Words != "16 Nov 2026 – 22 Nov 2026" || !list[0].Updated.Equal(at(23, 6, 0)) {
		t.Errorf("sendings %+v", list)
	}
	// The next week is sent the next Monday.
	f.passAt(other, at(30, 6, 0))
	if n := len(f.ms.Received()); n != 2 {
		t.Errorf("%d reports sent by the second Monday, want 2", n)
	}
}

// An address the server refuses is said in the log and in the record,
// and tried again twice over the hour; the others get the report once.
func TestRefusedAddressIsRecordedAndTriedAtMostThreeTimes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.ms.Refuse["gone@client.example"] = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
	f.schedule(t, Monthly, "ops@client.example, gone@client.example")
	due := time.Date(2026, 12, 1, 6, 0, 0, 0, sydney)
	f.passAt(f.svc, due)
	list := f.sendings(t)
	refusal := "refused the recipient gone@client.example: 550 5.1.1 No such user"
	if len(list) != 1 || list[0].State != store.SendingRetrying || list[0].Delivered != 1 || strings.Join(list[0].Pending, ",") != "gone@client.example" ||
		!strings.Contains(list[0].Detail, refusal) || list[0].Words != "November 2026" {
		t.Fatalf("after the first attempt: %+v", list)
	}
	if log := f.log.String(); !strings.Contains(log, "gone@client.example") || !strings.Contains(log, "550 5.1.1 No such user") ||
		strings.Contains(log, f.ms.Pass) {
		t.Errorf("the log:\n%s", log)
	}
	// Every minute for a day: two more attempts, and no more.
	for m := 1; m <= 24*60; m++ {
		f.passAt(f.svc, due.Add(time.Duration(m)*time.Minute))
	}
	list = f.sendings(t)
	if len(list) != 1 || list[0].State != store.SendingPartly || list[0].Attempts != MaxAttempts || list[0].Delivered != 1 ||
		!strings.Contains(list[0].Detail, refusal) || !list[0].Updated.Equal(due.Add(time.Hour)) {
		t.Errorf("after a day: %+v", list)
	}
	if mails := f.ms.Received(); len(mails) != 1 {
		t.Errorf("the address that took it received %d copies", len(mails))
	}
}

// A mail server that cannot be reached is tried three times for the
// period, and then the sending is recorded failed, in words.
func TestUnreachableMailServerIsTriedThreeTimesAndNoMore(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.schedule(t, Weekly, "ops@client.example")
	f.set.Port = 1 // nothing listens there
	tries := 0
	for m := 0; m <= 3*60; m++ {
		f.passAt(f.svc, at(23, 6, 0).Add(time.Duration(m)*time.Minute))
		if list := f.sendings(t); len(list) == 1 && list[0].Attempts != tries {
			tries = list[0].Attempts
		}
	}
	list := f.sendings(t)
	if len(list) != 1 || list[0].State != store.SendingFailed || list[0].Attempts != 3 || list[0].Delivered != 0 ||
		!strings.Contains(list[0].Detail, "127.0.0.1:1") {
		t.Errorf("after three hours: %+v", list)
	}
}

// An account disconnected while its report is made: nothing is mailed,
// nothing is left, the log says so. A schedule removed meanwhile: the
// sending is recorded as not sent.
func TestReportStopsWhenItsAccountGoesWhileItIsMade(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, wantState string
		gone            func(st store.Store, id string) error
	}{
		{"disconnected", "", func(st store.Store, _ string) error {
			_, err := st.DisconnectAccount(context.Background(), "acme")
			return err
		}},
		{"schedule removed", store.SendingFailed, func(st store.Store, id string) error {
			_, err := st.RemoveReportSchedule(context.Background(), "acme", id)
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rs := f.schedule(t, Weekly, "ops@client.example")
			w := f.st.(*wrapped)
			w.measuring = func() {
				if err := c.gone(w.Store, rs.ID); err != nil {
					t.Error(err)
				}
				w.measuring = nil
			}
			f.passAt(f.svc, at(23, 6, 0))
			if n := len(f.ms.Received()); n != 0 {
				t.Errorf("%d reports mailed", n)
			}
			if !strings.Contains(f.log.String(), "client report not sent: the account was disconnected, or the schedule removed, while the report was being made") {
				t.Errorf("the log:\n%s", f.log.String())
			}
			list := f.sendings(t)
			if c.wantState == "" && len(list) != 0 || c.wantState != "" && (len(list) != 1 || list[0].State != c.wantState || !strings.HasPrefix(list[0].Detail, "Not sent:")) {
				t.Errorf("sendings %+v", list)
			}
			f.passAt(f.svc, at(24, 6, 0))
			if n := len(f.ms.Received()); n != 0 {
				t.Errorf("%d reports mailed a day later", n)
			}
		})
	}
}

// Schedules that make no sense are refused in words, naming the field.
func TestBadSchedulesAreRefusedInWords(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	many := strings.Repeat("a@client.example, ", 0)
	for i := range MaxAddresses + 1 {
		many += string(rune('a'+i)) + "@client.example,"
	}
	for _, c := range []struct {
		in           Input
		sc           domain.BuildingScope
		field, words string
	}{
		{Input{Cadence: "daily", Addresses: "ops@client.example"}, domain.EveryBuilding(), "cadence", "Choose weekly or monthly."},
		{Input{Cadence: Weekly, Addresses: " , ;"}, domain.EveryBuilding(), "addresses", "Give at least one address"},
		{Input{Cadence: Weekly, Addresses: "ops@client.example, the boss"}, domain.EveryBuilding(), "addresses", "“the boss” is not an e-mail address"},
		{Input{Cadence: Weekly, Addresses: "ops@localhost"}, domain.EveryBuilding(), "addresses", "“ops@localhost” is not an e-mail address"},
		{Input{Cadence: Weekly, Addresses: many}, domain.EveryBuilding(), "addresses", "at most 20 addresses; this list has 21"},
		{Input{Cadence: Weekly, Addresses: strings.Repeat("x", 10_000)}, domain.EveryBuilding(), "addresses", "longer than 20 addresses"},
		{Input{Cadence: Monthly, Addresses: "ops@client.example", Buildings: []string{"b9"}}, domain.EveryBuilding(), "buildings", "not one of the account's buildings"},
		{Input{Cadence: Monthly, Addresses: "ops@client.example", Buildings: []string{"b2"}}, domain.OnlyBuildings("b1"), "buildings", "not one of the account's buildings you see"},
		{Input{Cadence: Monthly, Addresses: "ops@client.example"}, domain.OnlyBuildings("b1"), "buildings", "Choose the buildings"},
	} {
		_, err := f.svc.AddSchedule(context.Background(), "acme", c.in, c.sc, "Ana")
		var p *Problem
		if !errors.As(err, &p) || p.Field != c.field || !strings.Contains(p.Msg, c.words) {
			t.Errorf("%+v: %v, want %s: %q", c.in, err, c.field, c.words)
		}
	}
	if o, _ := f.svc.Overview(context.Background(), "acme"); len(o.Schedules) != 0 {
		t.Errorf("schedules kept: %+v", o.Schedules)
	}
	// Without a mail server nothing is kept, and the error says how to set one.
	none := New(f.st.(Store), Config{Zone: time.UTC}, f.clk, nil)
	if _, err := none.AddSchedule(context.Background(), "acme", Input{Cadence: Weekly, Addresses: "ops@client.example"}, domain.EveryBuilding(), "Ana"); !errors.Is(err, ErrNoMail) ||
		!strings.Contains(err.Error(), "--smtp-url") {
		t.Errorf("without mail: %v", err)
	}
}

// A schedule mails in its language: the subject, the text and the PDF,
// whose built-in font writes the language's letters (ü, é, the no-break
// space and « » of French) as pdftotext reads them back.
func TestReportIsMailedInTheSchedulesLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang                 string
		subject, text, inPDF string
		pdfAlso              []string
	}{
		{"de", "Kundenbericht: Sydney Airport, 16.11.2026 – 22.11.2026", "1 an seinen Zielen gemessener Alarm wurde im Zeitraum 16.11.2026 – 22.11.2026 geschlossen.",
			"Kundenbericht: Sydney Airport", []string{"Rechtzeitig übernommen", "Nach Gebäude", "Schlechteste Standorte", "Seite 1"}},
		{"fr", "Rapport client\u00a0: Sydney Airport, 16/11/2026 – 22/11/2026", "1 alerte mesurée par rapport à ses objectifs a été close en 16/11/2026 – 22/11/2026.",
			"Rapport client : Sydney Airport", []string{"Prises en charge à temps", "Généré le", "Par bâtiment", "Pires emplacements"}},
		{"es", "Informe para el cliente: Sydney Airport, 16/11/2026 – 22/11/2026", "1 alerta medida frente a sus objetivos se cerró en 16/11/2026 – 22/11/2026.",
			"Informe para el cliente: Sydney Airport", []string{"Asumidas a tiempo", "Por edificio", "Peores ubicaciones", "página 1"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if _, err := f.svc.AddSchedule(context.Background(), "acme", Input{Cadence: Weekly, Addresses: "ops@client.example", Language: tc.lang},
				domain.EveryBuilding(), "Ana"); err != nil {
				t.Fatal(err)
			}
			f.passAt(f.svc, at(23, 6, 0))
			mails := f.ms.Received()
			if len(mails) != 1 {
				t.Fatalf("the server received %d letters", len(mails))
			}
			header, text, pdf := letterParts(t, mails[0].Data)
			subject, _ := new(mime.WordDecoder).DecodeHeader(header.Get("Subject"))
			if subject != tc.subject {
				t.Errorf("subject %q, want %q", subject, tc.subject)
			}
			if !strings.Contains(text, tc.text) || strings.Contains(text, "Client report") {
				t.Errorf("the text is not in %s:\n%s", tc.lang, text)
			}
			words := strings.ReplaceAll(pdfText(t, pdf), "\u00a0", " ")
			for _, want := range append([]string{tc.inPDF}, tc.pdfAlso...) {
				if !strings.Contains(words, want) {
					t.Errorf("the PDF lacks %q:\n%s", want, words)
				}
			}
			if strings.Contains(words, "?") || strings.Contains(words, "Alert type") {
				t.Errorf("the PDF has letters its font could not write, or English:\n%s", words)
			}
		})
	}
}

// A schedule's problems are said in the language of whoever makes it, and
// a language Washboard does not speak is refused, naming those it does.
func TestScheduleProblemsAreSaidInTheAskersLanguage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	de := i18n.WithLocalizer(context.Background(), i18n.For("de"))
	_, err := f.svc.AddSchedule(de, "acme", Input{Cadence: "daily", Addresses: "ops@client.example"}, domain.EveryBuilding(), "Ana")
	var p *Problem
	if !errors.As(err, &p) || p.Field != "cadence" || p.Msg != "Wählen Sie wöchentlich oder monatlich." {
		t.Errorf("a German's bad cadence: %v", err)
	}
	_, err = f.svc.AddSchedule(de, "acme", Input{Cadence: Weekly, Addresses: "ops@client.example", Language: "pt"}, domain.EveryBuilding(), "Ana")
	if !errors.As(err, &p) || p.Field != "language" || !strings.Contains(p.Msg, "de, en, es, fr") {
		t.Errorf("a schedule in Portuguese: %v", err)
	}
}

// The period due is the one that ended before the last 06:00 of a Monday
// or a 1st, in the zone.
func TestDue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cadence string
		now     time.Time
		want    string
	}{
		{Weekly, at(23, 5, 59), "9 Nov 2026 – 15 Nov 2026"},
		{Weekly, at(23, 6, 0), "16 Nov 2026 – 22 Nov 2026"},
		{Weekly, at(29, 23, 59), "16 Nov 2026 – 22 Nov 2026"},
		{Monthly, time.Date(2026, 12, 1, 5, 59, 0, 0, sydney), "October 2026"},
		{Monthly, time.Date(2026, 12, 1, 6, 0, 0, 0, sydney), "November 2026"},
		{Monthly, time.Date(2027, 1, 15, 0, 0, 0, 0, sydney), "December 2026"},
	} {
		p, err := Due(c.cadence, c.now.UTC(), sydney)
		if err != nil || p.String() != c.want {
			t.Errorf("%s at %s: %v (%v), want %s", c.cadence, c.now, p, err, c.want)
		}
	}
}

// A schedule changed keeps its id and its sendings. Its addresses,
// buildings and language changed, it sends its next period as before;
// its cadence changed, it starts again: a weekly schedule made in October
// and made monthly in November does not mail October's report at once,
// but November's on the 1st of December, and names who changed it.
func TestAChangedScheduleSendsFromItsChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.clk.Set(time.Date(2026, 10, 1, 9, 0, 0, 0, sydney))
	rs := f.schedule(t, Weekly, "ops@client.example")
	f.clk.Set(at(18, 10, 0))
	ctx := context.Background()
	if _, err := f.svc.ChangeSchedule(ctx, "acme", rs.ID, Input{Cadence: Weekly, Addresses: "ops@client.example, boss@client.example", Language: "de"},
		domain.EveryBuilding(), "Bo"); err != nil {
		t.Fatal(err)
	}
	f.passAt(f.svc, at(23, 6, 0))
	mails := f.ms.Received()
	if len(mails) != 1 || strings.Join(mails[0].To, ",") != "ops@client.example,boss@client.example" {
		t.Fatalf("the week after the addresses changed, the server received %+v", mails)
	}
	header, _, _ := letterParts(t, mails[0].Data)
	if subject, _ := new(mime.WordDecoder).DecodeHeader(header.Get("Subject")); !strings.HasPrefix(subject, "Kundenbericht") {
		t.Errorf("the letter's subject %q is not in German", subject)
	}

	changed, err := f.svc.ChangeSchedule(ctx, "acme", rs.ID, Input{Cadence: Monthly, Addresses: "ops@client.example"}, domain.EveryBuilding(), "Bo")
	if err != nil {
		t.Fatal(err)
	}
	if changed.ID != rs.ID || changed.CreatedBy != "Bo" || !changed.Created.Equal(at(23, 6, 0)) {
		t.Errorf("the schedule made monthly: %+v; want its id, made anew by Bo at the change", changed)
	}
	f.passAt(f.svc, at(23, 6, 5))
	f.passAt(f.svc, at(30, 12, 0))
	if n := len(f.ms.Received()); n != 1 {
		t.Errorf("%d reports mailed after the schedule was made monthly in November, before December; want none more", n-1)
	}
	f.passAt(f.svc, time.Date(2026, 12, 1, 6, 0, 0, 0, sydney))
	mails = f.ms.Received()
	if len(mails) != 2 {
		t.Fatalf("%d reports mailed by 1 December; want November's", len(mails))
	}
	if header, text, _ := letterParts(t, mails[1].Data); !strings.Contains(header.Get("Subject"), "November 2026") || !strings.Contains(text, "Bo") {
		t.Errorf("the monthly report: subject %q, text:\n%s", header.Get("Subject"), text)
	}
	if list := f.sendings(t); len(list) != 2 || list[0].Schedule != rs.ID || list[1].Schedule != rs.ID {
		t.Errorf("sendings %+v; want both of the one schedule", list)
	}

	if _, err := f.svc.ChangeSchedule(ctx, "acme", "nosuchid", Input{Cadence: Monthly, Addresses: "ops@client.example"}, domain.EveryBuilding(), "Bo"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("changing a schedule of no such id: %v; want not found", err)
	}
	var bad *Problem
	if _, err := f.svc.ChangeSchedule(ctx, "acme", rs.ID, Input{Cadence: Monthly, Addresses: "the boss"}, domain.EveryBuilding(), "Bo"); !errors.As(err, &bad) || bad.Field != "addresses" {
		t.Errorf("a change to a bad address: %v; want a problem of the addresses", err)
	}
	if got, _ := f.svc.Schedule(ctx, "acme", rs.ID); strings.Join(got.Addresses, ",") != "ops@client.example" {
		t.Errorf("after a refused change the schedule mails %q", got.Addresses)
	}
}
