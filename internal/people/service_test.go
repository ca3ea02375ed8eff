package people

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
	"washboard/internal/store/sqlite/sqlitetest"
)

var start = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

type fixture struct {
	svc   *Service
	store *sqlite.Store
	clock *clock.Fake
	keys  *keyring.Ring
}

// newFixture is the service over a real SQLite store, on a fake clock.
func newFixture(t *testing.T) fixture {
	t.Helper()
	st, _ := sqlitetest.Open(t)
	keys, err := keyring.New(bytes.Repeat([]byte{7}, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	c := clock.NewFake(start)
	st.Now = c.Now
	return fixture{svc: New(st, keys, c, Config{}), store: st, clock: c, keys: keys}
}

var credA = domain.Credentials{APIKey: "key-of-a-1234567890", Authorization: "Bearer secret-token-a"}

// signIn signs a new person in with account a's credentials.
func (f fixture) signIn(t *testing.T, name string) domain.Member {
	t.Helper()
	p, m, err := f.svc.SignInWithCredentials(t.Context(), CredentialsSignIn{Account: "a", Cred: credA, Name: name})
	if err != nil {
		t.Fatalf("%s signing in: %v", name, err)
	}
	return domain.Member{Membership: m, Name: p.Name}
}

// noSecret fails when an error or a printed value holds a secret.
func noSecret(t *testing.T, what string, v any, secrets ...string) {
	t.Helper()
	for _, form := range []string{fmt.Sprint(v), fmt.Sprintf("%+v", v), fmt.Sprintf("%#v", v)} {
		for _, s := range secrets {
			if s != "" && strings.Contains(form, s) {
				t.Errorf("%s shows a secret: %s", what, form)
			}
		}
	}
}

// The first person to sign in with an account's credentials connects it
// and owns it, the next joins as an admin; the sync finds the account's
// credentials with nobody signed in; only an owner replaces them.
func TestSignInWithCredentialsConnectsOnce(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	ben := f.signIn(t, "Ben")
	if ana.Role != domain.Owner || ben.Role != domain.Admin {
		t.Errorf("Ana %s, Ben %s; want owner and admin", ana.Role, ben.Role)
	}
	if _, _, err := f.svc.SignInWithCredentials(ctx, CredentialsSignIn{Account: "a", Cred: credA, Name: " "}); err == nil || err.Error() != "Enter a name." {
		t.Errorf("a new person without a name: %v", err)
	}
	c, err := f.svc.ConnectedAccounts(ctx)
	if err != nil || len(c) != 1 || c[0].Account != "a" || c[0].Cred != credA || c[0].NeedsCredentials {
		t.Fatalf("ConnectedAccounts = %v, %v", c, err)
	}
	noSecret(t, "a connected account", c[0], credA.APIKey, credA.Authorization)
	conn, _ := f.store.Connection(ctx, "a")
	if bytes.Contains(conn.Sealed, []byte(credA.APIKey)) {
		t.Error("the credentials are kept in clear")
	}
	decimal := strings.Trim(fmt.Sprint(conn.Sealed[:8]), "[]")
	noSecret(t, "a connection", conn, decimal, fmt.Sprintf("%#x", conn.Sealed[:8])[2:], fmt.Sprintf("0x%x, 0x%x", conn.Sealed[0], conn.Sealed[1]))
	rotated := domain.Credentials{APIKey: "key-of-a-rotated", ClientID: "client", ClientSecret: "client-secret"}
	if err := f.svc.ReplaceCredentials(ctx, ben, rotated); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("an admin replacing the credentials: %v; want ErrForbidden", err)
	}
	if err := f.svc.ReplaceCredentials(ctx, ana, rotated); err != nil {
		t.Fatal(err)
	}
	if c, _ := f.svc.ConnectedAccounts(ctx); c[0].Cred != rotated {
		t.Error("the sync does not find the replaced credentials")
	}
	// A new key, with the old one kept: the credentials open, and are
	// sealed again with the new key.
	newKeys, _ := keyring.New(bytes.Repeat([]byte{8}, keyring.KeySize), bytes.Repeat([]byte{7}, keyring.KeySize))
	rotating := New(f.store, newKeys, f.clock, Config{})
	if n, err := rotating.ResealCredentials(ctx); err != nil || n != 1 {
		t.Errorf("ResealCredentials = %d, %v; want 1", n, err)
	}
	onlyNew, _ := keyring.New(bytes.Repeat([]byte{8}, keyring.KeySize))
	if c, _ := New(f.store, onlyNew, f.clock, Config{}).ConnectedAccounts(ctx); c[0].Cred != rotated {
		t.Error("the credentials do not open with the new key alone after a reseal")
	}
	if c, _ := New(f.store, keysOf(t, 9), f.clock, Config{}).ConnectedAccounts(ctx); !c[0].NeedsCredentials {
		t.Error("credentials that a server's key cannot open are not said to need replacing")
	}
}

func keysOf(t *testing.T, b byte) *keyring.Ring {
	t.Helper()
	k, err := keyring.New(bytes.Repeat([]byte{b}, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// An invitation's link works once, for 7 days, unless withdrawn; it
// cannot grant more than its maker holds; its token is nowhere but in
// the link; the words of each refusal are the page's.
func TestInvitationLinks(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	staff := domain.Member{Membership: member("p-staff", domain.Staff), Name: "Sam"}
	staff.Account = "a"
	if _, _, err := f.svc.Invite(ctx, staff, Invite{Role: domain.Viewer}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("staff inviting: %v; want ErrForbidden", err)
	}
	if _, _, err := f.svc.Invite(ctx, ana, Invite{Role: domain.Staff, Email: "not an address"}); err == nil || !strings.Contains(err.Error(), "is not an e-mail address") {
		t.Errorf("an invitation to no address: %v", err)
	}
	inv, token, err := f.svc.Invite(ctx, ana, Invite{Role: domain.Staff, Buildings: []string{"b1"}, Email: "cy@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if !inv.Expires.Equal(start.Add(7*24*time.Hour)) || len(token) != 43 {
		t.Errorf("the invitation expires %v, its token is %d characters; want in 7 days, 43", inv.Expires, len(token))
	}
	noSecret(t, "an invitation", inv, token)
	if got, err := f.svc.Invitation(ctx, token); err != nil || got.ID != inv.ID || got.Role != domain.Staff {
		t.Errorf("Invitation(token) = %+v, %v", got, err)
	}
	altered := token[:42] + "A"
	if altered == token {
		altered = token[:42] + "B"
	}
	for _, forged := range []string{"", "x", altered, token + "A", strings.Repeat("!", 43)} {
		if _, err := f.svc.Invitation(ctx, forged); !errors.Is(err, domain.ErrInvitationUnknown) {
			t.Errorf("a forged token %q: %v; want ErrInvitationUnknown", forged, err)
		}
	}
	p, m, err := f.svc.AcceptInvitation(ctx, token, Acceptance{Name: "Cy"})
	if err != nil || p.Name != "Cy" || p.Email != "cy@example.com" || m.Role != domain.Staff || !reflect.DeepEqual(m.Buildings, []string{"b1"}) {
		t.Fatalf("accepting: %+v, %+v, %v; want Cy, at the invitation's address, staff of b1", p, m, err)
	}
	_, _, err = f.svc.AcceptInvitation(ctx, token, Acceptance{Name: "Dee"})
	if !errors.Is(err, domain.ErrInvitationUsed) || err.Error() != "This invitation was used already: each invitation works once. Sign in, or ask for a new invitation." {
		t.Errorf("accepting again: %v", err)
	}
	noSecret(t, "the error of a used token", err, token)

	_, late, _ := f.svc.Invite(ctx, ana, Invite{Role: domain.Viewer})
	inv2, withdrawn, _ := f.svc.Invite(ctx, ana, Invite{Role: domain.Viewer})
	if err := f.svc.WithdrawInvitation(ctx, ana, inv2.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.AcceptInvitation(ctx, withdrawn, Acceptance{Name: "Eve"}); !errors.Is(err, domain.ErrInvitationWithdrawn) {
		t.Errorf("a withdrawn invitation: %v", err)
	}
	f.clock.Advance(7 * 24 * time.Hour)
	if _, _, err := f.svc.AcceptInvitation(ctx, late, Acceptance{Name: "Fay"}); !errors.Is(err, domain.ErrInvitationExpired) {
		t.Errorf("an invitation 7 days old: %v", err)
	}
	want := []string{"invitation.withdrawn", "person.invited", "person.invited", "invitation.accepted", "person.invited"}
	page, err := f.svc.AuditLog(ctx, "a", AuditQuery{Limit: 5})
	var got []string
	for _, e := range page.Entries {
		got = append(got, string(e.Action))
		noSecret(t, "an audit entry", e, token, late, withdrawn)
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the audit log: %v, %v; want %v", got, err, want)
	}
}

// An account keeps at most MaxInvitations open invitations; the refusal
// says so in words.
func TestOpenInvitationsAreBounded(t *testing.T) {
	f := newFixture(t)
	ana := f.signIn(t, "Ana")
	for range MaxInvitations {
		if _, _, err := f.svc.Invite(t.Context(), ana, Invite{Role: domain.Viewer}); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := f.svc.Invite(t.Context(), ana, Invite{Role: domain.Viewer})
	if !errors.Is(err, domain.ErrLimit) || !strings.HasPrefix(err.Error(), "An account keeps at most 200 open invitations, and this one has as many.") {
		t.Errorf("one invitation too many: %v", err)
	}
}

// Sign-in links: at most 3 for an address in 15 minutes, refused in words
// that say when to ask again; an address that is nobody's gets no token
// and counts alike; a link works once.
func TestSignInLinks(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	if _, err := f.svc.UpdatePerson(ctx, ana.PersonID, "Ana", "Ana@Example.com"); err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for i := range 3 {
		l, err := f.svc.RequestSignInLink(ctx, "ana@example.com")
		if err != nil || l.Token == "" || l.Person.ID != ana.PersonID || !l.Expires.Equal(f.clock.Now().Add(15*time.Minute)) {
			t.Fatalf("link %d: %v, %v", i, l, err)
		}
		noSecret(t, "a sign-in link", l, l.Token)
		tokens = append(tokens, l.Token)
		f.clock.Advance(time.Minute)
	}
	_, err := f.svc.RequestSignInLink(ctx, "ANA@example.com")
	if err == nil || err.Error() != "A link was sent to this address a moment ago: use it, or ask again in 12 minutes." {
		t.Errorf("a fourth link: %v", err)
	}
	for i := range 4 {
		l, err := f.svc.RequestSignInLink(ctx, "nobody@example.com")
		if i < 3 && (err != nil || l.Token != "" || l.Person.ID != "") {
			t.Errorf("a link for nobody's address: %v, %v; want none to send", l, err)
		}
		if i == 3 && !errors.Is(err, domain.ErrLimit) {
			t.Errorf("a fourth link for nobody's address: %v; want the same limit as anyone's", err)
		}
	}
	if p, err := f.svc.UseSignInLink(ctx, tokens[1]); err != nil || p.ID != ana.PersonID {
		t.Errorf("using a link: %+v, %v", p, err)
	}
	if _, err := f.svc.UseSignInLink(ctx, tokens[1]); !errors.Is(err, domain.ErrSignInLinkUsed) {
		t.Errorf("using it again: %v", err)
	}
	f.clock.Advance(15 * time.Minute)
	if _, err := f.svc.UseSignInLink(ctx, tokens[2]); !errors.Is(err, domain.ErrSignInLinkExpired) {
		t.Errorf("a link 15 minutes old: %v", err)
	}
	if _, err := f.svc.UseSignInLink(ctx, "forged"); !errors.Is(err, domain.ErrSignInLinkUnknown) {
		t.Errorf("a forged link: %v", err)
	}
}

// Roles change and people leave as their makers may; each ends the
// person's sessions in the account; the last owner stays.
func TestChangeRoleAndRemove(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	ben := f.signIn(t, "Ben")
	if err := f.store.CommitSession(ctx, "ben-session", []byte("x"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.RecordSession(ctx, "ben-session", ben.PersonID, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ChangeRole(ctx, ben, ana.PersonID, domain.Viewer, nil); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("an admin demoting the owner: %v", err)
	}
	ended, err := f.svc.ChangeRole(ctx, ana, ben.PersonID, domain.Staff, []string{"b1"})
	if err != nil || !reflect.DeepEqual(ended, []string{"ben-session"}) {
		t.Errorf("demoting Ben: %v, %v; want his session ended", ended, err)
	}
	if _, err := f.svc.RemoveMember(ctx, ana, ana.PersonID); !errors.Is(err, domain.ErrLastOwner) ||
		err.Error() != "An account keeps at least one owner: make someone else an owner first." {
		t.Errorf("the last owner leaving: %v", err)
	}
	if _, err := f.svc.RemoveMember(ctx, ana, ben.PersonID); err != nil {
		t.Fatal(err)
	}
	page, _ := f.svc.AuditLog(ctx, "a", AuditQuery{Limit: 2})
	if len(page.Entries) != 2 || page.Entries[0].Subject != "Ben (staff in 1 building)" || page.Entries[1].Subject != "Ben from admin to staff in 1 building" {
		t.Errorf("the audit log: %+v", page.Entries)
	}
}

// A supervisor enrols a device for a member within their role; the
// device's token signs that person in, until it is revoked.
func TestEnrolledDevices(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	ben := f.signIn(t, "Ben")
	if _, err := f.svc.ChangeRole(ctx, ana, ben.PersonID, domain.Supervisor, nil); err != nil {
		t.Fatal(err)
	}
	ben.Role = domain.Supervisor
	if _, _, err := f.svc.Enrol(ctx, ben, ana.PersonID, "Tablet"); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a supervisor enrolling a device for the owner: %v", err)
	}
	d, token, err := f.svc.Enrol(ctx, ben, ben.PersonID, "Cleaners' room tablet")
	if err != nil {
		t.Fatal(err)
	}
	noSecret(t, "an enrolled device", d, token)
	got, m, err := f.svc.Device(ctx, token)
	if err != nil || got.ID != d.ID || m.PersonID != ben.PersonID || m.Role != domain.Supervisor || !got.LastSeen.Equal(start) {
		t.Errorf("Device(token) = %+v, %+v, %v", got, m, err)
	}
	if _, err := f.svc.RevokeDevice(ctx, ben, d.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.Device(ctx, token); !errors.Is(err, ErrDeviceRevoked) {
		t.Errorf("a revoked device: %v", err)
	}
	if _, _, err := f.svc.Device(ctx, "forged"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a forged device token: %v", err)
	}
	page, _ := f.svc.AuditLog(ctx, "a", AuditQuery{Action: domain.AuditDeviceRevoked})
	if len(page.Entries) != 1 || page.Entries[0].Subject != "Cleaners' room tablet for Ben" {
		t.Errorf("the revocation in the log: %+v", page.Entries)
	}
}

// A passkey whose counter goes back is refused; one that grows is
// recorded with its person's sign-in.
func TestPasskeys(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	p, _ := f.svc.Person(ctx, ana.PersonID)
	k, err := f.svc.AddPasskey(ctx, p, NewPasskey{CredentialID: []byte("cred-1"), Credential: []byte(`{}`), SignCount: 5})
	if err != nil || k.Name != "Passkey 1" {
		t.Fatalf("AddPasskey = %+v, %v", k, err)
	}
	if err := f.svc.UsePasskey(ctx, []byte("cred-1"), []byte(`{}`), 5); !errors.Is(err, ErrPasskeyCloned) {
		t.Errorf("a counter that did not grow: %v", err)
	}
	f.clock.Advance(time.Hour)
	if err := f.svc.UsePasskey(ctx, []byte("cred-1"), []byte(`{"n":6}`), 6); err != nil {
		t.Fatal(err)
	}
	if p, _ := f.svc.Person(ctx, ana.PersonID); !p.LastSeen.Equal(start.Add(time.Hour)) {
		t.Errorf("Ana last seen %v after signing in with her passkey", p.LastSeen)
	}
	other := domain.Person{ID: "p-other", Name: "Mallory"}
	if err := f.svc.RemovePasskey(ctx, other, []byte("cred-1")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("removing another's passkey: %v", err)
	}
	if _, err := f.svc.AddPasskey(ctx, p, NewPasskey{CredentialID: make([]byte, MaxCredentialID+1), Credential: []byte(`{}`)}); err == nil {
		t.Error("a credential id longer than WebAuthn allows was kept")
	}
}

// Single sign-on creates the person with the roles their groups give; a
// group that maps to nothing gives none.
func TestSignInOIDC(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.signIn(t, "Ana")
	mappings := []GroupMapping{{Group: "cleaners", Account: "a", Role: domain.Staff, Buildings: []string{"b1"}}}
	in, err := f.svc.SignInOIDC(ctx, Claims{Issuer: "https://id.example.com", Subject: "u1", Name: "Dana\tWeiss", Email: "dana@example.com",
		Groups: []string{"cleaners", "visitors"}}, mappings)
	if err != nil || in.Person.Name != "DanaWeiss" || len(in.Memberships) != 1 || in.Memberships[0].Role != domain.Staff || !in.Memberships[0].FromGroups {
		t.Fatalf("SignInOIDC = %+v, %v", in, err)
	}
	out, err := f.svc.SignInOIDC(ctx, Claims{Issuer: "https://id.example.com", Subject: "u2", Groups: []string{"visitors"}}, mappings)
	if err != nil || len(out.Memberships) != 0 || out.Person.Name != "u2" {
		t.Errorf("a sign-in whose groups map to nothing: %+v, %v; want a person without accounts", out, err)
	}
	if _, err := f.svc.SignInOIDC(ctx, Claims{Issuer: "", Subject: "u3"}, mappings); err == nil {
		t.Error("claims without an issuer were taken")
	}
}

// The audit log reads page by page with a cursor; a damaged cursor is
// said in words; entries older than the retention are pruned.
func TestAuditLogPages(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana") // account.connected, account.joined
	for i := range 5 {
		f.clock.Advance(24 * time.Hour)
		if err := f.svc.Record(ctx, ana, domain.AuditScreenAdded, fmt.Sprintf("Screen %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.svc.Record(ctx, ana, "screen.painted", "x"); err == nil {
		t.Error("an action not on the list was recorded")
	}
	var subjects []string
	q := AuditQuery{Limit: 3}
	for range 5 {
		page, err := f.svc.AuditLog(ctx, "a", q)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entries {
			subjects = append(subjects, e.Subject)
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	if len(subjects) != 7 || subjects[0] != "Screen 4" || subjects[4] != "Screen 0" {
		t.Errorf("paging read %q", subjects)
	}
	if _, err := f.svc.AuditLog(ctx, "a", AuditQuery{Cursor: "12.x"}); err == nil || !strings.Contains(err.Error(), "start again from its first page") {
		t.Errorf("a damaged cursor: %v", err)
	}
	f.clock.Set(start.Add(400*24*time.Hour + 36*time.Hour))
	if n, err := f.svc.PruneAudit(ctx); err != nil || n != 3 {
		t.Errorf("PruneAudit = %d, %v; want the 2 of the first day and the screen of the next", n, err)
	}
}

// An upgrade connects each account in use with credentials it finds: of
// a signed-in session, else of a linked screen; it runs again without
// effect; the people signed in before become owners as they come back.
func TestUpgradeConnectsAccountsInUse(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	for _, account := range []string{"a", "b", "c"} {
		if _, err := f.store.ReplaceLayout(ctx, domain.Layout{Account: domain.Account{ID: account, Name: "Account " + account}}); err != nil {
			t.Fatal(err)
		}
	}
	credB := domain.Credentials{APIKey: "key-b", Authorization: "auth-b"}
	for id, revoked := range map[string]bool{"scr-old": true, "scr-new": false} {
		sc := domain.Screen{ID: id, Account: "b", Name: "Lobby " + id, Scope: domain.ScreenScope{Kind: "account"}, Created: start}
		if err := f.store.CreateScreen(ctx, sc, []byte("hash-"+id), f.keys.SealCredentials(keyring.ScreenCredentials, credB, []byte(id)), 0); err != nil {
			t.Fatal(err)
		}
		if revoked {
			if err := f.store.RevokeScreen(ctx, "b", id, start); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A session, sealed as the web layer would; the opener is its.
	if err := f.store.CommitSession(ctx, "s1", []byte("account=a"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	open := func(data []byte) (string, domain.Credentials, bool) {
		account, ok := strings.CutPrefix(string(data), "account=")
		return account, credA, ok
	}
	got, err := f.svc.Upgrade(ctx, open)
	want := []Upgraded{{Account: "a", From: "a signed-in session"}, {Account: "b", From: "the wall screen Lobby scr-new"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Upgrade = %+v, %v; want %+v", got, err, want)
	}
	if again, err := f.svc.Upgrade(ctx, open); err != nil || len(again) != 0 {
		t.Errorf("Upgrade again = %+v, %v; want nothing done", again, err)
	}
	c, _ := f.svc.ConnectedAccounts(ctx)
	if len(c) != 2 || c[0].Cred != credA || c[1].Cred != credB {
		t.Errorf("connected: %v", c)
	}
	// Two people signed in before the upgrade come back: both own a; a
	// new sign-in then joins as an admin. c, unconnected, is connected by
	// the first to sign in to it, who owns it.
	for _, name := range []string{"Ana", "Ben"} {
		_, m, err := f.svc.SignInWithCredentials(ctx, CredentialsSignIn{Account: "a", Cred: credA, Name: name, Legacy: true})
		if err != nil || m.Role != domain.Owner {
			t.Errorf("%s, signed in before the upgrade: %+v, %v; want an owner", name, m, err)
		}
	}
	if m := f.signIn(t, "Cy"); m.Role != domain.Admin {
		t.Errorf("a new sign-in after the upgrade: %s; want admin", m.Role)
	}
	_, m, err := f.svc.SignInWithCredentials(ctx, CredentialsSignIn{Account: "c", Cred: credA, Name: "Dee"})
	if err != nil || m.Role != domain.Owner {
		t.Errorf("the first to sign in to c: %+v, %v; want its owner", m, err)
	}
	page, _ := f.svc.AuditLog(ctx, "b", AuditQuery{})
	if len(page.Entries) != 1 || page.Entries[0].Subject != "on upgrade, with the credentials of the wall screen Lobby scr-new" {
		t.Errorf("b's audit log: %+v", page.Entries)
	}
}

// The store of either engine is the service's.
var _ Store = store.Store(nil)

// A device's enrolment link opens once: the device then signs in with the
// key it was given, which the link never showed.
func TestEnrolmentLinkOpensOnce(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	d, link, err := f.svc.Enrol(ctx, ana, ana.PersonID, "Tablet")
	if err != nil {
		t.Fatal(err)
	}
	got, m, key, err := f.svc.OpenDevice(ctx, link)
	if err != nil || got.ID != d.ID || m.PersonID != ana.PersonID || key == "" || key == link {
		t.Fatalf("OpenDevice(link) = %+v, %+v, key given %v, %v", got, m, key != "", err)
	}
	noSecret(t, "an opened device", got, link, key)
	if _, _, _, err := f.svc.OpenDevice(ctx, link); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the link opened again: %v; want ErrNotFound", err)
	}
	if _, _, _, err := f.svc.OpenDevice(ctx, key); !errors.Is(err, domain.ErrEnrolmentUsed) {
		t.Errorf("the device's key as a link: %v; want ErrEnrolmentUsed", err)
	}
	if got, _, err := f.svc.Device(ctx, key); err != nil || got.ID != d.ID {
		t.Errorf("Device(key) = %+v, %v", got, err)
	}
	if _, _, _, err := f.svc.OpenDevice(ctx, link[:len(link)-1]+"A"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an altered link: %v; want ErrNotFound", err)
	}
}

// A sign-in from a device a person has not signed in from is recorded
// once in the account's log; a value no device has is refused.
func TestSignInFromANewDeviceIsRecordedOnce(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	ana := f.signIn(t, "Ana")
	device := NewDeviceID()
	for i, want := range []bool{true, false} {
		if fresh, err := f.svc.SignedIn(ctx, ana, device, "with an e-mailed link"); err != nil || fresh != want {
			t.Errorf("sign-in %d from the device: new %v, %v; want %v", i+1, fresh, err, want)
		}
	}
	if _, err := f.svc.SignedIn(ctx, ana, "not-a-device", "with an e-mailed link"); err == nil {
		t.Error("a device's value that Washboard did not make was taken")
	}
	page, _ := f.svc.AuditLog(ctx, "a", AuditQuery{Action: domain.AuditSignInNewDevice})
	if len(page.Entries) != 1 || page.Entries[0].Subject != "Ana signed in with an e-mailed link from a device not seen before" || page.Entries[0].ActorName != "Ana" {
		t.Errorf("new devices in the log: %+v", page.Entries)
	}
	noSecret(t, "the log", page, device)
}
