package web

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/people"
)

var enrolmentLink = regexp.MustCompile(`value="(http://[^"]+/enrol/([A-Za-z0-9_-]+))"`)

// enrol enrols a device for a person from the browser's devices page,
// and returns the link's token.
func (b *browser) enrol(personID, name string) string {
	b.a.t.Helper()
	r := b.post("/people/devices", url.Values{"csrf_token": {b.formToken("/people/devices")}, "person": {personID}, "name": {name}})
	m := enrolmentLink.FindStringSubmatch(r.body)
	if r.StatusCode != http.StatusOK || m == nil {
		b.a.t.Fatalf("enrolling a device = %d, with no link shown\n%s", r.StatusCode, r.body)
	}
	if path, _ := r.doc(b.a.t).Find("svg.qr-code path").Attr("d"); !strings.HasPrefix(path, "M") {
		b.a.t.Error("the enrolment link has no QR code drawn in the page")
	}
	return m[2]
}

// openEnrolment opens an enrolment link's page on the browser, then
// presses its button.
func (b *browser) openEnrolment(token string) response {
	b.a.t.Helper()
	return b.post("/enrol/"+token, url.Values{"csrf_token": {b.formToken("/enrol/" + token)}})
}

// restarted is the browser after a restart: it keeps its lasting
// cookies, and forgets its session.
func (b *browser) restarted() *browser {
	b.a.t.Helper()
	u, _ := url.Parse(b.a.srv.URL)
	jar, _ := cookiejar.New(nil)
	var kept []*http.Cookie
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name != sessionCookie {
			kept = append(kept, c)
		}
	}
	jar.SetCookies(u, kept)
	return &browser{a: b.a, client: &http.Client{Jar: jar, CheckRedirect: b.client.CheckRedirect}}
}

func TestEnrolledDeviceStaysSignedInUntilRevoked(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	account := a.accountOf(false)
	sid := a.browserAs(domain.Staff, "Sid Staff")
	sue := a.browserAs(domain.Supervisor, "Sue Supervisor")
	members := a.members(account)

	// A staff member cannot enrol, nor see the devices.
	if r := sid.get("/people/devices"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a staff member's GET /people/devices = %d; want 403", r.StatusCode)
	}
	page := sue.get("/people/devices")
	choices := page.doc(t).Find("#enrol-person option").Map(func(_ int, o *goquery.Selection) string { return o.Text() })
	if page.StatusCode != http.StatusOK || strings.Join(choices, ",") != "Sid Staff,Sue Supervisor" {
		t.Fatalf("a supervisor's devices page = %d, offering %q; want Sid and Sue, not the owner", page.StatusCode, choices)
	}
	token := sue.enrol(members["Sid Staff"].PersonID, "Tablet, level 2")
	if again := sue.get("/people/devices"); strings.Contains(again.body, token) || !strings.Contains(again.body, "Tablet, level 2") {
		t.Error("the enrolment link is shown a second time, or the device is not listed")
	}

	// The tablet opens the link: following it uses nothing, the button
	// signs the device in as Sid.
	tablet := a.browser()
	if r := tablet.get("/enrol/" + token); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Sign in this device") {
		t.Fatalf("the enrolment link's page = %d", r.StatusCode)
	}
	r := tablet.openEnrolment(token)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("opening the enrolment = %d\n%s", r.StatusCode, r.body)
	}
	if !strings.Contains(strings.Join(r.Header.Values("Set-Cookie"), "\n"), enrolledCookie+"=") ||
		!strings.Contains(strings.Join(r.Header.Values("Set-Cookie"), "\n"), "Max-Age=7776000") {
		t.Errorf("the device was not given its key for 90 days: %q", r.Header.Values("Set-Cookie"))
	}
	if me := tablet.get("/me"); me.StatusCode != http.StatusOK || me.doc(t).Find("h1").Text() != "Sid Staff" || !strings.Contains(me.body, "Tablet, level 2") {
		t.Errorf("the tablet's /me = %d; want Sid's page listing the tablet", me.StatusCode)
	}
	if r := a.browser().openEnrolment(token); r.StatusCode != http.StatusNotFound {
		t.Errorf("the enrolment link opened on a second device = %d; want 404 (it opens nothing more)", r.StatusCode)
	}

	// Its session gone (the browser restarted), the tablet signs in again
	// by itself.
	restarted := tablet.restarted()
	if r := restarted.get("/me"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/me" {
		t.Fatalf("a restarted tablet's /me = %d to %q; want signed in again, back to /me", r.StatusCode, r.Header.Get("Location"))
	}
	if me := restarted.get("/me"); me.StatusCode != http.StatusOK || me.doc(t).Find("h1").Text() != "Sid Staff" {
		t.Errorf("the restarted tablet's /me = %d; want Sid's page", me.StatusCode)
	}
	if list := sue.get("/people/devices").doc(t).Find("table.enrolled-devices tbody tr").Text(); !strings.Contains(list, "Sid Staff") ||
		!strings.Contains(list, "Sue Supervisor") || strings.Contains(list, "not opened yet") {
		t.Errorf("the devices list: %q; want the tablet, Sid's, by Sue, signed in", list)
	}

	// Revoked, both of its sessions end at once; Sid's own does not.
	var id string
	for _, d := range mustDevices(t, a, account) {
		id = d.ID
	}
	if r := sue.post("/people/devices/"+id+"/revoke", url.Values{"csrf_token": {sue.formToken("/people/devices")}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("revoking = %d\n%s", r.StatusCode, r.body)
	}
	for _, b := range []*browser{tablet, restarted} {
		r := b.get("/me")
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/signin?device=revoked" {
			t.Errorf("a revoked tablet's /me = %d to %q; want sent to sign in", r.StatusCode, r.Header.Get("Location"))
		}
		if page := b.get("/signin?device=revoked"); !strings.Contains(page.body, "This device was signed out by a supervisor") {
			t.Error("the sign-in page does not say the device was signed out")
		}
		if r := b.get("/me"); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin?next=") {
			t.Errorf("a revoked tablet keeps its key: /me = %d to %q", r.StatusCode, r.Header.Get("Location"))
		}
	}
	if r := sid.get("/me"); r.StatusCode != http.StatusOK {
		t.Errorf("Sid's own session after the tablet was revoked = %d; want it kept", r.StatusCode)
	}
	page2, _ := a.people.AuditLog(context.Background(), account, people.AuditQuery{})
	var actions []string
	for _, e := range page2.Entries {
		actions = append(actions, string(e.Action)+" "+e.Subject)
	}
	for _, want := range []string{"device.enrolled Tablet, level 2 for Sid Staff", "device.revoked Tablet, level 2 for Sid Staff",
		"signin.new_device Sid Staff signed in on an enrolled device from a device not seen before"} {
		if !strings.Contains(strings.Join(actions, "\n"), want) {
			t.Errorf("the audit log has no %q:\n%s", want, strings.Join(actions, "\n"))
		}
	}
	if strings.Contains(a.logs.String(), token) {
		t.Error("an enrolment link's token appears in the log")
	}
}

// mustDevices lists an account's enrolled devices.
func mustDevices(t *testing.T, a *app, account string) []domain.EnrolledDevice {
	t.Helper()
	all, err := a.people.EnrolledDevices(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// A supervisor limited to a building enrols only for people within it,
// and sees only their devices.
func TestASupervisorOfABuildingEnrolsOnlyWithinIt(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	a.browser().signIn(credA)
	account := a.accountOf(false)
	buildings := a.world.Accounts()[0].Buildings
	owner := a.owner(account)
	limited := func(r domain.Role, name, building string) *browser {
		t.Helper()
		_, token, err := a.people.Invite(context.Background(), owner, people.Invite{Role: r, Buildings: []string{building}})
		if err != nil {
			t.Fatal(err)
		}
		b := a.browser()
		if res := b.accept(token, name); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("accepting: %d", res.StatusCode)
		}
		return b
	}
	sue := limited(domain.Supervisor, "Sue North", buildings[0].ID)
	limited(domain.Staff, "Sam North", buildings[0].ID)
	limited(domain.Staff, "Olga South", buildings[1].ID)
	members := a.members(account)
	if r := sue.post("/people/devices", url.Values{"csrf_token": {sue.formToken("/people/devices")}, "person": {members["Olga South"].PersonID},
		"name": {"Tablet"}}); r.StatusCode != http.StatusForbidden || !strings.Contains(r.body, "only for someone whose role and buildings are within yours") {
		t.Errorf("enrolling for someone of another building = %d; want 403 in words\n%s", r.StatusCode, r.body)
	}
	sue.enrol(members["Sam North"].PersonID, "North tablet")
	// The owner's device for Olga is not Sue's to see or revoke.
	if _, _, err := a.people.Enrol(context.Background(), owner, members["Olga South"].PersonID, "South tablet"); err != nil {
		t.Fatal(err)
	}
	list := sue.get("/people/devices").doc(t).Find("table.enrolled-devices").Text()
	if !strings.Contains(list, "North tablet") || strings.Contains(list, "South tablet") || strings.Contains(list, "Olga") {
		t.Errorf("Sue's list of devices: %q; want the north tablet alone", list)
	}
	for _, d := range mustDevices(t, a, account) {
		if d.Name == "South tablet" {
			if r := sue.post("/people/devices/"+d.ID+"/revoke", url.Values{"csrf_token": {sue.formToken("/people/devices")}}); r.StatusCode != http.StatusNotFound {
				t.Errorf("Sue revoking the south tablet = %d; want 404", r.StatusCode)
			}
		}
	}
}

// A person signs out a device enrolled for them from their own page,
// whatever their role; a device of someone else is not theirs to revoke.
func TestAPersonRevokesTheirOwnDevice(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	account := a.accountOf(false)
	sid := a.browserAs(domain.Staff, "Sid Staff")
	sue := a.browserAs(domain.Supervisor, "Sue Supervisor")
	members := a.members(account)
	tablet := a.browser()
	if r := tablet.openEnrolment(sue.enrol(members["Sid Staff"].PersonID, "Tablet")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("opening the enrolment = %d", r.StatusCode)
	}
	sue.enrol(members["Sue Supervisor"].PersonID, "Sue's tablet")
	var sids, sues string
	for _, d := range mustDevices(t, a, account) {
		if d.PersonName == "Sid Staff" {
			sids = d.ID
		} else {
			sues = d.ID
		}
	}
	if r := sid.post("/me/devices/"+sues+"/revoke", url.Values{"csrf_token": {sid.formToken("/me")}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("Sid revoking Sue's device = %d; want 404", r.StatusCode)
	}
	if r := sid.post("/me/devices/"+sids+"/revoke", url.Values{"csrf_token": {sid.formToken("/me")}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("Sid revoking his tablet = %d", r.StatusCode)
	}
	if r := tablet.get("/me"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/signin?device=revoked" {
		t.Errorf("the revoked tablet's /me = %d to %q; want sent to sign in", r.StatusCode, r.Header.Get("Location"))
	}
	if me := sid.get("/me"); me.StatusCode != http.StatusOK || !strings.Contains(me.doc(t).Find("#me-devices-heading").Next().Text(), "revoked") {
		t.Errorf("Sid's /me = %d; want his tablet listed as revoked", me.StatusCode)
	}
}
