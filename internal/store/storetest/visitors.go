package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testRoomCodes: a room has one current code, found by its hash with its
// account and sealed token; a code made for a room that has one already
// is dropped; a replaced code is still found, as replaced, while it is
// one of the room's RoomCodesReplacedKept newest replaced codes; an
// account reads its own rooms' codes only.
func testRoomCodes(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))
	code := func(room, token string, at time.Time) store.RoomCode {
		return store.RoomCode{Account: "a", RoomID: room, Hash: []byte("hash-" + token), Sealed: []byte("sealed-" + token), Created: at}
	}
	first, second := code("a-r1", "one", t0), code("a-r2", "two", t0)
	if err := s.AddRoomCodes(ctx, "a", []store.RoomCode{first, second}); err != nil {
		t.Fatal(err)
	}
	// Made meanwhile by another request: the first code stays.
	if err := s.AddRoomCodes(ctx, "a", []store.RoomCode{code("a-r1", "late", t0.Add(time.Second))}); err != nil {
		t.Fatal(err)
	}
	got, err := s.RoomCodes(ctx, "a", []string{"a-r1", "a-r2", "a-r404"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]store.RoomCode{"a-r1": first, "a-r2": second}; !reflect.DeepEqual(got, want) {
		t.Errorf("the rooms' codes = %+v; want %+v", got, want)
	}
	if got, err := s.RoomCodes(ctx, "b", []string{"a-r1"}); err != nil || len(got) != 0 {
		t.Errorf("account b reads account a's codes: %+v, %v", got, err)
	}
	if _, err := s.RoomCodeByHash(ctx, []byte("hash-late")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the dropped code is found: %v", err)
	}
	if c, err := s.RoomCodeByHash(ctx, first.Hash); err != nil || !reflect.DeepEqual(c, first) {
		t.Errorf("the code by its hash = %+v, %v; want %+v", c, err, first)
	}

	// Replaced: the new one is current, the old one found as replaced.
	at := t0.Add(time.Hour)
	renewed := code("a-r1", "renewed", at)
	if err := s.ReplaceRoomCode(ctx, "a", renewed); err != nil {
		t.Fatal(err)
	}
	if got, err := s.RoomCodes(ctx, "a", []string{"a-r1"}); err != nil || !reflect.DeepEqual(got["a-r1"], renewed) {
		t.Errorf("the room's code after replacing it = %+v, %v; want %+v", got, err, renewed)
	}
	old := first
	old.Replaced = at
	if c, err := s.RoomCodeByHash(ctx, first.Hash); err != nil || !reflect.DeepEqual(c, old) {
		t.Errorf("the replaced code = %+v, %v; want %+v", c, err, old)
	}
	// Replaced again and again: the oldest replaced codes are forgotten.
	for i := range store.RoomCodesReplacedKept {
		if err := s.ReplaceRoomCode(ctx, "a", code("a-r1", "again"+string(rune('a'+i)), at.Add(time.Duration(i+1)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RoomCodeByHash(ctx, first.Hash); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the code replaced %d times since is still kept: %v", store.RoomCodesReplacedKept, err)
	}
	if c, err := s.RoomCodeByHash(ctx, renewed.Hash); err != nil || c.Replaced.IsZero() {
		t.Errorf("the newest replaced codes are kept: %+v, %v", c, err)
	}
	if c, err := s.RoomCodeByHash(ctx, second.Hash); err != nil || !c.Replaced.IsZero() {
		t.Errorf("another room's code changed: %+v, %v", c, err)
	}

	// A rotation seals the current codes again, by what they are sealed
	// for; a reseal of a value changed meanwhile changes nothing.
	seals, err := s.RoomCodeSeals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(seals) != 2 || string(seals["a\x00a-r2"]) != "sealed-two" {
		t.Fatalf("the codes' seals = %q", seals)
	}
	n, err := s.ResealRoomCodes(ctx, map[string]store.Reseal{
		"a\x00a-r2": {Old: []byte("sealed-two"), New: []byte("resealed-two")},
		"a\x00a-r1": {Old: []byte("sealed-changed-meanwhile"), New: []byte("lost")},
	})
	if err != nil || n != 1 {
		t.Errorf("resealing: %d, %v; want 1", n, err)
	}
	if got, err := s.RoomCodes(ctx, "a", []string{"a-r2"}); err != nil || string(got["a-r2"].Sealed) != "resealed-two" {
		t.Errorf("the resealed code = %+v, %v", got, err)
	}
}

// testVisitorRecords: presence scans count once per person, room and
// minute, and are read by room and period; visitors' reports keep what
// was said and are read by room, period and openness; a flood marker is
// made once per room and period; ratings are counted and averaged by
// day in a zone; records older than VisitorRecordsKept, and beyond the
// account's bound, go; accounts keep theirs apart.
func testVisitorRecords(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))

	ana := domain.PresenceScan{RoomID: "a-r1", PersonID: "p-ana", Name: "Ana", At: t0.Add(5 * time.Second)}
	for i, c := range []struct {
		scan domain.PresenceScan
		want bool
	}{
		{ana, true},
		{domain.PresenceScan{RoomID: "a-r1", PersonID: "p-ana", Name: "Ana", At: t0.Add(50 * time.Second)}, false}, // the same minute
		{domain.PresenceScan{RoomID: "a-r2", PersonID: "p-ana", Name: "Ana", At: t0.Add(55 * time.Second)}, true},  // another room
		{domain.PresenceScan{RoomID: "a-r1", PersonID: "p-ben", Name: "Ben", At: t0.Add(58 * time.Second)}, true},  // another person
		{domain.PresenceScan{RoomID: "a-r1", PersonID: "p-ana", Name: "Ana", At: t0.Add(61 * time.Second)}, true},  // the next minute
	} {
		if added, err := s.AddPresenceScan(ctx, "a", c.scan, 100); err != nil || added != c.want {
			t.Errorf("scan %d: added %v, %v; want %v", i+1, added, err, c.want)
		}
	}
	scans, err := s.PresenceScans(ctx, "a", "a-r1", t0, t0.Add(time.Hour), 10)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sc := range scans {
		names = append(names, sc.Name+"@"+sc.At.Format("15:04:05"))
	}
	if want := []string{"Ana@08:00:05", "Ben@08:00:58", "Ana@08:01:01"}; !reflect.DeepEqual(names, want) {
		t.Errorf("room r1's scans = %v; want %v", names, want)
	}
	if got, err := s.PresenceScans(ctx, "a", "a-r1", t0, t0.Add(time.Hour), 1); err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], ana) {
		t.Errorf("the first scan alone = %+v, %v; want %+v", got, err, ana)
	}
	if got, err := s.PresenceScans(ctx, "a", "", t0.Add(time.Minute), t0.Add(time.Hour), 10); err != nil || len(got) != 1 {
		t.Errorf("every room's scans from 08:01 = %+v, %v; want the last one", got, err)
	}
	if got, err := s.PresenceScans(ctx, "b", "", t0, t0.Add(time.Hour), 10); err != nil || len(got) != 0 {
		t.Errorf("account b sees account a's scans: %+v, %v", got, err)
	}

	paper := domain.VisitorReport{RoomID: "a-r1", Kind: domain.VisitorNoPaper, Rating: 2, Created: t0.Add(time.Minute)}
	other := domain.VisitorReport{RoomID: "a-r1", Kind: domain.VisitorOther, Text: "The door does not lock", Created: t0.Add(2 * time.Minute)}
	rated := domain.VisitorReport{RoomID: "a-r2", Kind: domain.VisitorRatingOnly, Rating: 5, Created: t0.Add(3 * time.Minute)}
	closed := domain.VisitorReport{RoomID: "a-r1", Kind: domain.VisitorNoSoap, Rating: 4, Created: t0.Add(4 * time.Minute),
		Closed: t0.Add(time.Hour), ClosedBy: domain.ClosedService}
	for i, r := range []*domain.VisitorReport{&paper, &other, &rated, &closed} {
		id, err := s.AddVisitorReport(ctx, "a", *r, 100)
		if err != nil || id == 0 {
			t.Fatalf("report %d: %d, %v", i+1, id, err)
		}
		r.ID = id
	}
	for _, c := range []struct {
		name string
		f    store.VisitorReportFilter
		want []domain.VisitorReport
	}{
		{"every one", store.VisitorReportFilter{}, []domain.VisitorReport{paper, other, rated, closed}},
		{"of room r1", store.VisitorReportFilter{Room: "a-r1"}, []domain.VisitorReport{paper, other, closed}},
		{"open ones of room r1", store.VisitorReportFilter{Room: "a-r1", OpenOnly: true}, []domain.VisitorReport{paper, other}},
		{"of a period", store.VisitorReportFilter{From: other.Created, To: closed.Created}, []domain.VisitorReport{other, rated}},
		{"at most one", store.VisitorReportFilter{Limit: 1}, []domain.VisitorReport{paper}},
	} {
		if got, err := s.VisitorReports(ctx, "a", c.f); err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("reports %s = %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
	if got, err := s.VisitorReports(ctx, "b", store.VisitorReportFilter{}); err != nil || len(got) != 0 {
		t.Errorf("account b sees account a's reports: %+v, %v", got, err)
	}

	// A flood is said once a room and period.
	hour := t0.Add(time.Hour)
	for i, c := range []struct {
		room   string
		at     time.Time
		since  time.Time
		marked bool
	}{
		{"a-r1", hour.Add(time.Minute), hour, true},
		{"a-r1", hour.Add(2 * time.Minute), hour, false},
		{"a-r2", hour.Add(2 * time.Minute), hour, true},
		{"a-r1", hour.Add(61 * time.Minute), hour.Add(time.Hour), true},
	} {
		if marked, err := s.AddVisitorFlood(ctx, "a", c.room, c.at, c.since, 100); err != nil || marked != c.marked {
			t.Errorf("flood %d: marked %v, %v; want %v", i+1, marked, err, c.marked)
		}
	}
	floods, err := s.VisitorReports(ctx, "a", store.VisitorReportFilter{From: hour})
	if err != nil || len(floods) != 3 || floods[0].Kind != domain.VisitorFlood || floods[0].RoomID != "a-r1" {
		t.Errorf("the flood markers = %+v, %v; want 3, r1's first", floods, err)
	}

	// Ratings by day, in the zone asked for: 23:30 UTC is the next day in
	// Berlin.
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	late := domain.VisitorReport{RoomID: "a-r1", Kind: domain.VisitorDirty, Rating: 1, Created: time.Date(2026, 11, 10, 23, 30, 0, 0, time.UTC)}
	if _, err := s.AddVisitorReport(ctx, "a", late, 100); err != nil {
		t.Fatal(err)
	}
	ratings, err := s.VisitorRatings(ctx, "a", "a-r1", t0, t0.Add(48*time.Hour), berlin)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.DailyRating{
		{Day: time.Date(2026, 11, 10, 0, 0, 0, 0, berlin), Count: 2, Average: 3},
		{Day: time.Date(2026, 11, 11, 0, 0, 0, 0, berlin), Count: 1, Average: 1},
	}
	if !reflect.DeepEqual(ratings, want) {
		t.Errorf("room r1's ratings by day in Berlin = %+v; want %+v", ratings, want)
	}

	// Bounded: the account keeps its max newest reports, and none older
	// than VisitorRecordsKept.
	for i := range 3 {
		if _, err := s.AddVisitorReport(ctx, "a", domain.VisitorReport{RoomID: "a-r2", Kind: domain.VisitorBroken, Created: late.Created.Add(time.Duration(i) * time.Minute)}, 2); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.VisitorReports(ctx, "a", store.VisitorReportFilter{}); err != nil || len(got) != 2 || got[0].Kind != domain.VisitorBroken {
		t.Errorf("the reports kept with a bound of 2 = %+v, %v; want the 2 newest", got, err)
	}
	far := late.Created.Add(store.VisitorRecordsKept + time.Hour)
	if _, err := s.AddVisitorReport(ctx, "a", domain.VisitorReport{RoomID: "a-r2", Kind: domain.VisitorDirty, Created: far}, 100); err != nil {
		t.Fatal(err)
	}
	if got, err := s.VisitorReports(ctx, "a", store.VisitorReportFilter{}); err != nil || len(got) != 1 || !got[0].Created.Equal(far) {
		t.Errorf("the reports kept %s later = %+v, %v; want the last alone", store.VisitorRecordsKept, got, err)
	}
	if _, err := s.AddPresenceScan(ctx, "a", domain.PresenceScan{RoomID: "a-r1", PersonID: "p-ana", Name: "Ana", At: far}, 100); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PresenceScans(ctx, "a", "", t0, far.Add(time.Hour), 10); err != nil || len(got) != 1 {
		t.Errorf("the scans kept %s later = %+v, %v; want the last alone", store.VisitorRecordsKept, got, err)
	}
	for i := range 3 {
		if _, err := s.AddPresenceScan(ctx, "a", domain.PresenceScan{RoomID: "a-r1", PersonID: "p-ben", Name: "Ben", At: far.Add(time.Duration(i+1) * time.Minute)}, 2); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.PresenceScans(ctx, "a", "", t0, far.Add(time.Hour), 10); err != nil || len(got) != 2 || got[0].PersonID != "p-ben" {
		t.Errorf("the scans kept with a bound of 2 = %+v, %v; want Ben's 2 newest", got, err)
	}
}
