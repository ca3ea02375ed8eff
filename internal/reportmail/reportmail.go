// Package reportmail mails the client report (internal/clientreport) on
// the schedules an account keeps: every week (the week just ended, Monday
// to Sunday) or month (the month just ended), at SendHour of the
// account's time zone the day after, to the schedule's addresses, the A4
// PDF attached.
//
// # Each period once
//
// A schedule's period is sent by whoever takes its sending first
// (store.ReportMail.TakeReportSending): the row of the schedule and period
// is written in one statement, so that of several replicas one takes it.
// Each attempt is recorded: the addresses that took the report, those the
// mail server refused with its reply, the attempts made. An attempt that
// leaves addresses to reach is retried after RetryAfter, at most
// MaxAttempts in all; a period sent is never taken again. Only the latest
// period due is sent: a server that was down for weeks does not send the
// weeks it missed.
//
// A report is made and mailed by the replica that took it, and recorded
// once the mail server answered; a replica that dies in between leaves
// the sending taken, and it is taken again, as a new attempt, once its
// hold (hold) passes. The addresses that took it before are not sent it
// again, unless the replica died between their taking it and the record.
package reportmail

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"time"

	"washboard/internal/clientreport"
	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notify"
	"washboard/internal/rounds"
	"washboard/internal/store"
)

// Schedule is a schedule, and Sending the record of a period's sending,
// as the store keeps them.
type (
	Schedule = store.ReportSchedule
	Sending  = store.ReportSending
)

// The states of a sending (store.ReportSending.State).
const (
	Taken    = store.SendingTaken
	Retrying = store.SendingRetrying
	Sent     = store.SendingSent
	Partly   = store.SendingPartly
	Failed   = store.SendingFailed
)

// ErrTooManySchedules: the account has MaxSchedules.
var ErrTooManySchedules = store.ErrTooManySchedules

// Bounds of the sendings.
const (
	// MaxAttempts is how many attempts a period's sending has at most.
	MaxAttempts = 3
	// Keep is how long the records of sendings are kept.
	Keep = 400 * 24 * time.Hour
	// Shown is how many of the last sendings the page lists.
	Shown = 20
	// hold is how long a taker holds a sending before another may take it
	// again: longer than making and mailing a report takes.
	hold = 10 * time.Minute
	// poll is how often the schedules are looked at.
	poll = time.Minute
	// maxEvery bounds the schedules read in one pass.
	maxEvery = 100_000
)

// endOfTime is later than any period: a sending done is not looked at
// again.
var endOfTime = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// RetryAfter is the wait after each failed attempt but the last: three
// attempts over an hour.
var RetryAfter = []time.Duration{15 * time.Minute, 45 * time.Minute}

// Store is what the schedules read and write.
type Store interface {
	clientreport.Store
	store.ReportMail
	Account(ctx context.Context, id string) (domain.Account, error)
}

// Reports makes an account's client report of a period, every section
// the page shows (dashboard.Service.ClientReport): the alerts and their
// service level, how long dispensers were out, the service record's
// visits, what rounds from need saved against fixed rounds every every,
// and the visitors' ratings.
type Reports interface {
	ClientReport(ctx context.Context, account string, sc domain.BuildingScope, p clientreport.Period, every time.Duration) (clientreport.Report, error)
}

// Config is what reports are mailed with.
type Config struct {
	// Reports makes the reports mailed.
	Reports Reports
	// SMTP is the mail server and sender of --smtp-url and --mail-from;
	// nil when the server sends no mail: then no schedule is kept or sent.
	SMTP *notify.SMTPSettings
	// Zone is the time zone of an account without a service level.
	Zone *time.Location
	// Link is the dashboard's address as people reach it, for the link
	// in the letter.
	Link string
}

// Service keeps the schedules and mails the reports.
type Service struct {
	st  Store
	cfg Config
	clk clock.Clock
	log *slog.Logger

	mu   sync.Mutex
	seen map[string]seen // by account and schedule: what this replica knows of its latest period
}

// seen is a schedule's latest period, and when to look at it again.
type seen struct {
	period    string
	notBefore time.Time
}

// New returns the service; Run mails the reports. A service that mails
// (cfg.SMTP set) needs cfg.Reports.
func New(st Store, cfg Config, clk clock.Clock, log *slog.Logger) *Service {
	if cfg.SMTP != nil && cfg.Reports == nil {
		panic("reportmail: a service that mails needs Config.Reports")
	}
	if cfg.Zone == nil || cfg.Zone.String() == "Local" { // as the client report's page takes it
		cfg.Zone = time.UTC
	}
	cfg.Link = strings.TrimRight(cfg.Link, "/")
	return &Service{st: st, cfg: cfg, clk: cmp.Or[clock.Clock](clk, clock.Real{}), log: cmp.Or(log, slog.New(slog.DiscardHandler)),
		seen: map[string]seen{}}
}

// Ready says whether the server sends mail, without which no report is.
func (s *Service) Ready() bool { return s.cfg.SMTP != nil }

// ErrNoMail: the server sends no mail.
var ErrNoMail = domain.Problem("This server sends no e-mail (it was started without --smtp-url and --mail-from), so reports cannot be mailed: " +
	"ask whoever runs it to set a mail server (see docs/configuration.md).")

// AddSchedule keeps a schedule of the account, made by the person named
// by, who sees the buildings of sc. A schedule that makes no sense is a
// *Problem naming the field, in the language of ctx's localizer.
func (s *Service) AddSchedule(ctx context.Context, account string, in Input, sc domain.BuildingScope, by string) (store.ReportSchedule, error) {
	if !s.Ready() {
		return store.ReportSchedule{}, ErrNoMail
	}
	known, err := s.st.Buildings(ctx, account)
	if err != nil {
		return store.ReportSchedule{}, err
	}
	in.Language = cmp.Or(in.Language, i18n.Default) // a schedule made without a language mails in English
	cadence, addresses, buildings, err := checkInput(i18n.From(ctx), in, sc, known)
	if err != nil {
		return store.ReportSchedule{}, err
	}
	rs := store.ReportSchedule{ID: newID(), Cadence: cadence, Addresses: addresses, Buildings: buildings,
		Created: s.clk.Now().Truncate(time.Millisecond), CreatedBy: by, Language: in.Language}
	return rs, s.st.AddReportSchedule(ctx, account, rs, MaxSchedules)
}

// ChangeSchedule writes a schedule of the account anew, as typed by the
// person named by, who sees the buildings of sc: a *Problem naming the
// field as AddSchedule's, domain.ErrNotFound when it has none of that id.
// A schedule whose cadence changes starts again, as a new one made by
// them: its first report is of the first week or month that ends after
// the change, not of the latest one, which the old cadence may not have
// sent. Its sendings stay its own; one under way mails the addresses it
// was taken for.
func (s *Service) ChangeSchedule(ctx context.Context, account, id string, in Input, sc domain.BuildingScope, by string) (store.ReportSchedule, error) {
	if !s.Ready() {
		return store.ReportSchedule{}, ErrNoMail
	}
	rs, err := s.Schedule(ctx, account, id)
	if err != nil {
		return rs, err
	}
	known, err := s.st.Buildings(ctx, account)
	if err != nil {
		return store.ReportSchedule{}, err
	}
	in.Language = cmp.Or(in.Language, i18n.Default)
	cadence, addresses, buildings, err := checkInput(i18n.From(ctx), in, sc, known)
	if err != nil {
		return store.ReportSchedule{}, err
	}
	if cadence != rs.Cadence {
		rs.Created, rs.CreatedBy = s.clk.Now().Truncate(time.Millisecond), by
	}
	rs.Cadence, rs.Addresses, rs.Buildings, rs.Language = cadence, addresses, buildings, in.Language
	ok, err := s.st.ChangeReportSchedule(ctx, account, rs)
	if err == nil && !ok {
		err = fmt.Errorf("report schedule %q: %w", clip(id), domain.ErrNotFound)
	}
	return rs, err
}

// Schedule returns a schedule of the account: domain.ErrNotFound when it
// has none of that id.
func (s *Service) Schedule(ctx context.Context, account, id string) (store.ReportSchedule, error) {
	list, err := s.st.ReportSchedules(ctx, account)
	if err != nil {
		return store.ReportSchedule{}, err
	}
	for _, rs := range list {
		if rs.ID == id {
			return rs, nil
		}
	}
	return store.ReportSchedule{}, fmt.Errorf("report schedule %q: %w", clip(id), domain.ErrNotFound)
}

// RemoveSchedule removes a schedule of the account: domain.ErrNotFound
// when it has none of that id. A sending under way stops before it mails.
func (s *Service) RemoveSchedule(ctx context.Context, account, id string) error {
	ok, err := s.st.RemoveReportSchedule(ctx, account, id)
	if err == nil && !ok {
		err = fmt.Errorf("report schedule %q: %w", clip(id), domain.ErrNotFound)
	}
	return err
}

// Run mails the reports due until ctx ends, looking every minute. It does
// nothing when the server sends no mail.
func (s *Service) Run(ctx context.Context) {
	if !s.Ready() {
		return
	}
	for {
		s.Pass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.clk.After(poll):
		}
	}
}

// Pass makes one attempt at every sending due now. Run calls it; tests may
// too.
func (s *Service) Pass(ctx context.Context) {
	if !s.Ready() {
		return
	}
	all, err := s.st.EveryReportSchedule(ctx, maxEvery)
	if err != nil {
		s.logErr(ctx, "reading the report schedules", err)
		return
	}
	kept := make(map[string]seen, len(all))
	for _, rs := range all {
		if ctx.Err() != nil {
			return
		}
		key := rs.Account + "\x00" + rs.ID
		kept[key] = s.due(ctx, rs)
	}
	s.mu.Lock()
	s.seen = kept
	s.mu.Unlock()
}

// due makes an attempt at the schedule's latest period if it is due, and
// says what this replica knows of it then.
func (s *Service) due(ctx context.Context, rs store.AccountReportSchedule) seen {
	now := s.clk.Now()
	zone, err := clientreport.Zone(ctx, s.st, rs.Account, s.cfg.Zone)
	if err != nil {
		s.logErr(ctx, "reading an account's time zone", err)
		return seen{}
	}
	p, err := Due(rs.Cadence, now, zone)
	if err != nil || !p.To.After(rs.Created) { // the first period sent is the first to end after the schedule was made
		return seen{}
	}
	key := periodKey(p)
	s.mu.Lock()
	was := s.seen[rs.Account+"\x00"+rs.ID]
	s.mu.Unlock()
	if was.period == key && now.Before(was.notBefore) {
		return was
	}
	taken, ok, err := s.st.TakeReportSending(ctx, rs.Account, store.ReportSending{Schedule: rs.ID, Period: key, Words: p.String(),
		Pending: rs.Addresses, NextAttempt: now.Add(hold)}, now, MaxAttempts)
	if err != nil {
		s.logErr(ctx, "taking a report's sending", err)
		return seen{}
	}
	switch {
	case !ok && taken.State == store.SendingTaken, !ok && taken.State == store.SendingRetrying:
		// held by another taker, or its retry not due yet
		return seen{period: key, notBefore: taken.NextAttempt}
	case !ok && taken.State != "":
		return seen{period: key, notBefore: endOfTime} // done: looked at again next period
	case !ok:
		return seen{period: key, notBefore: now.Add(5 * time.Minute)}
	}
	done := s.attempt(ctx, rs, p, zone, taken)
	if done.State == store.SendingRetrying {
		return seen{period: key, notBefore: done.NextAttempt}
	}
	return seen{period: key, notBefore: now.Add(hold)}
}

// attempt makes and mails the report of the period taken, and records
// what came of it.
func (s *Service) attempt(ctx context.Context, rs store.AccountReportSchedule, p clientreport.Period, zone *time.Location, taken store.ReportSending) store.ReportSending {
	log := s.log.With("account", rs.Account, "schedule", rs.ID, "period", taken.Period, "attempt", taken.Attempts)
	letter, err := s.letter(ctx, rs, p, zone, taken.Pending)
	if err == nil {
		err = s.stillScheduled(ctx, rs)
	}
	if errors.Is(err, errGone) {
		log.Info("client report not sent: " + err.Error())
		taken.State, taken.Detail, taken.Updated = store.SendingFailed, DetailGone, s.clk.Now()
		s.record(ctx, log, rs, taken)
		return taken
	}
	if err != nil {
		s.logErr(ctx, "making a client report", err)
		return s.settle(ctx, log, rs, taken, nil, DetailNotMade)
	}
	mailCtx, cancel := context.WithTimeout(ctx, hold/2)
	defer cancel()
	took, refused, err := notify.MailLetter(mailCtx, *s.cfg.SMTP, letter)
	var detail []string
	if err != nil {
		log.Warn("client report not delivered", "error", err.Error())
		detail = append(detail, sentence(err.Error()))
	}
	for _, r := range refused {
		log.Warn("client report refused for an address", "address", r.Address, "error", r.Err.Error())
		detail = append(detail, sentence(r.Err.Error()))
	}
	return s.settle(ctx, log, rs, taken, took, strings.Join(detail, " "))
}

// settle records an attempt: the addresses that took the report leave
// the pending ones; what is left is retried after RetryAfter, or, after
// the last attempt, the sending ends partly sent or failed.
func (s *Service) settle(ctx context.Context, log *slog.Logger, rs store.AccountReportSchedule, taken store.ReportSending, took []string, detail string) store.ReportSending {
	now := s.clk.Now()
	taken.Pending = slices.DeleteFunc(taken.Pending, func(a string) bool {
		return slices.ContainsFunc(took, func(t string) bool { return strings.EqualFold(t, a) })
	})
	taken.Delivered += len(took)
	taken.Detail, taken.Updated, taken.NextAttempt = detail, now, now
	switch {
	case len(taken.Pending) == 0:
		taken.State = store.SendingSent
	case taken.Attempts < MaxAttempts:
		taken.State, taken.NextAttempt = store.SendingRetrying, now.Add(RetryAfter[min(taken.Attempts, len(RetryAfter))-1])
		log.Info("client report to be tried again", "at", taken.NextAttempt, "addresses_left", len(taken.Pending))
	case taken.Delivered > 0:
		taken.State = store.SendingPartly
	default:
		taken.State = store.SendingFailed
	}
	s.record(ctx, log, rs, taken)
	return taken
}

// record writes the attempt's outcome, even while the server stops.
func (s *Service) record(ctx context.Context, log *slog.Logger, rs store.AccountReportSchedule, taken store.ReportSending) {
	ok, err := s.st.RecordReportSending(context.WithoutCancel(ctx), rs.Account, taken)
	switch {
	case err != nil:
		log.Warn("recording a client report's sending", "error", err.Error())
	case !ok:
		log.Info("client report's sending not recorded: the account was disconnected, or the sending taken again, meanwhile", "state", taken.State)
	}
}

// The details of a sending that Washboard writes itself, kept in English
// (as the mail server's answers are kept as they came); the page says
// them in its reader's language.
var (
	// DetailGone: the account or the schedule went while the report was made.
	DetailGone = i18n.For("en").T("reportmail.detail_gone")
	// DetailNotMade: the report could not be made.
	DetailNotMade = i18n.For("en").T("reportmail.detail_not_made")
)

// errGone: the schedule or its account went while the report was made.
var errGone = errors.New("the account was disconnected, or the schedule removed, while the report was being made")

// stillScheduled says whether the schedule is still there, the account
// still connected: checked after the report is made, before it is mailed.
func (s *Service) stillScheduled(ctx context.Context, rs store.AccountReportSchedule) error {
	list, err := s.st.ReportSchedules(ctx, rs.Account)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(list, func(o store.ReportSchedule) bool { return o.ID == rs.ID }) {
		return errGone
	}
	return nil
}

// letter makes the period's report of the schedule's buildings, its PDF
// and the letter carrying them to the addresses to: those still pending,
// so that an address that took it at an earlier attempt is not sent it
// again.
func (s *Service) letter(ctx context.Context, rs store.AccountReportSchedule, p clientreport.Period, zone *time.Location, to []string) (notify.Letter, error) {
	account, err := s.st.Account(ctx, rs.Account)
	if errors.Is(err, domain.ErrNotFound) {
		return notify.Letter{}, errGone
	}
	if err != nil {
		return notify.Letter{}, err
	}
	sc := domain.EveryBuilding()
	if len(rs.Buildings) > 0 {
		sc = domain.OnlyBuildings(rs.Buildings...)
	}
	r, err := s.cfg.Reports.ClientReport(ctx, rs.Account, sc, p, rounds.DefaultEvery)
	if errors.Is(err, domain.ErrNotConnected) {
		return notify.Letter{}, errGone
	}
	if err != nil {
		return notify.Letter{}, err
	}
	now := s.clk.Now()
	l := i18n.For(rs.Language)
	scope := r.ScopeWords(l, sc.Limited())
	var pdf bytes.Buffer
	if err := r.WritePDF(&pdf, clientreport.PDF{Account: account.Name, Scope: scope, Zone: zone, Generated: now, Words: l}); err != nil {
		return notify.Letter{}, err
	}
	return notify.Letter{
		To:          to,
		Subject:     Subject(l, account.Name, p),
		Text:        s.text(l, rs, account.Name, scope, zone, r),
		Attachments: []notify.Attachment{{Name: "client-report-" + p.FileDate() + ".pdf", Type: "application/pdf", Data: pdf.Bytes()}},
		ID:          "report-" + rs.ID + "-" + periodKey(p) + "@" + s.senderDomain(),
		At:          now,
	}, nil
}

// Subject is the subject of a report's letter, in l's language: "Client
// report: Acme, November 2026".
func Subject(l *i18n.Localizer, account string, p clientreport.Period) string {
	return l.T("reportmail.subject", "account", account, "period", p.In(l))
}

// text is the letter's text, in l's language: the report's headline
// figures.
func (s *Service) text(l *i18n.Localizer, rs store.AccountReportSchedule, account, scope string, zone *time.Location, r clientreport.Report) string {
	var b strings.Builder
	b.WriteString(l.T("pdf.heading", "account", account) + "\n" + l.T("pdf.period", "period", r.Period.In(l), "zone", zone.String(), "scope", scope) + "\n\n")
	if !r.Set {
		b.WriteString(l.T("client.no_level") + "\n")
	} else {
		b.WriteString(strings.Join(r.Summary(l), "\n") + "\n")
	}
	if s.cfg.Link != "" {
		v := "month=" + r.Period.From.Format("2006-01")
		if !r.Period.Month {
			v = "from=" + r.Period.From.Format(time.DateOnly) + "&to=" + r.Period.Last().Format(time.DateOnly)
		}
		b.WriteString("\n" + l.T("reportmail.letter_attached_link", "link", s.cfg.Link+"/reports/client?"+v) + "\n\n")
	} else {
		b.WriteString("\n" + l.T("reportmail.letter_attached") + "\n\n")
	}
	by := cmp.Or(rs.CreatedBy, l.T("reportmail.letter_an_admin"))
	if rs.Cadence == Weekly {
		b.WriteString(l.T("reportmail.letter_weekly", "by", by) + "\n")
	} else {
		b.WriteString(l.T("reportmail.letter_monthly", "by", by) + "\n")
	}
	return b.String()
}

// senderDomain is the domain of the sender's address, for Message-IDs.
func (s *Service) senderDomain() string {
	if a, err := mail.ParseAddress(s.cfg.SMTP.From); err == nil {
		if at := strings.LastIndexByte(a.Address, '@'); at >= 0 {
			return a.Address[at+1:]
		}
	}
	return "washboard.invalid"
}

// newID is a schedule's id: random, for the addresses of its page.
func newID() string { return strings.ToLower(rand.Text()[:16]) }

// sentence ends words with a full stop, and capitalises them.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func (s *Service) logErr(ctx context.Context, what string, err error) {
	if ctx.Err() == nil {
		s.log.Warn("client reports: "+what, "error", err.Error())
	}
}

// Overview is what the page of the schedules shows.
type Overview struct {
	Schedules []store.ReportSchedule
	Sendings  []store.ReportSending // the last Shown, newest first
	Buildings []domain.Building     // the account's
	Zone      *time.Location        // the account's: when reports are sent
}

// Overview reads the account's schedules, its last sendings, its
// buildings and its zone.
func (s *Service) Overview(ctx context.Context, account string) (Overview, error) {
	var o Overview
	var err error
	if o.Schedules, err = s.st.ReportSchedules(ctx, account); err != nil {
		return o, err
	}
	if o.Sendings, err = s.st.ReportSendings(ctx, account, Shown); err != nil {
		return o, err
	}
	if o.Buildings, err = s.st.Buildings(ctx, account); err != nil {
		return o, err
	}
	o.Zone, err = clientreport.Zone(ctx, s.st, account, s.cfg.Zone)
	return o, err
}
