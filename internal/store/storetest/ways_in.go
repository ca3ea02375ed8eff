package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// invitation is an invitation of the account to role, made by Ana at
// t0, open for a day.
func invitation(id, account string, r domain.Role, buildings ...string) domain.Invitation {
	return domain.Invitation{ID: id, Account: account, Role: r, Buildings: buildings, MadeBy: "p-ana", MadeByName: "Ana",
		Created: t0, Expires: t0.Add(24 * time.Hour)}
}

func mustInvite(t *testing.T, s store.Store, inv domain.Invitation, max int) {
	t.Helper()
	if err := s.CreateInvitation(t.Context(), inv, []byte("hash-"+inv.ID), max,
		store.Audit{At: inv.Created, ActorID: inv.MadeBy, ActorName: inv.MadeByName, Action: domain.AuditPersonInvited, Subject: "as " + inv.Role.String()}); err != nil {
		t.Fatalf("inviting %s: %v", inv.ID, err)
	}
}

// testInvitations: an invitation is listed while open; its token opens it
// once, not after it expires or is withdrawn; accepting creates the
// person, or makes an existing one a member; a failed acceptance leaves
// the token unused; an account keeps at most so many open ones.
func testInvitations(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustJoin(t, s, "b", newPerson("p-ben", "Ben", "ben@example.com"), true)
	mustInvite(t, s, invitation("i1", "a", domain.Staff, "b1"), 3)
	mustInvite(t, s, invitation("i2", "a", domain.Viewer), 3)
	late := invitation("i3", "a", domain.Admin)
	late.Created, late.Expires, late.Email = t0.Add(time.Minute), t0.Add(time.Hour), "cy@example.com"
	mustInvite(t, s, late, 3)
	if err := s.CreateInvitation(ctx, invitation("i4", "a", domain.Staff), []byte("hash-i4"), 3, store.Audit{}); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a fourth open invitation with room for 3: %v; want ErrLimit", err)
	}
	list, err := s.Invitations(ctx, "a", t0.Add(time.Minute))
	if err != nil || len(list) != 3 || list[0].ID != "i3" || list[0].Email != "cy@example.com" || list[0].Role != domain.Admin {
		t.Fatalf("Invitations(a) = %+v, %v; want 3, newest first", list, err)
	}
	if inv, err := s.InvitationByToken(ctx, []byte("hash-i1"), t0); err != nil || inv.ID != "i1" || inv.Account != "a" ||
		!reflect.DeepEqual(inv.Buildings, []string{"b1"}) || inv.MadeByName != "Ana" || !inv.Expires.Equal(t0.Add(24*time.Hour)) {
		t.Errorf("InvitationByToken(i1) = %+v, %v", inv, err)
	}
	withdraw := store.Audit{At: t0.Add(2 * time.Minute), ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditInvitationWithdrawn, Subject: "viewer"}
	if err := s.WithdrawInvitation(ctx, "a", "i2", withdraw); err != nil {
		t.Fatal(err)
	}
	if err := s.WithdrawInvitation(ctx, "a", "i2", withdraw); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("withdrawing again: %v; want ErrNotFound", err)
	}
	if err := s.WithdrawInvitation(ctx, "b", "i1", withdraw); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("withdrawing a's invitation as b: %v; want ErrNotFound", err)
	}
	accept := func(token string, at time.Time, p domain.Person, fresh bool) (domain.Membership, error) {
		_, m, err := s.AcceptInvitation(ctx, store.Acceptance{TokenHash: []byte(token), At: at, Person: p, NewPerson: fresh, MaxPeople: 3})
		return m, err
	}
	for _, c := range []struct {
		token string
		at    time.Time
		want  error
	}{
		{"hash-i2", t0.Add(3 * time.Minute), domain.ErrInvitationWithdrawn},
		{"hash-i3", t0.Add(time.Hour), domain.ErrInvitationExpired},
		{"hash-forged", t0, domain.ErrInvitationUnknown},
	} {
		if _, err := s.InvitationByToken(ctx, []byte(c.token), c.at); !errors.Is(err, c.want) {
			t.Errorf("InvitationByToken(%s): %v; want %v", c.token, err, c.want)
		}
		if _, err := accept(c.token, c.at, newPerson("p-x", "X", ""), true); !errors.Is(err, c.want) {
			t.Errorf("accepting %s: %v; want %v", c.token, err, c.want)
		}
	}
	if _, err := s.Person(ctx, "p-x"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the person of failed acceptances: %v; want none made", err)
	}
	// Ana belongs to a already: her acceptance fails and leaves the
	// token to someone else; a new person with Ben's address too.
	if _, err := accept("hash-i1", t0.Add(5*time.Minute), domain.Person{ID: "p-ana"}, false); !errors.Is(err, domain.ErrAlreadyMember) {
		t.Errorf("a member accepting: %v; want ErrAlreadyMember", err)
	}
	if _, err := accept("hash-i1", t0.Add(5*time.Minute), newPerson("p-cy", "Cy", "BEN@example.com"), true); !errors.Is(err, domain.ErrEmailTaken) {
		t.Errorf("accepting with another's address: %v; want ErrEmailTaken", err)
	}
	m, err := accept("hash-i1", t0.Add(6*time.Minute), newPerson("p-cy", "Cy", "cy@example.com"), true)
	if err != nil || m.Role != domain.Staff || !reflect.DeepEqual(m.Buildings, []string{"b1"}) || m.Account != "a" || m.PersonID != "p-cy" {
		t.Errorf("Cy accepting: %+v, %v; want staff of b1", m, err)
	}
	if _, err := accept("hash-i1", t0.Add(7*time.Minute), newPerson("p-dee", "Dee", ""), true); !errors.Is(err, domain.ErrInvitationUsed) {
		t.Errorf("accepting again: %v; want ErrInvitationUsed", err)
	}
	if _, err := s.InvitationByToken(ctx, []byte("hash-i1"), t0.Add(7*time.Minute)); !errors.Is(err, domain.ErrInvitationUsed) {
		t.Errorf("InvitationByToken once used: %v; want ErrInvitationUsed", err)
	}
	if got := roles(t, s, "a"); !reflect.DeepEqual(got, map[string]domain.Role{"Ana": domain.Owner, "Cy": domain.Staff}) {
		t.Errorf("a's members: %v", got)
	}
	// An existing person joins another account; the account's room for
	// people counts, and a refusal leaves the token unused.
	mustInvite(t, s, invitation("j1", "b", domain.Supervisor), 0)
	if m, err := accept("hash-j1", t0.Add(8*time.Minute), domain.Person{ID: "p-cy"}, false); err != nil || m.Role != domain.Supervisor || m.Account != "b" {
		t.Errorf("Cy accepting b's invitation: %+v, %v", m, err)
	}
	mustJoin(t, s, "a", newPerson("p-eve", "Eve", ""), true)
	mustInvite(t, s, invitation("i5", "a", domain.Viewer), 0)
	var le *domain.LimitError
	if _, err := accept("hash-i5", t0.Add(9*time.Minute), newPerson("p-fay", "Fay", ""), true); !errors.As(err, &le) {
		t.Errorf("a fourth person with room for 3: %v; want a limit", err)
	}
	if _, err := s.InvitationByToken(ctx, []byte("hash-i5"), t0.Add(9*time.Minute)); err != nil {
		t.Errorf("the invitation after a refusal: %v; want still open", err)
	}
	if list, _ := s.Invitations(ctx, "a", t0.Add(9*time.Minute)); len(list) != 2 || list[0].ID != "i3" || list[1].ID != "i5" {
		t.Errorf("a's open invitations: %+v; want i3 (until it expires) and i5", list)
	}
	want := []string{
		"invitation.accepted: as staff, invited by Ana (Cy)",
		"invitation.withdrawn: viewer (Ana)",
		"person.invited: as admin (Ana)",
	}
	if got := auditLines(t, s, domain.AuditFilter{Account: "a", From: t0.Add(time.Minute), To: t0.Add(7 * time.Minute)}); !reflect.DeepEqual(got, want) {
		t.Errorf("a's audit log: %q; want %q", got, want)
	}
	// Invitations closed 30 days before a new one are removed.
	later := invitation("k1", "a", domain.Viewer)
	later.Created, later.Expires = t0.Add(31*24*time.Hour), t0.Add(32*24*time.Hour)
	mustInvite(t, s, later, 0)
	for _, token := range []string{"hash-i1", "hash-i2", "hash-i3"} {
		if _, err := s.InvitationByToken(ctx, []byte(token), later.Created); !errors.Is(err, domain.ErrInvitationUnknown) {
			t.Errorf("%s, closed a month before: %v; want removed", token, err)
		}
	}
}

// testInvitationAcceptedOnce: of several people accepting one invitation
// at the same moment, one becomes a member; the others are told it was
// used.
func testInvitationAcceptedOnce(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustInvite(t, s, invitation("i1", "a", domain.Staff), 0)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = s.AcceptInvitation(ctx, store.Acceptance{TokenHash: []byte("hash-i1"), At: t0.Add(time.Minute),
				Person: newPerson(fmt.Sprintf("p-%d", i), fmt.Sprintf("Guest %d", i), ""), NewPerson: true})
		}()
	}
	wg.Wait()
	accepted, used := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			accepted++
		case errors.Is(err, domain.ErrInvitationUsed):
			used++
		default:
			t.Errorf("accepting at once: %v", err)
		}
	}
	if accepted != 1 || used != len(errs)-1 {
		t.Errorf("%d acceptances at once: %d accepted, %d told it was used; want 1 and the rest", len(errs), accepted, used)
	}
	if members, _ := s.Members(ctx, "a"); len(members) != 2 {
		t.Errorf("a has %d members; want Ana and one guest", len(members))
	}
}

// testSignInLinks: a link works once, for 15 minutes, for its person; an
// address gets at most so many links a window, and the server so many an
// hour, each refusal saying how long to wait; a link for an address that
// is nobody's counts and opens nothing.
func testSignInLinks(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", "ana@example.com"), true)
	lim := store.SignInLimits{PerAddress: 3, Window: 15 * time.Minute, Total: 5}
	link := func(n int, email, person string, at time.Time) error {
		return s.CreateSignInLink(ctx, store.SignInLink{TokenHash: []byte(fmt.Sprintf("hash-%d", n)), Email: email, Person: person,
			Created: at, Expires: at.Add(15 * time.Minute)}, lim)
	}
	for i := range 3 {
		if err := link(i, "ana@example.com", "p-ana", t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	var soon *domain.TooSoonError
	err := link(3, "ANA@example.com", "p-ana", t0.Add(5*time.Minute))
	if !errors.As(err, &soon) || !soon.Address || soon.Wait != 10*time.Minute ||
		err.Error() != "A link was sent to this address a moment ago: use it, or ask again in 10 minutes." {
		t.Errorf("a fourth link for one address within 15 minutes: %v; want to wait 10 minutes", err)
	}
	if err := link(4, "ana@example.com", "p-ana", t0.Add(15*time.Minute)); err != nil {
		t.Errorf("a link once the first is 15 minutes old: %v", err)
	}
	if err := link(5, "nobody@example.com", "", t0.Add(16*time.Minute)); err != nil {
		t.Fatal(err)
	}
	err = link(6, "other@example.com", "", t0.Add(20*time.Minute))
	if !errors.As(err, &soon) || soon.Address || soon.Wait != 40*time.Minute || !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a sixth link within the hour, whatever the address: %v; want the server's limit, for 40 minutes", err)
	}
	if err := link(7, "other@example.com", "", t0.Add(61*time.Minute)); err != nil {
		t.Errorf("a link an hour after the first: %v", err)
	}

	if p, err := s.UseSignInLink(ctx, []byte("hash-1"), t0.Add(10*time.Minute)); err != nil || p.ID != "p-ana" || !p.LastSeen.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("using link 1: %+v, %v; want Ana, seen now", p, err)
	}
	for _, c := range []struct {
		token string
		at    time.Time
		want  error
	}{
		{"hash-1", t0.Add(11 * time.Minute), domain.ErrSignInLinkUsed},
		{"hash-2", t0.Add(17 * time.Minute), domain.ErrSignInLinkExpired},
		{"hash-5", t0.Add(17 * time.Minute), domain.ErrSignInLinkUnknown}, // nobody's address
		{"hash-forged", t0, domain.ErrSignInLinkUnknown},
	} {
		if _, err := s.UseSignInLink(ctx, []byte(c.token), c.at); !errors.Is(err, c.want) {
			t.Errorf("using %s: %v; want %v", c.token, err, c.want)
		}
	}
}

// testPasskeys: a person's passkeys are listed, found by credential id,
// renamed, used and removed; a person keeps at most so many; a credential
// is registered once; the audit log of each of their accounts says so.
func testPasskeys(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustJoin(t, s, "b", newPerson("p-ana", "Ana", ""), false)
	key := func(id string, at time.Time) domain.Passkey {
		return domain.Passkey{CredentialID: []byte(id), PersonID: "p-ana", Name: "Key " + id, Credential: []byte(`{"id":"` + id + `"}`), SignCount: 1, Created: at}
	}
	added := store.Audit{At: t0, ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditPasskeyAdded, Subject: "Key 1"}
	if err := s.AddPasskey(ctx, key("1", t0), 2, added); err != nil {
		t.Fatal(err)
	}
	if err := s.AddPasskey(ctx, key("2", t0.Add(time.Minute)), 2, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	var le *domain.LimitError
	if err := s.AddPasskey(ctx, key("3", t0), 2, store.Audit{}); !errors.As(err, &le) || !strings.HasPrefix(err.Error(), "A person keeps at most 2 passkeys") {
		t.Errorf("a third passkey with room for 2: %v; want a limit in words", err)
	}
	if err := s.AddPasskey(ctx, key("1", t0), 0, store.Audit{}); !errors.Is(err, domain.ErrPasskeyRegistered) {
		t.Errorf("a passkey registered twice: %v; want ErrPasskeyRegistered", err)
	}
	other := key("9", t0)
	other.PersonID = "p-nobody"
	if err := s.AddPasskey(ctx, other, 0, store.Audit{}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a passkey of nobody: %v; want ErrNotFound", err)
	}
	if err := s.RenamePasskey(ctx, "p-ana", []byte("2"), "Phone"); err != nil {
		t.Fatal(err)
	}
	if err := s.RenamePasskey(ctx, "p-ben", []byte("2"), "Stolen"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("renaming another's passkey: %v; want ErrNotFound", err)
	}
	if err := s.UsePasskey(ctx, []byte("2"), []byte(`{"id":"2","flags":1}`), 7, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	want := key("2", t0.Add(time.Minute))
	want.Name, want.Credential, want.SignCount, want.LastUsed = "Phone", []byte(`{"id":"2","flags":1}`), 7, t0.Add(time.Hour)
	if p, err := s.PasskeyByCredentialID(ctx, []byte("2")); err != nil || !reflect.DeepEqual(p, want) {
		t.Errorf("PasskeyByCredentialID(2) = %+v, %v;\nwant %+v", p, err, want)
	}
	if _, err := s.PasskeyByCredentialID(ctx, []byte("404")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an unknown credential: %v; want ErrNotFound", err)
	}
	if err := s.RemovePasskey(ctx, "p-ben", []byte("1"), store.Audit{}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("removing another's passkey: %v; want ErrNotFound", err)
	}
	removed := store.Audit{At: t0.Add(2 * time.Hour), ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditPasskeyRemoved, Subject: "Key 1"}
	if err := s.RemovePasskey(ctx, "p-ana", []byte("1"), removed); err != nil {
		t.Fatal(err)
	}
	if list, err := s.Passkeys(ctx, "p-ana"); err != nil || len(list) != 1 || !reflect.DeepEqual(list[0], want) {
		t.Errorf("Ana's passkeys: %+v, %v; want the phone only", list, err)
	}
	for _, account := range []string{"a", "b"} {
		got := auditLines(t, s, domain.AuditFilter{Account: account, Action: domain.AuditPasskeyRemoved})
		got = append(got, auditLines(t, s, domain.AuditFilter{Account: account, Action: domain.AuditPasskeyAdded})...)
		if want := []string{"passkey.removed: Key 1 (Ana)", "passkey.added: Key 1 (Ana)"}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s's audit log of passkeys: %q; want %q", account, got, want)
		}
	}
}

// testEnrolledDevices: a device enrolled for a person is listed in its
// account and among the person's, found by its token's hash, touched,
// revoked once, and removed once revoked; an account keeps at most so
// many.
func testEnrolledDevices(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)
	enrol := func(id, account string, at time.Time, max int) error {
		return s.EnrolDevice(ctx, domain.EnrolledDevice{ID: id, Account: account, PersonID: "p-ben", Name: "Tablet " + id, MadeBy: "p-ana",
			MadeByName: "Ana", Created: at}, []byte("hash-"+id), max,
			store.Audit{At: at, ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditDeviceEnrolled, Subject: "Tablet " + id + " for Ben"})
	}
	if err := enrol("d1", "a", t0, 2); err != nil {
		t.Fatal(err)
	}
	if err := enrol("d2", "a", t0.Add(time.Minute), 2); err != nil {
		t.Fatal(err)
	}
	if err := enrol("d3", "a", t0, 2); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a third device with room for 2: %v; want ErrLimit", err)
	}
	if err := enrol("d4", "b", t0, 2); err != nil {
		t.Errorf("b's first device, a at its limit: %v", err)
	}
	d, err := s.EnrolledDeviceByToken(ctx, []byte("hash-d1"))
	want := domain.EnrolledDevice{ID: "d1", Account: "a", PersonID: "p-ben", PersonName: "Ben", Name: "Tablet d1", MadeBy: "p-ana", MadeByName: "Ana", Created: t0}
	if err != nil || !reflect.DeepEqual(d, want) {
		t.Errorf("EnrolledDeviceByToken(d1) = %+v, %v;\nwant %+v", d, err, want)
	}
	if err := s.TouchEnrolledDevice(ctx, "d1", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	revoke := store.Audit{At: t0.Add(2 * time.Hour), ActorID: "p-ana", ActorName: "Ana", Action: domain.AuditDeviceRevoked, Subject: "Tablet d1"}
	if _, err := s.RevokeEnrolledDevice(ctx, "a", "d1", revoke); err != nil {
		t.Fatal(err)
	}
	later := revoke
	later.At = t0.Add(3 * time.Hour)
	if _, err := s.RevokeEnrolledDevice(ctx, "a", "d1", later); err != nil {
		t.Errorf("revoking again: %v", err)
	}
	for _, c := range []struct{ account, id string }{{"b", "d1"}, {"a", "d404"}} {
		if _, err := s.RevokeEnrolledDevice(ctx, c.account, c.id, revoke); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("revoking %s of %s: %v; want ErrNotFound", c.id, c.account, err)
		}
	}
	want.LastSeen, want.Revoked = t0.Add(time.Hour), t0.Add(2*time.Hour)
	if d, _ := s.EnrolledDeviceByToken(ctx, []byte("hash-d1")); !reflect.DeepEqual(d, want) {
		t.Errorf("d1 revoked: %+v;\nwant %+v", d, want)
	}
	list, err := s.EnrolledDevices(ctx, "a")
	if err != nil || len(list) != 2 || list[0].ID != "d2" || list[1].ID != "d1" {
		t.Errorf("EnrolledDevices(a) = %+v, %v; want d2 and d1, newest first", list, err)
	}
	if list, err := s.EnrolledDevicesOf(ctx, "p-ben"); err != nil || len(list) != 3 {
		t.Errorf("EnrolledDevicesOf(Ben) = %+v, %v; want his 3, in a and b", list, err)
	}
	if err := s.RemoveEnrolledDevice(ctx, "a", "d2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("removing a device not revoked: %v; want ErrNotFound", err)
	}
	if err := s.RemoveEnrolledDevice(ctx, "a", "d1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnrolledDeviceByToken(ctx, []byte("hash-d1")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("d1 once removed: %v; want ErrNotFound", err)
	}
	if err := enrol("d5", "a", t0.Add(4*time.Hour), 2); err != nil {
		t.Errorf("a device in the room a removed one made: %v", err)
	}
	if got, want := auditLines(t, s, domain.AuditFilter{Account: "a", Action: domain.AuditDeviceRevoked}), []string{"device.revoked: Tablet d1 (Ana)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a's revocations in the log: %q; want %q", got, want)
	}
}

// testEnrolmentOpensOnce: a device's enrolment link opens once, and the
// key the device keeps opens it from then on; revoking the device ends
// the sessions it signed in, and no other.
func testEnrolmentOpensOnce(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)
	for _, id := range []string{"d1", "d2"} {
		if err := s.EnrolDevice(ctx, domain.EnrolledDevice{ID: id, Account: "a", PersonID: "p-ben", Name: "Tablet " + id, MadeBy: "p-ana",
			MadeByName: "Ana", Created: t0}, []byte("link-"+id), 0, store.Audit{}); err != nil {
			t.Fatal(err)
		}
	}
	d, err := s.OpenEnrolledDevice(ctx, []byte("link-d1"), []byte("key-d1"), t0.Add(time.Minute))
	if err != nil || d.ID != "d1" || d.PersonID != "p-ben" || !d.LastSeen.Equal(t0.Add(time.Minute)) {
		t.Fatalf("OpenEnrolledDevice(d1) = %+v, %v; want d1, seen at its opening", d, err)
	}
	if _, err := s.OpenEnrolledDevice(ctx, []byte("link-d1"), []byte("key-again"), t0.Add(2*time.Minute)); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the link opened a second time: %v; want ErrNotFound (its hash is the key's now)", err)
	}
	if _, err := s.OpenEnrolledDevice(ctx, []byte("key-d1"), []byte("key-again"), t0.Add(2*time.Minute)); !errors.Is(err, domain.ErrEnrolmentUsed) {
		t.Errorf("opening with the key of a device opened: %v; want ErrEnrolmentUsed", err)
	}
	if d, err := s.EnrolledDeviceByToken(ctx, []byte("key-d1")); err != nil || d.ID != "d1" {
		t.Errorf("the device by its key: %+v, %v; want d1", d, err)
	}
	live := time.Now().Add(time.Hour)
	mustSignedIn(t, s, "t-tablet", "p-ben", "a", live)
	mustSignedIn(t, s, "t-phone", "p-ben", "a", live)
	if err := s.RecordSessionDevice(ctx, "t-tablet", "d1"); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSessionDevice(ctx, "t-none", "d1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a device's session not recorded: %v; want ErrNotFound", err)
	}
	// Recorded again (the session switched accounts), it keeps its device.
	if err := s.RecordSessionPerson(ctx, "t-tablet", "p-ben", "a"); err != nil {
		t.Fatal(err)
	}
	ended, err := s.RevokeEnrolledDevice(ctx, "a", "d1", store.Audit{At: t0.Add(time.Hour)})
	if err != nil || !reflect.DeepEqual(ended, []string{"t-tablet"}) {
		t.Errorf("revoking d1 ended %v, %v; want its session t-tablet alone", ended, err)
	}
	for token, want := range map[string]bool{"t-tablet": false, "t-phone": true} {
		if _, _, found, _ := s.FindSession(ctx, token); found != want {
			t.Errorf("session %s found: %v; want %v", token, found, want)
		}
	}
	if _, err := s.OpenEnrolledDevice(ctx, []byte("link-d2"), []byte("key-d2"), t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RevokeEnrolledDevice(ctx, "a", "d2", store.Audit{At: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenEnrolledDevice(ctx, []byte("key-d2"), []byte("key-x"), t0.Add(2*time.Hour)); !errors.Is(err, domain.ErrEnrolmentRevoked) {
		t.Errorf("opening a revoked device: %v; want ErrEnrolmentRevoked", err)
	}
	if err := s.EnrolDevice(ctx, domain.EnrolledDevice{ID: "d3", Account: "a", PersonID: "p-ben", Name: "Tablet d3", MadeBy: "p-ana",
		MadeByName: "Ana", Created: t0}, []byte("link-d3"), 0, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RevokeEnrolledDevice(ctx, "a", "d3", store.Audit{At: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenEnrolledDevice(ctx, []byte("link-d3"), []byte("key-d3"), t0.Add(2*time.Hour)); !errors.Is(err, domain.ErrEnrolmentRevoked) {
		t.Errorf("opening the link of a device revoked before its opening: %v; want ErrEnrolmentRevoked", err)
	}
}

// testSignInDevices: a device is new for a person once, and for each
// person; a new one is recorded in the account's log; a person's devices
// are bounded, those seen longest ago forgotten.
func testSignInDevices(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)
	see := func(person, device string, at time.Time, max int) bool {
		t.Helper()
		fresh, err := s.SeeSignInDevice(ctx, person, "a", []byte(device), at, max,
			store.Audit{At: at, ActorID: person, ActorName: person, Action: domain.AuditSignInNewDevice, Subject: device})
		if err != nil {
			t.Fatalf("SeeSignInDevice(%s, %s): %v", person, device, err)
		}
		return fresh
	}
	at := t0
	for _, c := range []struct {
		person, device string
		max            int
		want           bool
	}{
		{"p-ana", "laptop", 2, true}, {"p-ana", "laptop", 2, false}, {"p-ben", "laptop", 2, true},
		{"p-ana", "phone", 2, true}, {"p-ana", "laptop", 2, false},
		// A third device: the phone, seen longest ago, goes.
		{"p-ana", "tablet", 2, true}, {"p-ana", "laptop", 2, false}, {"p-ana", "phone", 2, true},
	} {
		at = at.Add(time.Second)
		if got := see(c.person, c.device, at, c.max); got != c.want {
			t.Errorf("%s from %s: new %v; want %v", c.person, c.device, got, c.want)
		}
	}
	got := auditLines(t, s, domain.AuditFilter{Account: "a", Action: domain.AuditSignInNewDevice})
	want := []string{"signin.new_device: phone (p-ana)", "signin.new_device: tablet (p-ana)", "signin.new_device: phone (p-ana)",
		"signin.new_device: laptop (p-ben)", "signin.new_device: laptop (p-ana)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("new devices in a's log: %q;\nwant %q", got, want)
	}
}

// testSessionPeople: the sessions of a person end at once, in one account
// or in all, and say which; a session signed out, or expired, forgets
// whose it was; every unexpired session can be read.
func testSessionPeople(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustJoin(t, s, "a", newPerson("p-ana", "Ana", ""), true)
	mustJoin(t, s, "b", newPerson("p-ana", "Ana", ""), false)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)
	live, expired := time.Now().Add(time.Hour), time.Now().Add(-time.Hour)
	for token, who := range map[string][2]string{"t1": {"p-ana", "a"}, "t2": {"p-ana", "b"}, "t3": {"p-ana", "a"}, "t4": {"p-ben", "a"}, "t5": {"p-ana", "a"}} {
		expiry := live
		if token == "t5" {
			expiry = expired
		}
		mustSignedIn(t, s, token, who[0], who[1], expiry)
	}
	if err := s.RecordSessionPerson(ctx, "t9", "p-ana", "nobody"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a session in an account the store does not hold: %v; want ErrNotFound", err)
	}
	var read []string
	if err := s.ReadSessions(ctx, func(data []byte) error {
		read = append(read, string(data))
		return nil
	}); err != nil || len(read) != 4 {
		t.Errorf("ReadSessions read %q, %v; want the 4 unexpired", read, err)
	}
	if err := s.DeleteSession(ctx, "t3"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteExpiredSessions(ctx); err != nil {
		t.Fatal(err)
	}
	// t3 signed out and t5 expired, both forgotten: ending Ana's sessions
	// in a ends t1 alone.
	if ended, err := s.EndSessions(ctx, "p-ana", "a"); err != nil || !reflect.DeepEqual(ended, []string{"t1"}) {
		t.Errorf("EndSessions(Ana, a) = %v, %v; want t1", ended, err)
	}
	mustSignedIn(t, s, "t6", "p-ana", "a", live)
	if ended, err := s.EndSessions(ctx, "p-ana", ""); err != nil || !reflect.DeepEqual(ended, []string{"t2", "t6"}) {
		t.Errorf("EndSessions(Ana) = %v, %v; want t2 and t6", ended, err)
	}
	for token, want := range map[string]bool{"t1": false, "t2": false, "t6": false, "t4": true} {
		if _, _, found, _ := s.FindSession(ctx, token); found != want {
			t.Errorf("session %s found: %v; want %v", token, found, want)
		}
	}
	if ended, err := s.EndSessions(ctx, "p-ana", ""); err != nil || len(ended) != 0 {
		t.Errorf("ending Ana's sessions again: %v, %v; want none", ended, err)
	}
}

// testAuditLog: entries are listed newest first, filtered by actor,
// action and time, page by page; a page is bounded; pruning removes the
// oldest, a bounded number a run.
func testAuditLog(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	actions := []domain.AuditAction{domain.AuditScreenAdded, domain.AuditWebhookAdded, domain.AuditChannelRemoved}
	for i := range 250 {
		actor := []string{"p-ana", "p-ben"}[i%2]
		if err := s.RecordAudit(ctx, "a", store.Audit{At: t0.Add(time.Duration(i/2) * time.Minute), ActorID: actor, ActorName: actor,
			Action: actions[i%3], Subject: fmt.Sprintf("thing %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordAudit(ctx, "b", store.Audit{At: t0, ActorName: "Cy", Action: domain.AuditScreenAdded, Subject: strings.Repeat("é", 300)}); err != nil {
		t.Fatal(err)
	}
	if e, err := s.AuditEntries(ctx, domain.AuditFilter{Account: "b"}); err != nil || len(e) != 1 || len([]rune(e[0].Subject)) != domain.MaxAuditSubject ||
		e[0].Account != "b" || !e[0].At.Equal(t0) {
		t.Errorf("b's log: %+v, %v; want one entry, its subject cut to %d characters", e, err, domain.MaxAuditSubject)
	}
	if e, _ := s.AuditEntries(ctx, domain.AuditFilter{Account: "a", Limit: 1000}); len(e) != store.AuditPageMax {
		t.Errorf("a page of 1000 asked: %d entries; want %d", len(e), store.AuditPageMax)
	}
	// Page by page, 40 at a time: every entry once, newest first.
	var subjects []string
	f := domain.AuditFilter{Account: "a", Limit: 40}
	for page := 0; ; page++ {
		e, err := s.AuditEntries(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range e {
			subjects = append(subjects, x.Subject)
		}
		if len(e) < f.Limit || page > 10 {
			break
		}
		f.After = domain.AuditCursor{At: e[len(e)-1].At, ID: e[len(e)-1].ID}
	}
	if len(subjects) != 250 || subjects[0] != "thing 249" || subjects[1] != "thing 248" || subjects[249] != "thing 0" {
		t.Errorf("paging read %d entries, from %q; want 250, newest first", len(subjects), subjects[:min(2, len(subjects))])
	}
	e, err := s.AuditEntries(ctx, domain.AuditFilter{Account: "a", ActorID: "p-ben", Action: domain.AuditWebhookAdded,
		From: t0.Add(10 * time.Minute), To: t0.Add(20 * time.Minute)})
	var got []string
	for _, x := range e {
		got = append(got, x.Subject)
	}
	// Ben is the odd entries; webhooks every third from 1: 1, 7, 13, ...
	if want := []string{"thing 37", "thing 31", "thing 25"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Ben's webhooks of minutes 10 to 20: %q, %v; want %q", got, err, want)
	}
	n, err := s.PruneAudit(ctx, t0.Add(100*time.Minute), 150)
	if err != nil || n != 150 {
		t.Errorf("PruneAudit, 150 a run = %d, %v", n, err)
	}
	n, err = s.PruneAudit(ctx, t0.Add(100*time.Minute), 150)
	if err != nil || n != 51 { // the 200 of a's first 100 minutes, and b's one
		t.Errorf("PruneAudit again = %d, %v; want the 51 left before the time", n, err)
	}
	if e, _ := s.AuditEntries(ctx, domain.AuditFilter{Account: "a", Limit: 100}); len(e) != 50 || e[49].Subject != "thing 200" {
		t.Errorf("a's log after pruning: %d entries; want the 50 after the time", len(e))
	}
}
