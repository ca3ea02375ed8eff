package web

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/notify"
	"washboard/internal/notify/mailtest"
)

// formToken is the form token of a page the browser shows.
func (b *browser) formToken(path string) string {
	b.a.t.Helper()
	r := b.get(path)
	m := csrfInput.FindStringSubmatch(r.body)
	if m == nil {
		b.a.t.Fatalf("no form token on %s (%d)", path, r.StatusCode)
	}
	return m[1]
}

var invitationLink = regexp.MustCompile(`value="(http://[^"]+/invitations/([A-Za-z0-9_-]+))"`)

func TestPeoplePageInvitesWithALinkShownOnce(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	mail := mailtest.Start(t, mailtest.Options{})
	server := notify.SMTPSettings{Host: mail.Host, Port: mail.Port, User: mail.User, Password: mail.Pass, From: "washboard@example.com",
		TLSConfig: &tls.Config{RootCAs: mail.Roots}}
	a.deps.Mail = func(ctx context.Context, to, subject, text string) error {
		return notify.SendLetter(ctx, server, to, subject, text, a.clock.Now())
	}
	s, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	a.handler.Store(s)
	owner := a.browser()
	owner.signIn(credA)

	page := owner.get("/people")
	if page.StatusCode != http.StatusOK || !strings.Contains(page.body, defaultPersonName) || !strings.Contains(page.body, "No invitation is open") {
		t.Fatalf("GET /people = %d; want the owner listed and no invitation\n%s", page.StatusCode, page.body)
	}
	r := owner.post("/people/invitations", url.Values{"csrf_token": {owner.formToken("/people")}, "role": {"supervisor"}})
	m := invitationLink.FindStringSubmatch(r.body)
	if r.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("inviting = %d, with no link shown\n%s", r.StatusCode, r.body)
	}
	d := r.doc(t)
	if path, _ := d.Find("svg.qr-code path").Attr("d"); !strings.HasPrefix(path, "M") {
		t.Error("the link has no QR code drawn in the page")
	}
	if !strings.Contains(d.Find(".invitation-list").Text(), "A link as supervisor") {
		t.Errorf("the open invitations do not list the new one: %q", d.Find(".invitation-list").Text())
	}
	token := m[2]
	if again := owner.get("/people"); strings.Contains(again.body, token) {
		t.Error("the invitation's link is shown a second time")
	}
	newcomer := a.browser()
	if r := newcomer.accept(token, "Sam Berg"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("accepting the link shown: %d", r.StatusCode)
	}
	if sam := a.members(a.accountOf(false))["Sam Berg"]; sam.Role != domain.Supervisor {
		t.Errorf("Sam joined as %s; want supervisor", sam.Role)
	}

	// With an address, the link goes by e-mail too.
	r = owner.post("/people/invitations", url.Values{"csrf_token": {owner.formToken("/people")}, "role": {"staff"}, "email": {"kim@example.com"}})
	if r.StatusCode != http.StatusOK || !strings.Contains(r.body, "It was e-mailed to kim@example.com") {
		t.Fatalf("inviting by e-mail = %d; want it said that it was mailed\n%s", r.StatusCode, r.body)
	}
	got := mail.Wait(1, 10*time.Second)
	if len(got) != 1 || got[0].To[0] != "kim@example.com" || !strings.Contains(string(got[0].Data), "/invitations/") {
		t.Fatalf("mails received: %+v; want one to kim@example.com with the link", got)
	}

	// Bad input is said in words.
	for _, tc := range []struct {
		form url.Values
		says string
	}{
		{url.Values{"role": {"emperor"}}, "Role: choose viewer, staff, supervisor, admin or owner."},
		{url.Values{"role": {"staff"}, "email": {"not an address"}}, "is not an e-mail address"},
		{url.Values{"role": {"staff"}, "buildings": {"no-such-building\x01"}}, "is not a building"},
	} {
		tc.form.Set("csrf_token", owner.formToken("/people"))
		if r := owner.post("/people/invitations", tc.form); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, tc.says) {
			t.Errorf("inviting with %v = %d; want 422 saying %q", tc.form, r.StatusCode, tc.says)
		}
	}
	if strings.Contains(a.logs.String(), token) {
		t.Error("an invitation's token appears in the log")
	}
}

func TestRemovingOrDemotingEndsSessionsAtOnce(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	account := a.accountOf(false)
	owner := a.browser()
	owner.signIn(credA)
	staff := a.browserAs(domain.Staff, "Sid Staff")
	adminB := a.browserAs(domain.Admin, "Ada Admin")
	for _, b := range []*browser{staff, adminB} {
		if r := b.get("/"); r.StatusCode != http.StatusOK {
			t.Fatalf("a new person's overview = %d", r.StatusCode)
		}
	}
	members := a.members(account)

	// An admin cannot change an owner.
	r := adminB.post("/people/"+a.owner(account).PersonID+"/role", url.Values{"csrf_token": {adminB.formToken("/people")}, "role": {"viewer"}})
	if r.StatusCode != http.StatusForbidden || !strings.Contains(r.body, "Only an owner can make someone an owner") && !strings.Contains(r.body, "Only an owner can change or remove an owner") {
		t.Errorf("an admin demoting the owner = %d; want 403 in words\n%s", r.StatusCode, r.body)
	}

	r = owner.post("/people/"+members["Sid Staff"].PersonID+"/role", url.Values{"csrf_token": {owner.formToken("/people")}, "role": {"viewer"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("demoting = %d\n%s", r.StatusCode, r.body)
	}
	if r := staff.get("/"); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
		t.Errorf("after being demoted, the person's next request = %d; want their session ended", r.StatusCode)
	}
	if page := owner.get("/people"); !strings.Contains(page.body, "Sid Staff is now a viewer") {
		t.Error("the people page does not say the role was changed")
	}

	r = owner.post("/people/"+members["Ada Admin"].PersonID+"/remove", url.Values{"csrf_token": {owner.formToken("/people")}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing = %d\n%s", r.StatusCode, r.body)
	}
	if r := adminB.get("/people"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("after being removed, the person's next request = %d; want their session ended", r.StatusCode)
	}
	if _, ok := a.members(account)["Ada Admin"]; ok {
		t.Error("the removed person is still a member")
	}

	// The last owner stays an owner.
	self := a.owner(account).PersonID
	for _, tc := range []struct{ path, role string }{{"/people/" + self + "/role", "admin"}, {"/people/" + self + "/remove", ""}} {
		r := owner.post(tc.path, url.Values{"csrf_token": {owner.formToken("/people")}, "role": {tc.role}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "An account keeps at least one owner") {
			t.Errorf("%s by the last owner = %d; want 422 saying an account keeps an owner\n%s", tc.path, r.StatusCode, r.body)
		}
	}
}

// A removed person's open event stream ends at once.
func TestRemovedPersonsEventStreamEnds(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	owner := a.browser()
	owner.signIn(credA)
	staff := a.browserAs(domain.Staff, "Sid Staff")
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/events", nil)
	resp, err := staff.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /events = %d", resp.StatusCode)
	}
	first := make([]byte, 1)
	if _, err := resp.Body.Read(first); err != nil {
		t.Fatalf("the stream sent nothing: %v", err)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, resp.Body)
		ended <- err
	}()
	sid := a.members(a.accountOf(false))["Sid Staff"].PersonID
	if r := owner.post("/people/"+sid+"/remove", url.Values{"csrf_token": {owner.formToken("/people")}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing = %d", r.StatusCode)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the stream ended with %v; want its end", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the removed person's event stream is still open 10 s later")
	}
}
