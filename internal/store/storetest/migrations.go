package storetest

import (
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
