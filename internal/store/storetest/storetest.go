// Package storetest is the contract every implementation of store.Store
// passes. Run drives a store through the whole interface and checks what a
// reader of the cache sees; BenchFirstRefresh measures the first sync of a
// large account, the same workload for every engine.
//
// Both take a function that opens an empty store of the engine under test
// and closes it when the test ends.
package storetest

import (
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Run runs the contract's tests, each in a subtest of its own with a store
// of its own, in parallel.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	for _, c := range []struct {
		name string
		test func(*testing.T, func(*testing.T) store.Store)
	}{
		{"Migrated", testMigrated},
		{"NotFound", testNotFound},
		{"KeyCheck", testKeyCheck},
		{"KeepSetting", testKeepSetting},
		{"PushSubscriptions", testPushSubscriptions},
		{"PushSubscriptionsSpeakTheirPersonsLanguage", testPushSubscriptionsSpeakTheirPersonsLanguage},
		{"LayoutRefreshWritesOnlyChanges", testLayoutRefreshWritesOnlyChanges},
		{"LayoutInPartsIsTheWholeLayout", testLayoutInParts},
		{"LayoutReads", testLayoutReads},
		{"RoomsMove", testRoomsMove},
		{"LocationsGo", testLocationsGo},
		{"AccountsAreIsolated", testAccountsAreIsolated},
		{"DevicesRoundTrip", testDevicesRoundTrip},
		{"FindDevices", testFindDevices},
		{"ReadsOfSomeBuildings", testReadsOfSomeBuildings},
		{"RollupsFollowEveryStep", testRollupsFollowEveryStep},
		{"AlertRefreshes", testAlertRefreshes},
		{"AlertFilters", testAlertFilters},
		{"AlertsOverdueSinceAndOpenDuring", testAlertsOverdueSinceAndOpenDuring},
		{"AlertReadTwiceKeepsItsLastVersion", testAlertReadTwice},
		{"FailedRefreshLeavesTheCacheAsItWas", testFailedRefresh},
		{"AlertEvents", testAlertEvents},
		{"AlertOfAnotherAccount", testAlertOfAnotherAccount},
		{"RefillTotals", testRefillTotals},
		{"Claims", testClaims},
		{"ClaimsEndWithTheirAlerts", testClaimsEndWithTheirAlerts},
		{"ClaimsGoWithOldAlerts", testClaimsGoWithOldAlerts},
		{"ClaimsDuring", testClaimsDuring},
		{"ClaimsAtOnce", testClaimsAtOnce},
		{"ClaimsOfOneAccount", testClaimsOfOneAccount},
		{"ClaimsOfPeople", testClaimsOfPeople},
		{"DoneReports", testDoneReports},
		{"ServiceRecord", testServiceRecord},
		{"FactsOfAlerts", testFactsOfAlerts},
		{"FactsOfAlertEvents", testFactsOfAlertEvents},
		{"FactsOfDevices", testFactsOfDevices},
		{"FactsOfAFailedRefresh", testFactsOfAFailedRefresh},
		{"FactsInOrder", testFactsInOrder},
		{"HistoryRecordsChanges", testHistoryRecordsChanges},
		{"HistoryAcrossDays", testHistoryAcrossDays},
		{"HistoryOfSomeDevices", testHistoryOfSomeDevices},
		{"PruneHistory", testPruneHistory},
		{"KeepHistory", testKeepHistory},
		{"HistoryOfAFailedRefresh", testHistoryOfAFailedRefresh},
		{"DeviceStates", testDeviceStates},
		{"SeedHistory", testSeedHistory},
		{"EachDeviceHistory", testEachDeviceHistory},
		{"NotificationsDue", testNotificationsDue},
		{"NotificationsBounded", testNotificationsBounded},
		{"NotificationIDsAreIdempotent", testNotificationIDsAreIdempotent},
		{"Digests", testDigests},
		{"DecisionsAreWhole", testDecisionsAreWhole},
		{"NotificationUpdates", testNotificationUpdates},
		{"NotificationNotesAreCut", testNotificationNotesAreCut},
		{"DecidedThrough", testDecidedThrough},
		{"DecidedThroughAtOnce", testDecidedThroughAtOnce},
		{"NextDue", testNextDue},
		{"NotificationLog", testNotificationLog},
		{"PruneNotifications", testPruneNotifications},
		{"NotificationSettings", testNotificationSettings},
		{"SyncStatuses", testSyncStatuses},
		{"SyncStatusesShowTheLastRecord", testSyncStatusesShowTheLastRecord},
		{"ReportSettings", testReportSettings},
		{"ServiceLevels", testServiceLevels},
		{"AlertMeasures", testAlertMeasures},
		{"NoMeasurerMeasuresNothing", testNoMeasurerMeasuresNothing},
		{"Screens", testScreens},
		{"ScreenCredentials", testScreenCredentials},
		{"RemoveRevokedScreens", testRemoveRevokedScreens},
		{"Receivers", testReceivers},
		{"LimitsHoldAtOnce", testLimitsHoldAtOnce},
		{"Sessions", testSessions},
		{"Connections", testConnections},
		{"JoinState", testJoinState},
		{"People", testPeople},
		{"PersonLanguage", testPersonLanguage},
		{"Memberships", testMemberships},
		{"LastOwnerAtOnce", testLastOwnerAtOnce},
		{"SignInOIDC", testSignInOIDC},
		{"Disconnect", testDisconnect},
		{"Invitations", testInvitations},
		{"InvitationAcceptedOnce", testInvitationAcceptedOnce},
		{"SignInLinks", testSignInLinks},
		{"Passkeys", testPasskeys},
		{"EnrolledDevices", testEnrolledDevices},
		{"EnrolmentOpensOnce", testEnrolmentOpensOnce},
		{"SignInDevices", testSignInDevices},
		{"SessionPeople", testSessionPeople},
		{"AuditLog", testAuditLog},
		{"Organisations", testOrganisations},
		{"ReportMail", testReportMail},
		{"ReportScheduleLanguage", testReportScheduleLanguage},
		{"ReportScheduleChanged", testReportScheduleChanged},
		{"PortfolioScreens", testPortfolioScreens},
		{"ScreenLanguage", testScreenLanguage},
		{"FloorPlans", testFloorPlans},
		{"ScreenPlans", testScreenPlans},
		{"RoomCodes", testRoomCodes},
		{"VisitorRecords", testVisitorRecords},
		{"Rounds", testRounds},
		{"RoundTicks", testRoundTicks},
		{"OpenVisitorComplaints", testOpenVisitorComplaints},
		{"ScreenShowsRounds", testScreenShowsRounds},
		{"RoundSchedules", testRoundSchedules},
		{"VisitorAlerts", testVisitorAlerts},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.test(t, open)
		})
	}
}

// testLayout is a small account: one building, two floors, a room on each,
// two locations per room. Identifiers carry the account's prefix unless
// shared is set, which gives two accounts the same identifiers.
func testLayout(account string, shared bool) domain.Layout {
	p := account + "-"
	if shared {
		p = ""
	}
	return domain.Layout{
		Account:   domain.Account{ID: account, Name: "Account " + account},
		Buildings: []domain.Building{{ID: p + "b1", Name: "North Tower"}},
		Floors:    []domain.Floor{{ID: p + "f1", BuildingID: p + "b1", Name: "Level 1"}, {ID: p + "f2", BuildingID: p + "b1", Name: "Level 2"}},
		Rooms:     []domain.Room{{ID: p + "r1", FloorID: p + "f1", Name: "Men's Restroom 1.02"}, {ID: p + "r2", FloorID: p + "f2", Name: "Women's Restroom 2.04"}},
		Locations: []domain.Location{
			{ID: p + "1", RoomID: p + "r1", Name: "Sink Left", Type: domain.Soap},
			{ID: p + "2", RoomID: p + "r1", Name: "Stall 1", Type: domain.Tissue},
			{ID: p + "3", RoomID: p + "r2", Name: "Towel", Type: domain.Towel},
			{ID: p + "4", RoomID: p + "r2", Name: "Stall 2", Type: domain.Tissue},
		},
	}
}

func intp(v int) *int { return &v }

// device is a dispenser with one compartment at level percent.
func device(mac, loc string, level int) domain.Device {
	return domain.Device{
		MAC: mac, LocationID: loc, Position: "main", Generation: "2.0",
		Compartments: []domain.Compartment{{Level: level, Low: level <= 15, Out: level == 0}},
		Battery:      intp(80), BatteryState: domain.BatteryNormal,
		LastSeen: time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC),
	}
}

// alert is a consumable_out alert of one refill, resolved by its device an
// hour after it was created unless it is open.
func alert(id, loc string, created time.Time, open, overdue bool) domain.Alert {
	a := domain.Alert{ID: id, LocationID: loc, MACs: []string{"0000000000A1"}, Status: domain.AlertOpen,
		Type: domain.AlertConsumableOut, Created: created, Overdue: overdue, RefillCount: 1}
	if !open {
		a.Status, a.Resolved, a.Resolution = domain.AlertClosed, created.Add(time.Hour), domain.ResolvedByDevice
	}
	return a
}

// t0 is the tests' reference time.
var t0 = time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)

func alertIDs(alerts []domain.Alert) []string {
	ids := []string{}
	for _, a := range alerts {
		ids = append(ids, a.ID)
	}
	return ids
}

func mustReplaceLayout(t *testing.T, s store.Store, l domain.Layout) domain.Change {
	t.Helper()
	c, err := s.ReplaceLayout(t.Context(), l)
	if err != nil {
		t.Fatalf("ReplaceLayout(%s): %v", l.Account.ID, err)
	}
	return c
}

func mustReplaceDevices(t *testing.T, s store.Store, account string, devices []domain.Device) domain.Change {
	t.Helper()
	c, err := s.ReplaceDevices(t.Context(), account, devices)
	if err != nil {
		t.Fatalf("ReplaceDevices(%s): %v", account, err)
	}
	return c
}

func mustApplyAlerts(t *testing.T, s store.Store, account string, w store.AlertWrite) domain.Change {
	t.Helper()
	c, err := s.ApplyAlerts(t.Context(), account, w)
	if err != nil {
		t.Fatalf("ApplyAlerts(%s): %v", account, err)
	}
	return c
}

// The contract's fixtures, for the engines' own tests: TestLayout is a
// small account (testLayout), Device a dispenser with one compartment at
// level percent, Alert a consumable_out alert of one refill, resolved by
// its device an hour after it was created unless it is open.
func TestLayout(account string) domain.Layout { return testLayout(account, false) }

func Device(mac, loc string, level int) domain.Device { return device(mac, loc, level) }

func Alert(id, loc string, created time.Time, open, overdue bool) domain.Alert {
	return alert(id, loc, created, open, overdue)
}
