package storetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testOrganisations: an organisation groups accounts, each in one at
// most; its people have a role in all of its accounts or some; a change
// of that role ends the person's sessions in its accounts; it keeps an
// owner; disconnecting an account takes it out.
func testOrganisations(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	for _, a := range []string{"a", "b", "c"} {
		if _, err := s.ReplaceLayout(ctx, testLayout(a, false)); err != nil {
			t.Fatal(err)
		}
	}
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", "ana@example.com"), true)
	mustJoin(t, s, "b", newPerson("p-ana", "Ana", ""), false)
	mustJoin(t, s, "c", newPerson("p-cy", "Cy", ""), true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)

	org := domain.Organisation{ID: "o1", Name: "Shine Services", Created: t0}
	owner := domain.OrganisationMember{PersonID: "p-ana", Role: domain.Owner, Created: t0}
	joined := store.Audit{At: t0, ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditOrganisationJoined, Subject: "Shine Services"}
	if err := s.CreateOrganisation(ctx, org, owner, domain.OrganisationAccount{Account: "a", Region: "North", Added: t0}, joined); err != nil {
		t.Fatal(err)
	}
	if err := s.AddOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: "o1", Account: "b", Client: "Airport", Added: t0}, 2, joined); err != nil {
		t.Fatal(err)
	}
	if o, err := s.Organisation(ctx, "o1"); err != nil || o.Name != "Shine Services" || !o.Created.Equal(t0) {
		t.Errorf("Organisation(o1) = %+v, %v", o, err)
	}
	accounts, err := s.OrganisationAccounts(ctx, "o1")
	if err != nil || len(accounts) != 2 || accounts[0].Account != "a" || accounts[0].Name != "Account a" || accounts[0].Region != "North" ||
		accounts[0].ClientName() != "Account a" || accounts[1].ClientName() != "Airport" {
		t.Errorf("OrganisationAccounts(o1) = %+v, %v", accounts, err)
	}

	// Each account, and each person, belongs to one organisation at most.
	if err := s.CreateOrganisation(ctx, domain.Organisation{ID: "o2", Name: "Other", Created: t0},
		domain.OrganisationMember{PersonID: "p-cy", Role: domain.Owner, Created: t0}, domain.OrganisationAccount{Account: "a", Added: t0}, store.Audit{}); !errors.Is(err, domain.ErrAccountInOrganisation) {
		t.Errorf("a second organisation of account a: %v; want ErrAccountInOrganisation", err)
	}
	if _, err := s.Organisation(ctx, "o2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the refused organisation was kept: %v", err)
	}
	if err := s.CreateOrganisation(ctx, domain.Organisation{ID: "o2", Name: "Other", Created: t0},
		domain.OrganisationMember{PersonID: "p-cy", Role: domain.Owner, Created: t0}, domain.OrganisationAccount{Account: "c", Added: t0}, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutOrganisationMember(ctx, domain.OrganisationMember{Organisation: "o2", PersonID: "p-ana", Role: domain.Viewer, Created: t0}, 0, store.Audit{}); !errors.Is(err, domain.ErrPersonInOrganisation) {
		t.Errorf("Ana into a second organisation: %v; want ErrPersonInOrganisation", err)
	}
	if err := s.AddOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: "o1", Account: "c", Added: t0}, 0, store.Audit{}); !errors.Is(err, domain.ErrAccountInOrganisation) {
		t.Errorf("account c into o1: %v; want ErrAccountInOrganisation", err)
	}
	if err := s.AddOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: "o2", Account: "nowhere", Added: t0}, 0, store.Audit{}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an unknown account into o2: %v; want ErrNotFound", err)
	}
	if err := s.UpdateOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: "o2", Account: "a", Region: "South"}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("o2 changing o1's account: %v; want ErrNotFound", err)
	}
	if err := s.UpdateOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: "o1", Account: "a", Client: "Head office", Region: "South"}); err != nil {
		t.Fatal(err)
	}

	// Ben, of account a, joins o1 as a supervisor of account b alone.
	live := time.Now().Add(time.Hour)
	mustSignedIn(t, s, "s-ben-a", "p-ben", "a", live)
	mustSignedIn(t, s, "s-ben-b", "p-ben", "b", live)
	mustSignedIn(t, s, "s-ben-c", "p-ben", "c", live)
	ben := domain.OrganisationMember{Organisation: "o1", PersonID: "p-ben", Role: domain.Supervisor, Accounts: []string{"b"}, Created: t0}
	given := store.Audit{At: t0, ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditOrganisationRole, Subject: "Ben: supervisor"}
	if ended, err := s.PutOrganisationMember(ctx, ben, 0, given); err != nil || len(ended) != 0 {
		t.Errorf("adding Ben = %v, %v; want no session ended", ended, err)
	}
	for _, account := range []string{"a", "b"} {
		if got := auditLines(t, s, domain.AuditFilter{Account: account, Action: domain.AuditOrganisationRole}); !reflect.DeepEqual(got, []string{"organisation.role: Ben: supervisor (Ana)"}) {
			t.Errorf("the log of %s: %v; want Ben's role in the organisation", account, got)
		}
	}
	if got := auditLines(t, s, domain.AuditFilter{Account: "c", Action: domain.AuditOrganisationRole}); len(got) != 0 {
		t.Errorf("the log of c, of another organisation: %v; want nothing", got)
	}
	if got := auditLines(t, s, domain.AuditFilter{Account: "b", Action: domain.AuditOrganisationJoined}); !reflect.DeepEqual(got, []string{"organisation.joined: Shine Services (Ana)"}) {
		t.Errorf("the log of b: %v; want it joined Shine Services", got)
	}
	if g, err := s.OrganisationGrant(ctx, "b", "p-ben"); err != nil || g.Role != domain.Supervisor || !g.Covers("b") || g.Covers("a") || g.Name != "Ben" {
		t.Errorf("OrganisationGrant(b, Ben) = %+v, %v", g, err)
	}
	if _, err := s.OrganisationGrant(ctx, "c", "p-ben"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("OrganisationGrant(c, Ben) = %v; want ErrNotFound (another organisation's)", err)
	}
	ben.Role, ben.Accounts = domain.Viewer, nil
	if ended, err := s.PutOrganisationMember(ctx, ben, 0, store.Audit{}); err != nil || !reflect.DeepEqual(ended, []string{"s-ben-a", "s-ben-b"}) {
		t.Errorf("changing Ben's role = %v, %v; want his sessions in a and b ended, not c's", ended, err)
	}
	members, err := s.OrganisationMembers(ctx, "o1")
	if err != nil || len(members) != 2 || members[0].Name != "Ana" || members[0].Email != "ana@example.com" || members[1].Role != domain.Viewer || members[1].Accounts != nil {
		t.Errorf("OrganisationMembers(o1) = %+v, %v", members, err)
	}
	for account, want := range map[string][]string{"b": {"Ana", "Ben"}, "c": {"Cy"}, "nowhere": nil} {
		var got []string
		list, err := s.AccountOrganisationMembers(ctx, account)
		for _, m := range list {
			got = append(got, m.Name)
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("AccountOrganisationMembers(%s) = %v, %v; want %v", account, got, err, want)
		}
	}
	if m, err := s.OrganisationOf(ctx, "p-ben"); err != nil || m.Organisation != "o1" || m.Role != domain.Viewer {
		t.Errorf("OrganisationOf(Ben) = %+v, %v", m, err)
	}
	if _, err := s.OrganisationOf(ctx, "p-nobody"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("OrganisationOf(nobody) = %v; want ErrNotFound", err)
	}

	// Limits: o1 has two accounts and two people.
	if _, err := s.PutOrganisationMember(ctx, domain.OrganisationMember{Organisation: "o1", PersonID: "p-dee", Role: domain.Viewer, Created: t0}, 2, store.Audit{}); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a third person past a limit of 2: %v; want ErrLimit", err)
	}

	// An organisation keeps an owner.
	if _, err := s.PutOrganisationMember(ctx, domain.OrganisationMember{Organisation: "o1", PersonID: "p-ana", Role: domain.Admin}, 0, store.Audit{}); !errors.Is(err, domain.ErrLastOrganisationOwner) {
		t.Errorf("demoting the last owner: %v; want ErrLastOrganisationOwner", err)
	}
	if _, err := s.RemoveOrganisationMember(ctx, "o1", "p-ana", store.Audit{}); !errors.Is(err, domain.ErrLastOrganisationOwner) {
		t.Errorf("removing the last owner: %v; want ErrLastOrganisationOwner", err)
	}
	if _, err := s.RemoveOrganisationMember(ctx, "o2", "p-ben", store.Audit{}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("removing Ben from o2: %v; want ErrNotFound", err)
	}
	// Two owners stepping down at once leave one.
	ben.Role = domain.Owner
	if _, err := s.PutOrganisationMember(ctx, ben, 0, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, p := range []string{"p-ana", "p-ben"} {
		wg.Go(func() {
			_, errs[i] = s.PutOrganisationMember(ctx, domain.OrganisationMember{Organisation: "o1", PersonID: p, Role: domain.Admin}, 0, store.Audit{})
		})
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Errorf("two owners stepping down at once: %v, %v; want one refused", errs[0], errs[1])
	}
	if ended, err := s.RemoveOrganisationMember(ctx, "o1", map[bool]string{true: "p-ana", false: "p-ben"}[errs[0] == nil], store.Audit{}); err != nil {
		t.Errorf("removing the admin = %v, %v", ended, err)
	}

	// Disconnecting an account takes it out of its organisation.
	if _, err := s.DisconnectAccount(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if accounts, err := s.OrganisationAccounts(ctx, "o1"); err != nil || len(accounts) != 1 || accounts[0].Client != "Head office" || accounts[0].Region != "South" {
		t.Errorf("o1's accounts once b is disconnected: %+v, %v", accounts, err)
	}
}
