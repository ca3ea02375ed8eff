package rules

import (
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin and America/New_York wherever the tests run

	"washboard/internal/domain"
	"washboard/internal/notify"
)

func TestMatches(t *testing.T) {
	level3 := Rule{
		When: notify.AlertOpened, AlertTypes: []domain.AlertType{domain.AlertConsumableOut, domain.AlertJam},
		BuildingID: "b1", FloorID: "f3",
	}
	northTower := Rule{When: notify.AlertOpened, BuildingID: "b1"}
	anywhere := Rule{When: notify.AlertOpened}
	batteries := Rule{When: notify.BatteryLow, BuildingID: "b1"}
	opened := Fact{Kind: notify.AlertOpened, AlertType: domain.AlertConsumableOut, BuildingID: "b1", FloorID: "f3"}
	with := func(change func(*Fact)) Fact {
		f := opened
		change(&f)
		return f
	}
	tests := []struct {
		name string
		rule Rule
		fact Fact
		want bool
	}{
		{"product out on the rule's floor", level3, opened, true},
		{"a jam, another of its types", level3, with(func(f *Fact) { f.AlertType = domain.AlertJam }), true},
		{"a type the rule does not list", level3, with(func(f *Fact) { f.AlertType = domain.AlertBatteryOut }), false},
		{"another kind", level3, with(func(f *Fact) { f.Kind = notify.AlertOverdue }), false},
		{"another building", level3, with(func(f *Fact) { f.BuildingID = "b2" }), false},
		{"another floor of the building", level3, with(func(f *Fact) { f.FloorID = "f4" }), false},
		{"any floor of the rule's building", northTower, with(func(f *Fact) { f.FloorID = "f4" }), true},
		{"a building the rule does not name", northTower, with(func(f *Fact) { f.BuildingID = "b2" }), false},
		{"any type anywhere", anywhere, with(func(f *Fact) { f.AlertType = "a_type_added_later"; f.BuildingID = "b9" }), true},
		{"a low battery in the building", batteries, Fact{Kind: notify.BatteryLow, BuildingID: "b1", FloorID: "f0"}, true},
		{"a low battery elsewhere", batteries, Fact{Kind: notify.BatteryLow, BuildingID: "b2"}, false},
	}
	for _, tt := range tests {
		if got := tt.rule.Matches(tt.fact); got != tt.want {
			t.Errorf("%s: Matches = %v; want %v", tt.name, got, tt.want)
		}
	}
}

func TestWaitsUntil(t *testing.T) {
	began := time.Date(2026, 11, 22, 9, 15, 0, 0, time.UTC)
	tests := []struct {
		rule Rule
		want time.Time
	}{
		{Rule{When: notify.AlertUnclaimed, AfterMinutes: 15}, began.Add(15 * time.Minute)},
		{Rule{When: notify.DeviceOffline, AfterMinutes: 1440}, began.Add(24 * time.Hour)},
		{Rule{When: notify.AlertOpened}, began},
		{Rule{When: notify.AlertOverdue}, began},
		{Rule{When: notify.BatteryLow}, began},
	}
	for _, tt := range tests {
		if got := tt.rule.WaitsUntil(Fact{Kind: tt.rule.When, At: began}); !got.Equal(tt.want) {
			t.Errorf("%s after %d minutes: WaitsUntil = %v; want %v", tt.rule.When, tt.rule.AfterMinutes, got, tt.want)
		}
	}
}

func TestDigestDue(t *testing.T) {
	first := time.Date(2026, 11, 22, 9, 15, 0, 0, time.UTC)
	if got := (Rule{DigestMinutes: 30}).DigestDue(first); !got.Equal(first.Add(30 * time.Minute)) {
		t.Errorf("a 30-minute digest begun at 09:15 is due at %v; want 09:45", got)
	}
	if got := (Rule{}).DigestDue(first); !got.Equal(first) {
		t.Errorf("a rule without a digest: DigestDue = %v; want the first item's time", got)
	}
	// A digest due in quiet hours waits for their end, and is never dropped.
	night := Rule{DigestMinutes: 30, QuietHours: &QuietHours{From: 22 * 60, To: 6 * 60, During: QuietDrop}}
	due := night.DigestDue(time.Date(2026, 11, 22, 21, 45, 0, 0, time.UTC))
	sendAt, drop := night.Schedule(notify.KindDigest, due, nil)
	if want := time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC); drop || !sendAt.Equal(want) {
		t.Errorf("a digest due at 22:15 in quiet hours: Schedule = %v, drop %v; want %v", sendAt, drop, want)
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	zone, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return zone
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func TestScheduleQuietHours(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	night := &QuietHours{From: 22 * 60, To: 6 * 60}
	tests := []struct {
		name  string
		quiet *QuietHours
		at    string // RFC 3339, Berlin's offset of the moment
		want  string // when it goes out; "" for at itself
	}{
		{"before quiet hours", night, "2026-11-20T21:59:00+01:00", ""},
		{"as they begin", night, "2026-11-20T22:00:00+01:00", "2026-11-21T06:00:00+01:00"},
		{"before midnight", night, "2026-11-20T23:30:00+01:00", "2026-11-21T06:00:00+01:00"},
		{"after midnight", night, "2026-11-21T03:00:00+01:00", "2026-11-21T06:00:00+01:00"},
		{"as they end", night, "2026-11-21T06:00:00+01:00", ""},
		{"at noon", night, "2026-11-21T12:00:00+01:00", ""},
		{"in daytime quiet hours", &QuietHours{From: 13 * 60, To: 14 * 60}, "2026-11-21T13:30:00+01:00", "2026-11-21T14:00:00+01:00"},
		{"after daytime quiet hours", &QuietHours{From: 13 * 60, To: 14 * 60}, "2026-11-21T14:00:00+01:00", ""},
		{"at night, after daytime quiet hours", &QuietHours{From: 13 * 60, To: 14 * 60}, "2026-11-21T23:00:00+01:00", ""},

		// 29 March 2026: at 02:00 the clocks go forward to 03:00.
		{"spring: the night the clocks go forward", night, "2026-03-28T23:00:00+01:00", "2026-03-29T06:00:00+02:00"},
		{"spring: just before the change", night, "2026-03-29T01:59:00+01:00", "2026-03-29T06:00:00+02:00"},
		{"spring: just after the change", night, "2026-03-29T03:00:00+02:00", "2026-03-29T06:00:00+02:00"},
		{"spring: as they end", night, "2026-03-29T06:00:00+02:00", ""},
		{"spring: the next evening", night, "2026-03-29T22:30:00+02:00", "2026-03-30T06:00:00+02:00"},
		{"spring: beginning in the skipped hour, before it", &QuietHours{From: 2*60 + 30, To: 5 * 60}, "2026-03-29T01:59:00+01:00", ""},
		{"spring: beginning in the skipped hour, as it ends", &QuietHours{From: 2*60 + 30, To: 5 * 60}, "2026-03-29T03:00:00+02:00", "2026-03-29T05:00:00+02:00"},
		{"spring: ending in the skipped hour", &QuietHours{From: 60, To: 2*60 + 30}, "2026-03-29T01:45:00+01:00", "2026-03-29T03:00:00+02:00"},
		{"spring: after they end in the skipped hour", &QuietHours{From: 60, To: 2*60 + 30}, "2026-03-29T03:00:00+02:00", ""},
		{"spring: the day after, at the skipped time", &QuietHours{From: 60, To: 2*60 + 30}, "2026-03-30T02:15:00+02:00", "2026-03-30T02:30:00+02:00"},

		// 25 October 2026: at 03:00 the clocks go back to 02:00.
		{"autumn: the night the clocks go back", night, "2026-10-24T23:00:00+02:00", "2026-10-25T06:00:00+01:00"},
		{"autumn: 02:30 the first time", night, "2026-10-25T02:30:00+02:00", "2026-10-25T06:00:00+01:00"},
		{"autumn: 02:30 the second time", night, "2026-10-25T02:30:00+01:00", "2026-10-25T06:00:00+01:00"},
		{"autumn: just before they end", night, "2026-10-25T05:59:00+01:00", "2026-10-25T06:00:00+01:00"},
		{"autumn: as they end", night, "2026-10-25T06:00:00+01:00", ""},
		{"autumn: beginning in the repeated hour, before it", &QuietHours{From: 2*60 + 30, To: 4 * 60}, "2026-10-25T02:15:00+02:00", ""},
		{"autumn: beginning in the repeated hour, the first time", &QuietHours{From: 2*60 + 30, To: 4 * 60}, "2026-10-25T02:45:00+02:00", "2026-10-25T04:00:00+01:00"},
		{"autumn: beginning in the repeated hour, the second time round", &QuietHours{From: 2*60 + 30, To: 4 * 60}, "2026-10-25T02:15:00+01:00", "2026-10-25T04:00:00+01:00"},
		{"autumn: ending in the repeated hour, the first time", &QuietHours{From: 0, To: 2*60 + 30}, "2026-10-25T02:15:00+02:00", "2026-10-25T02:30:00+02:00"},
		{"autumn: ending in the repeated hour, the second time round", &QuietHours{From: 0, To: 2*60 + 30}, "2026-10-25T02:15:00+01:00", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := mustTime(t, tt.at)
			want := at
			if tt.want != "" {
				want = mustTime(t, tt.want)
			}
			sendAt, drop := Rule{QuietHours: tt.quiet}.Schedule(notify.AlertOverdue, at, berlin)
			if drop || !sendAt.Equal(want) {
				t.Errorf("Schedule(%s) = %v, drop %v; want %v", tt.at, sendAt.In(berlin), drop, want.In(berlin))
			}
		})
	}
}

func TestScheduleHoldOrDrop(t *testing.T) {
	night := time.Date(2026, 11, 20, 23, 0, 0, 0, time.UTC)
	morning := time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
	noon := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	hold := Rule{QuietHours: &QuietHours{From: 22 * 60, To: 6 * 60, During: QuietHold}}
	drop := Rule{QuietHours: &QuietHours{From: 22 * 60, To: 6 * 60, During: QuietDrop}}
	unset := Rule{QuietHours: &QuietHours{From: 22 * 60, To: 6 * 60}}
	tests := []struct {
		name     string
		rule     Rule
		kind     notify.Kind
		at       time.Time
		want     time.Time
		wantDrop bool
	}{
		{"hold keeps a low battery until morning", hold, notify.BatteryLow, night, morning, false},
		{"hold is the default", unset, notify.DeviceOffline, night, morning, false},
		{"drop drops a low battery at night", drop, notify.BatteryLow, night, time.Time{}, true},
		{"drop drops an offline device at night", drop, notify.DeviceOffline, night, time.Time{}, true},
		{"drop holds an overdue alert", drop, notify.AlertOverdue, night, morning, false},
		{"drop holds an opened alert", drop, notify.AlertOpened, night, morning, false},
		{"drop holds an unclaimed alert", drop, notify.AlertUnclaimed, night, morning, false},
		{"drop holds a product out", drop, notify.ProductOut, night, morning, false},
		{"drop holds a digest", drop, notify.KindDigest, night, morning, false},
		{"drop sends a low battery at noon", drop, notify.BatteryLow, noon, noon, false},
		{"no quiet hours send at once", Rule{}, notify.BatteryLow, night, night, false},
	}
	for _, tt := range tests {
		sendAt, dropped := tt.rule.Schedule(tt.kind, tt.at, nil)
		if dropped != tt.wantDrop || !sendAt.Equal(tt.want) {
			t.Errorf("%s: Schedule = %v, drop %v; want %v, drop %v", tt.name, sendAt, dropped, tt.want, tt.wantDrop)
		}
	}
}

// Where the clocks change at 02:00 local time towards UTC's west, Go
// places a skipped time before the change and a repeated time at its
// first showing: quiet hours still begin and end where they do in Berlin.
func TestScheduleQuietHoursNewYork(t *testing.T) {
	newYork := mustZone(t, "America/New_York")
	early := &QuietHours{From: 2*60 + 30, To: 5 * 60}
	lateNight := &QuietHours{From: 0, To: 60 + 30}
	tests := []struct {
		name  string
		quiet *QuietHours
		at    string
		want  string
	}{
		// 8 March 2026: at 02:00 the clocks go forward to 03:00.
		{"spring: beginning in the skipped hour, before it", early, "2026-03-08T01:59:00-05:00", ""},
		{"spring: beginning in the skipped hour, as it ends", early, "2026-03-08T03:00:00-04:00", "2026-03-08T05:00:00-04:00"},
		{"spring: ending in the skipped hour", &QuietHours{From: 60, To: 2*60 + 30}, "2026-03-08T01:30:00-05:00", "2026-03-08T03:00:00-04:00"},
		// 1 November 2026: at 02:00 the clocks go back to 01:00.
		{"autumn: ending in the repeated hour, the first time", lateNight, "2026-11-01T01:15:00-04:00", "2026-11-01T01:30:00-04:00"},
		{"autumn: ending in the repeated hour, the second time round", lateNight, "2026-11-01T01:15:00-05:00", ""},
	}
	for _, tt := range tests {
		at := mustTime(t, tt.at)
		want := at
		if tt.want != "" {
			want = mustTime(t, tt.want)
		}
		if sendAt, drop := (Rule{QuietHours: tt.quiet}).Schedule(notify.AlertOverdue, at, newYork); drop || !sendAt.Equal(want) {
			t.Errorf("%s: Schedule(%s) = %v, drop %v; want %v", tt.name, tt.at, sendAt.In(newYork), drop, want.In(newYork))
		}
	}
}

// Quiet hours are read in the zone given, UTC when none is.
func TestScheduleZone(t *testing.T) {
	newYork := mustZone(t, "America/New_York")
	rule := Rule{QuietHours: &QuietHours{From: 22 * 60, To: 6 * 60}}
	tests := []struct {
		name string
		zone *time.Location
		at   string
		want string
	}{
		{"23:00 in New York is quiet there", newYork, "2026-06-01T03:00:00Z", "2026-06-01T10:00:00Z"},
		{"03:00 UTC is quiet in UTC", nil, "2026-06-01T03:00:00Z", "2026-06-01T06:00:00Z"},
		{"23:00 UTC is quiet in UTC", nil, "2026-06-01T23:00:00Z", "2026-06-02T06:00:00Z"},
		{"but 19:00 in New York is not", newYork, "2026-06-01T23:00:00Z", "2026-06-01T23:00:00Z"},
	}
	for _, tt := range tests {
		sendAt, _ := rule.Schedule(notify.AlertOpened, mustTime(t, tt.at), tt.zone)
		if want := mustTime(t, tt.want); !sendAt.Equal(want) {
			t.Errorf("%s: Schedule(%s) = %v; want %v", tt.name, tt.at, sendAt, want)
		}
	}
	// The time goes out in the location it came in.
	at := mustTime(t, "2026-06-01T03:00:00Z").In(newYork)
	if sendAt, _ := rule.Schedule(notify.AlertOpened, at, newYork); sendAt.Location() != newYork {
		t.Errorf("Schedule returned a time in %v; want it in the location of at, %v", sendAt.Location(), newYork)
	}
}

func TestNotificationID(t *testing.T) {
	id := NotificationID("Out of product", "ops", "acme-eu/alerts/7f0c/alert.opened")
	// The key of a notification must not change between attempts, restarts
	// or releases: a receiver drops a repeat by it.
	if want := "ntf_iro4icdjgvuzlmkuazu2u7nfmct4kws5"; id != want {
		t.Errorf("NotificationID = %q; want %q, as every release before", id, want)
	}
	if again := NotificationID("Out of product", "ops", "acme-eu/alerts/7f0c/alert.opened"); again != id {
		t.Errorf("NotificationID gave %q, then %q for the same notification", id, again)
	}
	others := [][3]string{
		{"Out of product 2", "ops", "acme-eu/alerts/7f0c/alert.opened"},
		{"Out of product", "desk", "acme-eu/alerts/7f0c/alert.opened"},
		{"Out of product", "ops", "acme-eu/alerts/7f0c/alert.overdue"},
		{"Out of product", "ops", "globex/alerts/7f0c/alert.opened"},
		{"Out of productops", "", "acme-eu/alerts/7f0c/alert.opened"},
		{"Out of product", "opsacme-eu/alerts/7f0c/alert.opened", ""},
	}
	seen := map[string]bool{id: true}
	for _, in := range others {
		other := NotificationID(in[0], in[1], in[2])
		if seen[other] {
			t.Errorf("NotificationID%q = %q, the key of another notification", in, other)
		}
		seen[other] = true
	}
	n := notify.Notification{ID: id, Item: notify.Item{Kind: notify.AlertOpened}}
	if err := n.Validate(); err != nil {
		t.Errorf("a notification keyed %q: %v", id, err)
	}
}

func TestTimeOfDay(t *testing.T) {
	for text, want := range map[string]int{"00:00": 0, "06:00": 360, "22:30": 1350, "23:59": 1439} {
		got, err := ParseTimeOfDay(text)
		if err != nil || got != want {
			t.Errorf("ParseTimeOfDay(%q) = %d, %v; want %d", text, got, err, want)
		}
		if back := FormatTimeOfDay(want); back != text {
			t.Errorf("FormatTimeOfDay(%d) = %q; want %q", want, back, text)
		}
	}
	for _, text := range []string{"24:00", "12:60", "6:00", "06:00 ", "", "ab:cd", "06-00", "0600"} {
		if _, err := ParseTimeOfDay(text); err == nil {
			t.Errorf("ParseTimeOfDay(%q) read a time of day; want an error", text)
		}
	}
}
