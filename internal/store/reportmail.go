package store

import (
	"context"
	"time"

	"washboard/internal/domain"
)

// ReportMail is the client report sent by e-mail on a schedule
// (internal/reportmail): each account's schedules, and a record of each
// sending.
//
// A sending is taken before it is made: TakeReportSending writes the
// row of a schedule's period, or takes it again for another attempt, in
// one statement, so that of several replicas trying at once one takes it
// and the others do not; a period sent is never taken again.
type ReportMail interface {
	// ReportSchedules returns the account's schedules, oldest first.
	ReportSchedules(ctx context.Context, account string) ([]ReportSchedule, error)
	// EveryReportSchedule returns the schedules of every connected
	// account, at most limit of them, by account and id.
	EveryReportSchedule(ctx context.Context, limit int) ([]AccountReportSchedule, error)
	// AddReportSchedule keeps a new schedule of the account, unless the
	// account already has max of them (ErrTooManySchedules) or is not
	// connected (domain.ErrNotConnected).
	AddReportSchedule(ctx context.Context, account string, rs ReportSchedule, max int) error
	// ChangeReportSchedule writes a schedule of the account anew, by its
	// id (all but its id as rs has it); false when there is none of that
	// id. Its sendings stay its own.
	ChangeReportSchedule(ctx context.Context, account string, rs ReportSchedule) (bool, error)
	// RemoveReportSchedule removes a schedule; false when there was none
	// of that id.
	RemoveReportSchedule(ctx context.Context, account, id string) (bool, error)
	// TakeReportSending takes the sending of a schedule's period for an
	// attempt, held until s.NextAttempt: it writes the row when there is
	// none (the first attempt, to every address of s.Pending), or takes
	// the row again when its sending is still to be retried (or was held
	// by a taker that did not finish), its next attempt is due at now and
	// it has had fewer than maxAttempts. It returns the row as taken, its
	// Attempts counted; or, when it was not taken, false and the row as it
	// is (s when there is none).
	TakeReportSending(ctx context.Context, account string, s ReportSending, now time.Time, maxAttempts int) (ReportSending, bool, error)
	// RecordReportSending writes what an attempt did (State, Delivered,
	// Pending, Detail, Updated, NextAttempt) to the row it took, as long
	// as no later attempt took it since; false when the row is gone (the
	// account disconnected) or was taken again.
	RecordReportSending(ctx context.Context, account string, s ReportSending) (bool, error)
	// ReportSendings returns the account's last sendings, newest first, at
	// most limit.
	ReportSendings(ctx context.Context, account string, limit int) ([]ReportSending, error)
	// PruneReportSendings removes the records of sendings begun before
	// before.
	PruneReportSendings(ctx context.Context, before time.Time) (int, error)
}

// ReportSchedule is a client report mailed every week or month.
type ReportSchedule struct {
	ID        string
	Cadence   string   // "weekly" or "monthly"
	Addresses []string // the recipients
	Buildings []string // the buildings reported on; all when empty
	Created   time.Time
	CreatedBy string // the name of the person who made it
	// Language is the language of its letters and PDF, a code of
	// i18n.Languages ("de"); English when empty.
	Language string
}

// AccountReportSchedule is a schedule and its account.
type AccountReportSchedule struct {
	Account string
	ReportSchedule
}

// The states of a sending.
const (
	SendingTaken    = "sending"     // an attempt under way
	SendingRetrying = "retrying"    // an attempt failed; another is due at NextAttempt
	SendingSent     = "sent"        // every address took it
	SendingPartly   = "partly sent" // some took it; the others refused it to the last attempt
	SendingFailed   = "failed"      // nobody took it, to the last attempt
)

// ReportSending is the record of the mailing of one period's report of a
// schedule.
type ReportSending struct {
	Schedule string
	Period   string // the period's key: 2026-11 for a month, 2026-11-16 for the week from that Monday
	Words    string // the period in words, "November 2026"
	State    string
	Attempts int
	// Addresses is to how many addresses it goes, Delivered how many took
	// it; Pending are the addresses still to take it.
	Addresses, Delivered int
	Pending              []string
	// Detail says what the last attempt did in words: the mail server's
	// reply to each address it refused.
	Detail      string
	Started     time.Time // the first attempt
	Updated     time.Time // the last attempt's end
	NextAttempt time.Time // when a retry is due, or a taker's hold ends
}

// ErrTooManySchedules: the account has as many report schedules as it may
// keep.
var ErrTooManySchedules = domain.Problem("This account has as many report schedules as it may keep: remove one first.")
