package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/internal/syncer"
)

// accountOf is the id of the simulator's account of credentials: A's or
// B's.
func (a *app) accountOf(b bool) string {
	if b {
		return a.world.Accounts()[1].ID
	}
	return a.world.Accounts()[0].ID
}

// members lists an account's members by name.
func (a *app) members(account string) map[string]domain.Member {
	a.t.Helper()
	all, err := a.people.Members(context.Background(), account)
	if err != nil {
		a.t.Fatal(err)
	}
	out := map[string]domain.Member{}
	for _, m := range all {
		out[m.Name] = m
	}
	return out
}

// owner is an owner of the account.
func (a *app) owner(account string) domain.Member {
	a.t.Helper()
	for _, m := range a.members(account) {
		if m.Role == domain.Owner {
			return m
		}
	}
	a.t.Fatalf("account %s has no owner", account)
	return domain.Member{}
}

// invite makes an invitation of the account's owner, and returns its
// token.
func (a *app) invite(account string, r domain.Role, email string) string {
	a.t.Helper()
	_, token, err := a.people.Invite(context.Background(), a.owner(account), people.Invite{Role: r, Email: email})
	if err != nil {
		a.t.Fatal(err)
	}
	return token
}

// accept accepts an invitation under a name, with the form token of the
// invitation's page.
func (b *browser) accept(token, name string) response {
	b.a.t.Helper()
	page := b.get("/invitations/" + token)
	m := csrfInput.FindStringSubmatch(page.body)
	if m == nil {
		b.a.t.Fatalf("no form on the invitation's page (%d):\n%s", page.StatusCode, page.body)
	}
	return b.post("/invitations/"+token, url.Values{"csrf_token": {m[1]}, "name": {name}})
}

// browserAs is a browser signed in to account A as a new person of the
// role, invited by its owner (who signed in first).
func (a *app) browserAs(r domain.Role, name string) *browser {
	a.t.Helper()
	b := a.browser()
	if res := b.accept(a.invite(a.accountOf(false), r, ""), name); res.StatusCode != http.StatusSeeOther {
		a.t.Fatalf("accepting an invitation as %s: %d\n%s", r, res.StatusCode, res.body)
	}
	return b
}

// syncOnce syncs an account once with nobody signed in, as the sync did
// for sessions before people existed.
func (a *app) syncOnce(account string, cred domain.Credentials) {
	a.t.Helper()
	events, stop := a.engine.Subscribe(account)
	defer stop()
	a.engine.Hold("test", account, cred, a.clock.Now().Add(time.Hour))
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Resource == domain.ResourceAlerts && (ev.Kind == syncer.EventChanged || ev.Kind == syncer.EventFailed) {
				a.clock.BlockUntil(1)
				return
			}
		case <-timeout:
			a.t.Fatal("the first sync did not finish within 20 s")
		}
	}
}

// sessionsOf counts the sessions recorded as a person's.
func (a *app) sessionsOf(person string) int {
	a.t.Helper()
	q := `SELECT count(*) FROM session_people WHERE person_id = ?`
	if a.shared {
		q = `SELECT count(*) FROM session_people WHERE person_id = $1`
	}
	var n int
	if err := a.sessionDB.QueryRow(q, person).Scan(&n); err != nil {
		a.t.Fatal(err)
	}
	return n
}

func TestSignInWithCredentialsConnectsThenJoins(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	account := a.accountOf(false)
	first := a.browser()
	if r := first.signIn(credA); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("first sign-in: %d\n%s", r.StatusCode, r.body)
	}
	owner, ok := a.members(account)[defaultPersonName]
	if !ok || owner.Role != domain.Owner {
		t.Fatalf("the first to sign in is %+v; want the owner, named %q", owner, defaultPersonName)
	}
	if n := a.sessionsOf(owner.PersonID); n != 1 {
		t.Errorf("the owner has %d sessions recorded; want 1", n)
	}

	second := a.browser()
	r := second.post("/signin", url.Values{"csrf_token": {second.csrf()}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}, "name": {"Ana Lima"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("second sign-in: %d\n%s", r.StatusCode, r.body)
	}
	ana, ok := a.members(account)["Ana Lima"]
	if !ok || ana.Role != domain.Admin {
		t.Fatalf("the second to sign in is %+v; want an admin named Ana Lima", ana)
	}
	if n := a.sessionsOf(ana.PersonID); n != 1 {
		t.Errorf("Ana has %d sessions recorded; want 1", n)
	}
	if home := second.get("/"); !strings.Contains(home.body, "Ana Lima (admin)") {
		t.Errorf("the page does not say who is signed in, with which role:\n%s", home.body)
	}
	log, err := a.people.AuditLog(context.Background(), account, people.AuditQuery{Action: domain.AuditAccountJoined})
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Entries) != 2 || log.Entries[0].ActorName != "Ana Lima" || !strings.Contains(log.Entries[0].Subject, "as admin") {
		t.Errorf("the audit log's joins are %+v; want the owner's, then Ana's as admin", log.Entries)
	}

	// Signing in again from the same browser keeps the person and role.
	if r := second.signIn(credA); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in again: %d", r.StatusCode)
	}
	if n := len(a.members(account)); n != 2 {
		t.Errorf("signing in again from a signed-in browser made a new person: %d members", n)
	}
}

func TestPersonSwitchesBetweenAccounts(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	nameA, nameB := a.world.Accounts()[0].Name, a.world.Accounts()[1].Name
	b := a.browser()
	b.signIn(credA)
	if r := b.get("/"); strings.Contains(r.body, `href="/accounts"`) {
		t.Error("a person of one account is offered to switch accounts")
	}
	// The same browser signs in with B's credentials, from the form the
	// accounts page leads to: the same person joins B, and belongs to both.
	if !strings.Contains(b.get("/accounts").body, `href="/signin?add=1"`) {
		t.Error("the accounts page does not lead to adding an account")
	}
	if r := b.get("/signin?add=1"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, `name="api_key"`) {
		t.Errorf("GET /signin?add=1 signed in = %d; want the sign-in form", r.StatusCode)
	}
	b.signIn(credB)
	r := b.get("/")
	if !strings.Contains(r.body, nameB) || !strings.Contains(r.body, `href="/accounts"`) {
		t.Fatalf("after signing in to B, the page is not B's with a switcher:\n%s", r.body)
	}
	list := b.get("/accounts")
	if list.StatusCode != http.StatusOK || !strings.Contains(list.body, "Switch to "+nameA) {
		t.Fatalf("GET /accounts = %d; want a button to switch to %s\n%s", list.StatusCode, nameA, list.body)
	}
	token := csrfInput.FindStringSubmatch(list.body)[1]
	if r := b.post("/accounts/switch", url.Values{"csrf_token": {token}, "account": {a.accountOf(false)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("switching: %d\n%s", r.StatusCode, r.body)
	}
	if r := b.get("/"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, nameA) || strings.Contains(r.body, nameB+"</span>") {
		t.Errorf("after switching to A, the overview is not A's (%d)", r.StatusCode)
	}

	// Someone of A only cannot switch to B.
	other := a.browserAs(domain.Viewer, "Vera")
	page := other.get("/accounts")
	token = csrfInput.FindStringSubmatch(page.body)[1]
	if r := other.post("/accounts/switch", url.Values{"csrf_token": {token}, "account": {a.accountOf(true)}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("switching to an account of someone else's: %d; want 404", r.StatusCode)
	}
}

func TestSessionFromBeforePeopleKeepsWorking(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	srv := a.handler.Load()
	// A session as one was written before people existed: an account and
	// its credentials, nobody.
	ctx, err := srv.sessions.Load(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{keyAccount: a.accountOf(false), keyAccountName: a.world.Accounts()[0].Name,
		keyAPIKey: credA.APIKey, keyAuth: credA.Authorization, keyHolder: "0123456789abcdef"} {
		srv.sessions.Put(ctx, k, v)
	}
	token, _, err := srv.sessions.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a.syncOnce(a.accountOf(false), domain.Credentials{APIKey: credA.APIKey, Authorization: credA.Authorization})
	// The upgrade at start connects the account with that session's
	// credentials, with no owner.
	up, err := a.people.Upgrade(context.Background(), OpenSession(a.deps.Keys))
	if err != nil || len(up) != 1 || up[0].Account != a.accountOf(false) {
		t.Fatalf("upgrade: %+v, %v; want account A connected", up, err)
	}
	b := a.browser()
	u, _ := url.Parse(a.srv.URL)
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: token, Path: "/"}})
	if r := b.get("/status"); r.StatusCode != http.StatusOK {
		t.Fatalf("the session from before people: GET /status = %d\n%s", r.StatusCode, r.body)
	}
	holder, ok := a.members(a.accountOf(false))[defaultPersonName]
	if !ok || holder.Role != domain.Owner {
		t.Errorf("the session from before people became %+v; want the owner of the account it was signed in to", holder)
	}
}

func TestInvitationLinks(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	account := a.accountOf(false)
	a.browser().signIn(credA)

	token := a.invite(account, domain.Staff, "")
	b := a.browser()
	page := b.get("/invitations/" + token)
	if page.StatusCode != http.StatusOK || !strings.Contains(page.body, a.world.Accounts()[0].Name) || !strings.Contains(page.body, "staff") ||
		!strings.Contains(page.body, defaultPersonName+" invites you") {
		t.Fatalf("the invitation's page (%d) does not say who invites to which account as what:\n%s", page.StatusCode, page.body)
	}
	if r := b.accept(token, "  "); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Enter your name") {
		t.Errorf("accepting without a name: %d; want 422 asking for it\n%s", r.StatusCode, r.body)
	}
	if r := b.accept(token, "Bo Ek"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("accepting: %d\n%s", r.StatusCode, r.body)
	}
	if r := b.get("/"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Bo Ek (staff)") {
		t.Errorf("after accepting, the overview (%d) does not show Bo signed in as staff", r.StatusCode)
	}

	withdrawn := a.invite(account, domain.Viewer, "")
	inv, err := a.people.Invitations(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.people.WithdrawInvitation(context.Background(), a.owner(account), inv[0].ID); err != nil {
		t.Fatal(err)
	}
	expired := a.invite(account, domain.Viewer, "")
	a.clock.Advance(people.DefaultInvitationTTL + time.Minute)
	forged := make([]byte, 32)
	rand.Read(forged)
	altered := []byte(token)
	altered[5] ^= 1
	for _, tc := range []struct {
		name, token string
		status      int
		says        string
	}{
		{"used", token, http.StatusGone, "used already"},
		{"withdrawn", withdrawn, http.StatusGone, "withdrawn"},
		{"expired", expired, http.StatusGone, "expired"},
		{"forged", base64.RawURLEncoding.EncodeToString(forged), http.StatusNotFound, "not known here"},
		{"altered", string(altered), http.StatusNotFound, "not known here"},
		{"short", "abc", http.StatusNotFound, "not known here"},
	} {
		other := a.browser()
		if r := other.get("/invitations/" + url.PathEscape(tc.token)); r.StatusCode != tc.status || !strings.Contains(r.body, tc.says) {
			t.Errorf("%s invitation: %d; want %d saying %q\n%s", tc.name, r.StatusCode, tc.status, tc.says, r.body)
		}
		r := other.post("/invitations/"+url.PathEscape(tc.token), url.Values{"csrf_token": {other.csrf()}, "name": {"Eve"}})
		if r.StatusCode != tc.status || !strings.Contains(r.body, tc.says) {
			t.Errorf("accepting a %s invitation: %d; want %d saying %q", tc.name, r.StatusCode, tc.status, tc.says)
		}
	}
	for _, tok := range []string{token, withdrawn, expired} {
		if strings.Contains(a.logs.String(), tok) {
			t.Error("an invitation's token appears in the log")
		}
	}
}

func TestPersonsOwnPage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	alert := a.anOpenAlert()
	staff := a.browserAs(domain.Staff, "Sid Staff")
	claim := "/alerts/" + alert.ID + "/claim"
	if r := staff.post(claim, url.Values{"csrf_token": {staff.pageCSRF(claim)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("claiming = %d", r.StatusCode)
	}
	me := staff.get("/me")
	d := me.doc(t)
	if me.StatusCode != http.StatusOK || d.Find("h1").Text() != "Sid Staff" || !strings.Contains(d.Find(".account-list").Text(), a.world.Accounts()[0].Name+": staff") {
		t.Fatalf("/me = %d; want the name, and the account with the role:\n%s", me.StatusCode, me.body)
	}
	if d.Find(`a[href^="`+claim+`"]`).Length() == 0 {
		t.Error("/me does not list the alert the person is on")
	}
	if d.Find("#passkeys-heading").Text() != "Passkeys" || !strings.Contains(me.body, "Devices enrolled for you") {
		t.Error("/me has no place for passkeys and enrolled devices")
	}
	for _, tc := range []struct{ name, email, says string }{
		{"", "", "Name"},
		{"Sid", "not an address", "is not an e-mail address"},
	} {
		r := staff.post("/me", url.Values{"csrf_token": {staff.pageCSRF("/me")}, "name": {tc.name}, "email": {tc.email}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, tc.says) {
			t.Errorf("saving %q, %q = %d; want 422 saying %q", tc.name, tc.email, r.StatusCode, tc.says)
		}
	}
	if r := staff.post("/me", url.Values{"csrf_token": {staff.pageCSRF("/me")}, "name": {"Sid Sand"}, "email": {"sid@example.com"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving = %d\n%s", r.StatusCode, r.body)
	}
	if r := staff.get("/"); !strings.Contains(r.body, "Sid Sand (staff)") {
		t.Error("after renaming, the page does not show the new name")
	}
}
