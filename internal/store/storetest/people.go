package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// newPerson is a person the store has not seen, made at t0.
func newPerson(id, name, email string) domain.Person {
	return domain.Person{ID: id, Name: name, Email: email, Created: t0}
}

// ownerFirst is the rule of a join the contract uses: the first person
// of an account, or of one without owners, owns it; the others are
// admins.
func ownerFirst(st store.JoinState) (domain.Role, error) {
	if !st.Connected || st.Owners == 0 {
		return domain.Owner, nil
	}
	return domain.Admin, nil
}

// mustJoin makes p (new when fresh) a member of the account by the
// service's credentials, as ownerFirst decides.
func mustJoin(t *testing.T, s store.Store, account string, p domain.Person, fresh bool) domain.Membership {
	t.Helper()
	m, err := s.JoinAccount(t.Context(), store.Join{Account: account, Sealed: []byte("sealed-" + account), Person: p, NewPerson: fresh,
		At: t0, Decide: ownerFirst})
	if err != nil {
		t.Fatalf("%s joining %s: %v", p.Name, account, err)
	}
	return m
}

// auditLines reads an account's audit log, newest first, as "action:
// subject (actor)".
func auditLines(t *testing.T, s store.Store, f domain.AuditFilter) []string {
	t.Helper()
	entries, err := s.AuditEntries(t.Context(), f)
	if err != nil {
		t.Fatalf("AuditEntries(%+v): %v", f, err)
	}
	lines := []string{}
	for _, e := range entries {
		lines = append(lines, fmt.Sprintf("%s: %s (%s)", e.Action, e.Subject, e.ActorName))
	}
	return lines
}

// mustSignedIn writes a session, whose data is "data-" and its token,
// and records it as the person's in the account.
func mustSignedIn(t *testing.T, s store.Store, token, person, account string, expiry time.Time) {
	t.Helper()
	if err := s.CommitSession(t.Context(), token, []byte("data-"+token), expiry); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSessionPerson(t.Context(), token, person, account); err != nil {
		t.Fatal(err)
	}
}

func roles(t *testing.T, s store.Store, account string) map[string]domain.Role {
	t.Helper()
	members, err := s.Members(t.Context(), account)
	if err != nil {
		t.Fatalf("Members(%s): %v", account, err)
	}
	out := map[string]domain.Role{}
	for _, m := range members {
		out[m.Name] = m.Role
	}
	return out
}

// testConnections: the first person to sign in with an account's
// credentials connects it and owns it; the next joins as the rule says;
// a member who signs in again keeps their role; the credentials can be
// replaced and sealed again; the audit log says each.
func testConnections(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	if _, err := s.Connection(ctx, "a"); !errors.Is(err, domain.ErrNotConnected) {
		t.Errorf("Connection of an account never connected: %v; want ErrNotConnected", err)
	}
	ana, ben := newPerson("p-ana", "Ana", "ana@example.com"), newPerson("p-ben", "Ben", "")
	if m := mustJoin(t, s, "a", ana, true); m.Role != domain.Owner || m.Account != "a" || m.PersonID != "p-ana" {
		t.Errorf("the first to join: %+v; want the owner", m)
	}
	if m := mustJoin(t, s, "a", ben, true); m.Role != domain.Admin {
		t.Errorf("the second to join: %+v; want an admin", m)
	}
	if m := mustJoin(t, s, "a", ana, false); m.Role != domain.Owner {
		t.Errorf("the owner signing in again: %+v; want her role kept", m)
	}
	c, err := s.Connection(ctx, "a")
	if err != nil || string(c.Sealed) != "sealed-a" || c.By != "p-ana" || c.ByName != "Ana" || !c.Connected.Equal(t0) || !c.Replaced.IsZero() {
		t.Errorf("Connection(a) = %+v, %v; want connected by Ana at t0 with her credentials", c, err)
	}
	if err := s.ReplaceAccountCredentials(ctx, "a", []byte("sealed-new"), t0.Add(time.Hour),
		store.Audit{At: t0.Add(time.Hour), ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditCredentialsReplaced, Subject: "the API key"}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAccountCredentials(ctx, "b", []byte("x"), t0, store.Audit{}); !errors.Is(err, domain.ErrNotConnected) {
		t.Errorf("replacing the credentials of an account not connected: %v; want ErrNotConnected", err)
	}
	if err := s.ConnectAccount(ctx, store.Connection{Account: "a", Sealed: []byte("other"), Connected: t0}, store.Audit{}); !errors.Is(err, domain.ErrAlreadyConnected) {
		t.Errorf("connecting a connected account again: %v; want ErrAlreadyConnected", err)
	}
	mustReplaceLayout(t, s, testLayout("c", false))
	mustReplaceLayout(t, s, testLayout("d", false))
	if ids, err := s.UnconnectedAccounts(ctx, 10); err != nil || !reflect.DeepEqual(ids, []string{"c", "d"}) {
		t.Errorf("UnconnectedAccounts = %v, %v; want c and d", ids, err)
	}
	if ids, err := s.UnconnectedAccounts(ctx, 1); err != nil || len(ids) != 1 {
		t.Errorf("UnconnectedAccounts(1) = %v, %v; want one", ids, err)
	}
	if err := s.ConnectAccount(ctx, store.Connection{Account: "c", Sealed: []byte("sealed-c"), Connected: t0},
		store.Audit{At: t0, ActorName: "Washboard", Action: domain.AuditAccountConnected, Subject: "on upgrade"}); err != nil {
		t.Fatal(err)
	}
	all, err := s.Connections(ctx)
	if err != nil || len(all) != 2 || all[0].Account != "a" || string(all[0].Sealed) != "sealed-new" || !all[0].Replaced.Equal(t0.Add(time.Hour)) ||
		all[1].Account != "c" || all[1].By != "" {
		t.Errorf("Connections = %+v, %v; want a with its new credentials and c, by nobody", all, err)
	}
	n, err := s.ResealAccountCredentials(ctx, map[string]store.Reseal{"a": {Old: []byte("sealed-new"), New: []byte("resealed")},
		"c": {Old: []byte("changed meanwhile"), New: []byte("lost")}})
	if err != nil || n != 1 {
		t.Errorf("ResealAccountCredentials = %d, %v; want 1: c changed meanwhile", n, err)
	}
	if c, _ := s.Connection(ctx, "c"); string(c.Sealed) != "sealed-c" {
		t.Errorf("c's credentials after a reseal of what it no longer held: %q", c.Sealed)
	}
	want := []string{
		"credentials.replaced: the API key (Ana)",
		"account.joined: as admin, with the service's credentials (Ben)",
		"account.joined: as owner, with the service's credentials (Ana)",
		"account.connected: with the service's credentials (Ana)",
	}
	if got := auditLines(t, s, domain.AuditFilter{Account: "a"}); !reflect.DeepEqual(got, want) {
		t.Errorf("a's audit log:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := auditLines(t, s, domain.AuditFilter{Account: "c"}); !reflect.DeepEqual(got, []string{"account.connected: on upgrade (Washboard)"}) {
		t.Errorf("c's audit log: %q", got)
	}
}

// testJoinState: the rule of a join is told whether the account was
// connected, by an upgrade or not, and how many owners it has; its error
// fails the join whole, the person it was to create included.
func testJoinState(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	if err := s.ConnectAccount(ctx, store.Connection{Account: "a", Sealed: []byte("s"), Connected: t0}, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	var seen []store.JoinState
	refuse := errors.New("refused")
	decide := func(st store.JoinState) (domain.Role, error) {
		seen = append(seen, st)
		if len(seen) == 1 {
			return domain.NoRole, refuse
		}
		return domain.Owner, nil
	}
	j := store.Join{Account: "a", Sealed: []byte("s"), Person: newPerson("p-ana", "Ana", "ana@example.com"), NewPerson: true, At: t0, Decide: decide}
	if _, err := s.JoinAccount(ctx, j); !errors.Is(err, refuse) {
		t.Fatalf("a join the rule refuses: %v", err)
	}
	if _, err := s.Person(ctx, "p-ana"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the person of a refused join: %v; want not created", err)
	}
	if _, err := s.JoinAccount(ctx, j); err != nil {
		t.Fatal(err)
	}
	j.Person = newPerson("p-ben", "Ben", "")
	if _, err := s.JoinAccount(ctx, j); err != nil {
		t.Fatal(err)
	}
	want := []store.JoinState{{Connected: true, ByUpgrade: true, Connections: 1}, {Connected: true, ByUpgrade: true, Connections: 1},
		{Connected: true, ByUpgrade: true, Owners: 1, Connections: 1}}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("the rule was told %+v; want %+v", seen, want)
	}
	j.Person = newPerson("p-cy", "Cy", "ANA@example.com")
	if _, err := s.JoinAccount(ctx, j); !errors.Is(err, domain.ErrEmailTaken) {
		t.Errorf("a new person with another's address in other case: %v; want ErrEmailTaken", err)
	}
	j.Person, j.MaxPeople = newPerson("p-dee", "Dee", ""), 2
	var le *domain.LimitError
	if _, err := s.JoinAccount(ctx, j); !errors.As(err, &le) || !strings.Contains(err.Error(), "An account keeps at most 2 people") {
		t.Errorf("a third person with room for 2: %v; want a limit in words", err)
	}
}

// testPeople: people are found by id and by address whatever its case; an
// address stays one person's; a sign-in is recorded.
func testPeople(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	ana := newPerson("p-ana", "Ana", "Ana.Pereira@Example.com")
	mustJoin(t, s, "a", ana, true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", "ben@example.com"), true)
	if p, err := s.Person(ctx, "p-ana"); err != nil || !reflect.DeepEqual(p, ana) {
		t.Errorf("Person(p-ana) = %+v, %v; want %+v", p, err, ana)
	}
	if p, err := s.PersonByEmail(ctx, "ana.pereira@example.COM"); err != nil || p.ID != "p-ana" {
		t.Errorf("PersonByEmail in another case = %+v, %v; want Ana", p, err)
	}
	for _, f := range []func() error{
		func() error { _, err := s.Person(ctx, "p-nobody"); return err },
		func() error { _, err := s.PersonByEmail(ctx, "nobody@example.com"); return err },
		func() error { _, err := s.PersonByEmail(ctx, ""); return err },
		func() error { return s.TouchPerson(ctx, "p-nobody", t0) },
		func() error { return s.UpdatePerson(ctx, newPerson("p-nobody", "X", "")) },
	} {
		if err := f(); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("a person there is not: %v; want ErrNotFound", err)
		}
	}
	ben, _ := s.Person(ctx, "p-ben")
	ben.Email = "ANA.PEREIRA@example.com"
	if err := s.UpdatePerson(ctx, ben); !errors.Is(err, domain.ErrEmailTaken) {
		t.Errorf("Ben taking Ana's address: %v; want ErrEmailTaken", err)
	}
	ben.Name, ben.Email = "Ben Okafor", ""
	if err := s.UpdatePerson(ctx, ben); err != nil {
		t.Fatal(err)
	}
	ana.Email = "ana@example.org"
	if err := s.UpdatePerson(ctx, ana); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchPerson(ctx, "p-ana", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ana.LastSeen = t0.Add(time.Hour)
	if p, _ := s.Person(ctx, "p-ana"); !reflect.DeepEqual(p, ana) {
		t.Errorf("Ana after her changes: %+v; want %+v", p, ana)
	}
	if _, err := s.PersonByEmail(ctx, "Ana.Pereira@Example.com"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Ana's old address: %v; want nobody's", err)
	}
	if p, err := s.Person(ctx, "p-ben"); err != nil || p.Name != "Ben Okafor" || p.Email != "" {
		t.Errorf("Ben after his changes: %+v, %v", p, err)
	}
}

// testPersonLanguage: a person's chosen language is kept with them, read
// back wherever the person is read, and left alone by a change of their
// name; "" takes the choice back.
func testPersonLanguage(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", "ana@example.com"), true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)
	if p, _ := s.Person(ctx, "p-ana"); p.Language != "" {
		t.Errorf("a new person's language = %q; want none", p.Language)
	}
	if err := s.SetPersonLanguage(ctx, "p-ana", "de"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPersonLanguage(ctx, "p-nobody", "de"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the language of a person there is not: %v; want ErrNotFound", err)
	}
	ana, err := s.Person(ctx, "p-ana")
	if err != nil || ana.Language != "de" {
		t.Fatalf("Ana after choosing German: %+v, %v", ana, err)
	}
	if p, _ := s.PersonByEmail(ctx, "ANA@example.com"); p.Language != "de" {
		t.Errorf("Ana by her address speaks %q; want de", p.Language)
	}
	if p, _ := s.Person(ctx, "p-ben"); p.Language != "" {
		t.Errorf("Ben's language = %q; want none: Ana's choice is hers", p.Language)
	}
	ana.Name = "Ana Pereira"
	if err := s.UpdatePerson(ctx, ana); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Person(ctx, "p-ana"); p.Language != "de" || p.Name != "Ana Pereira" {
		t.Errorf("Ana after changing her name: %+v; want her German kept", p)
	}
	if err := s.SetPersonLanguage(ctx, "p-ana", ""); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.Person(ctx, "p-ana"); p.Language != "" {
		t.Errorf("Ana after leaving it to her browser: %q; want none", p.Language)
	}
}

// testMemberships: members are listed with their names; a change of role
// or buildings ends the member's sessions in that account only; removing
// a member ends their sessions and revokes their devices there; an
// account keeps an owner.
func testMemberships(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", "ben@example.com"), true)
	mustJoin(t, s, "b", newPerson("p-ben", "Ben", ""), false)
	members, err := s.Members(ctx, "a")
	if err != nil || len(members) != 2 || members[0].Name != "Ana" || members[1].Name != "Ben" || members[1].Email != "ben@example.com" ||
		members[1].Role != domain.Admin || members[1].Account != "a" {
		t.Errorf("Members(a) = %+v, %v", members, err)
	}
	if ms, err := s.MembershipsOf(ctx, "p-ben"); err != nil || len(ms) != 2 || ms[0].Account != "a" || ms[1].Account != "b" || ms[1].Role != domain.Owner {
		t.Errorf("MembershipsOf(Ben) = %+v, %v; want admin of a and owner of b", ms, err)
	}
	live := time.Now().Add(time.Hour)
	for token, who := range map[string][2]string{"s-ben-a": {"p-ben", "a"}, "s-ben-a2": {"p-ben", "a"}, "s-ben-b": {"p-ben", "b"}, "s-ana-a": {"p-ana", "a"}} {
		mustSignedIn(t, s, token, who[0], who[1], live)
	}
	if err := s.EnrolDevice(ctx, domain.EnrolledDevice{ID: "d1", Account: "a", PersonID: "p-ben", Name: "Tablet", Created: t0},
		[]byte("hash-d1"), 0, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	audit := store.Audit{At: t0.Add(time.Hour), ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditRoleChanged, Subject: "Ben from admin to staff"}
	ended, err := s.ChangeMembership(ctx, domain.Membership{Account: "a", PersonID: "p-ben", Role: domain.Staff, Buildings: []string{"b2", "b1"}}, audit)
	if err != nil || !reflect.DeepEqual(ended, []string{"s-ben-a", "s-ben-a2"}) {
		t.Errorf("ChangeMembership = %v, %v; want Ben's two sessions in a ended", ended, err)
	}
	for token, want := range map[string]bool{"s-ben-a": false, "s-ben-a2": false, "s-ben-b": true, "s-ana-a": true} {
		if _, _, found, _ := s.FindSession(ctx, token); found != want {
			t.Errorf("session %s found: %v; want %v", token, found, want)
		}
	}
	if m, err := s.Membership(ctx, "a", "p-ben"); err != nil || m.Role != domain.Staff || !reflect.DeepEqual(m.Buildings, []string{"b2", "b1"}) {
		t.Errorf("Ben's membership of a: %+v, %v", m, err)
	}
	for _, c := range []struct {
		why  string
		call func() error
	}{
		{"demoting the only owner", func() error {
			_, err := s.ChangeMembership(ctx, domain.Membership{Account: "a", PersonID: "p-ana", Role: domain.Admin}, store.Audit{})
			return err
		}},
		{"removing the only owner", func() error { _, err := s.RemoveMember(ctx, "a", "p-ana", store.Audit{}); return err }},
	} {
		if err := c.call(); !errors.Is(err, domain.ErrLastOwner) {
			t.Errorf("%s: %v; want ErrLastOwner", c.why, err)
		}
	}
	for _, c := range []struct{ account, person string }{{"a", "p-nobody"}, {"nobody", "p-ben"}} {
		if _, err := s.RemoveMember(ctx, c.account, c.person, store.Audit{}); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("removing %s from %s: %v; want ErrNotFound", c.person, c.account, err)
		}
		if _, err := s.Membership(ctx, c.account, c.person); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("Membership(%s, %s): %v; want ErrNotFound", c.account, c.person, err)
		}
	}
	ended, err = s.RemoveMember(ctx, "a", "p-ben", store.Audit{At: t0.Add(2 * time.Hour), ActorID: "p-ana", ActorName: "Ana",
		Action: domain.AuditPersonRemoved, Subject: "Ben"})
	if err != nil || len(ended) != 0 {
		t.Errorf("RemoveMember = %v, %v; want no session left to end", ended, err)
	}
	if got := roles(t, s, "a"); !reflect.DeepEqual(got, map[string]domain.Role{"Ana": domain.Owner}) {
		t.Errorf("a's members after Ben left: %v", got)
	}
	if got := roles(t, s, "b"); !reflect.DeepEqual(got, map[string]domain.Role{"Ben": domain.Owner}) {
		t.Errorf("b's members: %v; want Ben, still", got)
	}
	if d, err := s.EnrolledDeviceByToken(ctx, []byte("hash-d1")); err != nil || !d.Revoked.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("Ben's tablet in a: %+v, %v; want revoked when he was removed", d, err)
	}
	want := []string{"person.removed: Ben (Ana)", "role.changed: Ben from admin to staff (Ana)"}
	if got := auditLines(t, s, domain.AuditFilter{Account: "a", Limit: 2}); !reflect.DeepEqual(got, want) {
		t.Errorf("a's audit log: %q; want %q", got, want)
	}
	// With a second owner, the first may step down.
	if _, err := s.ChangeMembership(ctx, domain.Membership{Account: "b", PersonID: "p-ben", Role: domain.Owner}, store.Audit{}); err != nil {
		t.Errorf("an owner made owner again: %v", err)
	}
	mustJoin(t, s, "a", newPerson("p-cy", "Cy", ""), true)
	if _, err := s.ChangeMembership(ctx, domain.Membership{Account: "a", PersonID: "p-cy", Role: domain.Owner}, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChangeMembership(ctx, domain.Membership{Account: "a", PersonID: "p-ana", Role: domain.Viewer}, store.Audit{}); err != nil {
		t.Errorf("an owner stepping down beside another: %v", err)
	}
}

// testLastOwnerAtOnce: two owners who each demote, or remove, the other at
// the same moment leave the account one owner.
func testLastOwnerAtOnce(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	for round := range 6 {
		account := fmt.Sprintf("acc%d", round)
		mustJoin(t, s, account, newPerson(account+"-ana", "Ana", ""), true)
		mustJoin(t, s, account, newPerson(account+"-ben", "Ben", ""), true)
		if _, err := s.ChangeMembership(ctx, domain.Membership{Account: account, PersonID: account + "-ben", Role: domain.Owner}, store.Audit{}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, person := range []string{account + "-ana", account + "-ben"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if round%2 == 0 {
					_, errs[i] = s.ChangeMembership(ctx, domain.Membership{Account: account, PersonID: person, Role: domain.Admin}, store.Audit{})
				} else {
					_, errs[i] = s.RemoveMember(ctx, account, person, store.Audit{})
				}
			}()
		}
		wg.Wait()
		refused := 0
		for _, err := range errs {
			switch {
			case errors.Is(err, domain.ErrLastOwner):
				refused++
			case err != nil:
				t.Errorf("round %d: %v", round, err)
			}
		}
		owners := 0
		for _, r := range roles(t, s, account) {
			if r == domain.Owner {
				owners++
			}
		}
		if refused != 1 || owners != 1 {
			t.Errorf("round %d: two owners stepping down at once: %d refused, %d owners left; want 1 and 1", round, refused, owners)
		}
	}
}

// testSignInOIDC: a sign-in through an OpenID provider creates the person
// of the identity, then updates them; the memberships the groups give
// replace those single sign-on gave before, and leave the others; an
// account keeps an owner; an address already another's is not taken.
func testSignInOIDC(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "c", newPerson("p-cy", "Cy", "cy@example.com"), true)
	id := domain.Person{ID: "p-oidc", Issuer: "https://id.example.com", Subject: "u-17", Name: "Dana", Email: "cy@example.com"}
	grant := func(account string, r domain.Role, buildings ...string) domain.Membership {
		return domain.Membership{Account: account, Role: r, Buildings: buildings}
	}
	sso := store.Audit{ActorName: "Single sign-on"}
	signIn := func(at time.Time, ms ...domain.Membership) (domain.Person, []string) {
		t.Helper()
		sso.At = at
		p, ended, err := s.SignInOIDC(ctx, store.OIDCSignIn{Person: id, Memberships: ms, At: at, Audit: sso})
		if err != nil {
			t.Fatalf("SignInOIDC at %v: %v", at, err)
		}
		return p, ended
	}
	p, _ := signIn(t0, grant("a", domain.Owner), grant("b", domain.Staff, "b1"))
	if p.ID != "p-oidc" || p.Name != "Dana" || p.Email != "" || p.Issuer != id.Issuer || !p.LastSeen.Equal(t0) {
		t.Errorf("the person made: %+v; want Dana, without Cy's address", p)
	}
	if got := roles(t, s, "a"); !reflect.DeepEqual(got, map[string]domain.Role{"Dana": domain.Owner}) {
		t.Errorf("a: %v", got)
	}
	// An invitation's membership of c is hers, whatever the groups say.
	if _, err := s.JoinAccount(ctx, store.Join{Account: "c", Person: p, At: t0, Decide: ownerFirst}); err != nil {
		t.Fatal(err)
	}
	mustSignedIn(t, s, "s-dana-b", "p-oidc", "b", time.Now().Add(time.Hour))
	id.Name, id.Email, id.ID = "Dana Weiss", "dana@example.com", "p-unused"
	p, ended := signIn(t0.Add(time.Hour), grant("b", domain.Supervisor))
	if p.ID != "p-oidc" || p.Name != "Dana Weiss" || p.Email != "dana@example.com" || !p.LastSeen.Equal(t0.Add(time.Hour)) {
		t.Errorf("the person updated: %+v", p)
	}
	if !reflect.DeepEqual(ended, []string{"s-dana-b"}) {
		t.Errorf("sessions ended by the change of role in b: %v", ended)
	}
	ms, _ := s.MembershipsOf(ctx, "p-oidc")
	got := map[string]string{}
	for _, m := range ms {
		got[m.Account] = fmt.Sprintf("%s %v %v", m.Role, m.Buildings, m.FromGroups)
	}
	want := map[string]string{
		"a": "owner [] true",      // the last owner of a stays, though no group gives it now
		"b": "supervisor [] true", // changed
		"c": "admin [] false",     // an invitation's: left as it is
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Dana's memberships: %v; want %v", got, want)
	}
	wantB := []string{"role.changed: Dana Weiss from staff to supervisor, from single sign-on (Single sign-on)",
		"account.joined: as staff, from single sign-on (Single sign-on)"}
	if got := auditLines(t, s, domain.AuditFilter{Account: "b"}); !reflect.DeepEqual(got, wantB) {
		t.Errorf("b's audit log: %q; want %q", got, wantB)
	}
	// Another owner in a: the next sign-in without a's group removes her.
	mustJoin(t, s, "a", newPerson("p-eve", "Eve", ""), true)
	if _, err := s.ChangeMembership(ctx, domain.Membership{Account: "a", PersonID: "p-eve", Role: domain.Owner}, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	signIn(t0.Add(2*time.Hour), grant("b", domain.Supervisor))
	if got := roles(t, s, "a"); !reflect.DeepEqual(got, map[string]domain.Role{"Eve": domain.Owner}) {
		t.Errorf("a after Dana's group went: %v", got)
	}
	// A verified address joins the identity to the person who has it.
	other := domain.Person{ID: "p-new", Issuer: "https://id.example.com", Subject: "u-99", Name: "Cy Young", Email: "CY@example.com"}
	p, _, err := s.SignInOIDC(ctx, store.OIDCSignIn{Person: other, LinkByEmail: true, At: t0})
	if err != nil || p.ID != "p-cy" || p.Subject != "u-99" || p.Name != "Cy Young" {
		t.Errorf("an identity with Cy's verified address: %+v, %v; want Cy", p, err)
	}
}

// testDisconnect: the summary counts what an account keeps; disconnecting
// it removes all of it, and the sessions of its people there, and leaves
// the other accounts and the people; the account can be connected again.
func testDisconnect(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	for _, account := range []string{"a", "b"} {
		mustReplaceLayout(t, s, testLayout(account, false))
		mustReplaceDevices(t, s, account, []domain.Device{device("0000000000A1", account+"-1", 50)})
		mustApplyAlerts(t, s, account, store.AlertWrite{Upserts: []domain.Alert{alert(account+"-x1", account+"-1", t0, true, false),
			alert(account+"-x2", account+"-2", t0, false, false)}, SeenAt: t0})
		mustJoin(t, s, account, newPerson("p-"+account, "Owner of "+account, ""), true)
		if err := s.CreateScreen(ctx, domain.Screen{ID: account + "-scr", Account: account, Name: "Lobby", Scope: domain.ScreenScope{Kind: "account"}, Created: t0},
			[]byte("hash-"+account), []byte("sealed"), 0); err != nil {
			t.Fatal(err)
		}
	}
	mustJoin(t, s, "a", newPerson("p-b", "Owner of b", ""), false)
	mustClaim(t, s, "a", domain.Claim{AlertID: "a-x1", Name: "Ana", At: t0})
	if err := s.RecordSync(ctx, "a", store.SyncStatus{Resource: domain.ResourceAlerts, LastAttempt: t0, LastSuccess: t0}); err != nil {
		t.Fatal(err)
	}
	if st, err := s.SyncStatuses(ctx, "a"); err != nil || len(st) != 1 {
		t.Fatalf("a's sync records: %+v, %v", st, err)
	}
	if err := s.CreateReceiver(ctx, store.Receiver{ID: "a-rcv", Account: "a", Secret: []byte("s"), Created: t0}, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNotificationSettings(ctx, "a", nil, []byte("sealed"), t0); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateInvitation(ctx, domain.Invitation{ID: "i1", Account: "a", Role: domain.Staff, Created: time.Now(), Expires: time.Now().Add(time.Hour)},
		[]byte("hash-i1"), 0, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	for token, account := range map[string]string{"s-b-in-a": "a", "s-b-in-b": "b"} {
		mustSignedIn(t, s, token, "p-b", account, time.Now().Add(time.Hour))
	}
	sum, err := s.AccountSummary(ctx, "a")
	want := domain.AccountSummary{People: 2, Invitations: 1, Screens: 1, Webhooks: 1, Devices: 1, Locations: 4, Alerts: 2, Claims: 1,
		AuditEntries: 3, Notifications: true}
	if err != nil || sum != want {
		t.Errorf("AccountSummary(a) = %+v, %v;\nwant %+v", sum, err, want)
	}
	ended, err := s.DisconnectAccount(ctx, "a")
	if err != nil || !reflect.DeepEqual(ended, []string{"s-b-in-a"}) {
		t.Fatalf("DisconnectAccount(a) = %v, %v; want the session of b's owner in a ended", ended, err)
	}
	if sum, err := s.AccountSummary(ctx, "a"); err != nil || sum != (domain.AccountSummary{}) {
		t.Errorf("a after its disconnection: %+v, %v; want nothing", sum, err)
	}
	if _, err := s.Connection(ctx, "a"); !errors.Is(err, domain.ErrNotConnected) {
		t.Errorf("a's connection: %v", err)
	}
	if l, err := s.Layout(ctx, "a"); !errors.Is(err, domain.ErrNotFound) || len(l.Buildings)+len(l.Locations) != 0 {
		t.Errorf("a's layout: %+v, %v; want none", l, err)
	}
	if st, err := s.SyncStatuses(ctx, "a"); err != nil || len(st) != 0 {
		t.Errorf("a's sync records: %+v, %v", st, err)
	}
	if sum, _ := s.AccountSummary(ctx, "b"); sum.People != 1 || sum.Alerts != 2 || sum.Screens != 1 {
		t.Errorf("b after a's disconnection: %+v; want it whole", sum)
	}
	if _, _, found, _ := s.FindSession(ctx, "s-b-in-b"); !found {
		t.Error("the session in b ended with a's disconnection")
	}
	if _, err := s.Person(ctx, "p-a"); err != nil {
		t.Errorf("a's owner, who belongs nowhere now: %v; want kept", err)
	}
	if _, err := s.DisconnectAccount(ctx, "a"); !errors.Is(err, domain.ErrNotConnected) {
		t.Errorf("disconnecting a again: %v; want ErrNotConnected", err)
	}
	if m := mustJoin(t, s, "a", newPerson("p-a", "Owner of a", ""), false); m.Role != domain.Owner {
		t.Errorf("the first to connect a again: %+v; want its owner", m)
	}
	mustReplaceLayout(t, s, testLayout("a", false))
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("a-x3", "a-1", t0, true, false)}, SeenAt: t0})
	if n, err := s.CountAlerts(ctx, store.AlertFilter{Account: "a"}); err != nil || n != 1 {
		t.Errorf("a's alerts once connected again: %d, %v", n, err)
	}
	// A baseline was made again: a's next alerts notify.
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("a-x4", "a-1", t0, true, false)}, SeenAt: t0})
	facts, err := s.FactsAfter(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, f := range facts {
		if f.Account == "a" {
			kinds = append(kinds, string(f.Kind)+" "+f.AlertID)
		}
	}
	if !slices.Equal(kinds, []string{"alert.opened a-x4"}) {
		t.Errorf("a's facts once connected again: %v; want only the alert after its new baseline", kinds)
	}
}

// Filled is what FillAccount writes through.
type Filled interface {
	store.Layouts
	store.Devices
	store.Alerts
	store.Claims
	store.Syncs
	store.Screens
	store.Reports
	store.Receivers
	store.Notifications
	store.Sessions
	store.Connections
	store.People
	store.AuditLog
}

// FillAccount gives an account a row in every table that keeps
// accounts' rows, through the store's methods: for the engines' tests of
// what removes an account's rows.
func FillAccount(t *testing.T, s Filled, account string) {
	t.Helper()
	ctx := t.Context()
	if _, err := s.ReplaceLayout(ctx, testLayout(account, false)); err != nil {
		t.Fatal(err)
	}
	for i, level := range []int{50, 10} {
		if _, err := s.ReplaceDevices(ctx, account, []domain.Device{device("0000000000A1", account+"-1", level)}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ApplyAlerts(ctx, account, store.AlertWrite{Upserts: []domain.Alert{alert(fmt.Sprintf("%s-x%d", account, i), account+"-1", t0, true, false)},
			SeenAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	owner := newPerson("p-"+account, "Owner of "+account, "")
	now := time.Now()
	for _, err := range []error{
		s.ClaimAlert(ctx, account, domain.Claim{AlertID: account + "-x1", Name: "Ana", At: t0}),
		s.RecordSync(ctx, account, store.SyncStatus{Resource: domain.ResourceAlerts, LastAttempt: t0, LastSuccess: t0}),
		s.CreateScreen(ctx, domain.Screen{ID: account + "-scr", Account: account, Name: "Lobby", Scope: domain.ScreenScope{Kind: "account"}, Created: t0},
			[]byte("hash-scr-"+account), []byte("sealed"), 0),
		s.SaveReportSettings(ctx, account, store.ReportSettings{Shifts: "Day 06:00-18:00", Zone: "UTC", Updated: t0}),
		s.CreateReceiver(ctx, store.Receiver{ID: account + "-rcv", Account: account, Secret: []byte("s"), Created: t0}, 0),
		s.SaveNotificationSettings(ctx, account, nil, []byte("sealed"), t0),
		s.Decide(ctx, store.Decision{New: []store.Notification{notification(account+"-n1", account, store.NotificationPending, t0, "item")}}),
		func() error {
			_, err := s.JoinAccount(ctx, store.Join{Account: account, Sealed: []byte("sealed"), Person: owner, NewPerson: true, At: t0, Decide: ownerFirst})
			return err
		}(),
		s.CreateInvitation(ctx, domain.Invitation{ID: account + "-inv", Account: account, Role: domain.Staff, Created: now, Expires: now.Add(time.Hour)},
			[]byte("hash-inv-"+account), 0, store.Audit{}),
		s.EnrolDevice(ctx, domain.EnrolledDevice{ID: account + "-dev", Account: account, PersonID: owner.ID, Name: "Tablet", Created: t0},
			[]byte("hash-dev-"+account), 0, store.Audit{}),
		s.CommitSession(ctx, "session-"+account, []byte("data"), now.Add(time.Hour)),
		s.RecordSessionPerson(ctx, "session-"+account, owner.ID, account),
	} {
		if err != nil {
			t.Fatalf("filling %s: %v", account, err)
		}
	}
}
