package storetest

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// BaselinesKeptByMigration checks a store just migrated from a schema
// without facts (store.Facts) in which, at at, account a had alerts and
// devices cached; account b's alerts were refreshed, none open; and
// account c's devices were refreshed and failed. The accounts refreshed
// before have their baselines: their next refreshes record facts; an
// account never refreshed has none.
func BaselinesKeptByMigration(t *testing.T, s store.Store, at time.Time) {
	t.Helper()
	ctx := t.Context()
	for _, account := range []string{"a", "b", "c"} {
		if _, err := s.ApplyAlerts(ctx, account, store.AlertWrite{Upserts: []domain.Alert{alert("new-"+account, "1", at, true, false)}, SeenAt: at}); err != nil {
			t.Fatal(err)
		}
		offline := device("0000000000B1", "1", 80)
		offline.Offline = true
		if _, err := s.ReplaceDevices(ctx, account, []domain.Device{offline}); err != nil {
			t.Fatal(err)
		}
	}
	facts, err := s.FactsAfter(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range facts {
		got = append(got, f.Account+" "+string(f.Kind))
	}
	if want := []string{"a alert.opened", "a device.offline", "b alert.opened"}; !slices.Equal(got, want) {
		t.Errorf("after the migration, refreshes recorded %v; want %v", got, want)
	}
}

// RefreshAll writes the account's layout, devices and alerts, as the
// service lists them, in a refresh each; the alerts as seen at seen.
func RefreshAll(t *testing.T, s store.Store, l domain.Layout, devices []domain.Device, alerts []domain.Alert, seen time.Time) {
	t.Helper()
	mustReplaceLayout(t, s, l)
	mustReplaceDevices(t, s, l.Account.ID, devices)
	mustApplyAlerts(t, s, l.Account.ID, store.AlertWrite{Upserts: alerts, SeenAt: seen})
}

// TypedClaimsKeptByMigration checks a store just migrated from a schema
// in which claims had no person, where account a's open alert x1 was
// claimed by the name "Maria", with the note "rolls", at at. The claim
// keeps its name, and a claim in a person's name hands it over.
func TypedClaimsKeptByMigration(t *testing.T, s store.Store, at time.Time) {
	t.Helper()
	maria := domain.Claim{AlertID: "x1", Name: "Maria", Note: "rolls", At: at}
	if got := activeClaims(t, s, "a"); !reflect.DeepEqual(got, map[string]domain.Claim{"x1": maria}) {
		t.Fatalf("after the migration, the active claims are %+v; want Maria's, as typed", got)
	}
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	ana := domain.Claim{AlertID: "x1", PersonID: "p-ana", Name: "Ana", At: at.Add(time.Minute)}
	mustClaim(t, s, "a", ana)
	want := []domain.Claim{ended(maria, ana.At, domain.ClaimHanded), ana}
	if got := claimsDuring(t, s, "a", at, at.Add(time.Hour), 0); !reflect.DeepEqual(got, want) {
		t.Errorf("after Ana took the alert over, the claims are %+v;\nwant %+v", got, want)
	}
}
