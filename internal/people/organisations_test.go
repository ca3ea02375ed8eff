package people

import (
	"errors"
	"slices"
	"testing"

	"washboard/internal/domain"
)

// orgFixture: Ana owns accounts a and b, Ben is an admin of a, Cy owns c,
// Eve owns d; each account has a name.
func orgFixture(t *testing.T) (fixture, map[string]domain.Member) {
	t.Helper()
	f := newFixture(t)
	ctx := t.Context()
	for _, a := range []string{"a", "b", "c", "d"} {
		if _, err := f.store.ReplaceLayout(ctx, domain.Layout{Account: domain.Account{ID: a, Name: "Client " + a}}); err != nil {
			t.Fatal(err)
		}
	}
	cred := func(a string) domain.Credentials {
		return domain.Credentials{APIKey: "key-of-" + a + "-1234567890", Authorization: "Bearer secret-" + a}
	}
	who := map[string]domain.Member{}
	for _, s := range []struct{ name, account string }{{"Ana", "a"}, {"Ben", "a"}, {"Cy", "c"}, {"Eve", "d"}} {
		p, m, err := f.svc.SignInWithCredentials(ctx, CredentialsSignIn{Account: s.account, Cred: cred(s.account), Name: s.name,
			Email: s.name + "@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		who[s.name] = domain.Member{Membership: m, Name: p.Name}
	}
	p, m, err := f.svc.SignInWithCredentials(ctx, CredentialsSignIn{Account: "b", Cred: cred("b"), PersonID: who["Ana"].PersonID})
	if err != nil || m.Role != domain.Owner {
		t.Fatalf("Ana connecting b: %v, %v", m, err)
	}
	who["Ana in b"] = domain.Member{Membership: m, Name: p.Name}
	return f, who
}

func accountIDs(as []AccountOf) []string {
	var ids []string
	for _, a := range as {
		ids = append(ids, a.Account+":"+a.Role.String())
	}
	return ids
}

// An owner makes an organisation of their account and brings their other
// account in; a person given a role in it reaches its accounts, the
// higher of their own role and the organisation's, and nothing of
// another organisation.
func TestOrganisationGivesItsAccounts(t *testing.T) {
	t.Parallel()
	f, who := orgFixture(t)
	ctx := t.Context()
	if _, err := f.svc.CreateOrganisation(ctx, who["Ben"], "Shine"); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("an admin of a making an organisation of it: %v; want forbidden", err)
	}
	if _, err := f.svc.CreateOrganisation(ctx, who["Ana"], " "); err == nil || err.Error() != "Enter a name for the organisation." {
		t.Errorf("an organisation without a name: %v", err)
	}
	if _, err := f.svc.CreateOrganisation(ctx, who["Ana"], "Shine Services"); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.AddAccount(ctx, who["Ana in b"]); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.AddAccount(ctx, who["Ben"]); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Ben, of no organisation, adding a: %v; want not found", err)
	}
	if _, err := f.svc.CreateOrganisation(ctx, who["Eve"], "Sparkle"); err != nil {
		t.Fatal(err)
	}

	// Cy, owner of c, becomes a viewer of b alone; Ben a viewer of all.
	if _, err := f.svc.PutOrganisationPerson(ctx, who["Ana"].PersonID, "cy@example.com", domain.Viewer, []string{"b"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.PutOrganisationPerson(ctx, who["Ana"].PersonID, "ben@example.com", domain.Viewer, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		person string
		want   []string
	}{
		{"Cy", []string{"b:viewer", "c:owner"}},
		{"Ben", []string{"a:admin", "b:viewer"}}, // his own role in a is higher
		{"Eve", []string{"d:owner"}},
	} {
		got, err := f.svc.AccountsOf(ctx, who[c.person].PersonID)
		if err != nil || !slices.Equal(accountIDs(got), c.want) {
			t.Errorf("%s's accounts: %v, %v; want %v", c.person, accountIDs(got), err, c.want)
		}
	}
	if m, err := f.svc.Member(ctx, "b", who["Cy"].PersonID); err != nil || m.Role != domain.Viewer || m.Name != "Cy" {
		t.Errorf("Cy in b: %+v, %v; want a viewer", m, err)
	}
	for _, c := range []struct{ account, person string }{{"a", "Cy"}, {"d", "Ana"}, {"a", "Eve"}, {"b", "Eve"}} {
		if _, err := f.svc.Member(ctx, c.account, who[c.person].PersonID); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("%s in %s: %v; want not found", c.person, c.account, err)
		}
	}
	p, err := f.svc.PortfolioOf(ctx, who["Cy"].PersonID)
	if err != nil || p.Organisation.Name != "Shine Services" || len(p.Accounts) != 1 || p.Accounts[0].Account != "b" || p.Hidden != 1 {
		t.Errorf("Cy's portfolio: %+v, %v; want b alone, one hidden", p, err)
	}
	if p, err := f.svc.PortfolioOf(ctx, who["Eve"].PersonID); err != nil || len(p.Accounts) != 1 || p.Accounts[0].Account != "d" {
		t.Errorf("Eve's portfolio: %+v, %v; want d alone", p, err)
	}
	if _, err := f.svc.PortfolioOf(ctx, "nobody"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the portfolio of a person of no organisation: %v; want not found", err)
	}

	// An organisation's role lowered ends the person's sessions in its
	// accounts; an admin of the organisation does not make owners, nor
	// reach past their accounts; a viewer changes nothing.
	if _, err := f.svc.PutOrganisationPerson(ctx, who["Ana"].PersonID, "ben@example.com", domain.Admin, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		why   string
		actor string
		email string
		role  domain.Role
		accts []string
	}{
		{"an admin making an owner", "Ben", "cy@example.com", domain.Owner, nil},
		{"an admin of a giving b", "Ben", "cy@example.com", domain.Viewer, []string{"b"}},
		{"an admin of a changing the owner", "Ben", "ana@example.com", domain.Viewer, []string{"a"}},
		{"a viewer adding someone", "Cy", "eve@example.com", domain.Viewer, nil},
		{"Eve adding Ben to her organisation", "Eve", "ben@example.com", domain.Viewer, nil},
	} {
		if _, err := f.svc.PutOrganisationPerson(ctx, who[c.actor].PersonID, c.email, c.role, c.accts); err == nil {
			t.Errorf("%s: allowed", c.why)
		}
	}
	if err := f.svc.LabelAccount(ctx, who["Eve"].PersonID, "a", "Stolen", ""); err == nil {
		t.Errorf("Eve labelling another organisation's account: allowed")
	}
	if err := f.svc.LabelAccount(ctx, who["Ana"].PersonID, "a", "Head office", "North"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RemoveOrganisationPerson(ctx, who["Ana"].PersonID, who["Ana"].PersonID); !errors.Is(err, domain.ErrLastOrganisationOwner) {
		t.Errorf("the last owner leaving: %v", err)
	}
	if _, err := f.svc.RemoveOrganisationPerson(ctx, who["Cy"].PersonID, who["Cy"].PersonID); err != nil {
		t.Errorf("Cy leaving: %v", err)
	}
	if got, _ := f.svc.AccountsOf(ctx, who["Cy"].PersonID); !slices.Equal(accountIDs(got), []string{"c:owner"}) {
		t.Errorf("Cy's accounts once he left: %v", accountIDs(got))
	}
}

// The effective membership is the higher role: the organisation's covers
// every building, a higher role of one's own keeps its buildings.
func TestEffectiveMembership(t *testing.T) {
	t.Parallel()
	own := domain.Membership{PersonID: "p", Account: "a", Role: domain.Staff, Buildings: []string{"b1"}}
	for _, c := range []struct {
		org       domain.OrganisationMember
		role      domain.Role
		buildings int
	}{
		{domain.OrganisationMember{PersonID: "p", Role: domain.Supervisor}, domain.Supervisor, 0},
		{domain.OrganisationMember{PersonID: "p", Role: domain.Viewer}, domain.Staff, 1},
		{domain.OrganisationMember{PersonID: "p", Role: domain.Admin, Accounts: []string{"other"}}, domain.Staff, 1},
		{domain.OrganisationMember{}, domain.Staff, 1},
	} {
		if m := Effective(own, c.org, "a"); m.Role != c.role || len(m.Buildings) != c.buildings || m.Account != "a" {
			t.Errorf("Effective(staff in b1, %s of %v) = %+v; want %s over %d buildings", c.org.Role, c.org.Accounts, m, c.role, c.buildings)
		}
	}
	if m := Effective(domain.Membership{}, domain.OrganisationMember{PersonID: "p", Role: domain.Viewer}, "a"); m.Role != domain.Viewer || m.Account != "a" || m.PersonID != "p" {
		t.Errorf("Effective(none, viewer) = %+v", m)
	}
}
