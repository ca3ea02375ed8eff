package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/people"
)

func TestOwnerReplacesCredentialsCheckedWithTheService(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	owner := a.browser()
	owner.signIn(credA)
	for _, tc := range []struct {
		apiKey, auth, says string
	}{
		{credB.APIKey, credB.Authorization, "are of another account"},
		{credA.APIKey, "Bearer wrong", "did not accept these credentials"},
		{"", "", "API key"},
	} {
		r := owner.post("/account/credentials", url.Values{"csrf_token": {owner.formToken("/account")}, "api_key": {tc.apiKey}, "authorization": {tc.auth}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, tc.says) {
			t.Errorf("replacing with %q = %d; want 422 saying %q\n%s", tc.says, r.StatusCode, tc.says, r.body)
		}
	}
	r := owner.post("/account/credentials", url.Values{"csrf_token": {owner.formToken("/account")}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/account" {
		t.Fatalf("replacing with the account's own = %d to %q\n%s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	if page := owner.get("/account"); !strings.Contains(page.body, "credentials were replaced: the service accepted them") {
		t.Errorf("the page does not say the credentials were replaced:\n%s", page.body)
	}
	log, err := a.people.AuditLog(context.Background(), a.accountOf(false), people.AuditQuery{Action: domain.AuditCredentialsReplaced})
	if err != nil || len(log.Entries) != 1 {
		t.Errorf("the audit log has %d replacements (%v); want 1", len(log.Entries), err)
	}
}

func TestOwnerDisconnectsAfterAConfirmationNamingWhatGoes(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	account := a.accountOf(false)
	owner := a.browser()
	owner.signIn(credA)
	staff := a.browserAs(domain.Staff, "Sid Staff")
	if r := staff.get("/"); r.StatusCode != http.StatusOK {
		t.Fatalf("staff's overview = %d", r.StatusCode)
	}
	confirm := owner.get("/account/disconnect")
	if confirm.StatusCode != http.StatusOK || !strings.Contains(confirm.body, "2 people") || !strings.Contains(confirm.body, "alert rows") {
		t.Fatalf("the confirmation (%d) does not name how much goes:\n%s", confirm.StatusCode, confirm.body)
	}
	if r := owner.post("/account/disconnect", url.Values{"csrf_token": {owner.formToken("/account")}}); r.StatusCode != http.StatusBadRequest {
		t.Fatalf("disconnecting without the confirmation = %d; want 400 and nothing removed", r.StatusCode)
	}
	confirmWith, _ := confirm.doc(t).Find(`input[name="confirm"]`).Attr("value")
	r := owner.post("/account/disconnect", url.Values{"csrf_token": {owner.formToken("/account/disconnect")}, "confirm": {confirmWith}})
	if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
		t.Fatalf("disconnecting = %d to %q", r.StatusCode, r.Header.Get("Location"))
	}
	for name, b := range map[string]*browser{"the owner": owner, "the staff": staff} {
		if r := b.get("/alerts"); r.StatusCode != http.StatusSeeOther {
			t.Errorf("%s's next request after the disconnection = %d; want their session ended", name, r.StatusCode)
		}
	}
	if n := len(a.members(account)); n != 0 {
		t.Errorf("%d people are left in the disconnected account", n)
	}
	if connected, err := a.people.ConnectedAccounts(context.Background()); err != nil || len(connected) != 0 {
		t.Errorf("connected accounts after the disconnection: %d, %v", len(connected), err)
	}
	if a.engine.Running(account) {
		t.Error("the disconnected account still syncs")
	}
}
