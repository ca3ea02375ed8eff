package people

import "washboard/internal/domain"

// Selection is the accounts of a portfolio that a page of several
// accounts covers (the shift report or the trends of a portfolio), and
// those it leaves out.
type Selection struct {
	// Accounts are those of the filter where the person's role reaches
	// the page's least role, in the portfolio's order (by client name).
	Accounts []PortfolioAccount
	// BelowRole counts the accounts of the filter where their role is
	// below it.
	BelowRole int
	// Hidden counts the accounts of the organisation they have no role in
	// (Portfolio.Hidden), which no filter names.
	Hidden int
}

// Select keeps the accounts of the portfolio of this client and region
// ("" for any) where the person's effective role is least or above.
func (p Portfolio) Select(client, region string, least domain.Role) Selection {
	sel := Selection{Hidden: p.Hidden}
	for _, a := range p.Accounts {
		if (client != "" && a.ClientName() != client) || (region != "" && a.Region != region) {
			continue
		}
		if a.Membership.Role < least {
			sel.BelowRole++
			continue
		}
		sel.Accounts = append(sel.Accounts, a)
	}
	return sel
}
