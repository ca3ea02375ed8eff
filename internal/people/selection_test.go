package people

import (
	"testing"

	"washboard/internal/domain"
)

// A page of several accounts covers those of the filter where the
// person's role reaches its least role, and counts the others.
func TestSelectKeepsTheFilterAndTheRole(t *testing.T) {
	t.Parallel()
	account := func(id, client, region string, role domain.Role) PortfolioAccount {
		return PortfolioAccount{OrganisationAccount: domain.OrganisationAccount{Account: id, Name: id, Client: client, Region: region},
			Membership: domain.Membership{Account: id, Role: role}}
	}
	p := Portfolio{Hidden: 2, Accounts: []PortfolioAccount{
		account("a", "Airport", "North", domain.Viewer),
		account("b", "", "North", domain.Supervisor),
		account("c", "Clinic", "South", domain.Admin),
	}}
	for _, tc := range []struct {
		client, region string
		least          domain.Role
		want           string
		below          int
	}{
		{"", "", domain.Viewer, "abc", 0},
		{"", "North", domain.Viewer, "ab", 0},
		{"", "", domain.Supervisor, "bc", 1},
		{"b", "", domain.Viewer, "b", 0}, // a client named by its account's name
		{"Clinic", "North", domain.Viewer, "", 0},
		{"", "North", domain.Admin, "", 2},
	} {
		sel := p.Select(tc.client, tc.region, tc.least)
		got := ""
		for _, a := range sel.Accounts {
			got += a.Account
		}
		if got != tc.want || sel.BelowRole != tc.below || sel.Hidden != 2 {
			t.Errorf("Select(%q, %q, %s) = %q, %d below, %d hidden; want %q, %d, 2", tc.client, tc.region, tc.least, got, sel.BelowRole, sel.Hidden, tc.want, tc.below)
		}
	}
}
