package visitors

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
)

var start = time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)

// newService is the service over a real store holding one account's
// small layout: a building of two floors, a room on each.
func newService(t *testing.T) (*Service, *clock.Fake, store.Store) {
	t.Helper()
	st, _ := sqlitetest.Open(t)
	layout := domain.Layout{Account: domain.Account{ID: "acc", Name: "Acme"},
		Buildings: []domain.Building{{ID: "b1", Name: "North Tower"}, {ID: "b2", Name: "Annex"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Level 1"}, {ID: "f2", BuildingID: "b2", Name: "Ground"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Room 1.02"}, {ID: "r2", FloorID: "f1", Name: "Room 1.04"}, {ID: "r3", FloorID: "f2", Name: "Room G.01"}},
	}
	if _, err := st.ReplaceLayout(t.Context(), layout); err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.New(make([]byte, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(start)
	return New(st, keys, clk), clk, st
}

// A floor's sheet makes each room's code once: the same codes print
// again, each opens its room, a replaced one says so and its successor
// opens the room; a made-up token opens nothing.
func TestCodesOpenTheirRoomsUntilReplaced(t *testing.T) {
	s, _, _ := newService(t)
	ctx := t.Context()
	sheet, err := s.FloorSheet(ctx, "acc", domain.EveryBuilding(), "f1")
	if err != nil {
		t.Fatal(err)
	}
	if len(sheet.Codes) != 2 || sheet.Building.Name != "North Tower" || sheet.Floor.Name != "Level 1" {
		t.Fatalf("the sheet of Level 1 = %+v", sheet)
	}
	again, err := s.FloorSheet(ctx, "acc", domain.EveryBuilding(), "f1")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range sheet.Codes {
		if len(c.Token) != tokenLen || again.Codes[i].Token != c.Token {
			t.Errorf("room %s: printed %q, then %q; want one code of %d characters", c.Room.Name, c.Token, again.Codes[i].Token, tokenLen)
		}
		p, err := s.Open(ctx, c.Token)
		if err != nil || p.Room.ID != c.Room.ID || p.Building.Name != "North Tower" || p.Account != "acc" {
			t.Errorf("opening %s's code: %+v, %v", c.Room.Name, p, err)
		}
	}
	if _, err := s.ReplaceCode(ctx, "acc", domain.EveryBuilding(), "r1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, sheet.Codes[0].Token); !errors.Is(err, ErrReplaced) {
		t.Errorf("the replaced code opens: %v; want ErrReplaced", err)
	}
	renewed, err := s.FloorSheet(ctx, "acc", domain.EveryBuilding(), "f1")
	if err != nil {
		t.Fatal(err)
	}
	if c := renewed.Codes[0]; c.Token == sheet.Codes[0].Token {
		t.Error("the sheet prints the replaced code")
	} else if p, err := s.Open(ctx, c.Token); err != nil || p.Room.ID != "r1" {
		t.Errorf("the new code: %+v, %v", p, err)
	}
	if renewed.Codes[1].Token != sheet.Codes[1].Token {
		t.Error("replacing a room's code changed another room's")
	}
	for _, token := range []string{"", "short", strings.Repeat("A", tokenLen), "../../etc/passwd", strings.Repeat("x", 5000)} {
		if _, err := s.Open(ctx, token); !errors.Is(err, ErrUnknownCode) || !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("opening %.20q: %v; want ErrUnknownCode", token, err)
		}
	}
}

// A room no longer in the layout: its code says so.
func TestTheCodeOfARoomGoneSaysSo(t *testing.T) {
	s, _, st := newService(t)
	ctx := t.Context()
	sheet, err := s.FloorSheet(ctx, "acc", domain.EveryBuilding(), "f2")
	if err != nil {
		t.Fatal(err)
	}
	layout, err := st.Layout(ctx, "acc")
	if err != nil {
		t.Fatal(err)
	}
	layout.Rooms = layout.Rooms[:2] // Room G.01 is gone
	if _, err := st.ReplaceLayout(ctx, layout); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, sheet.Codes[0].Token); !errors.Is(err, ErrRoomGone) {
		t.Errorf("the code of a room gone: %v; want ErrRoomGone", err)
	}
}

// A person limited to one building gets neither the sheet nor a new code
// of another building's floor or room.
func TestCodesOfABuildingOutOfScopeAreNotFound(t *testing.T) {
	s, _, _ := newService(t)
	ctx := t.Context()
	north := domain.OnlyBuildings("b1")
	if _, err := s.FloorSheet(ctx, "acc", north, "f2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the sheet of the Annex's floor for the North Tower's person: %v", err)
	}
	if _, err := s.ReplaceCode(ctx, "acc", north, "r3"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("replacing an Annex room's code for the North Tower's person: %v", err)
	}
	if _, err := s.ReplaceCode(ctx, "acc", domain.EveryBuilding(), "r404"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("replacing the code of no room: %v", err)
	}
}

// A room takes PerRoom reports a window; the rest are refused, and the
// flood is said once per period, with one marker.
func TestARoomsFloodIsBoundedAndSaidOnce(t *testing.T) {
	s, clk, st := newService(t)
	ctx := t.Context()
	p, err := s.Open(ctx, mustSheet(t, s, "f1").Codes[0].Token)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for i := range 1000 {
		addr := "198.51.100." + itoa(i%250) // many addresses
		if _, err := s.Report(ctx, p, Report{Kind: domain.VisitorDirty}, addr); errors.Is(err, ErrTooMany) {
			refused++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if want := 1000 - DefaultLimits.PerRoom; refused != want {
		t.Errorf("refused %d of 1,000 reports in a minute; want %d", refused, want)
	}
	reports, err := st.VisitorReports(ctx, "acc", store.VisitorReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if floods := countKind(reports, domain.VisitorFlood); len(reports) != DefaultLimits.PerRoom+1 || floods != 1 {
		t.Errorf("kept %d reports, %d flood markers; want %d and 1", len(reports), floods, DefaultLimits.PerRoom+1)
	}
	// The next minute takes reports again; a flood within the hour is not
	// said again; one after it is.
	clk.Advance(time.Minute)
	if _, err := s.Report(ctx, p, Report{Kind: domain.VisitorBroken}, "203.0.113.9"); err != nil {
		t.Errorf("a report a minute later: %v", err)
	}
	for range 10 {
		s.Report(ctx, p, Report{Kind: domain.VisitorDirty}, "203.0.113.9")
	}
	clk.Advance(time.Hour)
	for range 10 {
		s.Report(ctx, p, Report{Kind: domain.VisitorDirty}, "203.0.113.10")
	}
	reports, _ = st.VisitorReports(ctx, "acc", store.VisitorReportFilter{})
	if floods := countKind(reports, domain.VisitorFlood); floods != 2 {
		t.Errorf("%d flood markers over two floods an hour apart; want 2", floods)
	}
}

// Two replicas, each with its own throttles in memory, share a room's
// limit: the store counts what every replica took, and the room takes
// reports again once those are a window old.
func TestARoomsLimitHoldsAcrossReplicas(t *testing.T) {
	a, clk, st := newService(t)
	keys, err := keyring.New(make([]byte, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	b := New(st, keys, clk) // another replica on the same store
	ctx := t.Context()
	token := mustSheet(t, a, "f1").Codes[0].Token
	taken := 0
	for i := range 20 {
		s := a
		if i%2 == 1 {
			s = b
		}
		p, err := s.Open(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Report(ctx, p, Report{Kind: domain.VisitorDirty}, "198.51.100."+itoa(i)); err == nil {
			taken++
		} else if !errors.Is(err, ErrTooMany) {
			t.Fatal(err)
		}
		clk.Advance(time.Second)
	}
	if taken != DefaultLimits.PerRoom {
		t.Errorf("two replicas took %d reports of one room in 20 s; want %d, the room's limit", taken, DefaultLimits.PerRoom)
	}
	reports, err := st.VisitorReports(ctx, "acc", store.VisitorReportFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if floods := countKind(reports, domain.VisitorFlood); floods != 1 {
		t.Errorf("%d flood markers from both replicas; want 1", floods)
	}
	clk.Set(start.Add(DefaultLimits.RoomWindow + 5*time.Second)) // the fifth report taken is a window old
	p, err := b.Open(ctx, token)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Report(ctx, p, Report{Kind: domain.VisitorBroken}, "203.0.113.9"); err != nil {
		t.Errorf("a report a window after the last one taken: %v", err)
	}
}

// An address takes PerAddress reports a window whatever room it sends
// to; 10,000 from it leave a few reports and one marker, and another
// address is not held back. An IPv6 client counts by its /64.
func TestAnAddresssFloodIsBoundedAndSaidOnce(t *testing.T) {
	s, _, st := newService(t)
	ctx := t.Context()
	sheet := mustSheet(t, s, "f1")
	var places []Place
	for _, c := range sheet.Codes {
		p, err := s.Open(ctx, c.Token)
		if err != nil {
			t.Fatal(err)
		}
		places = append(places, p)
	}
	s.throttle.limits.PerRoom = 1_000_000 // the address's limit alone
	refused := 0
	for i := range 10_000 {
		addr := "2001:db8:1:2::" + itoa(i%500) // one /64
		if _, err := s.Report(ctx, places[i%2], Report{Rating: 3}, addr); errors.Is(err, ErrTooMany) {
			refused++
		}
	}
	if want := 10_000 - DefaultLimits.PerAddress; refused != want {
		t.Errorf("refused %d of 10,000 from one /64; want %d", refused, want)
	}
	if _, err := s.Report(ctx, places[0], Report{Rating: 4}, "2001:db8:1:3::1"); err != nil {
		t.Errorf("another /64 is held back: %v", err)
	}
	reports, _ := st.VisitorReports(ctx, "acc", store.VisitorReportFilter{})
	if floods := countKind(reports, domain.VisitorFlood); floods != 2 || len(reports) != DefaultLimits.PerAddress+1+2 {
		t.Errorf("kept %d reports with %d flood markers; want %d with one per room", len(reports), floods, DefaultLimits.PerAddress+3)
	}
	if len(s.throttle.addrs) != 2 {
		t.Errorf("the throttle remembers %d addresses; want 2", len(s.throttle.addrs))
	}
	for k := range s.throttle.addrs {
		if strings.Contains(k, "2001") {
			t.Errorf("the throttle keeps an address as it came: %q", k)
		}
	}
}

// The throttle's memory is bounded: a full map of open windows counts a
// new address by its room alone, and refuses a new room; ended windows
// make room.
func TestTheThrottlesMemoryIsBounded(t *testing.T) {
	th := newThrottle(Limits{PerRoom: 2, RoomWindow: time.Minute, PerAddress: 2, AddrWindow: time.Minute, FloodPeriod: time.Hour, MaxRooms: 3, MaxAddrs: 3})
	for i := range 3 {
		if got := th.allow("room"+itoa(i), "192.0.2."+itoa(i), start); got != allowed {
			t.Fatalf("report %d: %v", i, got)
		}
	}
	if got := th.allow("room0", "192.0.2.99", start); got != allowed {
		t.Errorf("a new address with the addresses' map full: %v; want let through to its room's limit", got)
	}
	if got := th.allow("room9", "192.0.2.0", start); got != roomsTooMany {
		t.Errorf("a new room with the rooms' map full: %v; want refused", got)
	}
	if len(th.rooms) > 3 || len(th.addrs) > 3 {
		t.Errorf("the maps hold %d rooms and %d addresses; at most 3 each", len(th.rooms), len(th.addrs))
	}
	if got := th.allow("room9", "192.0.2.50", start.Add(time.Minute)); got != allowed {
		t.Errorf("a new room once the windows ended: %v", got)
	}
}

// What a visitor sends is checked: something said, a known kind, a
// rating of 1 to 5, a text with "other" only, of at most MaxVisitorText
// characters on one line.
func TestAReportIsChecked(t *testing.T) {
	long := strings.Repeat("é", domain.MaxVisitorText+1)
	for _, c := range []struct {
		in   Report
		want Report
		err  error
	}{
		{Report{}, Report{}, ErrNothingSaid},
		{Report{Kind: "fire"}, Report{}, ErrUnknownKind},
		{Report{Kind: domain.VisitorFlood}, Report{}, ErrUnknownKind},
		{Report{Rating: 6}, Report{}, ErrBadRating},
		{Report{Kind: domain.VisitorDirty, Rating: -1}, Report{}, ErrBadRating},
		{Report{Kind: domain.VisitorOther, Text: "  "}, Report{}, ErrTextMissing},
		{Report{Kind: domain.VisitorOther, Text: long}, Report{}, ErrTextTooLong},
		{Report{Rating: 4}, Report{Kind: domain.VisitorRatingOnly, Rating: 4}, nil},
		{Report{Kind: domain.VisitorNoSoap, Text: "ignored"}, Report{Kind: domain.VisitorNoSoap}, nil},
		{Report{Kind: domain.VisitorOther, Text: " The door\nwon't\tlock\x00 ", Rating: 2}, Report{Kind: domain.VisitorOther, Text: "The door won't lock", Rating: 2}, nil},
	} {
		got, err := c.in.check()
		if !errors.Is(err, c.err) || err == nil && got != c.want {
			t.Errorf("%+v: %+v, %v; want %+v, %v", c.in, got, err, c.want, c.err)
		}
	}
}

// A form's token is taken for its room's code, within its life.
func TestAVisitorsFormTokenIsTheCodesAndShortLived(t *testing.T) {
	s, clk, _ := newService(t)
	ctx := t.Context()
	sheet := mustSheet(t, s, "f1")
	p1, _ := s.Open(ctx, sheet.Codes[0].Token)
	p2, _ := s.Open(ctx, sheet.Codes[1].Token)
	token := s.FormToken(p1)
	if !s.CheckFormToken(p1, token) {
		t.Error("a fresh token is refused")
	}
	for _, bad := range []string{"", "x", "1.zz", token + "0", "99999999999999999999999.00"} {
		if s.CheckFormToken(p1, bad) {
			t.Errorf("%q is taken", bad)
		}
	}
	if s.CheckFormToken(p2, token) {
		t.Error("a token of one room's code is taken for another's")
	}
	clk.Advance(FormTokenLife + time.Second)
	if s.CheckFormToken(p1, token) {
		t.Error("a token past its life is taken")
	}
}

// Presence: staff and above of the room's account whose role covers its
// building are recorded, once a minute; others are not.
func TestPresenceIsRecordedForStaffOfTheRoom(t *testing.T) {
	s, clk, st := newService(t)
	ctx := t.Context()
	p, _ := s.Open(ctx, mustSheet(t, s, "f1").Codes[0].Token)
	member := func(r domain.Role, account string, buildings ...string) domain.Member {
		return domain.Member{Membership: domain.Membership{Account: account, PersonID: "p-" + r.String(), Role: r, Buildings: buildings}, Name: "Sam " + r.String()}
	}
	for _, m := range []domain.Member{member(domain.Viewer, "acc"), member(domain.Staff, "other"), member(domain.Supervisor, "acc", "b2")} {
		if _, err := s.Present(ctx, p, m); !errors.Is(err, ErrNotPresent) {
			t.Errorf("%s of %s in %v: %v; want ErrNotPresent", m.Role, m.Account, m.Buildings, err)
		}
	}
	staff := member(domain.Staff, "acc", "b1")
	for range 2 {
		if at, err := s.Present(ctx, p, staff); err != nil || !at.Equal(start) {
			t.Errorf("a scan by staff: %v, %v", at, err)
		}
	}
	clk.Advance(time.Minute)
	if _, err := s.Present(ctx, p, member(domain.Owner, "acc")); err != nil {
		t.Error(err)
	}
	scans, err := st.PresenceScans(ctx, "acc", "r1", start, start.Add(time.Hour), 10)
	if err != nil || len(scans) != 2 || scans[0].Name != "Sam staff" {
		t.Errorf("the room's scans = %+v, %v; want Sam staff's once and the owner's", scans, err)
	}
}

func mustSheet(t *testing.T, s *Service, floor string) Sheet {
	t.Helper()
	sheet, err := s.FloorSheet(t.Context(), "acc", domain.EveryBuilding(), floor)
	if err != nil {
		t.Fatal(err)
	}
	return sheet
}

func countKind(rs []domain.VisitorReport, k domain.VisitorKind) int {
	n := 0
	for _, r := range rs {
		if r.Kind == k {
			n++
		}
	}
	return n
}

func itoa(i int) string { return strconv.Itoa(i) }
