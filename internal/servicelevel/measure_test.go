package servicelevel

import (
	"errors"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
)

func TestNewTargetsRefusesWhatMakesNoSense(t *testing.T) {
	for _, tc := range []struct {
		name string
		by   map[domain.AlertType]Target
		want string
	}{
		{"an unknown type", map[domain.AlertType]Target{"smoke": {Claim: time.Minute}}, `"smoke" is not an alert type: give one of consumable_out, battery_out,`},
		{"neither kind", map[domain.AlertType]Target{domain.AlertJam: {}}, "Jammed has neither a time to claim nor a time to resolve"},
		{"a negative claim", map[domain.AlertType]Target{domain.AlertJam: {Claim: -5 * time.Minute}}, "Jammed: the time to claim is negative (-5 min)"},
		{"a negative resolve", map[domain.AlertType]Target{domain.AlertJam: {Resolve: -time.Hour}}, "Jammed: the time to resolve is negative (-1 h)"},
		{"resolve before claim", map[domain.AlertType]Target{domain.AlertConsumableOut: {Claim: 15 * time.Minute, Resolve: 10 * time.Minute}},
			"Product out: the time to resolve (10 min) is shorter than the time to claim (15 min)"},
		{"too long", map[domain.AlertType]Target{domain.AlertJam: {Resolve: 40 * 24 * time.Hour}}, "Jammed: the time to resolve (40 d) is longer than 31 d, the longest target"},
		{"seconds", map[domain.AlertType]Target{domain.AlertJam: {Claim: 90 * time.Second}}, "Jammed: the time to claim (1m30s) is not a whole number of minutes"},
	} {
		_, err := NewTargets(tc.by)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v; want an ErrInvalid saying %q", tc.name, err, tc.want)
		}
	}
	targets, err := NewTargets(map[domain.AlertType]Target{
		domain.AlertJam:           {Resolve: 4 * time.Hour},
		domain.AlertConsumableOut: {Claim: 15 * time.Minute, Resolve: 15 * time.Minute},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := targets.String(), "Product out: claim 15 min, resolve 15 min; Jammed: resolve 4 h"; got != want {
		t.Errorf("targets write as %q; want %q", got, want)
	}
}

func TestParseTargetTime(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"":       0,
		"15":     15 * time.Minute,
		"90m":    90 * time.Minute,
		"1h30m":  90 * time.Minute,
		"1 h 30": 0, // not read: see below
		"2d":     48 * time.Hour,
		"1d12h":  36 * time.Hour,
	} {
		got, err := ParseTargetTime(in)
		if in == "1 h 30" {
			if err == nil {
				t.Errorf("ParseTargetTime(%q) = %s; want an error", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("ParseTargetTime(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"0":     `"0" is no time at all: a target must be longer than zero (leave it empty for no target)`,
		"0m":    "is no time at all",
		"-5":    `"-5" is negative`,
		"-15m":  `"-15m" is negative`,
		"soon":  `"soon" is not a time: write minutes, such as 15, or hours and minutes, such as 1h30m`,
		"32d":   `"32d" is longer than 31 d, the longest target`,
		"30s":   `"30s" is not a whole number of minutes`,
		"99999": "is longer than 31 d",
	} {
		if _, err := ParseTargetTime(in); err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseTargetTime(%q) = %v; want an ErrInvalid saying %q", in, err, want)
		}
	}
}

func policy(t *testing.T) Policy {
	t.Helper()
	targets, err := NewTargets(map[domain.AlertType]Target{
		domain.AlertConsumableOut: {Claim: 15 * time.Minute, Resolve: time.Hour},
		domain.AlertJam:           {Resolve: 4 * time.Hour},
	})
	if err != nil {
		t.Fatal(err)
	}
	return Policy{Hours: hours(t, "Mon-Fri 06:00-22:00", "2026-12-25", "Europe/Berlin"), Targets: targets}
}

func TestEvaluate(t *testing.T) {
	p := policy(t)
	loc := p.Hours.Zone()
	when := func(wall string) time.Time {
		if wall == "" {
			return time.Time{}
		}
		return at(t, loc, wall)
	}
	type want struct {
		state    State
		used     time.Duration
		deadline string
	}
	for _, tc := range []struct {
		name                         string
		typ                          domain.AlertType
		opened, claimed, closed, now string
		claim, resolve               want
	}{
		{"no targets for the type", domain.AlertBatteryOut, "2026-11-23 10:00", "", "", "2026-11-23 12:00",
			want{NotApplicable, 0, ""}, want{NotApplicable, 0, ""}},
		{"a resolve target only", domain.AlertJam, "2026-11-23 10:00", "", "", "2026-11-23 12:00",
			want{NotApplicable, 0, ""}, want{Pending, 2 * time.Hour, "2026-11-23 14:00"}},
		{"pending", domain.AlertConsumableOut, "2026-11-23 10:00", "", "", "2026-11-23 10:05",
			want{Pending, 5 * time.Minute, "2026-11-23 10:15"}, want{Pending, 5 * time.Minute, "2026-11-23 11:00"}},
		{"at risk with less than a fifth left", domain.AlertConsumableOut, "2026-11-23 10:00", "", "", "2026-11-23 10:13",
			want{AtRisk, 13 * time.Minute, "2026-11-23 10:15"}, want{Pending, 13 * time.Minute, "2026-11-23 11:00"}},
		{"within target with more than a fifth left", domain.AlertConsumableOut, "2026-11-23 10:00", "", "", "2026-11-23 10:11",
			want{Pending, 11 * time.Minute, "2026-11-23 10:15"}, want{Pending, 11 * time.Minute, "2026-11-23 11:00"}},
		{"at risk with a fifth left", domain.AlertConsumableOut, "2026-11-23 10:00", "", "", "2026-11-23 10:12",
			want{AtRisk, 12 * time.Minute, "2026-11-23 10:15"}, want{Pending, 12 * time.Minute, "2026-11-23 11:00"}},
		{"resolve within target at 47 minutes of an hour", domain.AlertConsumableOut, "2026-11-23 10:00", "2026-11-23 10:05", "", "2026-11-23 10:47",
			want{Met, 5 * time.Minute, "2026-11-23 10:15"}, want{Pending, 47 * time.Minute, "2026-11-23 11:00"}},
		{"resolve at risk from 48 minutes of an hour", domain.AlertConsumableOut, "2026-11-23 10:00", "2026-11-23 10:05", "", "2026-11-23 10:48",
			want{Met, 5 * time.Minute, "2026-11-23 10:15"}, want{AtRisk, 48 * time.Minute, "2026-11-23 11:00"}},
		{"missed while still open", domain.AlertConsumableOut, "2026-11-23 10:00", "", "", "2026-11-23 10:50",
			want{Missed, 50 * time.Minute, "2026-11-23 10:15"}, want{AtRisk, 50 * time.Minute, "2026-11-23 11:00"}},
		{"met", domain.AlertConsumableOut, "2026-11-23 10:00", "2026-11-23 10:10", "2026-11-23 10:50", "2026-11-23 12:00",
			want{Met, 10 * time.Minute, "2026-11-23 10:15"}, want{Met, 50 * time.Minute, "2026-11-23 11:00"}},
		{"met exactly at the target", domain.AlertConsumableOut, "2026-11-23 10:00", "2026-11-23 10:15", "2026-11-23 11:00", "2026-11-23 12:00",
			want{Met, 15 * time.Minute, "2026-11-23 10:15"}, want{Met, time.Hour, "2026-11-23 11:00"}},
		{"missed", domain.AlertConsumableOut, "2026-11-23 10:00", "2026-11-23 10:20", "2026-11-23 11:30", "2026-11-23 12:00",
			want{Missed, 20 * time.Minute, "2026-11-23 10:15"}, want{Missed, 90 * time.Minute, "2026-11-23 11:00"}},
		{"closed before anyone claimed it", domain.AlertConsumableOut, "2026-11-23 10:00", "", "2026-11-23 10:08", "2026-11-23 12:00",
			want{Met, 8 * time.Minute, "2026-11-23 10:15"}, want{Met, 8 * time.Minute, "2026-11-23 11:00"}},
		{"the clock stops over a weekend", domain.AlertConsumableOut, "2026-11-27 21:55", "2026-11-30 06:05", "", "2026-11-30 06:30",
			want{Met, 10 * time.Minute, "2026-11-30 06:10"}, want{Pending, 35 * time.Minute, "2026-11-30 06:55"}},
		{"and on a holiday", domain.AlertConsumableOut, "2026-12-24 21:55", "", "", "2026-12-28 06:08",
			want{AtRisk, 13 * time.Minute, "2026-12-28 06:10"}, want{Pending, 13 * time.Minute, "2026-12-28 06:55"}},
		{"now before the opening", domain.AlertConsumableOut, "2026-11-23 10:00", "", "", "2026-11-23 09:00",
			want{Pending, 0, "2026-11-23 10:15"}, want{Pending, 0, "2026-11-23 11:00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Alert{Type: tc.typ, Opened: when(tc.opened), Claimed: when(tc.claimed), Closed: when(tc.closed)}
			m := p.Evaluate(a, when(tc.now))
			for _, c := range []struct {
				kind string
				got  Outcome
				want want
			}{{"claim", m.Claim, tc.claim}, {"resolve", m.Resolve, tc.resolve}} {
				if c.got.State != c.want.state || c.got.Used != c.want.used || !c.got.Deadline.Equal(when(c.want.deadline)) {
					t.Errorf("%s: %s, %s used, deadline %s; want %s, %s used, deadline %s", c.kind,
						c.got.State, c.got.Used, c.got.Deadline.In(loc), c.want.state, c.want.used, c.want.deadline)
				}
				if c.got.State != NotApplicable {
					if risk := p.Hours.Elapsed(a.Opened, c.got.AtRisk); risk != AtRiskFrom(c.got.Target) {
						t.Errorf("%s: at risk from %s, %s into the target of %s; want four fifths", c.kind, c.got.AtRisk.In(loc), risk, c.got.Target)
					}
				}
			}
		})
	}
}

func TestExplainAnAlert(t *testing.T) {
	p := policy(t)
	a := Alert{Type: domain.AlertConsumableOut, Opened: at(t, p.Hours.Zone(), "2026-12-24 21:55"), Closed: at(t, p.Hours.Zone(), "2026-12-28 06:30")}
	want := "The clock stopped for 3 d 8 h: 24 Dec 22:00–28 Dec 06:00 outside service hours and on 25 Dec, a holiday."
	if got := p.Explain(a, a.Closed.Add(time.Hour)).String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	a.Closed = time.Time{}
	now := at(t, p.Hours.Zone(), "2026-12-26 10:00")
	want = "The clock stopped for 1 d 12 h: 24 Dec 22:00–26 Dec 10:00 outside service hours and on 25 Dec, a holiday. It runs again at 06:00 on Mon 28 Dec."
	if got := p.Explain(a, now).String(); got != want {
		t.Errorf("still open on Saturday:\n got %s\nwant %s", got, want)
	}
	now = at(t, p.Hours.Zone(), "2026-12-24 21:58")
	want = "The clock did not stop: all of the time was within service hours."
	if got := p.Explain(a, now).String(); got != want {
		t.Errorf("still open within hours:\n got %s\nwant %s", got, want)
	}
}

func TestStateWords(t *testing.T) {
	for s, want := range map[State][2]string{
		NotApplicable: {"not-applicable", "No target"},
		Pending:       {"pending", "Within target"},
		AtRisk:        {"at-risk", "At risk"},
		Met:           {"met", "Met"},
		Missed:        {"missed", "Missed"},
	} {
		if s.String() != want[0] || s.Label() != want[1] {
			t.Errorf("state %d: %q, %q; want %q, %q", s, s.String(), s.Label(), want[0], want[1])
		}
	}
}

// A time to resolve as short as the time to claim becomes at risk before
// the claim's deadline: each of the four times is found in one walk, in
// whatever order they fall.
func TestEvaluateEqualTargetsOverAWeekend(t *testing.T) {
	targets, err := NewTargets(map[domain.AlertType]Target{domain.AlertJam: {Claim: 15 * time.Minute, Resolve: 15 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	p := Policy{Hours: hours(t, "Mon-Fri 06:00-22:00", "", "Europe/Berlin"), Targets: targets}
	loc := p.Hours.Zone()
	m := p.Evaluate(Alert{Type: domain.AlertJam, Opened: at(t, loc, "2026-11-27 21:47")}, at(t, loc, "2026-11-28 10:00"))
	for _, c := range []struct {
		what      string
		got, want time.Time
	}{
		{"claim at risk", m.Claim.AtRisk, at(t, loc, "2026-11-27 21:59")},
		{"claim deadline", m.Claim.Deadline, at(t, loc, "2026-11-30 06:02")},
		{"resolve at risk", m.Resolve.AtRisk, at(t, loc, "2026-11-27 21:59")},
		{"resolve deadline", m.Resolve.Deadline, at(t, loc, "2026-11-30 06:02")},
	} {
		if !c.got.Equal(c.want) {
			t.Errorf("%s %s; want %s", c.what, c.got.In(loc), c.want)
		}
	}
}
