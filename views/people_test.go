package views_test

import (
	"testing"

	"washboard/internal/domain"
	. "washboard/views"
)

// A page offers a person only what their role may use: the server refuses
// the rest all the same.
func TestPagesHideWhatTheRoleCannotUse(t *testing.T) {
	for _, tt := range []struct {
		role                       domain.Role
		screenForms, people, hooks bool
	}{
		{domain.Viewer, false, false, false},
		{domain.Staff, false, false, false},
		{domain.Supervisor, true, false, false},
		{domain.Admin, true, true, true},
		{domain.Owner, true, true, true},
	} {
		m := sampleScreens()
		m.Role = tt.role
		doc, _ := render(t, ScreensPage(m))
		if got := doc.Find(`form[method="post"]`).Length() > 1; got != tt.screenForms {
			t.Errorf("%s: screens' forms shown: %v, want %v", tt.role, got, tt.screenForms)
		}
		if got := doc.Find(`a[href="/people"]`).Length() > 0; got != tt.people {
			t.Errorf("%s: link to people: %v, want %v", tt.role, got, tt.people)
		}
		if got := doc.Find(`a[href="/webhooks"]`).Length() > 0; got != tt.hooks {
			t.Errorf("%s: link to webhooks: %v, want %v", tt.role, got, tt.hooks)
		}
		if got := doc.Find(".person").Text(); got != "Ana Lima ("+tt.role.String()+")" {
			t.Errorf("%s: the menu says %q of who is signed in", tt.role, got)
		}
	}
}

// A viewer's pages leave out the claim links, which the pages' shared
// regions carry for every role.
func TestViewersPagesLeaveOutClaiming(t *testing.T) {
	for _, tt := range []struct {
		role domain.Role
		hide bool
	}{{domain.Viewer, true}, {domain.Staff, false}, {domain.Owner, false}} {
		p := samplePage("Alerts")
		p.Role = tt.role
		doc, _ := render(t, SignInPage(SignIn{Page: p}))
		if got := doc.Find("body").HasClass("may-not-claim"); got != tt.hide {
			t.Errorf("%s: the page hides claim links: %v, want %v", tt.role, got, tt.hide)
		}
	}
}
